#include "online/bindings/Api.hpp"

#include "online/runtime/CallReporter.hpp"

namespace mpisim::online {

// Only the outermost call is described.
void ApiScope::describe_call(const mpi::Communicator* comm, int peer, double bytes, int tag)
{
  const int me = runtime_.current_rank();
  if (runtime_.account(me).depth == 1)
    runtime_.call_reporter()->describe(me, comm, peer, bytes, tag);
}

} // namespace mpisim::online
