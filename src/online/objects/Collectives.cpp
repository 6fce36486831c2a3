#include "online/objects/Collectives.hpp"

#include "mpi/Rank.hpp"
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::online {

namespace {

mpi::CollectiveCall call_with_data(mpi::Collective op)
{
  mpi::CollectiveCall call;
  call.op = op;
  call.with_data = true;
  return call;
}

double element_bytes(const mpi::Datatype& type)
{
  return static_cast<double>(type.size() ? type.size() : 1);
}

void reduce_with(mpi::CollectiveCall& call, const mpi::DatatypePtr& type, const mpi::ReduceOpPtr& op)
{
  call.reduce_type = type;
  call.reduce_op = op;
  call.element_bytes = element_bytes(*type);
  call.commutative = op->commutative();
}

void run(Runtime& runtime, const mpi::Communicator& comm, const mpi::CollectiveCall& call)
{
  runtime.simulation().collectives().run(runtime.rank(), comm, call);
}

} // namespace

void run_barrier(Runtime& runtime, const mpi::Communicator& comm)
{
  run(runtime, comm, call_with_data(mpi::Collective::Barrier));
}

void run_allreduce(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type, MPI_Op op)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::Allreduce);
  reduce_with(call, t, runtime.operations().find(op));
  call.bytes = static_cast<double>(t->packed_size(count));
  call.recv_data = static_cast<std::byte*>(recv);
  call.send_data = static_cast<const std::byte*>(send);
  run(runtime, comm, call);
}

void run_allgather(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::Allgather);
  call.recv_bytes = static_cast<double>(t->packed_size(count));
  call.recv_data = static_cast<std::byte*>(recv);
  call.bytes = call.recv_bytes;
  call.send_data = static_cast<const std::byte*>(send);
  call.element_bytes = element_bytes(*t);
  run(runtime, comm, call);
}

void run_bcast(Runtime& runtime, const mpi::Communicator& comm, void* buffer, int count, MPI_Datatype type, int root)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::Bcast);
  call.bytes = static_cast<double>(t->packed_size(count));
  call.recv_data = static_cast<std::byte*>(buffer);
  call.element_bytes = element_bytes(*t);
  call.root = root;
  run(runtime, comm, call);
}

void run_gather_with(Runtime& runtime, const mpi::Communicator& comm, const std::string& algorithm, const void* send,
                     void* recv, int count, MPI_Datatype type, int root)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::Gather);
  call.bytes = call.recv_bytes = static_cast<double>(t->packed_size(count));
  call.send_data = static_cast<const std::byte*>(send);
  call.recv_data = static_cast<std::byte*>(recv);
  call.element_bytes = element_bytes(*t);
  call.root = root;
  mpi::Rank& rank = runtime.rank();
  const mpi::CollectiveLibrary& library = runtime.simulation().collectives();
  const mpi::CollectiveContext context{
      rank, comm, library, comm.local_rank(rank.world_rank()), comm.size(), mpi::collective_tag(call.op)};
  library.run_algorithm(context, algorithm, call);
}

void run_allgatherv(Runtime& runtime, const mpi::Communicator& comm, const void* send, int count, void* recv,
                    const int* counts, const int* displs, MPI_Datatype type)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::Allgatherv);
  for (int r = 0; r < comm.size(); ++r) {
    call.recv_counts.push_back(static_cast<double>(t->packed_size(counts[r])));
    call.recv_displs.push_back(static_cast<double>(displs[r] * t->extent()));
  }
  call.recv_data = static_cast<std::byte*>(recv);
  call.bytes = static_cast<double>(t->packed_size(count));
  call.send_data = static_cast<const std::byte*>(send);
  call.element_bytes = element_bytes(*t);
  run(runtime, comm, call);
}

void run_reduce_scatter_block(Runtime& runtime, const mpi::Communicator& comm, const void* send, void* recv, int count,
                              MPI_Datatype type, MPI_Op op)
{
  const mpi::DatatypePtr t = runtime.datatypes().find(type);
  mpi::CollectiveCall call = call_with_data(mpi::Collective::ReduceScatter);
  reduce_with(call, t, runtime.operations().find(op));
  call.recv_counts.assign(static_cast<size_t>(comm.size()), static_cast<double>(t->packed_size(count)));
  call.bytes = static_cast<double>(t->packed_size(static_cast<size_t>(count) * comm.size()));
  call.send_data = static_cast<const std::byte*>(send);
  call.recv_data = static_cast<std::byte*>(recv);
  run(runtime, comm, call);
}

} // namespace mpisim::online
