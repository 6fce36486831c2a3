#include "online/runtime/Runtime.hpp"

#include "online/objects/Files.hpp"
#include "online/objects/NameService.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/objects/ToolVariables.hpp"
#include "online/objects/Windows.hpp"
#include "online/runtime/CallReporter.hpp"
#include "online/runtime/Errors.hpp"
#include "online/runtime/Sampling.hpp"

#include "mpi/Rank.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace mpisim::online {

namespace {
Runtime* g_runtime = nullptr;
} // namespace

Runtime::Runtime(mpi::Simulation& simulation, OnlineOptions options)
    : simulation_(simulation), options_(std::move(options)), accounts_(simulation.world().size()),
      communicators_(simulation.world()), process_objects_(std::make_unique<ProcessObjects>(simulation.world().size())),
      libc_(simulation.world().size()), signals_(simulation.engine(), simulation.world().size()),
      thread_(pthread_self())
{
  simulation.world().set_polling(options_.polling);
  simulation.world().set_scheduling(options_.scheduling);
  g_runtime = this;
}

Runtime::~Runtime()
{
  g_runtime = nullptr;
}

Runtime& Runtime::get()
{
  if (g_runtime == nullptr)
    throw std::logic_error("MPI called outside of an mpisim online simulation (run the program with `mpisim run`)");
  return *g_runtime;
}

bool Runtime::active()
{
  return g_runtime != nullptr;
}

double Runtime::now() const
{
  return simulation_.engine().now();
}

void Runtime::attach(int world_rank)
{
  const auto actor = static_cast<size_t>(simulation_.engine().self().id());
  if (actor >= rank_of_actor_.size())
    rank_of_actor_.resize(actor + 1, -1);
  rank_of_actor_[actor] = world_rank;
  signals_.bind(world_rank, simulation_.engine().self());
  running_rank_ = world_rank;
  if (options_.compute_time)
    mark_cpu(accounts_[world_rank]);
}

void Runtime::detach(int world_rank)
{
  output_boundary(world_rank);
  accounts_[world_rank].finish = now();
}

int Runtime::libc_rank()
{
  if (g_runtime == nullptr || not pthread_equal(pthread_self(), g_runtime->thread_))
    return -1;
  const kernel::Actor* actor = g_runtime->simulation_.engine().running();
  if (actor == nullptr)
    return -1;
  const auto id = static_cast<size_t>(actor->id());
  return id < g_runtime->rank_of_actor_.size() ? g_runtime->rank_of_actor_[id] : -1;
}

void Runtime::warn_requests_pending_at_finalize()
{
  constexpr size_t kShown = 3;
  const auto pending = requests_.pending_by_rank([this](int rank) { return accounts_[rank].finalized; });
  for (const auto& [rank, handles] : pending) {
    std::string text = "rank " + std::to_string(rank) + " called MPI_Finalize with " + std::to_string(handles.size()) +
                       " request" + (handles.size() == 1 ? "" : "s") + " pending: ";
    for (size_t i = 0; i < std::min(kShown, handles.size()); ++i)
      text += (i ? "; " : "") + Requests::describe_pending(*requests_.find(handles[i]));
    if (handles.size() > kShown)
      text += "; and " + std::to_string(handles.size() - kShown) + " more";
    warn(std::move(text));
  }
}

bool Runtime::running_rank_overflows_stack(const void* address, uintptr_t stack_pointer) const
{
  const kernel::Actor* actor = simulation_.engine().running();
  return actor != nullptr && actor->overflows_stack(address, stack_pointer);
}

std::vector<Runtime::WaitingRank> Runtime::waiting_ranks() const
{
  std::vector<WaitingRank> waiting;
  for (const kernel::Engine::BlockedActor& blocked : simulation_.engine().blocked_actors()) {
    const auto actor = static_cast<size_t>(blocked.actor->id());
    if (actor < rank_of_actor_.size() && rank_of_actor_[actor] >= 0)
      waiting.push_back({rank_of_actor_[actor], blocked.waits_for});
  }
  std::sort(waiting.begin(), waiting.end(), [](const WaitingRank& a, const WaitingRank& b) { return a.rank < b.rank; });
  return waiting;
}

void Runtime::refuse_call(int world_rank, const char* call)
{
  const std::string_view name = std::string_view(call).starts_with("PMPI_") ? call + 1 : call;
  const RankAccount& account = accounts_[world_rank];
  // Calls that make sense outside: MPI_Init first of all, time (Open MPI 4.1 reads MPI_Wtime before MPI_Init too),
  // and ending the run (MPI_Abort does what the program asks).
  if (name == "MPI_Wtime" || name == "MPI_Abort" || (name == "MPI_Init" && not account.finalized))
    return;
  terminate_on_mpi_error(*this, std::string(name) +
                                    (account.finalized ? " called after MPI_Finalize" : " called before MPI_Init"));
}

