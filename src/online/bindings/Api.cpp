#include "online/bindings/Api.hpp"

#include "online/runtime/CallReporter.hpp"

namespace mpisim::online {

// Only the outermost call is described.
void ApiScope::describe_call(const mpi::Communicator* comm, int peer, double bytes, int tag)
{
  if (runtime_.account(world_rank_).depth == 1)
    runtime_.call_reporter()->describe(world_rank_, comm, peer, bytes, tag);
}

} // namespace mpisim::online
