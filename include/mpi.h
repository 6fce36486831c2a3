/* mpisim's MPI interface for online simulation (docs/online.md). Applications compiled against it with
 * `mpisim cc` / `mpisim cxx` run as simulated ranks under `mpisim run`.
 *
 * Handles are plain integers (as MPICH's): predefined ones are constants, so they are usable in static initializers
 * and identical in every rank's private copy of the program. Every MPI_ function is a weak alias of its PMPI_ twin
 * (profiling interface). */
#ifndef MPISIM_MPI_H
#define MPISIM_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define MPISIM 1

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Group;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  long long mpisim_bytes; /* private: bytes received */
  int mpisim_cancelled;   /* private */
} MPI_Status;

/* Communicators */
#define MPI_COMM_NULL 0
#define MPI_COMM_WORLD 1
#define MPI_COMM_SELF 2

/* Datatypes: the values index the runtime's table (src/online/Handles.cpp). */
#define MPI_DATATYPE_NULL 0
#define MPI_CHAR 1
#define MPI_SIGNED_CHAR 2
#define MPI_UNSIGNED_CHAR 3
#define MPI_BYTE 4
#define MPI_SHORT 5
#define MPI_UNSIGNED_SHORT 6
#define MPI_INT 7
#define MPI_UNSIGNED 8
#define MPI_LONG 9
#define MPI_UNSIGNED_LONG 10
#define MPI_LONG_LONG_INT 11
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG 12
#define MPI_FLOAT 13
#define MPI_DOUBLE 14
#define MPI_LONG_DOUBLE 15
#define MPI_INT8_T 16
#define MPI_INT16_T 17
#define MPI_INT32_T 18
#define MPI_INT64_T 19
#define MPI_UINT8_T 20
#define MPI_UINT16_T 21
#define MPI_UINT32_T 22
#define MPI_UINT64_T 23
#define MPI_C_BOOL 24
#define MPI_WCHAR 25
#define MPI_C_FLOAT_COMPLEX 26
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX 27
#define MPI_AINT 28
#define MPI_OFFSET 29
#define MPI_COUNT 30
#define MPI_FLOAT_INT 31
#define MPI_DOUBLE_INT 32
#define MPI_LONG_INT 33
#define MPI_2INT 34
#define MPI_SHORT_INT 35
#define MPI_LONG_DOUBLE_INT 36
#define MPI_PACKED 37

/* Reduction operations */
#define MPI_OP_NULL 0
#define MPI_MAX 1
#define MPI_MIN 2
#define MPI_SUM 3
#define MPI_PROD 4
#define MPI_LAND 5
#define MPI_LOR 6
#define MPI_LXOR 7
#define MPI_BAND 8
#define MPI_BOR 9
#define MPI_BXOR 10
#define MPI_MAXLOC 11
#define MPI_MINLOC 12
#define MPI_REPLACE 13
#define MPI_NO_OP 14

#define MPI_REQUEST_NULL 0
#define MPI_GROUP_NULL 0
#define MPI_GROUP_EMPTY 1
#define MPI_INFO_NULL 0
#define MPI_ERRHANDLER_NULL 0
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN 2

#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 2147483647

#define MPI_IN_PLACE ((void*)1)
#define MPI_BOTTOM ((void*)0)
#define MPI_STATUS_IGNORE ((MPI_Status*)0)
#define MPI_STATUSES_IGNORE ((MPI_Status*)0)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256
#define MPI_MAX_OBJECT_NAME 128

#define MPI_ORDER_C 0
#define MPI_ORDER_FORTRAN 1

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Error classes (MPI-3.1 section 8.4) */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_LASTCODE 100

typedef void(MPI_User_function)(void* in, void* inout, int* len, MPI_Datatype* type);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm* comm, int* code, ...);

/* Declares MPI_name and PMPI_name with the same signature. */
#define MPISIM_DECLARE(ret, name, params) ret MPI_##name params; ret PMPI_##name params;

/* Environment */
MPISIM_DECLARE(int, Init, (int* argc, char*** argv))
MPISIM_DECLARE(int, Init_thread, (int* argc, char*** argv, int required, int* provided))
MPISIM_DECLARE(int, Initialized, (int* flag))
MPISIM_DECLARE(int, Finalize, (void))
MPISIM_DECLARE(int, Finalized, (int* flag))
MPISIM_DECLARE(int, Abort, (MPI_Comm comm, int errorcode))
MPISIM_DECLARE(double, Wtime, (void))
MPISIM_DECLARE(double, Wtick, (void))
MPISIM_DECLARE(int, Get_processor_name, (char* name, int* resultlen))
MPISIM_DECLARE(int, Get_version, (int* version, int* subversion))
MPISIM_DECLARE(int, Error_class, (int errorcode, int* errorclass))
MPISIM_DECLARE(int, Error_string, (int errorcode, char* string, int* resultlen))
MPISIM_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
MPISIM_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler* errhandler))

/* Communicators */
MPISIM_DECLARE(int, Comm_size, (MPI_Comm comm, int* size))
MPISIM_DECLARE(int, Comm_rank, (MPI_Comm comm, int* rank))
MPISIM_DECLARE(int, Comm_dup, (MPI_Comm comm, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_free, (MPI_Comm * comm))
MPISIM_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int* result))

