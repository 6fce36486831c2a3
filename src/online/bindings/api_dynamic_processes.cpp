// Process management (MPI-3.1 chapter 10). Every rank of a simulated job is started by `mpisim run -np`, none by
// MPI_Comm_spawn, so no rank has a parent (MPI_Comm_get_parent). Ports and the name service work within the run (one
// job): MPI_Open_port/MPI_Close_port, MPI_Publish_name/MPI_Lookup_name/MPI_Unpublish_name. What would join the ranks
// to other processes through an intercommunicator (MPI_Comm_spawn[_multiple], MPI_Comm_accept/connect/join) is
// refused: there are no other processes, and intercommunicators come from MPI_Intercomm_create only (ports do not
// connect groups of the run yet). MPI_Comm_disconnect frees a
// communicator once the rank's pending communication on it is complete.
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/NameService.hpp"
#include "online/objects/ProcessObjects.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

using namespace mpisim::online;

namespace {

// Errors of the calls without a communicator go through MPI_COMM_WORLD's handler (MPI-3.1 section 8.3).
constexpr MPI_Comm kNoObject = MPI_COMM_WORLD;

bool valid_info(Runtime& runtime, MPI_Info info)
{
  return info == MPI_INFO_NULL || runtime.process_objects().info(info) != nullptr;
}

void write_port_name(char* out, const std::string& port)
{
  const size_t length = std::min(port.size(), static_cast<size_t>(MPI_MAX_PORT_NAME - 1));
  std::memcpy(out, port.data(), length);
  out[length] = '\0';
}

// The arguments of the name service's calls: the names given, the info object valid or null.
int check_name_arguments(Runtime& runtime, const char* service_name, MPI_Info info, const char* port_name,
                         const char* call)
{
  if (service_name == nullptr || port_name == nullptr)
    return raise_error(runtime, kNoObject, MPI_ERR_ARG, call, "null service or port name");
  if (not valid_info(runtime, info))
    return raise_error(runtime, kNoObject, MPI_ERR_INFO, call, "invalid info object " + std::to_string(info));
  return MPI_SUCCESS;
}

// The calls that connect the ranks to other processes: `comm`'s error handler (MPI_COMM_WORLD's without one) raises
// `error_class`, after the new communicator is set to MPI_COMM_NULL.
int refuse_connection(Runtime& runtime, MPI_Comm comm, MPI_Comm* newcomm, int error_class, const char* call,
                      const std::string& why)
{
  const mpisim::mpi::Communicator* members = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, call, members));
  if (newcomm != nullptr)
    *newcomm = MPI_COMM_NULL;
  return raise_error(runtime, comm, error_class, call,
                     why + ": mpisim simulates the ranks `mpisim run -np` starts and makes intercommunicators with "
                           "MPI_Intercomm_create only");
}

} // namespace

extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, parent != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null parent");
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

// MPI-3.1 section 10.5.4: the call waits, inside, for the communication the rank has pending on the communicator
// (its requests not yet seen complete: they stay valid, and a later wait finds them complete), then frees it as
// MPI_Comm_free does. It synchronizes the members no further than those messages do: a rank with nothing pending
// returns at once, as from SMPI's MPI_Comm_disconnect.
extern "C" int PMPI_Comm_disconnect(MPI_Comm* comm)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, comm != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null communicator argument");
  MPISIM_CHECK(runtime, *comm != MPI_COMM_WORLD && *comm != MPI_COMM_SELF && runtime.comm(*comm) != nullptr, *comm,
               MPI_ERR_COMM, "cannot disconnect communicator " + std::to_string(*comm));
  const int handle = *comm;
  MPISIM_TRY(failure_aware(runtime, handle, "MPI_Comm_disconnect", [&]() -> int {
    ApiScope scope(runtime, "MPI_Comm_disconnect");
    scope.rank().waitall(runtime.requests().unfinished_on(scope.world_rank(), handle));
    return MPI_SUCCESS;
  }));
  MPISIM_TRY(free_comm(runtime, handle)); // attribute delete callbacks, name, topology
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

// Ports and names ----------------------------------------------------------------------------------------------------

