// Argument checks and buffer preparation of each collective, shared by its blocking and non-blocking forms. Each
// returns MPI_SUCCESS and sets `out`, or the error class raised through the communicator's error handler.
#pragma once

#include "online/bindings/PreparedCollective.hpp"

namespace mpisim::online {

int prepare_barrier(Runtime& runtime, MPI_Comm comm, const char* call, PreparedOut& out);
int prepare_bcast(Runtime& runtime, void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                  const char* call, PreparedOut& out);
// reduce (root >= 0), allreduce (root < 0), scan and exscan (`op_kind`).
int prepare_reduction(Runtime& runtime, mpi::Collective op_kind, const void* sendbuf, void* recvbuf, int count,
                      MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, const char* call, PreparedOut& out);
// gather (root >= 0) and allgather (root < 0); v-forms when recvcounts is not null.
int prepare_gather(Runtime& runtime, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const char* call, PreparedOut& out);
// scatter; v-form when sendcounts is not null.
int prepare_scatter(Runtime& runtime, const void* sendbuf, int sendcount, const int* sendcounts, const int* displs,
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char* call, PreparedOut& out);
// alltoall; v-form when sendcounts is not null.
int prepare_alltoall(Runtime& runtime, const void* sendbuf, int sendcount, const int* sendcounts, const int* sdispls,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, const int* recvcounts, const int* rdispls,
                     MPI_Datatype recvtype, MPI_Comm comm, const char* call, PreparedOut& out);
// alltoallw: per-peer counts, byte displacements and datatypes.
int prepare_alltoallw(Runtime& runtime, const void* sendbuf, const int* sendcounts, const int* sdispls,
                      const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                      const MPI_Datatype* recvtypes, MPI_Comm comm, const char* call, PreparedOut& out);
int prepare_reduce_scatter(Runtime& runtime, const void* sendbuf, void* recvbuf, const int* recvcounts,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm, const char* call, PreparedOut& out);

} // namespace mpisim::online