/* Point-to-point */
MPISIM_DECLARE(int, Send, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Ssend, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Rsend, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Recv,
               (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status))
MPISIM_DECLARE(int, Isend,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Irecv,
               (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Sendrecv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status))
MPISIM_DECLARE(int, Sendrecv_replace,
               (void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                MPI_Status* status))
MPISIM_DECLARE(int, Wait, (MPI_Request * request, MPI_Status* status))
MPISIM_DECLARE(int, Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]))
MPISIM_DECLARE(int, Waitany, (int count, MPI_Request requests[], int* index, MPI_Status* status))
MPISIM_DECLARE(int, Test, (MPI_Request * request, int* flag, MPI_Status* status))
MPISIM_DECLARE(int, Testall, (int count, MPI_Request requests[], int* flag, MPI_Status statuses[]))
MPISIM_DECLARE(int, Request_free, (MPI_Request * request))
MPISIM_DECLARE(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status* status))
MPISIM_DECLARE(int, Iprobe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status))
MPISIM_DECLARE(int, Get_count, (const MPI_Status* status, MPI_Datatype type, int* count))

/* Point-to-point: send modes, buffered mode, persistent requests, cancellation, matched probes, statuses, the other
 * completion calls */
typedef int MPI_Message;
#define MPI_MESSAGE_NULL 0
#define MPI_MESSAGE_NO_PROC (-1)
#define MPI_BSEND_OVERHEAD 128 /* room each buffered message takes in the attached buffer beyond its data */
MPISIM_DECLARE(int, Issend,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Irsend,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ibsend,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Bsend, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Buffer_attach, (void* buffer, int size))
MPISIM_DECLARE(int, Buffer_detach, (void* buffer_addr, int* size))
MPISIM_DECLARE(int, Send_init,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ssend_init,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Rsend_init,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Bsend_init,
               (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Recv_init,
               (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Start, (MPI_Request * request))
MPISIM_DECLARE(int, Startall, (int count, MPI_Request requests[]))
MPISIM_DECLARE(int, Cancel, (MPI_Request * request))
MPISIM_DECLARE(int, Test_cancelled, (const MPI_Status* status, int* flag))
MPISIM_DECLARE(int, Status_set_cancelled, (MPI_Status * status, int flag))
MPISIM_DECLARE(int, Status_set_elements, (MPI_Status * status, MPI_Datatype type, int count))
MPISIM_DECLARE(int, Status_set_elements_x, (MPI_Status * status, MPI_Datatype type, MPI_Count count))
MPISIM_DECLARE(int, Get_elements, (const MPI_Status* status, MPI_Datatype type, int* count))
MPISIM_DECLARE(int, Get_elements_x, (const MPI_Status* status, MPI_Datatype type, MPI_Count* count))
MPISIM_DECLARE(int, Request_get_status, (MPI_Request request, int* flag, MPI_Status* status))
MPISIM_DECLARE(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status))
MPISIM_DECLARE(int, Improbe,
               (int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status))
MPISIM_DECLARE(int, Mrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status))
MPISIM_DECLARE(int, Imrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request))
MPISIM_DECLARE(int, Waitsome,
               (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]))
MPISIM_DECLARE(int, Testany, (int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status))
MPISIM_DECLARE(int, Testsome,
               (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]))

/* Collectives */
MPISIM_DECLARE(int, Barrier, (MPI_Comm comm))
MPISIM_DECLARE(int, Bcast, (void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Reduce,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Allreduce,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
MPISIM_DECLARE(int, Gather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Gatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Scatter,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Scatterv,
               (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Allgather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Allgatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Alltoall,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Alltoallv,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Reduce_scatter,
               (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                MPI_Comm comm))
MPISIM_DECLARE(int, Reduce_scatter_block,
               (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
MPISIM_DECLARE(int, Scan,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
MPISIM_DECLARE(int, Exscan,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm))

/* Non-blocking collectives */
MPISIM_DECLARE(int, Ibarrier, (MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ibcast, (void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ireduce,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Iallreduce,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Igather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Iscatter,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Iallgather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ialltoall,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Iscan,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Iexscan,
               (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Igatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Iscatterv,
               (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Iallgatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ialltoallv,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Ireduce_scatter,
               (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ireduce_scatter_block,
               (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))

/* Datatypes */
MPISIM_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_vector,
               (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_indexed,
               (int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_struct,
               (int count, const int blocklengths[], const MPI_Aint displacements[], const MPI_Datatype types[],
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_hvector,
               (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_hindexed,
               (int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_indexed_block,
               (int count, int blocklength, const int displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_subarray,
               (int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_get_true_extent, (MPI_Datatype type, MPI_Aint* true_lb, MPI_Aint* true_extent))
MPISIM_DECLARE(int, Type_commit, (MPI_Datatype * type))
MPISIM_DECLARE(int, Type_free, (MPI_Datatype * type))
MPISIM_DECLARE(int, Type_size, (MPI_Datatype type, int* size))
MPISIM_DECLARE(int, Type_get_extent, (MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent))

/* Operations */
MPISIM_DECLARE(int, Op_create, (MPI_User_function * function, int commute, MPI_Op* op))
MPISIM_DECLARE(int, Op_free, (MPI_Op * op))

#undef MPISIM_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_MPI_H */
