#include "online/objects/ToolVariables.hpp"

#include "online/runtime/Runtime.hpp"

namespace mpisim::online {

namespace {

constexpr int kPollingEnum = 1;
constexpr int kSchedulingEnum = 2;

int64_t flag(bool value)
{
  return value ? 1 : 0;
}

} // namespace

const std::vector<ToolEnum>& tool_enums()
{
  static const std::vector<ToolEnum> enums = {
      {"mpisim_polling", {{0, "realistic"}, {1, "smpi"}}},
      {"mpisim_scheduling", {{0, "run-to-block"}, {1, "smpi"}}},
  };
  return enums;
}

// Index order is the interface's numbering: new variables go at the end.
const std::vector<ControlVariable>& control_variables()
{
  static const std::vector<ControlVariable> variables = {
      {"mpisim_model", "the network model moving the messages (--model)", MPI_CHAR, 0, MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return runtime.simulation().model_name(); }},
      {"mpisim_host_speed",
       "flop/s of the real host, which turns the measured computation into simulated time (--host-speed; measured at "
       "start when not given)",
       MPI_DOUBLE, 0, MPI_T_SCOPE_CONSTANT, [](Runtime& runtime) -> ToolValue { return runtime.options().host_speed; }},
      {"mpisim_compute_time", "1 when the computation between MPI calls is simulated, 0 under --no-compute-time",
       MPI_INT, 0, MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return flag(runtime.options().compute_time); }},
      {"mpisim_cpu_threshold", "computation bursts shorter than this are dropped, in seconds (--cpu-threshold)",
       MPI_DOUBLE, 0, MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return runtime.options().cpu_threshold; }},
      {"mpisim_wtime_delay", "simulated seconds each MPI_Wtime spends after reading the clock (--wtime-delay)",
       MPI_DOUBLE, 0, MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return runtime.options().wtime_delay; }},
      {"mpisim_polling", "what MPI_Test, MPI_Iprobe and their kin cost (--polling)", MPI_INT, kPollingEnum,
       MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return flag(runtime.options().polling.rule == mpi::PollingRule::Smpi); }},
      {"mpisim_scheduling", "how the ranks resuming at one simulated date take turns (--scheduling)", MPI_INT,
       kSchedulingEnum, MPI_T_SCOPE_CONSTANT,
       [](Runtime& runtime) -> ToolValue { return flag(runtime.options().scheduling == mpi::Scheduling::SmpiRounds); }},
      {"mpisim_real_clocks", "1 when the program's clocks and sleeps are the real ones (--real-clocks)", MPI_INT, 0,
       MPI_T_SCOPE_CONSTANT, [](Runtime& runtime) -> ToolValue { return flag(runtime.options().real_clocks); }},
  };
  return variables;
}

const std::vector<PerformanceVariable>& performance_variables()
{
  static const std::vector<PerformanceVariable> variables = {
      {"mpisim_time_computing",
       "simulated seconds of computation the rank has done between MPI calls (its measured CPU time at the host "
       "speed), up to the read",
       MPI_T_PVAR_CLASS_TIMER, MPI_DOUBLE,
       [](Runtime& runtime, int rank) -> ToolValue {
         runtime.flush_computation(); // what the rank computed since its last MPI call counts
         return runtime.account(rank).compute;
       }},
      {"mpisim_time_in_mpi", "simulated seconds the rank has spent inside MPI calls", MPI_T_PVAR_CLASS_TIMER,
       MPI_DOUBLE, [](Runtime& runtime, int rank) -> ToolValue { return runtime.account(rank).mpi; }},
      {"mpisim_mpi_calls", "MPI calls the rank has made (the outermost ones)", MPI_T_PVAR_CLASS_COUNTER,
       MPI_UNSIGNED_LONG_LONG,
       [](Runtime& runtime, int rank) -> ToolValue { return static_cast<int64_t>(runtime.account(rank).calls); }},
      {"mpisim_unexpected_messages", "messages arrived at the rank that no posted receive has matched yet",
       MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED,
       [](Runtime& runtime, int rank) -> ToolValue {
         return static_cast<int64_t>(runtime.world().mailbox(rank).unexpected_count());
       }},
      {"mpisim_posted_receives", "receives the rank has posted that no message has matched yet", MPI_T_PVAR_CLASS_LEVEL,
       MPI_UNSIGNED,
       [](Runtime& runtime, int rank) -> ToolValue {
         return static_cast<int64_t>(runtime.world().mailbox(rank).posted_count());
       }},
  };
  return variables;
}

const std::vector<ToolCategory>& tool_categories()
{
  static const std::vector<ToolCategory> categories = {
      {"mpisim_run_options", "the options of mpisim run that shape the simulation", {0, 1, 2, 3, 4, 5, 6, 7}, {}},
      {"mpisim_rank_statistics", "what the calling rank has done so far, in simulated time", {}, {0, 1, 2, 3, 4}},
  };
  return categories;
}

} // namespace mpisim::online
