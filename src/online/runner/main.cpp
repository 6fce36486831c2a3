// mpisim-run: runs an MPI application, built as a shared object by `mpisim cc`, as simulated ranks (docs/online.md).
//
// Exit status: the application's (the first non-zero status a rank's main returned, MPI_Abort's error code),
// 128 + signal when a rank crashes, 2 for bad arguments, 3 on deadlock.
#include "online/bindings/Api.hpp"
#include "online/options/RunnerOptions.hpp"
#include "online/runner/CrashHandler.hpp"
#include "online/runner/HostSpeed.hpp"
#include "online/runner/OutputTagger.hpp"
#include "online/runner/PrivatizedProgram.hpp"
#include "online/runner/RunTimeline.hpp"
#include "online/runner/Summary.hpp"

#include "common/Errors.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
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

// A rank calling exit() ends the whole process (as in SMPI): say which rank did, and when, and let its output out.
struct RunInProgress {
  Runtime* runtime = nullptr;
  RunTimeline* timeline = nullptr;
};
RunInProgress g_run;

void report_exit_during_run()
{
  if (g_run.runtime == nullptr)
    return;
  const int rank = g_run.runtime->running_rank();
  g_run.runtime->end_output();
  if (g_run.timeline)
    g_run.timeline->finish();
  std::fflush(stdout);
  std::fprintf(stderr, "mpisim: rank %d called exit() at simulated time %.9f s: the run ends\n", rank,
               g_run.runtime->now());
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

void write_summary(const RunnerOptions& options, const Runtime& runtime, const RunOutcome& outcome)
{
  if (options.quiet)
    return;
  const std::string text =
      options.json ? summary_json(options, runtime, outcome) : summary_text(options, runtime, outcome);
  if (options.summary_file.empty()) {
    std::cerr << text << std::flush;
    return;
  }
  std::ofstream out(options.summary_file);
  out << text;
  if (not out)
    throw InputError(options.summary_file, 0, "cannot write the summary");
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
    if (status != 0 && outcome.exit_status == 0) {
      outcome.exit_status = status;
      outcome.failed_rank = me;
    }
  });
}

int run(const RunnerOptions& options)
{
  mpi::Simulation simulation(options.simulation, options.ranks);
  Runtime runtime(simulation, options.online);
  const std::unique_ptr<PrivatizedProgram> program =
      load_privatized_program(options.program, options.ranks, options.tmpdir, options.privatization);
  const MemoryContextsInstalled contexts(simulation.engine(), runtime.libc(), program->memory_contexts());
  std::unique_ptr<OutputTagger> tagger;
  if (options.tag_output) {
    tagger = std::make_unique<OutputTagger>();
    runtime.set_output_boundary([&tagger](int rank) { tagger->boundary(rank); });
    runtime.set_output_end([&tagger] { tagger->close(); });
  }
  std::unique_ptr<RunTimeline> timeline;
  if (not options.timeline.path.empty())
    timeline = std::make_unique<RunTimeline>(options, simulation, runtime);
  RunOutcome outcome;
  outcome.host_speed = options.online.host_speed;
  outcome.privatization = program->name();
  try {
    launch_ranks(simulation, runtime, *program, options, outcome);
  } catch (const std::bad_alloc&) { // a stack could not be mapped
    throw std::runtime_error("cannot allocate the stacks of " + std::to_string(options.ranks) + " ranks (" +
                             std::to_string(options.simulation.stack_size >> 10) +
                             " KiB each): " + mapping_limit_hint());
  }
  install_crash_handler();
  g_run = {&runtime, timeline.get()};
  std::atexit(report_exit_during_run);
  const auto start = std::chrono::steady_clock::now();
  try {
    simulation.engine().run();
  } catch (const DeadlockError& error) {
    if (timeline) // what happened up to the deadlock
      timeline->finish();
    terminate_run(std::string("mpisim: ") + error.what(), 3); // blocked ranks are not unwound through C frames
  } catch (const std::exception& error) {
    if (timeline)
      timeline->finish();
    terminate_run(std::string("mpisim: rank failed: ") + error.what(), 1);
  }
  g_run = {};
  runtime.set_output_boundary(nullptr);
  runtime.set_output_end(nullptr);
  tagger.reset(); // the last lines out, stdout and stderr restored
  if (timeline)
    timeline->finish();
  std::fflush(stdout);
  outcome.simulated_time = simulation.engine().now();
  outcome.fingerprint = simulation.engine().fingerprint();
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcome.exit_status != 0)
    std::cerr << "mpisim: rank " << outcome.failed_rank << " returned exit status " << outcome.exit_status << "\n";
  write_summary(options, runtime, outcome);
  return outcome.exit_status;
}

} // namespace

int main(int argc, char** argv)
{
  try {
    RunnerOptions options = parse_runner_options(argc, argv);
    if (options.help) {
      std::cout << runner_usage();
      return 0;
    }
    if (not options.host_speed_given)
      options.online.host_speed = measure_host_speed();
    return run(options);
  } catch (const UnsupportedMpiCall& error) {
    std::cerr << printable_text(error.what()) << "\n";
    return 2;
  } catch (const InputError& error) {
    std::cerr << "mpisim run: " << printable_text(error.what()) << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "mpisim run: " << printable_text(error.what()) << "\n";
    return 1;
  }
}
