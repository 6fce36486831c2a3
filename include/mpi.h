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

/* Datatypes: the values index the runtime's table (src/online/runtime/Runtime.cpp). */
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
#define MPI_C_LONG_DOUBLE_COMPLEX 38
#define MPI_CXX_BOOL 39
#define MPI_CXX_FLOAT_COMPLEX 40
#define MPI_CXX_DOUBLE_COMPLEX 41
#define MPI_CXX_LONG_DOUBLE_COMPLEX 42
/* The Fortran types, for C programs that exchange Fortran data (MPI-3.1 section 17.2.5). Each has the representation
 * of its gfortran counterpart: MPI_INTEGER and MPI_LOGICAL an int, MPI_REAL a float, MPI_DOUBLE_PRECISION a double,
 * MPI_REAL16 a long double (as MPICH and SMPI on x86-64), MPI_INTEGER16 a __int128; MPI_2INTEGER, MPI_2REAL and
 * MPI_2DOUBLE_PRECISION hold two values of the type (the MAXLOC/MINLOC pairs). No C type has 2-byte reals: MPI_REAL2
 * and MPI_COMPLEX4 are MPI_DATATYPE_NULL, as the standard allows for optional types. */
#define MPI_CHARACTER 43
#define MPI_LOGICAL 44
#define MPI_INTEGER 45
#define MPI_REAL 46
#define MPI_DOUBLE_PRECISION 47
#define MPI_COMPLEX 48
#define MPI_DOUBLE_COMPLEX 49
#define MPI_2INTEGER 50
#define MPI_2REAL 51
#define MPI_2DOUBLE_PRECISION 52
#define MPI_INTEGER1 53
#define MPI_INTEGER2 54
#define MPI_INTEGER4 55
#define MPI_INTEGER8 56
#define MPI_INTEGER16 57
#define MPI_REAL4 58
#define MPI_REAL8 59
#define MPI_REAL16 60
#define MPI_COMPLEX8 61
#define MPI_COMPLEX16 62
#define MPI_COMPLEX32 63
#define MPI_REAL2 MPI_DATATYPE_NULL
#define MPI_COMPLEX4 MPI_DATATYPE_NULL
/* MPI-1's bound markers, removed in MPI-3.0 and still provided by MPICH, Open MPI and SMPI: in MPI_Type_struct (or
 * MPI_Type_create_struct), the lowest MPI_LB sets the lower bound and the highest MPI_UB the upper bound, and they
 * stay in force in every type built from that one. */
#define MPI_LB 64
#define MPI_UB 65

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
#define MPI_MAX_PORT_NAME 1024

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

/* Error classes: every class of MPI-3.1 (section 8.4, table 8.1), in one block. Classes and codes added by
 * MPI_Add_error_class/code are above MPI_ERR_LASTCODE. */
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
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_BASE 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_SPAWN 26
#define MPI_ERR_PORT 27
#define MPI_ERR_SERVICE 28
#define MPI_ERR_NAME 29
#define MPI_ERR_WIN 30
#define MPI_ERR_SIZE 31
#define MPI_ERR_DISP 32
#define MPI_ERR_INFO 33
#define MPI_ERR_LOCKTYPE 34
#define MPI_ERR_ASSERT 35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC 37
#define MPI_ERR_RMA_RANGE 38
#define MPI_ERR_RMA_ATTACH 39
#define MPI_ERR_RMA_SHARED 40
#define MPI_ERR_RMA_FLAVOR 41
#define MPI_ERR_FILE 42
#define MPI_ERR_NOT_SAME 43
#define MPI_ERR_AMODE 44
#define MPI_ERR_UNSUPPORTED_DATAREP 45
#define MPI_ERR_UNSUPPORTED_OPERATION 46
#define MPI_ERR_NO_SUCH_FILE 47
#define MPI_ERR_FILE_EXISTS 48
#define MPI_ERR_BAD_FILE 49
#define MPI_ERR_ACCESS 50
#define MPI_ERR_NO_SPACE 51
#define MPI_ERR_QUOTA 52
#define MPI_ERR_READ_ONLY 53
#define MPI_ERR_FILE_IN_USE 54
#define MPI_ERR_DUP_DATAREP 55
#define MPI_ERR_CONVERSION 56
#define MPI_ERR_IO 57
/* The tool information interface's classes (MPI-3.1 section 14.3.9), after ULFM's (include/mpi-ext.h) */
#define MPI_T_ERR_MEMORY 61
#define MPI_T_ERR_NOT_INITIALIZED 62
#define MPI_T_ERR_CANNOT_INIT 63
#define MPI_T_ERR_INVALID_INDEX 64
#define MPI_T_ERR_INVALID_ITEM 65
#define MPI_T_ERR_INVALID_HANDLE 66
#define MPI_T_ERR_OUT_OF_HANDLES 67
#define MPI_T_ERR_OUT_OF_SESSIONS 68
#define MPI_T_ERR_INVALID_SESSION 69
#define MPI_T_ERR_CVAR_SET_NOT_NOW 70
#define MPI_T_ERR_CVAR_SET_NEVER 71
#define MPI_T_ERR_PVAR_NO_STARTSTOP 72
#define MPI_T_ERR_PVAR_NO_WRITE 73
#define MPI_T_ERR_PVAR_NO_ATOMIC 74
#define MPI_T_ERR_INVALID_NAME 75
#define MPI_T_ERR_INVALID 76
#define MPI_ERR_LASTCODE 100