extern "C" int PMPI_Open_port(MPI_Info info, char* port_name)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, valid_info(runtime, info), kNoObject, MPI_ERR_INFO,
               "invalid info object " + std::to_string(info));
  MPISIM_CHECK(runtime, port_name != nullptr, kNoObject, MPI_ERR_ARG, "null port name");
  write_port_name(port_name, runtime.names().open_port(runtime.current_rank()));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Close_port(const char* port_name)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, port_name != nullptr, kNoObject, MPI_ERR_ARG, "null port name");
  MPISIM_CHECK(runtime, runtime.names().close_port(runtime.current_rank(), port_name), kNoObject, MPI_ERR_PORT,
               "rank " + std::to_string(runtime.current_rank()) + " has no open port '" + port_name + "'");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Publish_name(const char* service_name, MPI_Info info, const char* port_name)
{
  Runtime& runtime = Runtime::get();
  MPISIM_TRY(check_name_arguments(runtime, service_name, info, port_name, "MPI_Publish_name"));
  MPISIM_CHECK(runtime, runtime.names().publish(service_name, port_name), kNoObject, MPI_ERR_SERVICE,
               std::string("service '") + service_name + "' is published with port '" + port_name + "' already");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Unpublish_name(const char* service_name, MPI_Info info, const char* port_name)
{
  Runtime& runtime = Runtime::get();
  MPISIM_TRY(check_name_arguments(runtime, service_name, info, port_name, "MPI_Unpublish_name"));
  MPISIM_CHECK(runtime, runtime.names().unpublish(service_name, port_name), kNoObject, MPI_ERR_SERVICE,
               std::string("service '") + service_name + "' is not published with port '" + port_name + "'");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Lookup_name(const char* service_name, MPI_Info info, char* port_name)
{
  Runtime& runtime = Runtime::get();
  MPISIM_TRY(check_name_arguments(runtime, service_name, info, port_name, "MPI_Lookup_name"));
  const std::optional<std::string> port = runtime.names().lookup(service_name);
  MPISIM_CHECK(runtime, port.has_value(), kNoObject, MPI_ERR_NAME,
               std::string("no service '") + service_name + "' is published");
  write_port_name(port_name, *port);
  return MPI_SUCCESS;
}

// Connecting to other processes --------------------------------------------------------------------------------------

extern "C" int PMPI_Comm_accept(const char* /*port_name*/, MPI_Info /*info*/, int /*root*/, MPI_Comm comm,
                                MPI_Comm* newcomm)
{
  return refuse_connection(Runtime::get(), comm, newcomm, MPI_ERR_OTHER, "MPI_Comm_accept",
                           "accepting a connection makes an intercommunicator");
}

extern "C" int PMPI_Comm_connect(const char* /*port_name*/, MPI_Info /*info*/, int /*root*/, MPI_Comm comm,
                                 MPI_Comm* newcomm)
{
  return refuse_connection(Runtime::get(), comm, newcomm, MPI_ERR_OTHER, "MPI_Comm_connect",
                           "connecting to a port makes an intercommunicator");
}

extern "C" int PMPI_Comm_join(int /*fd*/, MPI_Comm* intercomm)
{
  return refuse_connection(Runtime::get(), kNoObject, intercomm, MPI_ERR_OTHER, "MPI_Comm_join",
                           "joining through a socket makes an intercommunicator");
}

extern "C" int PMPI_Comm_spawn(const char* /*command*/, char* /*argv*/[], int /*maxprocs*/, MPI_Info /*info*/,
                               int /*root*/, MPI_Comm comm, MPI_Comm* intercomm, int /*array_of_errcodes*/[])
{
  return refuse_connection(Runtime::get(), comm, intercomm, MPI_ERR_SPAWN, "MPI_Comm_spawn",
                           "spawning processes is not simulated");
}

extern "C" int PMPI_Comm_spawn_multiple(int /*count*/, char* /*array_of_commands*/[], char** /*array_of_argv*/[],
                                        const int /*array_of_maxprocs*/[], const MPI_Info /*array_of_info*/[],
                                        int /*root*/, MPI_Comm comm, MPI_Comm* intercomm, int /*array_of_errcodes*/[])
{
  return refuse_connection(Runtime::get(), comm, intercomm, MPI_ERR_SPAWN, "MPI_Comm_spawn_multiple",
                           "spawning processes is not simulated");
}

MPISIM_ALIAS(Comm_get_parent)
MPISIM_ALIAS(Comm_disconnect)
MPISIM_ALIAS(Open_port)
MPISIM_ALIAS(Close_port)
MPISIM_ALIAS(Publish_name)
MPISIM_ALIAS(Unpublish_name)
MPISIM_ALIAS(Lookup_name)
MPISIM_ALIAS(Comm_accept)
MPISIM_ALIAS(Comm_connect)
MPISIM_ALIAS(Comm_join)
MPISIM_ALIAS(Comm_spawn)
MPISIM_ALIAS(Comm_spawn_multiple)
