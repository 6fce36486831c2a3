#include "online/objects/CommLifecycle.hpp"

#include "online/runtime/Runtime.hpp"

namespace mpisim::online {

void inherit_errhandler(MPI_Comm parent, MPI_Comm child)
{
  Runtime& runtime = Runtime::get();
  if (child != MPI_COMM_NULL)
    runtime.set_errhandler(child, runtime.errhandler(parent));
}

int inherit_on_dup(MPI_Comm from, MPI_Comm to)
{
  Runtime& runtime = Runtime::get();
  const int me = runtime.current_rank();
  inherit_errhandler(from, to);
  if (auto topology = runtime.comm_properties().topology(me, from))
    runtime.comm_properties().set_topology(me, to, topology);
  return runtime.attributes().copy_all(me, AttributeObject::Comm, from, to);
}

int release_on_free(MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  const int me = runtime.current_rank();
  const int error = runtime.attributes().remove_all(me, AttributeObject::Comm, comm);
  runtime.comm_properties().forget(me, comm);
  return error;
}

} // namespace mpisim::online