/* Packing, datatype inquiries, info objects, error handlers and strings, environment (constants) */
#define MPI_INFO_ENV 1
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 256

#define MPI_COMBINER_NAMED 0
#define MPI_COMBINER_DUP 1
#define MPI_COMBINER_CONTIGUOUS 2
#define MPI_COMBINER_VECTOR 3
#define MPI_COMBINER_HVECTOR 4
#define MPI_COMBINER_INDEXED 5
#define MPI_COMBINER_HINDEXED 6
#define MPI_COMBINER_INDEXED_BLOCK 7
#define MPI_COMBINER_HINDEXED_BLOCK 8
#define MPI_COMBINER_STRUCT 9
#define MPI_COMBINER_SUBARRAY 10
#define MPI_COMBINER_DARRAY 11
#define MPI_COMBINER_F90_REAL 12
#define MPI_COMBINER_F90_COMPLEX 13
#define MPI_COMBINER_F90_INTEGER 14
#define MPI_COMBINER_RESIZED 15

#define MPI_TYPECLASS_INTEGER 1
#define MPI_TYPECLASS_REAL 2
#define MPI_TYPECLASS_COMPLEX 3

#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

typedef void(MPI_User_function)(void* in, void* inout, int* len, MPI_Datatype* type);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm* comm, int* code, ...);

/* Declares MPI_name and PMPI_name with the same signature. */
#define MPISIM_DECLARE(ret, name, params)                                                                              \
  ret MPI_##name params;                                                                                               \
  ret PMPI_##name params;

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
MPISIM_DECLARE(int, Improbe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status))
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
MPISIM_DECLARE(int, Scan, (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
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
               (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Ireduce_scatter_block,
               (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request))

/* Datatypes */
MPISIM_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype))
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
               (int ndims, const int sizes[], const int subsizes[], const int starts[], int order, MPI_Datatype oldtype,
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_get_true_extent, (MPI_Datatype type, MPI_Aint* true_lb, MPI_Aint* true_extent))
MPISIM_DECLARE(int, Type_commit, (MPI_Datatype * type))
MPISIM_DECLARE(int, Type_free, (MPI_Datatype * type))
MPISIM_DECLARE(int, Type_size, (MPI_Datatype type, int* size))
MPISIM_DECLARE(int, Type_get_extent, (MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent))

/* Operations */
MPISIM_DECLARE(int, Op_create, (MPI_User_function * function, int commute, MPI_Op* op))
MPISIM_DECLARE(int, Op_free, (MPI_Op * op))

/* Packing and datatype inquiries */
MPISIM_DECLARE(int, Pack,
               (const void* inbuf, int incount, MPI_Datatype type, void* outbuf, int outsize, int* position,
                MPI_Comm comm))
MPISIM_DECLARE(int, Unpack,
               (const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype type,
                MPI_Comm comm))
MPISIM_DECLARE(int, Pack_size, (int incount, MPI_Datatype type, MPI_Comm comm, int* size))
MPISIM_DECLARE(int, Pack_external,
               (const char datarep[], const void* inbuf, int incount, MPI_Datatype type, void* outbuf, MPI_Aint outsize,
                MPI_Aint* position))
MPISIM_DECLARE(int, Unpack_external,
               (const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                int outcount, MPI_Datatype type))
