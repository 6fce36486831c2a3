// MPI_Init/Finalize/Abort, time, processor name, versions, thread level, MPI_Pcontrol.
#include "online/bindings/Api.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/portals/Portals.hpp"

#include "models/SwitchingNetworkModel.hpp"

#include "platform/Platform.hpp"

#include <cstdio>
#include <cstring>

using namespace mpisim::online;

namespace {
// MPI_Init and MPI_Init_thread alike (the timeline names both "init").
int initialize()
{
  ApiScope scope("PMPI_Init");
  Runtime& runtime = scope.runtime();
  RankAccount& account = runtime.account(runtime.current_rank());
  if (account.initialized)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init", "MPI_Init called twice");
  account.initialized = true;
  // Under a bxi model MPI's messages go over Portals: the rank's MPI NI and portal table entry exist from now on, and
  // a program's own PtlNIInit of that kind gets the same NI (docs/bxi.md, "MPI over Portals").
  if (mpisim::models::bxi::fabric_of(runtime.simulation().models().find("bxi")) != nullptr)
    portals::portals_of(runtime).open_mpi_interface();
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Init(int* argc, char*** argv)
{
  return initialize();
}

extern "C" int PMPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  Runtime& runtime = Runtime::get();
  // Every rank is a fiber of one thread: only the rank's main thread may call MPI. FUNNELED is the most that is
  // true (SERIALIZED and MULTIPLE would let other threads call MPI, which the runtime cannot attribute to a rank).
  *provided = MPI_THREAD_SINGLE < required ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE;
  runtime.process_objects().of_rank(runtime.current_rank()).thread_level = *provided;
  return initialize();
}

extern "C" int PMPI_Initialized(int* flag)
{
  Runtime& runtime = Runtime::get();
  *flag = runtime.account(runtime.current_rank()).initialized;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalize(void)
{
  ApiScope scope;
  // MPI_COMM_SELF is freed first, so that its attributes' delete callbacks run (MPI-3.1 section 8.7.1).
  release_on_free(scope.runtime(), MPI_COMM_SELF);
  scope.runtime().account(scope.runtime().current_rank()).finalized = true;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalized(int* flag)
{
  Runtime& runtime = Runtime::get();
  *flag = runtime.account(runtime.current_rank()).finalized;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode)
{
  ApiScope scope;
  char date[64];
  std::snprintf(date, sizeof date, "%.9f", scope.runtime().now());
  // The exit status is the error code as a process would report it (its low byte), and never 0.
  const int status = errorcode & 0xff ? errorcode & 0xff : 1;
  terminate_run({.outcome = Outcome::Abort,
                 .exit_status = status,
                 .application_status = errorcode,
                 .report = "mpisim: rank " + std::to_string(scope.runtime().current_rank()) +
                           " called MPI_Abort with error code " + std::to_string(errorcode) + " at simulated time " +
                           date + " s"});
}

extern "C" double PMPI_Wtime(void)
{
  // Inside a sampled body (SMPI allows timing there) the clock is read without injecting anything: the sampler
  // measures the body's real time itself.
  Runtime& runtime = Runtime::get();
  if (runtime.in_sampled_body())
    return runtime.now();
  ApiScope scope(runtime); // the computation before the call is injected first: Wtime sees it
  const double now = scope.runtime().now();
  scope.rank().note_clock_read(); // a polling loop bounded by time is not fast-forwarded past its bound
  scope.rank().sleep(scope.runtime().options().wtime_delay); // after reading, as SMPI
  return now;
}

extern "C" double PMPI_Wtick(void)
{
  return 1e-9;
}

extern "C" int PMPI_Get_processor_name(char* name, int* resultlen)
{
  Runtime& runtime = Runtime::get();
  const std::string& host = runtime.world().platform().hosts()[runtime.rank().host()].name;
  *resultlen = std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host.c_str());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_version(int* version, int* subversion)
{
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_library_version(char* version, int* resultlen)
{
  *resultlen = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                             "mpisim online MPI library (simulated MPI %d.%d, ranks run in simulated time)",
                             MPI_VERSION, MPI_SUBVERSION);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Query_thread(int* provided)
{
  Runtime& runtime = Runtime::get();
  *provided = runtime.process_objects().of_rank(runtime.current_rank()).thread_level;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Is_thread_main(int* flag)
{
  Runtime& runtime = Runtime::get();
  *flag = runtime.current_rank() >= 0; // MPI calls come from a rank's main thread (its fiber) only
  return MPI_SUCCESS;
}

extern "C" void mpisim_use_model(const char* name)
{
  if (not Runtime::active())
    return;
  Runtime& runtime = Runtime::get();
  if (runtime.current_rank() < 0)
    return;
  try {
    runtime.simulation().models().use(name == nullptr ? "" : name);
  } catch (const mpisim::InputError& error) { // bad input, as an unknown --model would be
    terminate_run({.outcome = Outcome::BadInput,
                   .exit_status = kExitBadInput,
                   .application_status = std::nullopt,
                   .report = "mpisim_use_model: " + error.message()});
  }
}

extern "C" int PMPI_Pcontrol(const int level, ...)
{
  Runtime& runtime = Runtime::get();
  // The standard leaves the meaning to profiling libraries: here, a level --pcontrol-models maps switches the network
  // model; other levels have no effect.
  const auto& table = runtime.options().pcontrol_models;
  auto found = table.find(level);
  if (found != table.end())
    mpisim_use_model(found->second.c_str());
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Init)
MPISIM_ALIAS(Init_thread)
MPISIM_ALIAS(Initialized)
MPISIM_ALIAS(Finalize)
MPISIM_ALIAS(Finalized)
MPISIM_ALIAS(Abort)
MPISIM_ALIAS(Wtime)
MPISIM_ALIAS(Wtick)
MPISIM_ALIAS(Get_processor_name)
MPISIM_ALIAS(Get_version)
MPISIM_ALIAS(Get_library_version)
MPISIM_ALIAS(Query_thread)
MPISIM_ALIAS(Is_thread_main)
MPISIM_ALIAS(Pcontrol)
