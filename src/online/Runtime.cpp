#include "online/Runtime.hpp"

#include "mpi/Rank.hpp"

#include <ctime>
#include <stdexcept>

namespace mpisim::online {

namespace {
Runtime* g_runtime = nullptr;
constexpr int kPredefinedTypes = 37; // MPI_CHAR (1) .. MPI_PACKED (37), in mpi::Element order
constexpr int kPredefinedOps = 14;   // MPI_MAX (1) .. MPI_NO_OP (14), in mpi::ReduceOperation order
} // namespace

double thread_cpu_time()
{
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

Runtime::Runtime(mpi::Simulation& simulation, OnlineOptions options)
    : simulation_(simulation), options_(options), accounts_(simulation.world().size())
{
  mpi::World& world = simulation.world();
  comms_.resize(3);
  comms_[1].comm = &world.comm_world();
  for (int r = 0; r < world.size(); ++r)
    self_comms_.push_back(&world.create_communicator("MPI_COMM_SELF of rank " + std::to_string(r), {r}));
  datatypes_.resize(kPredefinedTypes + 1);
  for (int element = 0; element < kPredefinedTypes; ++element)
    datatypes_[element + 1] = mpi::Datatype::predefined(static_cast<mpi::Element>(element));
  ops_.resize(kPredefinedOps + 1);
  for (int operation = 0; operation < kPredefinedOps; ++operation)
    ops_[operation + 1] = mpi::ReduceOp::predefined(static_cast<mpi::ReduceOperation>(operation));
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
  rank_of_actor_[simulation_.engine().self().id()] = world_rank;
  running_rank_ = world_rank;
  accounts_[world_rank].cpu_mark = thread_cpu_time();
}

void Runtime::detach(int world_rank)
{
  output_boundary(world_rank);
  accounts_[world_rank].finish = now();
}

int Runtime::current_rank() const
{
  auto found = rank_of_actor_.find(simulation_.engine().self().id());
  return found == rank_of_actor_.end() ? -1 : found->second;
}

void Runtime::enter_call()
{
  const int me = current_rank();
  RankAccount& account = accounts_[me];
  if (account.depth++ > 0)
    return;
  output_boundary(me);
  ++account.calls;
  const double burst = thread_cpu_time() - account.cpu_mark;
  if (options_.compute_time && burst >= options_.cpu_threshold) {
    const double start = now();
    world().rank(me).compute(burst * options_.host_speed);
    account.compute += now() - start;
  }
  account.entered = now();
}

void Runtime::leave_call()
{
  running_rank_ = current_rank();
  RankAccount& account = accounts_[running_rank_];
  if (--account.depth > 0)
    return;
  account.mpi += now() - account.entered;
  account.cpu_mark = thread_cpu_time();
}

CommEntry* Runtime::comm_entry(int handle)
{
  if (handle == 2) { // MPI_COMM_SELF: each rank's own
    static CommEntry self;
    self.comm = self_comms_[current_rank()];
    return &self;
  }
  if (handle <= 0 || handle >= static_cast<int>(comms_.size()) || comms_[handle].comm == nullptr)
    return nullptr;
  return &comms_[handle];
}

const mpi::Communicator* Runtime::comm(int handle)
{
  CommEntry* entry = comm_entry(handle);
  return entry ? entry->comm : nullptr;
}

int Runtime::adopt(const mpi::Communicator& parent, int color, const std::function<std::vector<int>()>& members)
{
  const uint32_t sequence = accounts_[current_rank()].comm_creations[parent.context()]++;
  auto key = std::make_tuple(parent.context(), sequence, color);
  auto found = created_comms_.find(key);
  if (found != created_comms_.end())
    return found->second;
  const std::string name = parent.name() + "/" + std::to_string(sequence) + ":" + std::to_string(color);
  comms_.push_back(CommEntry{&world().create_communicator(name, members())});
  const int handle = static_cast<int>(comms_.size()) - 1;
  created_comms_[key] = handle;
  return handle;
}

void Runtime::release_comm(int handle)
{
  // Communicators stay allocated: other members may still use the handle (each member frees its own reference).
  (void)handle;
}

int Runtime::errhandler(int comm)
{
  const auto& handlers = accounts_[current_rank()].errhandlers;
  auto found = handlers.find(comm);
  return found == handlers.end() ? 1 /* MPI_ERRORS_ARE_FATAL */ : found->second;
}

void Runtime::set_errhandler(int comm, int errhandler)
{
  accounts_[current_rank()].errhandlers[comm] = errhandler;
}

mpi::DatatypePtr Runtime::datatype(int handle) const
{
  if (handle <= 0 || handle >= static_cast<int>(datatypes_.size()))
    return nullptr;
  return datatypes_[handle];
}

int Runtime::add_datatype(mpi::DatatypePtr type)
{
  datatypes_.push_back(std::move(type));
  return static_cast<int>(datatypes_.size()) - 1;
}

int Runtime::datatype_handle(const mpi::Datatype& type) const
{
  for (size_t handle = 1; handle < datatypes_.size(); ++handle)
    if (datatypes_[handle].get() == &type)
      return static_cast<int>(handle);
  return 0;
}

void Runtime::release_datatype(int handle)
{
  // Predefined types are never freed; derived types live on while messages or requests hold them (shared_ptr).
  if (handle > kPredefinedTypes && handle < static_cast<int>(datatypes_.size()))
    datatypes_[handle] = nullptr;
}

mpi::ReduceOpPtr Runtime::op(int handle) const
{
  if (handle <= 0 || handle >= static_cast<int>(ops_.size()))
    return nullptr;
  return ops_[handle];
}

int Runtime::add_op(mpi::ReduceOpPtr op)
{
  ops_.push_back(std::move(op));
  return static_cast<int>(ops_.size()) - 1;
}

void Runtime::release_op(int handle)
{
  if (handle > kPredefinedOps && handle < static_cast<int>(ops_.size()))
    ops_[handle] = nullptr;
}

int Runtime::add_request(RequestEntry entry)
{
  const int handle = next_request_++;
  requests_.emplace(handle, std::move(entry));
  return handle;
}

RequestEntry* Runtime::request(int handle)
{
  auto found = requests_.find(handle);
  return found == requests_.end() ? nullptr : &found->second;
}

void Runtime::release_request(int handle)
{
  requests_.erase(handle);
}

int Runtime::add_message(mpi::MessagePtr message)
{
  const int handle = next_message_++;
  messages_.emplace(handle, std::move(message));
  return handle;
}

mpi::MessagePtr Runtime::take_message(int handle)
{
  auto found = messages_.find(handle);
  if (found == messages_.end())
    return nullptr;
  mpi::MessagePtr message = std::move(found->second);
  messages_.erase(found);
  return message;
}

} // namespace mpisim::online