MPISIM_DECLARE(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype type, MPI_Aint* size))
MPISIM_DECLARE(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_set_name, (MPI_Datatype type, const char* name))
MPISIM_DECLARE(int, Type_get_name, (MPI_Datatype type, char* name, int* resultlen))
MPISIM_DECLARE(int, Type_create_hindexed_block,
               (int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_darray,
               (int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_get_envelope,
               (MPI_Datatype type, int* num_integers, int* num_addresses, int* num_datatypes, int* combiner))
MPISIM_DECLARE(int, Type_get_contents,
               (MPI_Datatype type, int max_integers, int max_addresses, int max_datatypes, int integers[],
                MPI_Aint addresses[], MPI_Datatype datatypes[]))
MPISIM_DECLARE(int, Type_size_x, (MPI_Datatype type, MPI_Count* size))
MPISIM_DECLARE(int, Type_get_extent_x, (MPI_Datatype type, MPI_Count* lb, MPI_Count* extent))
MPISIM_DECLARE(int, Type_get_true_extent_x, (MPI_Datatype type, MPI_Count* true_lb, MPI_Count* true_extent))
MPISIM_DECLARE(int, Type_match_size, (int typeclass, int size, MPI_Datatype* type))
MPISIM_DECLARE(int, Type_create_f90_real, (int p, int r, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_f90_complex, (int p, int r, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_create_f90_integer, (int r, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Get_address, (const void* location, MPI_Aint* address))
MPISIM_DECLARE(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
MPISIM_DECLARE(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
MPISIM_DECLARE(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void* baseptr))
MPISIM_DECLARE(int, Free_mem, (void* base))

/* Alltoallw, local reductions */
MPISIM_DECLARE(int, Alltoallw,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm))
MPISIM_DECLARE(int, Ialltoallw,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Reduce_local, (const void* inbuf, void* inoutbuf, int count, MPI_Datatype type, MPI_Op op))
MPISIM_DECLARE(int, Op_commutative, (MPI_Op op, int* commute))

/* Info objects */
MPISIM_DECLARE(int, Info_create, (MPI_Info * info))
MPISIM_DECLARE(int, Info_set, (MPI_Info info, const char* key, const char* value))
MPISIM_DECLARE(int, Info_get, (MPI_Info info, const char* key, int valuelen, char* value, int* flag))
MPISIM_DECLARE(int, Info_get_valuelen, (MPI_Info info, const char* key, int* valuelen, int* flag))
MPISIM_DECLARE(int, Info_get_nkeys, (MPI_Info info, int* nkeys))
MPISIM_DECLARE(int, Info_get_nthkey, (MPI_Info info, int n, char* key))
MPISIM_DECLARE(int, Info_delete, (MPI_Info info, const char* key))
MPISIM_DECLARE(int, Info_dup, (MPI_Info info, MPI_Info* newinfo))
MPISIM_DECLARE(int, Info_free, (MPI_Info * info))
MPISIM_DECLARE(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
MPISIM_DECLARE(int, Comm_get_info, (MPI_Comm comm, MPI_Info* info_used))
MPISIM_DECLARE(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm))

/* Generalized requests: operations the application carries out itself, complete when it calls
 * MPI_Grequest_complete. */
typedef int(MPI_Grequest_query_function)(void* extra_state, MPI_Status* status);
typedef int(MPI_Grequest_free_function)(void* extra_state);
typedef int(MPI_Grequest_cancel_function)(void* extra_state, int complete);
MPISIM_DECLARE(int, Grequest_start,
               (MPI_Grequest_query_function * query_fn, MPI_Grequest_free_function* free_fn,
                MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request))
MPISIM_DECLARE(int, Grequest_complete, (MPI_Request request))

/* Error handlers, classes, codes and strings */
MPISIM_DECLARE(int, Comm_create_errhandler, (MPI_Comm_errhandler_function * function, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, Errhandler_free, (MPI_Errhandler * errhandler))
MPISIM_DECLARE(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
MPISIM_DECLARE(int, Add_error_class, (int* errorclass))
MPISIM_DECLARE(int, Add_error_code, (int errorclass, int* errorcode))
MPISIM_DECLARE(int, Add_error_string, (int errorcode, const char* string))

/* Environment inquiries */
MPISIM_DECLARE(int, Get_library_version, (char* version, int* resultlen))
MPISIM_DECLARE(int, Query_thread, (int* provided))
MPISIM_DECLARE(int, Is_thread_main, (int* flag))
MPISIM_DECLARE(int, Pcontrol, (const int level, ...))

/* Groups, communicator creation and naming, attributes, topologies (src/online/bindings/api_groups.cpp,
 * api_communicator_creation.cpp, api_attributes.cpp, api_topologies.cpp) ------------------------------------------ */

/* Communicator kinds for MPI_Comm_split_type: ranks on the same simulated host. */
#define MPI_COMM_TYPE_SHARED 1

/* Topologies (MPI_Topo_test) and distributed graph weights. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
#define MPI_UNWEIGHTED ((int*)2)
#define MPI_WEIGHTS_EMPTY ((int*)3)

/* Attribute keys. Predefined ones are read-only and attached to every communicator; their values point to ints. */
#define MPI_KEYVAL_INVALID 0
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7

/* Handles are integers of one type, so one callback type serves communicators and datatypes (and the deprecated
 * MPI_Copy_function / MPI_Delete_function). */
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm oldcomm, int keyval, void* extra_state, void* attribute_val_in,
                                         void* attribute_val_out, int* flag);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm comm, int keyval, void* attribute_val, void* extra_state);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype oldtype, int keyval, void* extra_state, void* attribute_val_in,
                                         void* attribute_val_out, int* flag);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype type, int keyval, void* attribute_val, void* extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;

/* MPI_..._DUP_FN copies the attribute's value (the pointer); the null functions copy nothing and delete nothing. */
int mpisim_attribute_dup_fn(int oldobject, int keyval, void* extra_state, void* attribute_val_in,
                            void* attribute_val_out, int* flag);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function*)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function*)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function*)mpisim_attribute_dup_fn)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function*)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function*)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function*)mpisim_attribute_dup_fn)
#define MPI_NULL_COPY_FN ((MPI_Copy_function*)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function*)0)
#define MPI_DUP_FN ((MPI_Copy_function*)mpisim_attribute_dup_fn)

