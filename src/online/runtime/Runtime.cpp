#include "online/runtime/Runtime.hpp"

#include "online/objects/ProcessObjects.hpp"
#include "online/objects/Windows.hpp"
#include "online/runtime/CallReporter.hpp"
#include "online/runtime/Sampling.hpp"

#include "mpi/Rank.hpp"

#include <ctime>
#include <stdexcept>

namespace mpisim::online {

namespace {
Runtime* g_runtime = nullptr;
constexpr int kPredefinedTypes = 42; // MPI_CHAR (1) .. MPI_CXX_LONG_DOUBLE_COMPLEX (42), in mpi::Element order
constexpr int kPredefinedOps = 14;   // MPI_MAX (1) .. MPI_NO_OP (14), in mpi::ReduceOperation order
constexpr HandleKind kDatatypeKind{MPI_ERR_TYPE, "datatype"};
constexpr HandleKind kOpKind{MPI_ERR_OP, "operation"};
constexpr HandleKind kRequestKind{MPI_ERR_REQUEST, "request"};
constexpr HandleKind kMessageKind{MPI_ERR_REQUEST, "message handle"};
} // namespace

double thread_cpu_time()
{
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double monotonic_time()
{
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

Runtime::Runtime(mpi::Simulation& simulation, OnlineOptions options)
    : simulation_(simulation), options_(options), accounts_(simulation.world().size()),
      communicators_(simulation.world()), datatypes_(kDatatypeKind, kPredefinedTypes + 1),
      ops_(kOpKind, kPredefinedOps + 1), requests_(kRequestKind, 1), messages_(kMessageKind, 1),
      process_objects_(std::make_unique<ProcessObjects>(simulation.world().size()))
{
  for (int element = 0; element < kPredefinedTypes; ++element)
    datatypes_.insert_predefined(element + 1, mpi::Datatype::predefined(static_cast<mpi::Element>(element)));
  for (int operation = 0; operation < kPredefinedOps; ++operation)
    ops_.insert_predefined(operation + 1, mpi::ReduceOp::predefined(static_cast<mpi::ReduceOperation>(operation)));
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
  running_rank_ = world_rank;
  if (options_.compute_time)
    mark_cpu(accounts_[world_rank]);
}

void Runtime::detach(int world_rank)
{
  output_boundary(world_rank);
  accounts_[world_rank].finish = now();
}

int Runtime::current_rank() const
{
  const auto actor = static_cast<size_t>(simulation_.engine().self().id());
  return actor < rank_of_actor_.size() ? rank_of_actor_[actor] : -1;
}

void Runtime::enter_call(const char* call)
{
  const int me = current_rank();
  RankAccount& account = accounts_[me];
  if (account.depth++ > 0)
    return;
  output_boundary(me);
  ++account.calls;
  const double burst = options_.compute_time ? computation_burst(account) : 0;
  if (options_.compute_time && burst >= options_.cpu_threshold)
    inject_computation(me, burst * options_.host_speed);
  account.entered = now();
  if (reporter_)
    reporter_->begin(me, call, account.entered);
}

void Runtime::leave_call()
{
  running_rank_ = current_rank();
  RankAccount& account = accounts_[running_rank_];
  if (--account.depth > 0)
    return;
  account.mpi += now() - account.entered;
  if (reporter_)
    reporter_->end(running_rank_, now());
  if (options_.compute_time)
    mark_cpu(account);
}

// Reading the thread's CPU clock is a system call (no vDSO for it), two per MPI call would double the cost of a small
// message. A thread's CPU time never grows faster than real time, and wall_mark is read before cpu_mark: when less
// real time than the threshold has passed since the mark, the CPU burst is shorter still and is dropped without
// reading the CPU clock. Returns 0 then, else the CPU burst.
double Runtime::computation_burst(const RankAccount& account) const
{
  if (monotonic_time() - account.wall_mark < options_.cpu_threshold)
    return 0;
  return thread_cpu_time() - account.cpu_mark;
}

void Runtime::mark_cpu(RankAccount& account)
{
  account.wall_mark = monotonic_time();
  account.cpu_mark = thread_cpu_time();
}

mpi::DatatypePtr Runtime::datatype(int handle) const
{
  const mpi::DatatypePtr* type = datatypes_.find(handle);
  return type != nullptr ? *type : nullptr;
}

int Runtime::add_datatype(mpi::DatatypePtr type)
{
  return datatypes_.insert(std::move(type));
}

int Runtime::datatype_handle(const mpi::Datatype& type) const
{
  return datatypes_.find_handle([&type](const mpi::DatatypePtr& known) { return known.get() == &type; });
}

void Runtime::release_datatype(int handle)
{
  // Predefined types are never freed; derived types live on while messages or requests hold them (shared_ptr).
  if (handle > kPredefinedTypes)
    datatypes_.erase(handle);
}

mpi::ReduceOpPtr Runtime::op(int handle) const
{
  const mpi::ReduceOpPtr* op = ops_.find(handle);
  return op != nullptr ? *op : nullptr;
}

int Runtime::add_op(mpi::ReduceOpPtr op)
{
  return ops_.insert(std::move(op));
}

void Runtime::release_op(int handle)
{
  if (handle > kPredefinedOps)
    ops_.erase(handle);
}

int Runtime::add_request(RequestEntry entry)
{
  return requests_.insert(std::move(entry));
}

RequestEntry* Runtime::request(int handle)
{
  return requests_.find(handle);
}

void Runtime::release_request(int handle)
{
  requests_.erase(handle);
}

int Runtime::add_message(mpi::MessagePtr message)
{
  return messages_.insert(std::move(message));
}

mpi::MessagePtr Runtime::take_message(int handle)
{
  std::optional<mpi::MessagePtr> message = messages_.take(handle);
  return message ? std::move(*message) : nullptr;
}

// Annotations for large studies ---------------------------------------------------------------------------------

Sampling& Runtime::sampling()
{
  if (not sampling_)
    sampling_ = std::make_unique<Sampling>(world().size());
  return *sampling_;
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
  const double burst = thread_cpu_time() - accounts_[current_rank()].cpu_mark;
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

void Runtime::sleep(double seconds)
{
  const int me = current_rank();
  output_boundary(me);
  world().rank(me).sleep(seconds);
  running_rank_ = me;
}

} // namespace mpisim::online
