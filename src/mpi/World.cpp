#include "mpi/World.hpp"

#include "mpi/Message.hpp"
#include "mpi/Rank.hpp"

#include <algorithm>
#include <numeric>

namespace mpisim::mpi {

namespace {
std::vector<resources::CpuSpec> cpu_specs(const platform::Platform& platform)
{
  std::vector<resources::CpuSpec> specs;
  specs.reserve(platform.hosts().size());
  for (const platform::HostSpec& host : platform.hosts())
    specs.push_back({host.speed, host.cores});
  return specs;
}
} // namespace

World::World(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
             std::vector<platform::HostId> rank_hosts, WorldSettings settings)
    : engine_(engine), platform_(platform), network_(&network), cpu_(engine, cpu_specs(platform)),
      rank_hosts_(std::move(rank_hosts)), settings_(settings), mailboxes_(rank_hosts_.size())
{
  std::vector<int> everyone(rank_hosts_.size());
  std::iota(everyone.begin(), everyone.end(), 0);
  comm_world_ = &create_communicator("MPI_COMM_WORLD", std::move(everyone));
  for (int rank = 0; rank < size(); ++rank)
    ranks_.push_back(std::make_unique<Rank>(*this, rank));
  engine_.set_stall_handler([this] { return release_fast_forwarded_polls(); });
}

OverflowList* World::overflow_list(int world_rank)
{
  if (not overflow_asked_) {
    overflow_asked_ = true;
    if (auto settings = network_->overflow_buffers())
      overflow_lists_.assign(rank_hosts_.size(), OverflowList(*settings));
  }
  return overflow_lists_.empty() ? nullptr : &overflow_lists_[static_cast<size_t>(world_rank)];
}

bool World::release_fast_forwarded_polls()
{
  if (polling_progress_ == progress_at_release_)
    return false;
  bool released = false;
  for (const std::unique_ptr<Rank>& rank : ranks_) // in rank order: deterministic
    released = rank->release_fast_forward() || released;
  if (released)
    progress_at_release_ = polling_progress_;
  return released;
}

World::~World() = default;

const Communicator& World::create_communicator(std::string name, std::vector<int> world_ranks, Communicator::Role role)
{
  int context = static_cast<int>(communicators_.size());
  communicators_.push_back(std::make_unique<Communicator>(context, std::move(name), std::move(world_ranks), role));
  return *communicators_.back();
}

std::pair<const Communicator*, const Communicator*>
World::create_intercommunicator(const std::string& name, std::vector<int> first, std::vector<int> second)
{
  const int context = static_cast<int>(communicators_.size()); // the second side's index is never a context
  auto a = std::make_unique<Communicator>(context, name, std::move(first));
  auto b = std::make_unique<Communicator>(context, name, std::move(second));
  Communicator::join_as_intercommunicator(*a, *b);
  communicators_.push_back(std::move(a));
  communicators_.push_back(std::move(b));
  return {communicators_[communicators_.size() - 2].get(), communicators_.back().get()};
}

const NodeLayout& World::node_layout(const Communicator& comm)
{
  auto& slot = node_layouts_[comm.context()];
  if (slot)
    return *slot;
  auto layout = std::make_unique<NodeLayout>();
  layout->world_ = this;
  layout->comm_ = &comm;
  std::map<platform::HostId, int> node_of_host;
  for (int local = 0; local < comm.size(); ++local) {
    auto [it, added] = node_of_host.emplace(host_of(comm.world_rank(local)), static_cast<int>(layout->members.size()));
    if (added)
      layout->members.emplace_back();
    layout->node_of.push_back(it->second);
    layout->members[it->second].push_back(local);
  }
  for (const auto& members : layout->members) {
    layout->uniform = layout->uniform && members.size() == layout->members[0].size();
    layout->ranks_per_node = std::max(layout->ranks_per_node, static_cast<int>(members.size()));
    layout->blocked = layout->blocked && members.back() - members.front() + 1 == static_cast<int>(members.size());
  }
  layout->intra_.assign(layout->members.size(), nullptr);
  slot = std::move(layout);
  return *slot;
}

const Communicator& NodeLayout::intra(size_t node) const
{
  if (intra_[node] == nullptr) {
    std::vector<int> world_ranks;
    for (int local : members[node])
      world_ranks.push_back(comm_->world_rank(local));
    intra_[node] = &world_->create_communicator(comm_->name() + " node " + std::to_string(node), std::move(world_ranks),
                                                Communicator::Role::Node);
  }
  return *intra_[node];
}

const Communicator& NodeLayout::leaders() const
{
  if (leaders_ == nullptr) {
    std::vector<int> world_ranks;
    for (const auto& node : members)
      world_ranks.push_back(comm_->world_rank(node[0]));
    leaders_ =
        &world_->create_communicator(comm_->name() + " leaders", std::move(world_ranks), Communicator::Role::Leaders);
  }
  return *leaders_;
}

void World::launch(const std::function<void(Rank&)>& main)
{
  // One copy of `main` for all ranks: each actor's body then fits in std::function's inline storage (no allocation
  // per rank).
  mains_.push_back(std::make_unique<std::function<void(Rank&)>>(main));
  const std::function<void(Rank&)>* body = mains_.back().get();
  for (int rank = 0; rank < size(); ++rank) {
    Rank* self = ranks_[rank].get();
    kernel::Actor& actor = engine_.spawn("rank " + std::to_string(rank), [self, body] { (*body)(*self); });
    actor.set_memory_context(rank); // a rank's private memory, if the front end has any, is named by its world rank
    rank_actors_.push_back(&actor);
  }
}

// Process failures ---------------------------------------------------------------------------------------------------

void World::schedule_failures(const std::vector<double>& dates, bool detect)
{
  detect_failures_ = detect;
  if (std::all_of(dates.begin(), dates.end(), [](double date) { return date == kernel::kNever; }))
    return;
  failed_at_.assign(static_cast<size_t>(size()), kernel::kNever);
  // In rank order at equal dates: deterministic.
  for (int rank = 0; rank < size(); ++rank)
    if (dates[static_cast<size_t>(rank)] != kernel::kNever)
      engine_.schedule_background(dates[static_cast<size_t>(rank)], [this, rank] { fail_rank(rank); });
}

void World::keep_track_of(const std::shared_ptr<Message>& message)
{
  if (tracked_.size() >= 2 * tracked_after_pruning_ + 1024) { // amortized: a weak reference keeps a message's memory
    std::erase_if(tracked_, [](const std::weak_ptr<Message>& m) { return m.expired(); });
    tracked_after_pruning_ = tracked_.size();
  }
  tracked_.push_back(message);
}

void World::fail_request(Request& request, FailureKind kind, int failed)
{
  if (request.done())
    return;
  request.failure = kind;
  request.failed_rank = failed;
  request.failed_at = failed >= 0 ? failed_at(failed) : engine_.now();
  request.complete();
}

ProcessFailure World::failure_of(const Request& request) const
{
  return {request.failure, request.failed_rank,   request.failed_at,       request.owner(),
          engine_.now(),   request.comm().name(), request.comm().context()};
}

void World::fail_rank(int world_rank)
{
  if (failed_at_.empty())
    failed_at_.assign(static_cast<size_t>(size()), kernel::kNever);
  kernel::Actor* actor = static_cast<size_t>(world_rank) < rank_actors_.size() ? rank_actors_[world_rank] : nullptr;
  if (has_failed(world_rank) || (actor != nullptr && actor->state() == kernel::Actor::State::Finished))
    return; // a rank that has ended does not fail any more
  failed_at_[static_cast<size_t>(world_rank)] = engine_.now();
  failures_.push_back({world_rank, engine_.now()});
  report(FailureRecord{world_rank, engine_.now()});
  // What it sent and was not all there yet is lost; what others sent it, or were sending it, goes nowhere.
  std::vector<Request*> broken_sends;
  std::vector<Request*> broken_receives;
  std::erase_if(tracked_, [](const std::weak_ptr<Message>& m) { return m.expired(); });
  for (const std::weak_ptr<Message>& weak : tracked_) {
    const std::shared_ptr<Message> message = weak.lock();
    if (message->dropped())
      continue;
    if (message->source_world() == world_rank && not message->arrived()) {
      message->drop();
      mailbox(message->destination_world()).drop_unexpected(*message);
      if (message->receive() != nullptr)
        broken_receives.push_back(message->receive());
    } else if (message->destination_world() == world_rank) {
      message->drop();
      broken_sends.push_back(&message->send());
    }
  }
  if (actor != nullptr) {
    if (actor->blocked_on() != nullptr) // a computation it was running stops with it, freeing its share of the host
      cpu_.abort(host_of(world_rank), *actor->blocked_on());
    engine_.kill(*actor);
  }
  if (not detect_failures_)
    return;
  for (Request* request : broken_receives)
    fail_request(*request, FailureKind::ProcessFailed, world_rank);
  for (Request* request : broken_sends)
    fail_request(*request, FailureKind::ProcessFailed, world_rank);
  // Receives and probes waiting for it, named or through MPI_ANY_SOURCE on a communicator holding it.
  for (int rank = 0; rank < size(); ++rank) {
    if (has_failed(rank))
      continue;
    auto waits_for_it = [this, world_rank, rank](const Request& request) {
      const Communicator& comm = request.comm();
      const int local = comm.peer_local_rank(world_rank);
      if (local < 0)
        return false;
      return request.peer() == local || (request.peer() == kAnySource && failed_member(comm, rank) >= 0);
    };
    for (const RequestPtr& request : mailbox(rank).take_posted(waits_for_it))
      fail_request(*request, FailureKind::ProcessFailed, world_rank);
    for (const RequestPtr& request : mailbox(rank).take_probes(waits_for_it))
      fail_request(*request, FailureKind::ProcessFailed, world_rank);
  }
}

int World::failed_member(const Communicator& comm, int unacknowledged_by) const
{
  if (failures_.empty())
    return -1;
  const std::vector<int>* acknowledged = nullptr;
  if (unacknowledged_by >= 0)
    acknowledged = &acknowledged_failures(unacknowledged_by, comm);
  for (const FailureAt& failure : failures_) {
    if (comm.peer_local_rank(failure.rank) < 0)
      continue;
    if (acknowledged != nullptr &&
        std::find(acknowledged->begin(), acknowledged->end(), failure.rank) != acknowledged->end())
      continue;
    return failure.rank;
  }
  return -1;
}

std::vector<int> World::survivors(const Communicator& comm) const
{
  std::vector<int> alive;
  for (int local = 0; local < comm.size(); ++local)
    if (not has_failed(comm.world_rank(local)))
      alive.push_back(comm.world_rank(local));
  return alive;
}

void World::acknowledge_failures(int rank, const Communicator& comm)
{
  std::vector<int>& acknowledged = acknowledged_[{rank, comm.context()}];
  acknowledged.clear();
  for (const FailureAt& failure : failures_)
    if (comm.local_rank(failure.rank) >= 0)
      acknowledged.push_back(failure.rank);
}

const std::vector<int>& World::acknowledged_failures(int rank, const Communicator& comm) const
{
  static const std::vector<int> none;
  auto it = acknowledged_.find({rank, comm.context()});
  return it == acknowledged_.end() ? none : it->second;
}

// A revocation notice on its way to one member: a small transfer whose arrival tells the member.
class World::RevokeNotice : public kernel::ActivityObserver {
public:
  RevokeNotice(World& world, int member, const Communicator& comm) : world_(world), member_(member), comm_(comm) {}
  void start(int from)
  {
    const double now = world_.engine().now();
    transfer_ = world_.network().transfer(
        {world_.host_of(from), world_.host_of(member_), from, member_, kNoticeBytes, now, models::Protocol::Eager});
    if (not transfer_.arrival) // a model timed from the send (xsim): the notice is taken as soon as it arrives
      transfer_.arrival = world_.network().arrival_at_match(*transfer_.window, now);
    if (transfer_.arrival->done())
      activity_done(*transfer_.arrival);
    else
      transfer_.arrival->set_observer(this);
  }

private:
  static constexpr double kNoticeBytes = 8; // a context id
  void activity_done(kernel::Activity& /*arrival*/) override
  {
    if (not world_.has_failed(member_))
      world_.learn_revoked(member_, comm_);
  }
  World& world_;
  int member_;
  const Communicator& comm_;
  models::Transfer transfer_;
};

void World::revoke(int rank, const Communicator& comm)
{
  if (knows_revoked(rank, comm))
    return;
  learn_revoked(rank, comm);
  for (int local = 0; local < comm.size(); ++local) {
    const int member = comm.world_rank(local);
    if (member == rank || has_failed(member))
      continue;
    notices_.push_back(std::make_shared<RevokeNotice>(*this, member, comm));
    notices_.back()->start(rank);
  }
}

bool World::knows_revoked(int rank, const Communicator& comm) const
{
  auto it = revoked_known_.find(comm.context());
  return it != revoked_known_.end() && it->second[static_cast<size_t>(rank)];
}

void World::learn_revoked(int rank, const Communicator& comm)
{
  std::vector<bool>& known = revoked_known_[comm.context()];
  known.resize(static_cast<size_t>(size()), false);
  if (known[static_cast<size_t>(rank)])
    return;
  known[static_cast<size_t>(rank)] = true;
  // Its operations on the communicator still pending end with the revocation.
  auto on_comm = [&comm](const Request& request) { return request.comm().context() == comm.context(); };
  for (const RequestPtr& request : mailbox(rank).take_posted(on_comm))
    fail_request(*request, FailureKind::Revoked, -1);
  for (const RequestPtr& request : mailbox(rank).take_probes(on_comm))
    fail_request(*request, FailureKind::Revoked, -1);
  std::erase_if(tracked_, [](const std::weak_ptr<Message>& m) { return m.expired(); });
  for (const std::weak_ptr<Message>& weak : tracked_) {
    const std::shared_ptr<Message> message = weak.lock();
    if (message->source_world() == rank && message->context() == comm.context() && not message->send().done())
      fail_request(message->send(), FailureKind::Revoked, -1);
  }
}

const Communicator& World::survivors_communicator(const Communicator& comm)
{
  std::vector<int> alive = survivors(comm);
  const Communicator*& made = survivor_comms_[{comm.context(), alive}];
  if (made == nullptr)
    made = &create_communicator(comm.name() + " survivors", std::move(alive));
  return *made;
}

uint64_t World::contribute_to_agreement(int rank, const Communicator& survivors, int flag)
{
  const uint64_t number = agreements_made_[{rank, survivors.context()}]++;
  auto [it, first] = agreement_values_.try_emplace({survivors.context(), number}, flag);
  if (not first)
    it->second &= flag;
  return number;
}

int World::agreement_value(const Communicator& survivors, uint64_t agreement) const
{
  return agreement_values_.at({survivors.context(), agreement});
}

void World::check_operation(int rank, const Communicator& comm, bool collective) const
{
  if (not detect_failures_)
    return;
  if (knows_revoked(rank, comm))
    throw ProcessFailure(FailureKind::Revoked, -1, engine_.now(), rank, engine_.now(), comm.name(), comm.context());
  if (not collective)
    return;
  if (const int failed = failed_member(comm); failed >= 0)
    throw ProcessFailure(FailureKind::ProcessFailed, failed, failed_at(failed), rank, engine_.now(), comm.name(),
                         comm.context());
}

} // namespace mpisim::mpi