/* Groups */
MPISIM_DECLARE(int, Comm_group, (MPI_Comm comm, MPI_Group* group))
MPISIM_DECLARE(int, Group_size, (MPI_Group group, int* size))
MPISIM_DECLARE(int, Group_rank, (MPI_Group group, int* rank))
MPISIM_DECLARE(int, Group_translate_ranks,
               (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
MPISIM_DECLARE(int, Group_compare, (MPI_Group group1, MPI_Group group2, int* result))
MPISIM_DECLARE(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup))
MPISIM_DECLARE(int, Group_free, (MPI_Group * group))

/* Communicator creation and naming (no intercommunicators: their calls fail with "not supported by mpisim") */
MPISIM_DECLARE(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_idup, (MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request))
MPISIM_DECLARE(int, Comm_set_name, (MPI_Comm comm, const char* comm_name))
MPISIM_DECLARE(int, Comm_get_name, (MPI_Comm comm, char* comm_name, int* resultlen))
MPISIM_DECLARE(int, Comm_test_inter, (MPI_Comm comm, int* flag))
MPISIM_DECLARE(int, Comm_get_parent, (MPI_Comm * parent))
MPISIM_DECLARE(int, Comm_disconnect, (MPI_Comm * comm))
MPISIM_DECLARE(int, Comm_remote_size, (MPI_Comm comm, int* size))
MPISIM_DECLARE(int, Comm_remote_group, (MPI_Comm comm, MPI_Group* group))
MPISIM_DECLARE(int, Intercomm_create,
               (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                MPI_Comm* newintercomm))
MPISIM_DECLARE(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm* newintracomm))

/* Process management: ports and the name service (api_dynamic_processes.cpp); the calls that would make an
   intercommunicator with other processes are refused (mpisim simulates the ranks `mpisim run -np` starts). */
