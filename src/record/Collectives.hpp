// TI lines of collective calls (called by the wrappers in wrap_collectives.cpp once the PMPI call returned).
//
// The TI format has no communicator field: every collective line is replayed on MPI_COMM_WORLD. So:
//  - on a communicator holding every world rank (MPI_COMM_WORLD, a dup, a cartesian communicator, reordered or
//    not): the TI collective, with the root and the per-rank arrays put in world-rank order;
//  - on a sub-communicator, by MPISIM_TRACE_SUBCOMM:
//      `world` (default): as SimGrid 3.32's writer does, the TI collective as if on MPI_COMM_WORLD, root in the
//        sub-communicator's numbering, per-rank arrays in its order, padded with zeros to the world size so that the
//        line parses. Replays correctly only when every world rank makes a matching call at that point (e.g. every
//        part of a split doing the same collective), and then with the cost of a world-wide collective;
//      `p2p`: the point-to-point messages of a simple algorithm among the members (binomial trees for bcast,
//        reduce, barrier and allreduce = reduce + bcast; linear gather/scatter; ring allgather; pairwise alltoall;
//        chain scan; reduce + scatterv for reduce_scatter), in world ranks, on a tag reserved per communicator.
//        Replays with the right participants and volumes, whatever the other ranks do, but with that algorithm
//        instead of the one the selector would pick;
//    either way a `#` comment before the lines names the communicator;
//  - on a one-rank communicator: nothing (a comment), there is no communication;
//  - on an intercommunicator: nothing but a comment and a note (not expressible).
// Reductions are written with 0 flops, as SimGrid does: their cost is inside the measured call, not separable.
#pragma once

#include "record/Recorder.hpp"

#include <mpi.h>

namespace mpisim::record::collective {

void barrier(Call& call, MPI_Comm comm);
void bcast(Call& call, int count, MPI_Datatype type, int root, MPI_Comm comm);
void reduce(Call& call, int count, MPI_Datatype type, int root, MPI_Comm comm);
void allreduce(Call& call, int count, MPI_Datatype type, MPI_Comm comm);
void scan(Call& call, bool exclusive, int count, MPI_Datatype type, MPI_Comm comm);
void gather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
            int root, MPI_Comm comm);
void gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, const int* recvcounts,
             MPI_Datatype recvtype, int root, MPI_Comm comm);
void scatter(Call& call, int sendcount, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm);
void scatterv(Call& call, const int* sendcounts, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm);
void allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
               MPI_Datatype recvtype, MPI_Comm comm);
void allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, const int* recvcounts,
                MPI_Datatype recvtype, MPI_Comm comm);
void alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm);
void alltoallv(Call& call, const void* sendbuf, const int* sendcounts, MPI_Datatype sendtype, const int* recvcounts,
               MPI_Datatype recvtype, MPI_Comm comm);
void reduce_scatter(Call& call, const int* recvcounts, MPI_Datatype type, MPI_Comm comm);
void reduce_scatter_block(Call& call, int recvcount, MPI_Datatype type, MPI_Comm comm);

} // namespace mpisim::record::collective
