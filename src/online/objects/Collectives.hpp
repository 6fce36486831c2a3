// Collectives that mpisim's own objects run, on contiguous buffers of predefined elements: a communicator's context
// agreement, a window's description exchange and fences, a distributed graph's edges. Each builds the
// CollectiveCall that the MPI call with the same arguments builds (bindings/CollectiveBuilders.cpp) and runs it on the
// calling rank through the configured collective library, so it costs what that call costs. Nothing is checked: the
// callers pass valid arguments.
#pragma once

#include "online/runtime/Runtime.hpp"

#include <mpi.h>

#include <string>

namespace mpisim::online {

void run_barrier(Runtime& runtime, const mpi::Communicator& comm);
void run_allreduce(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type, MPI_Op op);
void run_bcast(Runtime& runtime, const mpi::Communicator& comm, void* buffer, int count, MPI_Datatype type, int root);
// A gather by the named algorithm whatever the selector (SMPI's own uses of its default gather).
void run_gather_with(Runtime& runtime, const mpi::Communicator& comm, const std::string& algorithm, const void* send,
                     void* recv, int count, MPI_Datatype type, int root);
// `count` elements from each member, in rank order.
void run_allgather(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type);
// counts[r] elements from member r, at element displacement displs[r].
void run_allgatherv(Runtime& runtime, const mpi::Communicator& comm, const void* send, int count, void* recv,
                    const int* counts, const int* displs, MPI_Datatype type);
// `count` reduced elements kept by each member.
void run_reduce_scatter_block(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                              MPI_Datatype type, MPI_Op op);

} // namespace mpisim::online