#define MPI_ARGV_NULL ((char**)0)
#define MPI_ARGVS_NULL ((char***)0)
#define MPI_ERRCODES_IGNORE ((int*)0)
MPISIM_DECLARE(int, Open_port, (MPI_Info info, char* port_name))
MPISIM_DECLARE(int, Close_port, (const char* port_name))
MPISIM_DECLARE(int, Publish_name, (const char* service_name, MPI_Info info, const char* port_name))
MPISIM_DECLARE(int, Unpublish_name, (const char* service_name, MPI_Info info, const char* port_name))
MPISIM_DECLARE(int, Lookup_name, (const char* service_name, MPI_Info info, char* port_name))
MPISIM_DECLARE(int, Comm_accept, (const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_connect, (const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Comm_join, (int fd, MPI_Comm* intercomm))
MPISIM_DECLARE(int, Comm_spawn,
               (const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                MPI_Comm* intercomm, int array_of_errcodes[]))
MPISIM_DECLARE(int, Comm_spawn_multiple,
               (int count, char* array_of_commands[], char** array_of_argv[], const int array_of_maxprocs[],
                const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm* intercomm, int array_of_errcodes[]))

/* Attributes */
MPISIM_DECLARE(int, Comm_create_keyval,
               (MPI_Comm_copy_attr_function * copy_fn, MPI_Comm_delete_attr_function* delete_fn, int* keyval,
                void* extra_state))
MPISIM_DECLARE(int, Comm_free_keyval, (int* keyval))
MPISIM_DECLARE(int, Comm_set_attr, (MPI_Comm comm, int keyval, void* attribute_val))
MPISIM_DECLARE(int, Comm_get_attr, (MPI_Comm comm, int keyval, void* attribute_val, int* flag))
MPISIM_DECLARE(int, Comm_delete_attr, (MPI_Comm comm, int keyval))
MPISIM_DECLARE(int, Keyval_create,
               (MPI_Copy_function * copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state))
MPISIM_DECLARE(int, Keyval_free, (int* keyval))
MPISIM_DECLARE(int, Attr_put, (MPI_Comm comm, int keyval, void* attribute_val))
MPISIM_DECLARE(int, Attr_get, (MPI_Comm comm, int keyval, void* attribute_val, int* flag))
MPISIM_DECLARE(int, Attr_delete, (MPI_Comm comm, int keyval))
MPISIM_DECLARE(int, Type_create_keyval,
               (MPI_Type_copy_attr_function * copy_fn, MPI_Type_delete_attr_function* delete_fn, int* keyval,
                void* extra_state))
MPISIM_DECLARE(int, Type_free_keyval, (int* keyval))
MPISIM_DECLARE(int, Type_set_attr, (MPI_Datatype type, int keyval, void* attribute_val))
MPISIM_DECLARE(int, Type_get_attr, (MPI_Datatype type, int keyval, void* attribute_val, int* flag))
MPISIM_DECLARE(int, Type_delete_attr, (MPI_Datatype type, int keyval))

/* Topologies */
MPISIM_DECLARE(int, Dims_create, (int nnodes, int ndims, int dims[]))
MPISIM_DECLARE(int, Cart_create,
               (MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
MPISIM_DECLARE(int, Cart_rank, (MPI_Comm comm, const int coords[], int* rank))
MPISIM_DECLARE(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest))
MPISIM_DECLARE(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm))
MPISIM_DECLARE(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
MPISIM_DECLARE(int, Cartdim_get, (MPI_Comm comm, int* ndims))
MPISIM_DECLARE(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank))
MPISIM_DECLARE(int, Graph_create,
               (MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
MPISIM_DECLARE(int, Graphdims_get, (MPI_Comm comm, int* nnodes, int* nedges))
MPISIM_DECLARE(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int* nneighbors))
MPISIM_DECLARE(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
MPISIM_DECLARE(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank))
MPISIM_DECLARE(int, Topo_test, (MPI_Comm comm, int* status))
MPISIM_DECLARE(int, Dist_graph_create_adjacent,
               (MPI_Comm comm, int indegree, const int sources[], const int sourceweights[], int outdegree,
                const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Dist_graph_create,
               (MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                const int weights[], MPI_Info info, int reorder, MPI_Comm* newcomm))
MPISIM_DECLARE(int, Dist_graph_neighbors_count, (MPI_Comm comm, int* indegree, int* outdegree, int* weighted))
MPISIM_DECLARE(int, Dist_graph_neighbors,
               (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                int destinations[], int destweights[]))
MPISIM_DECLARE(int, Neighbor_allgather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Neighbor_allgatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Neighbor_alltoall,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Neighbor_alltoallv,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
MPISIM_DECLARE(int, Neighbor_alltoallw,
               (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm))
MPISIM_DECLARE(int, Ineighbor_allgather,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ineighbor_allgatherv,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ineighbor_alltoall,
               (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ineighbor_alltoallv,
               (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                MPI_Request* request))
MPISIM_DECLARE(int, Ineighbor_alltoallw,
               (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm, MPI_Request* request))
/* End of groups, communicator creation, attributes, topologies ------------------------------------------------- */

/* One-sided communication (src/online/bindings/api_windows.cpp, api_rma.cpp; docs/online.md): windows (created,
 * allocated, shared, dynamic), every operation and every synchronization of MPI-3.1 chapter 11, and the window's
 * hints (MPI_Win_set_info, MPI_Win_get_info).
 * ------------------------------------------------------------ */
typedef int MPI_Win;
#define MPI_WIN_NULL 0

/* Assertions of the synchronization calls, lock types. */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

/* Predefined window attributes (MPI_Win_get_attr) and their values. */
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* Window handles are integers as communicators are: one callback type serves both. */
typedef MPI_Comm_copy_attr_function MPI_Win_copy_attr_function;
typedef MPI_Comm_delete_attr_function MPI_Win_delete_attr_function;
typedef void(MPI_Win_errhandler_function)(MPI_Win* win, int* code, ...);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function*)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function*)0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function*)mpisim_attribute_dup_fn)

/* Windows, their attributes, names, groups and error handlers */
MPISIM_DECLARE(int, Win_create, (void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win))
MPISIM_DECLARE(int, Win_allocate,
               (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win))
MPISIM_DECLARE(int, Win_free, (MPI_Win * win))
MPISIM_DECLARE(int, Win_get_group, (MPI_Win win, MPI_Group* group))
MPISIM_DECLARE(int, Win_set_name, (MPI_Win win, const char* win_name))
MPISIM_DECLARE(int, Win_get_name, (MPI_Win win, char* win_name, int* resultlen))
MPISIM_DECLARE(int, Win_set_info, (MPI_Win win, MPI_Info info))
MPISIM_DECLARE(int, Win_get_info, (MPI_Win win, MPI_Info* info_used))
MPISIM_DECLARE(int, Win_create_keyval,
               (MPI_Win_copy_attr_function * copy_fn, MPI_Win_delete_attr_function* delete_fn, int* keyval,
                void* extra_state))
MPISIM_DECLARE(int, Win_free_keyval, (int* keyval))
MPISIM_DECLARE(int, Win_set_attr, (MPI_Win win, int keyval, void* attribute_val))
MPISIM_DECLARE(int, Win_get_attr, (MPI_Win win, int keyval, void* attribute_val, int* flag))
MPISIM_DECLARE(int, Win_delete_attr, (MPI_Win win, int keyval))
MPISIM_DECLARE(int, Win_create_errhandler, (MPI_Win_errhandler_function * function, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
MPISIM_DECLARE(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, Win_call_errhandler, (MPI_Win win, int errorcode))

/* Communication and fence synchronization */
MPISIM_DECLARE(int, Put,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
MPISIM_DECLARE(int, Get,
               (void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
MPISIM_DECLARE(int, Accumulate,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
MPISIM_DECLARE(int, Win_fence, (int assert, MPI_Win win))
MPISIM_DECLARE(int, Win_allocate_shared,
               (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win))
MPISIM_DECLARE(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr))
MPISIM_DECLARE(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win* win))
MPISIM_DECLARE(int, Win_attach, (MPI_Win win, void* base, MPI_Aint size))
MPISIM_DECLARE(int, Win_detach, (MPI_Win win, const void* base))
MPISIM_DECLARE(int, Rput,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request* request))
MPISIM_DECLARE(int, Rget,
               (void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request* request))
MPISIM_DECLARE(int, Raccumulate,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                MPI_Request* request))
MPISIM_DECLARE(int, Get_accumulate,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
MPISIM_DECLARE(int, Rget_accumulate,
               (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request))
MPISIM_DECLARE(int, Fetch_and_op,
               (const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                MPI_Aint target_disp, MPI_Op op, MPI_Win win))
MPISIM_DECLARE(int, Compare_and_swap,
               (const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,
                int target_rank, MPI_Aint target_disp, MPI_Win win))
MPISIM_DECLARE(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
MPISIM_DECLARE(int, Win_unlock, (int rank, MPI_Win win))
MPISIM_DECLARE(int, Win_lock_all, (int assert, MPI_Win win))
MPISIM_DECLARE(int, Win_unlock_all, (MPI_Win win))
MPISIM_DECLARE(int, Win_flush, (int rank, MPI_Win win))
MPISIM_DECLARE(int, Win_flush_local, (int rank, MPI_Win win))
MPISIM_DECLARE(int, Win_flush_all, (MPI_Win win))
MPISIM_DECLARE(int, Win_flush_local_all, (MPI_Win win))
MPISIM_DECLARE(int, Win_sync, (MPI_Win win))
MPISIM_DECLARE(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
MPISIM_DECLARE(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
MPISIM_DECLARE(int, Win_complete, (MPI_Win win))
MPISIM_DECLARE(int, Win_wait, (MPI_Win win))
MPISIM_DECLARE(int, Win_test, (MPI_Win win, int* flag))
/* End of one-sided communication ------------------------------------------------------------------------------- */

/* Parallel I/O: MPI-IO (MPI-3.1 chapter 13; src/online/bindings/api_file*.cpp, docs/io.md). Each simulated file is a
 * real file under the run's I/O root (mpisim run --io-root); the time of each access comes from the storage model. */
typedef int MPI_File;
#define MPI_FILE_NULL 0
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)
#define MPI_MAX_DATAREP_STRING 128
typedef void(MPI_File_errhandler_function)(MPI_File* file, int* code, ...);
MPISIM_DECLARE(int, File_open, (MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh))
MPISIM_DECLARE(int, File_close, (MPI_File * fh))
MPISIM_DECLARE(int, File_delete, (const char* filename, MPI_Info info))
MPISIM_DECLARE(int, File_set_size, (MPI_File fh, MPI_Offset size))
MPISIM_DECLARE(int, File_preallocate, (MPI_File fh, MPI_Offset size))
MPISIM_DECLARE(int, File_get_size, (MPI_File fh, MPI_Offset* size))
MPISIM_DECLARE(int, File_get_group, (MPI_File fh, MPI_Group* group))
MPISIM_DECLARE(int, File_get_amode, (MPI_File fh, int* amode))
MPISIM_DECLARE(int, File_set_info, (MPI_File fh, MPI_Info info))
MPISIM_DECLARE(int, File_get_info, (MPI_File fh, MPI_Info* info_used))
MPISIM_DECLARE(int, File_set_view,
               (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                MPI_Info info))
MPISIM_DECLARE(int, File_get_view,
               (MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep))
MPISIM_DECLARE(int, File_read_at,
               (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_read_at_all,
               (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write_at,
               (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write_at_all,
               (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_iread_at,
               (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iwrite_at,
               (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                MPI_Request* request))
MPISIM_DECLARE(int, File_iread_at_all,
               (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iwrite_at_all,
               (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                MPI_Request* request))
MPISIM_DECLARE(int, File_read, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_read_all, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write, (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write_all,
               (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_iread, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iwrite, (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iread_all, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iwrite_all,
               (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence))
MPISIM_DECLARE(int, File_get_position, (MPI_File fh, MPI_Offset* offset))
MPISIM_DECLARE(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset* disp))
MPISIM_DECLARE(int, File_read_shared, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write_shared,
               (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_iread_shared, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_iwrite_shared,
               (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request))
MPISIM_DECLARE(int, File_read_ordered, (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_write_ordered,
               (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status))
MPISIM_DECLARE(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
MPISIM_DECLARE(int, File_get_position_shared, (MPI_File fh, MPI_Offset* offset))
MPISIM_DECLARE(int, File_read_at_all_begin,
               (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_read_at_all_end, (MPI_File fh, void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_write_at_all_begin,
               (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_write_at_all_end, (MPI_File fh, const void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_read_all_begin, (MPI_File fh, void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_read_all_end, (MPI_File fh, void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_write_all_begin, (MPI_File fh, const void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_write_all_end, (MPI_File fh, const void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_read_ordered_begin, (MPI_File fh, void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_read_ordered_end, (MPI_File fh, void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_write_ordered_begin, (MPI_File fh, const void* buf, int count, MPI_Datatype datatype))
MPISIM_DECLARE(int, File_write_ordered_end, (MPI_File fh, const void* buf, MPI_Status* status))
MPISIM_DECLARE(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent))
MPISIM_DECLARE(int, File_set_atomicity, (MPI_File fh, int flag))
MPISIM_DECLARE(int, File_get_atomicity, (MPI_File fh, int* flag))
MPISIM_DECLARE(int, File_sync, (MPI_File fh))
MPISIM_DECLARE(int, File_create_errhandler, (MPI_File_errhandler_function * function, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
MPISIM_DECLARE(int, File_get_errhandler, (MPI_File file, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, File_call_errhandler, (MPI_File fh, int errorcode))
/* End of parallel I/O ------------------------------------------------------------------------------------------ */

/* Language interoperability (src/online/bindings/api_fortran_handles.cpp; MPI-3.1 section 17.2.4): a Fortran handle
 * is the C handle's integer, so MPI_X_f2c and MPI_X_c2f return their argument. A Fortran status is MPI_F_STATUS_SIZE
 * integers: source, tag and error at MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR (MPI-4.0's names), then the received
 * byte count (low and high halves) and the cancelled flag. ------------------------------------------------------ */
typedef int MPI_Fint;
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
#define MPI_F_STATUS_IGNORE ((MPI_Fint*)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint*)0)
MPISIM_DECLARE(MPI_Comm, Comm_f2c, (MPI_Fint comm))
MPISIM_DECLARE(MPI_Fint, Comm_c2f, (MPI_Comm comm))
MPISIM_DECLARE(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
MPISIM_DECLARE(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
MPISIM_DECLARE(MPI_Group, Group_f2c, (MPI_Fint group))
MPISIM_DECLARE(MPI_Fint, Group_c2f, (MPI_Group group))
MPISIM_DECLARE(MPI_Request, Request_f2c, (MPI_Fint request))
MPISIM_DECLARE(MPI_Fint, Request_c2f, (MPI_Request request))
MPISIM_DECLARE(MPI_Op, Op_f2c, (MPI_Fint op))
MPISIM_DECLARE(MPI_Fint, Op_c2f, (MPI_Op op))
MPISIM_DECLARE(MPI_Info, Info_f2c, (MPI_Fint info))
MPISIM_DECLARE(MPI_Fint, Info_c2f, (MPI_Info info))
MPISIM_DECLARE(MPI_Win, Win_f2c, (MPI_Fint win))
MPISIM_DECLARE(MPI_Fint, Win_c2f, (MPI_Win win))
MPISIM_DECLARE(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
MPISIM_DECLARE(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
MPISIM_DECLARE(MPI_Message, Message_f2c, (MPI_Fint message))
MPISIM_DECLARE(MPI_Fint, Message_c2f, (MPI_Message message))
MPISIM_DECLARE(MPI_File, File_f2c, (MPI_Fint file))
MPISIM_DECLARE(MPI_Fint, File_c2f, (MPI_File file))
MPISIM_DECLARE(int, Status_f2c, (const MPI_Fint* f_status, MPI_Status* c_status))
MPISIM_DECLARE(int, Status_c2f, (const MPI_Status* c_status, MPI_Fint* f_status))

/* MPI-1 functions removed in MPI-3.0, which MPICH, Open MPI and SMPI still provide; each is its MPI-2 replacement
 * (src/online/bindings: each next to its replacement, in api_datatypes.cpp, api_memory.cpp, api_errhandlers.cpp and,
 * with MPI_Keyval_create, MPI_Attr_put ..., api_attributes.cpp).
 * MPI_Type_struct and MPI_Type_create_struct honour MPI_LB and MPI_UB. ------------------------------------------ */
typedef MPI_Comm_errhandler_function MPI_Handler_function;
MPISIM_DECLARE(int, Errhandler_create, (MPI_Handler_function * function, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
MPISIM_DECLARE(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler* errhandler))
MPISIM_DECLARE(int, Address, (const void* location, MPI_Aint* address))
MPISIM_DECLARE(int, Type_extent, (MPI_Datatype type, MPI_Aint* extent))
MPISIM_DECLARE(int, Type_lb, (MPI_Datatype type, MPI_Aint* displacement))
MPISIM_DECLARE(int, Type_ub, (MPI_Datatype type, MPI_Aint* displacement))
MPISIM_DECLARE(int, Type_hvector,
               (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_hindexed,
               (int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_struct,
               (int count, const int blocklengths[], const MPI_Aint displacements[], const MPI_Datatype types[],
                MPI_Datatype* newtype))
/* The MPI-1 attribute callbacks as functions (MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN and MPI_DUP_FN name the same
 * behaviour): copy nothing, delete nothing, copy the attribute's value. */
int MPI_Null_copy_fn(MPI_Comm comm, int keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out,
                     int* flag);
int MPI_Null_delete_fn(MPI_Comm comm, int keyval, void* attribute_val, void* extra_state);
int MPI_Dup_fn(MPI_Comm comm, int keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out,
               int* flag);
/* End of language interoperability and MPI-1 functions --------------------------------------------------------- */

/* The tool information interface (MPI-3.1 chapter 14; api_tool_information.cpp, docs/online.md "Tool information
 * interface"): mpisim's run options as control variables, per-rank statistics as performance variables. The
 * functions return their error class and call no error handler; they have no Fortran form. */
typedef int MPI_T_enum;
typedef int MPI_T_cvar_handle;
typedef int MPI_T_pvar_session;
typedef int MPI_T_pvar_handle;
#define MPI_T_ENUM_NULL 0
#define MPI_T_CVAR_HANDLE_NULL 0
#define MPI_T_PVAR_SESSION_NULL 0
#define MPI_T_PVAR_HANDLE_NULL 0
#define MPI_T_PVAR_ALL_HANDLES (-1)
#define MPI_T_VERBOSITY_USER_BASIC 1
#define MPI_T_VERBOSITY_USER_DETAIL 2
#define MPI_T_VERBOSITY_USER_ALL 3
#define MPI_T_VERBOSITY_TUNER_BASIC 4
#define MPI_T_VERBOSITY_TUNER_DETAIL 5
#define MPI_T_VERBOSITY_TUNER_ALL 6
#define MPI_T_VERBOSITY_MPIDEV_BASIC 7
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 8
#define MPI_T_VERBOSITY_MPIDEV_ALL 9
#define MPI_T_BIND_NO_OBJECT 0
#define MPI_T_BIND_MPI_COMM 1
#define MPI_T_BIND_MPI_DATATYPE 2
#define MPI_T_BIND_MPI_ERRHANDLER 3
#define MPI_T_BIND_MPI_FILE 4
#define MPI_T_BIND_MPI_GROUP 5
#define MPI_T_BIND_MPI_OP 6
#define MPI_T_BIND_MPI_REQUEST 7
#define MPI_T_BIND_MPI_WIN 8
#define MPI_T_BIND_MPI_MESSAGE 9
#define MPI_T_BIND_MPI_INFO 10
#define MPI_T_SCOPE_CONSTANT 0
#define MPI_T_SCOPE_READONLY 1
#define MPI_T_SCOPE_LOCAL 2
#define MPI_T_SCOPE_GROUP 3
#define MPI_T_SCOPE_GROUP_EQ 4
#define MPI_T_SCOPE_ALL 5
#define MPI_T_SCOPE_ALL_EQ 6
#define MPI_T_PVAR_CLASS_STATE 0
#define MPI_T_PVAR_CLASS_LEVEL 1
#define MPI_T_PVAR_CLASS_SIZE 2
#define MPI_T_PVAR_CLASS_PERCENTAGE 3
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 4
#define MPI_T_PVAR_CLASS_LOWWATERMARK 5
#define MPI_T_PVAR_CLASS_COUNTER 6
#define MPI_T_PVAR_CLASS_AGGREGATE 7
#define MPI_T_PVAR_CLASS_TIMER 8
#define MPI_T_PVAR_CLASS_GENERIC 9
MPISIM_DECLARE(int, T_init_thread, (int required, int* provided))
MPISIM_DECLARE(int, T_finalize, (void))
MPISIM_DECLARE(int, T_enum_get_info, (MPI_T_enum enumtype, int* num, char* name, int* name_len))
MPISIM_DECLARE(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int* value, char* name, int* name_len))
MPISIM_DECLARE(int, T_cvar_get_num, (int* num_cvar))
MPISIM_DECLARE(int, T_cvar_get_info,
               (int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype, MPI_T_enum* enumtype,
                char* desc, int* desc_len, int* bind, int* scope))
MPISIM_DECLARE(int, T_cvar_get_index, (const char* name, int* cvar_index))
MPISIM_DECLARE(int, T_cvar_handle_alloc, (int cvar_index, void* obj_handle, MPI_T_cvar_handle* handle, int* count))
MPISIM_DECLARE(int, T_cvar_handle_free, (MPI_T_cvar_handle * handle))
MPISIM_DECLARE(int, T_cvar_read, (MPI_T_cvar_handle handle, void* buf))
MPISIM_DECLARE(int, T_cvar_write, (MPI_T_cvar_handle handle, const void* buf))
MPISIM_DECLARE(int, T_pvar_get_num, (int* num_pvar))
MPISIM_DECLARE(int, T_pvar_get_info,
               (int pvar_index, char* name, int* name_len, int* verbosity, int* var_class, MPI_Datatype* datatype,
                MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* readonly, int* continuous,
                int* atomic))
MPISIM_DECLARE(int, T_pvar_get_index, (const char* name, int var_class, int* pvar_index))
MPISIM_DECLARE(int, T_pvar_session_create, (MPI_T_pvar_session * session))
MPISIM_DECLARE(int, T_pvar_session_free, (MPI_T_pvar_session * session))
MPISIM_DECLARE(int, T_pvar_handle_alloc,
               (MPI_T_pvar_session session, int pvar_index, void* obj_handle, MPI_T_pvar_handle* handle, int* count))
MPISIM_DECLARE(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle* handle))
MPISIM_DECLARE(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
MPISIM_DECLARE(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
MPISIM_DECLARE(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf))
MPISIM_DECLARE(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf))
MPISIM_DECLARE(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
MPISIM_DECLARE(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf))
MPISIM_DECLARE(int, T_category_get_num, (int* num_cat))
MPISIM_DECLARE(int, T_category_get_info,
               (int cat_index, char* name, int* name_len, char* desc, int* desc_len, int* num_cvars, int* num_pvars,
                int* num_categories))
MPISIM_DECLARE(int, T_category_get_index, (const char* name, int* cat_index))
MPISIM_DECLARE(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
MPISIM_DECLARE(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
MPISIM_DECLARE(int, T_category_get_categories, (int cat_index, int len, int indices[]))
MPISIM_DECLARE(int, T_category_changed, (int* stamp))

#undef MPISIM_DECLARE

#ifdef __cplusplus
}
#endif

/* Sampling and shared memory: SMPI's annotations for large studies, as SMPI's mpi.h gives them */
#include "mpisim.h"

#endif /* MPISIM_MPI_H */