int Runtime::enter_call(const char* call, bool checked)
{
  const int me = current_rank();
  RankAccount& account = accounts_[me];
  if (account.depth > 0) {
    ++account.depth;
    return me;
  }
  if (call != nullptr && checked)
    check_call_allowed(call);
  ++account.depth;
  output_boundary(me);
  ++account.calls;
  const double burst = options_.compute_time ? computation_burst(account) : 0;
  if (options_.compute_time && burst >= options_.cpu_threshold)
    inject_computation(me, burst * options_.host_speed);
  account.entered = now();
  if (reporter_)
    reporter_->begin(me, call, account.entered);
  return me;
}

void Runtime::leave_call(int world_rank)
{
  running_rank_ = world_rank;
  RankAccount& account = accounts_[world_rank];
  if (--account.depth > 0)
    return;
  account.mpi += now() - account.entered;
  if (reporter_)
    reporter_->end(running_rank_, now());
  if (options_.compute_time)
    mark_cpu(account);
}

// Annotations for large studies ---------------------------------------------------------------------------------

NameService& Runtime::names()
{
  if (not names_)
    names_ = std::make_unique<NameService>();
  return *names_;
}

ToolInterface& Runtime::tools()
{
  if (not tools_)
    tools_ = std::make_unique<ToolInterface>();
  return *tools_;
}

Sampling& Runtime::sampling()
{
  if (not sampling_)
    sampling_ = std::make_unique<Sampling>(world().size());
  return *sampling_;
}

Files& Runtime::files()
{
  if (not files_)
    files_ = std::make_unique<Files>(simulation_, options_.io_root, world().size());
  return *files_;
}

void Runtime::discard_temporary_files()
{
  if (files_)
    files_->remove_temporary_root();
}

Windows& Runtime::windows()
{
  if (not windows_)
    windows_ = std::make_unique<Windows>();
  return *windows_;
}

bool Runtime::in_sampled_body()
{
  if (not sampling_)
    return false;
  const SamplePass& pass = sampling_->pass(current_rank());
  return pass.statistics != nullptr && pass.visible.running;
}

void Runtime::flush_computation()
{
  const double burst = computation_burst(accounts_[current_rank()]);
  if (options_.compute_time && burst >= options_.cpu_threshold)
    execute_flops(burst * options_.host_speed);
  restart_computation();
}

void Runtime::restart_computation()
{
  mark_cpu(accounts_[current_rank()]);
}

void Runtime::execute_flops(double flops)
{
  const int me = current_rank();
  output_boundary(me); // other ranks may run meanwhile
  inject_computation(me, flops);
  running_rank_ = me;
}

// Computation measured between MPI calls and computation annotations alike: simulated, accounted, and shown as a
// compute slice in the timeline.
void Runtime::inject_computation(int world_rank, double flops)
{
  const double start = now();
  world().rank(world_rank).compute(flops);
  accounts_[world_rank].compute += now() - start;
  if (reporter_)
    reporter_->compute(world_rank, start, now(), flops);
}

double Runtime::read_clock()
{
  if (in_sampled_body()) // as MPI_Wtime: the sampler measures the body's real time itself
    return now();
  flush_computation();
  const double date = now();
  rank().note_clock_read(); // as MPI_Wtime: a polling loop bounded by time is not fast-forwarded past its bound
  sleep(options_.wtime_delay);
  restart_computation(); // other ranks ran meanwhile, on the same thread
  return date;
}

double Runtime::read_cpu_clock()
{
  RankAccount& account = accounts_[current_rank()];
  rank().note_clock_read();
  if (options_.compute_time && not in_sampled_body()) {
    const double burst = computation_burst(account);
    if (burst >= options_.cpu_threshold) {
      execute_flops(burst * options_.host_speed);
      restart_computation();
    }
  }
  return account.compute;
}

void Runtime::sleep_for(double seconds)
{
  rank().note_clock_read(); // a loop that sleeps between polls is not fast-forwarded past its sleeps
  flush_computation();
  sleep(seconds);
  restart_computation();
}

void Runtime::sleep(double seconds)
{
  const int me = current_rank();
  output_boundary(me);
  world().rank(me).sleep(seconds);
  running_rank_ = me;
}

} // namespace mpisim::online
