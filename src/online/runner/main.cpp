// mpisim-run: runs an MPI application, built as a shared object by `mpisim cc`, as simulated ranks (docs/online.md).
//
// Exit status (online/runtime/RunEnd.hpp, docs/online.md): the application's own (the first non-zero status a rank's
// main returned, exit's argument, MPI_Abort's error code, 128 + signal when a rank crashes), 1 for a fatal MPI error,
// 2 for bad input, 124 on deadlock, 125 when mpisim itself fails; the JSON summary names the outcome.
#include "online/bindings/Api.hpp"
#include "online/options/RunnerOptions.hpp"
#include "online/runner/Attempts.hpp"
#include "online/runner/CrashHandler.hpp"
#include "online/runner/HostSpeed.hpp"
#include "online/runner/HugePages.hpp"
#include "online/runner/OutputTagger.hpp"
#include "online/runner/PrivatizedProgram.hpp"
#include "online/runner/RunTimeline.hpp"
#include "online/runner/Summary.hpp"

#include "common/Errors.hpp"
#include "mpi/OverflowList.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <iostream>
#include <new>
#include <stdexcept>

using namespace mpisim;
using namespace mpisim::online;

namespace {

// The program's argv: its path, then its arguments.
std::vector<std::string> program_arguments(const RunnerOptions& options)
{
  std::vector<std::string> strings{options.program};
  strings.insert(strings.end(), options.arguments.begin(), options.arguments.end());
  return strings;
}

// One rank's copy of argv (applications may modify theirs), in a single allocation: the pointers, then the strings.
class RankArgv {
public:
  explicit RankArgv(const std::vector<std::string>& strings) : argc_(static_cast<int>(strings.size()))
  {
    size_t bytes = (strings.size() + 1) * sizeof(char*);
    for (const std::string& s : strings)
      bytes += s.size() + 1;
    block_ = std::make_unique<char*[]>((bytes + sizeof(char*) - 1) / sizeof(char*));
    char* text = reinterpret_cast<char*>(block_.get() + strings.size() + 1);
    for (size_t i = 0; i < strings.size(); ++i) {
      block_[i] = text;
      std::memcpy(text, strings[i].c_str(), strings[i].size() + 1);
      text += strings[i].size() + 1;
    }
  }
  int argc() const { return argc_; }
  char** argv() const { return block_.get(); }

private:
  int argc_;
  std::unique_ptr<char*[]> block_; // zeroed: argv[argc] is null
};

// "ranks 0, 2, 3 were waiting:" and what each waits for, one line each; empty when no rank waits.
std::string waiting_ranks_text(const std::vector<Runtime::WaitingRank>& waiting)
{
  if (waiting.empty())
    return "";
  std::string ranks;
  for (const Runtime::WaitingRank& w : waiting)
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(w.rank);
  std::string text = std::string("; rank") + (waiting.size() == 1 ? " " : "s ") + ranks +
                     (waiting.size() == 1 ? " was" : " were") + " waiting:";
  for (const Runtime::WaitingRank& w : waiting)
    text += "\n  rank " + std::to_string(w.rank) + " waits for " + w.waits_for;
  return text;
}

std::string date_text(double seconds)
{
  char text[64];
  std::snprintf(text, sizeof text, "%.9f", seconds);
  return text;
}

// A rank ended the run by its own exit status (exit(), or main returning non-zero while other ranks still needed it):
// which rank, when, and who was left waiting for what, rather than a deadlock.
RunEnd application_exit(int rank, int status, const char* how, double date, const Runtime& runtime)
{
  return {.outcome = Outcome::ApplicationExit,
          .exit_status = status & 0xff,
          .application_status = status,
          .report = "mpisim: rank " + std::to_string(rank) + " exited with status " + std::to_string(status) + " (" +
                    how + ") at simulated time " + date_text(date) + " s" +
                    waiting_ranks_text(runtime.waiting_ranks())};
}

// A deadlock's report, with the ranks whose main returned without calling MPI_Finalize: often the cause (a rank left
// while the others still expected messages from it), which the blocked ranks' lines alone do not show.
std::string deadlock_report(const DeadlockError& error, const Runtime& runtime)
{
  std::string report = std::string("mpisim: ") + error.what();
  const auto& accounts = runtime.accounts();
  for (size_t r = 0; r < accounts.size(); ++r)
    if (accounts[r].finish >= 0 && accounts[r].initialized && not accounts[r].finalized) // a Portals program has none
      report += "\n  rank " + std::to_string(r) + " returned from main at simulated time " +
                date_text(accounts[r].finish) + " s without calling MPI_Finalize";
  for (const mpi::FailureAt& failure : const_cast<Runtime&>(runtime).simulation().world().failures())
    report += "\n  rank " + std::to_string(failure.rank) + " failed at simulated time " + date_text(failure.date) +
              " s (process failure injected by --fail/--fail-mtbf)";
  return report;
}

// An exception escaped a rank (the engine rethrows it): the run ends, reported as `outcome`. `prefix` comes before
// the error's text: none for an error whose text names the rank and the call itself.
[[noreturn]] void terminate_on_rank_failure(const std::exception& error, Outcome outcome, int status,
                                            RunTimeline* timeline, const char* prefix = "rank failed: ")
{
  if (timeline != nullptr)
    timeline->finish();
  terminate_run({.outcome = outcome,
                 .exit_status = status,
                 .application_status = std::nullopt,
                 .report = std::string("mpisim: ") + prefix + error.what()});
}

// A rank calling exit() ends the whole process (as in SMPI): say which rank did, with which status, when, and who was
// waiting, let its output out, and write the summary.
struct RunInProgress {
  Runtime* runtime = nullptr;
  RunTimeline* timeline = nullptr;
};
RunInProgress g_run;

void report_exit_during_run(int status, void* /*unused*/)
{
  if (g_run.runtime == nullptr)
    return;
  Runtime& runtime = *g_run.runtime;
  const int rank = runtime.running_rank();
  runtime.end_output();
  if (g_run.timeline)
    g_run.timeline->finish();
  std::fflush(stdout);
  const RunEnd end = application_exit(rank, status, "called exit", runtime.now(), runtime);
  std::fprintf(stderr, "%s\n", end.report.c_str());
  runtime.run_ended(end);
}

// The engine switches the ranks' private memory while the program is loaded: the C library's per-rank variables
// (errno, optind, environ, ...), and the program's data under swap privatization. Never after (the engine may still
// unwind blocked ranks when it is destroyed, after the program object is gone); the process's environment is put
// back then.
struct MemoryContextsInstalled {
  MemoryContextsInstalled(kernel::Engine& engine, LibcStates& libc, kernel::MemoryContexts* program)
      : engine(engine), libc(libc)
  {
    libc.install(program);
    engine.set_memory_contexts(&libc);
  }
  ~MemoryContextsInstalled()
  {
    engine.set_memory_contexts(nullptr);
    libc.uninstall();
  }
  kernel::Engine& engine;
  LibcStates& libc;
};

void write_summary(const RunnerOptions& options, const Runtime* runtime, const RunOutcome& outcome)
{
  if (options.quiet)
    return;
  const std::string text =
      options.json ? summary_json(options, runtime, outcome) : summary_text(options, *runtime, outcome);
  if (options.summary_file.empty()) {
    std::cerr << text << std::flush;
    return;
  }
  std::ofstream out(options.summary_file);
  out << text;
  if (not out)
    throw InputError(options.summary_file, 0, "cannot write the summary");
}

// The summary of a run that ends abruptly (JSON only: what scripts read to tell the outcome), best effort.
void write_summary_at_abrupt_end(const RunnerOptions& options, const Runtime* runtime, RunOutcome outcome,
                                 const RunEnd& end)
{
  if (not options.json)
    return;
  outcome.end = end;
  if (runtime != nullptr)
    outcome.simulated_time = const_cast<Runtime*>(runtime)->now();
  try {
    write_summary(options, runtime, outcome);
  } catch (const std::exception&) { // the report on stderr already says what happened
  }
}

// Every rank runs its own copy's main with its own argv; the first non-zero status is the run's.
void launch_ranks(mpi::Simulation& simulation, Runtime& runtime, const PrivatizedProgram& program,
                  const RunnerOptions& options, RunOutcome& outcome)
{
  simulation.world().launch([&runtime, &program, &options, &outcome](mpi::Rank& rank) {
    static const std::vector<std::string> strings = program_arguments(options);
    const int me = rank.world_rank();
    const RankArgv arguments(strings);
    runtime.attach(me);
    const int status = program.main_of(me)(arguments.argc(), arguments.argv());
    runtime.detach(me);
    if (status != 0 && outcome.end.outcome == Outcome::Ok) {
      outcome.end.outcome = Outcome::ApplicationExit;
      outcome.end.exit_status = status & 0xff;
      outcome.end.application_status = status;
      outcome.failed_rank = me;
    }
  });
}

// The attempts so far with the one ending now at `date` last (its failures: those of this run).
std::vector<Attempt> attempts_until(const std::vector<Attempt>& previous, double start, double date, Outcome outcome,
                                    const mpi::World& world)
{
  std::vector<Attempt> attempts = previous;
  attempts.push_back({start, date, outcome_name(outcome), world.failures()});
  return attempts;
}

// An abort caused by a process failure, with restarts left: the next attempt replaces this process.
void restart_if_allowed(const RunnerOptions& options, const std::vector<Attempt>& attempts, const RunEnd& end)
{
  if (end.outcome != Outcome::ProcessFailure || static_cast<int>(attempts.size()) > options.restarts)
    return;
  const double resume = attempts.back().end + options.restart_cost;
  std::fprintf(stderr, "mpisim: restarting the application (attempt %zu of %d) at simulated time %.9f s\n",
               attempts.size() + 1, options.restarts + 1, resume);
  start_next_attempt(attempts);
}

// Every rank failed before any of them could see a failure (nobody was left to communicate with): the job is lost,
// as if a failure had been detected. Without this, a run whose ranks all died would end "ok".
void abort_if_every_rank_failed(const mpi::World& world, const RunOutcome& outcome)
{
  if (outcome.end.outcome != Outcome::Ok || world.failures().empty() ||
      static_cast<int>(world.failures().size()) < world.size())
    return;
  const mpi::FailureAt& last = world.failures().back();
  terminate_run({.outcome = Outcome::ProcessFailure,
                 .exit_status = kExitProcessFailure,
                 .application_status = std::nullopt,
                 .report = "mpisim: every rank failed, the last (rank " + std::to_string(last.rank) +
                           ") at simulated time " + date_text(last.date) + " s: the job is lost"});
}

int run(const RunnerOptions& options)
{
  // Online runs detect failures (MPI errors); a restarted attempt starts where the previous one ended, plus the cost.
  const std::vector<Attempt> previous = previous_attempts();
  mpi::SimulationOptions simulation_options = options.simulation;
  simulation_options.detect_failures = true;
  if (not previous.empty())
    simulation_options.start_time = previous.back().end + options.restart_cost;
  const double start_time = simulation_options.start_time;
  mpi::Simulation simulation(simulation_options, options.ranks);
  Runtime runtime(simulation, options.online);
  // gfortran's runtime (read when the program loads it) buffers standard output when it is not a terminal: what a
  // Fortran rank printed would reach the stream after other ranks' output (--tag-output would give it to the wrong
  // rank) and be lost when the run ends abruptly. Unbuffered, each WRITE goes out when it is made, as C's stdio
  // output does through the runner's flushes. A value the user set stays.
  setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
  const std::unique_ptr<PrivatizedProgram> program =
      load_privatized_program(options.program, options.ranks, options.tmpdir, options.privatization);
  runtime.set_program_symbols([&program](int rank, const char* name) { return dlsym(program->handle_of(rank), name); });
  const MemoryContextsInstalled contexts(simulation.engine(), runtime.libc(), program->memory_contexts());
  std::unique_ptr<OutputTagger> tagger;
  if (options.tag_output) {
    tagger = std::make_unique<OutputTagger>();
    runtime.set_output_boundary([&tagger](int rank) { tagger->boundary(rank); });
    runtime.set_output_end([&tagger] { tagger->close(); });
  }
  std::unique_ptr<RunTimeline> timeline;
  if (not options.timeline.path.empty() || not options.timeline.portals_csv.empty())
    timeline = std::make_unique<RunTimeline>(options, simulation, runtime, previous, start_time);
  RunOutcome outcome;
  outcome.host_speed = options.online.host_speed;
  outcome.privatization = program->name();
  outcome.huge_pages = heap_huge_pages_in_effect();
  try {
    launch_ranks(simulation, runtime, *program, options, outcome);
  } catch (const std::bad_alloc&) { // a stack could not be mapped
    throw InputError("cannot allocate the stacks of " + std::to_string(options.ranks) + " ranks (" +
                     std::to_string(options.simulation.stack_size >> 10) + " KiB each): " + mapping_limit_hint());
  }
  install_crash_handler(options.simulation.stack_size);
  g_run = {&runtime, timeline.get()};
  on_exit(report_exit_during_run, nullptr);
  runtime.set_run_end([&options, &runtime, &outcome, &previous, &simulation, start_time](const RunEnd& end) {
    outcome.attempts = attempts_until(previous, start_time, runtime.now(), end.outcome, simulation.world());
    restart_if_allowed(options, outcome.attempts, end);
    write_summary_at_abrupt_end(options, &runtime, outcome, end);
  });
  const auto start = std::chrono::steady_clock::now();
  try {
    simulation.engine().run();
  } catch (const DeadlockError& error) {
    if (timeline) // what happened up to the deadlock
      timeline->finish();
    // Blocked ranks are not unwound through C frames: the run ends here.
    if (outcome.end.outcome == Outcome::ApplicationExit) // a rank left with a failure status, the others waited
      terminate_run(application_exit(outcome.failed_rank, *outcome.end.application_status, "returned from main",
                                     runtime.account(outcome.failed_rank).finish, runtime));
    terminate_run({.outcome = Outcome::Deadlock,
                   .exit_status = kExitDeadlock,
                   .application_status = std::nullopt,
                   .report = deadlock_report(error, runtime)});
  } catch (const mpi::ProcessFailure& failure) { // found where no error handler could take it: fatal
    terminate_on_process_failure(failure, nullptr);
  } catch (const mpi::OverflowExhausted& error) { // bxi: a receiver's overflow list ran out (its report says all)
    terminate_on_rank_failure(error, Outcome::MpiError, kExitMpiError, timeline.get(), "");
  } catch (const SimulationError& error) { // the application's doing, found below the C API
    terminate_on_rank_failure(error, Outcome::MpiError, kExitMpiError, timeline.get());
  } catch (const InputError& error) { // the same (an operation undefined for a datatype the C API let through)
    terminate_on_rank_failure(error, Outcome::MpiError, kExitMpiError, timeline.get());
  } catch (const std::exception& error) { // mpisim's own failure
    terminate_on_rank_failure(error, Outcome::Failure, kExitFailure, timeline.get());
  }
  abort_if_every_rank_failed(simulation.world(), outcome);
  g_run = {};
  runtime.set_run_end(nullptr);
  runtime.set_output_boundary(nullptr);
  runtime.set_output_end(nullptr);
  tagger.reset(); // the last lines out, stdout and stderr restored
  if (timeline)
    timeline->finish();
  std::fflush(stdout);
  outcome.simulated_time = simulation.engine().now();
  if (not previous.empty() || not simulation.world().failures().empty())
    outcome.attempts =
        attempts_until(previous, start_time, outcome.simulated_time, outcome.end.outcome, simulation.world());
  outcome.fingerprint = simulation.engine().fingerprint();
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  runtime.warn_requests_pending_at_finalize();
  for (const std::string& warning : runtime.warnings())
    std::cerr << "mpisim: warning: " << warning << "\n";
  if (outcome.end.outcome == Outcome::ApplicationExit) {
    outcome.end.report = "mpisim: rank " + std::to_string(outcome.failed_rank) + " returned exit status " +
                         std::to_string(*outcome.end.application_status);
    std::cerr << outcome.end.report << "\n";
  }
  write_summary(options, &runtime, outcome);
  return outcome.end.exit_status;
}

// Bad input found once the options are read (the platform, the program): one line, status 2, and under --json a
// summary that says so.
int refuse_input(const RunnerOptions& options, const std::string& report)
{
  std::cerr << report << "\n";
  write_summary_at_abrupt_end(options, nullptr, RunOutcome{},
                              {.outcome = Outcome::BadInput,
                               .exit_status = kExitBadInput,
                               .application_status = std::nullopt,
                               .report = report});
  return kExitBadInput;
}

} // namespace

int main(int argc, char** argv)
{
  remember_arguments(argv);
  RunnerOptions options;
  try {
    options = parse_runner_options(argc, argv);
    if (options.help) {
      std::cout << runner_usage();
      return 0;
    }
    restart_with_huge_pages(options.huge_pages, argv); // first: glibc reads its tunables at start only
    if (not options.host_speed_given)
      options.online.host_speed = measure_host_speed();
  } catch (const InputError& error) {
    std::cerr << "mpisim run: " << printable_text(error.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& error) {
    std::cerr << "mpisim run: " << printable_text(error.what()) << "\n";
    return kExitFailure;
  }
  try {
    return run(options);
  } catch (const UnsupportedMpiCall& error) {
    return refuse_input(options, printable_text(error.what()));
  } catch (const InputError& error) {
    return refuse_input(options, "mpisim run: " + printable_text(error.what()));
  } catch (const std::exception& error) {
    std::cerr << "mpisim run: " << printable_text(error.what()) << "\n";
    return kExitFailure;
  }
}
