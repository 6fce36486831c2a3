#include "mpi/collectives/Collectives.hpp"

#include "common/Errors.hpp"
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi {

namespace {

constexpr std::array<const char*, kCollectiveCount> kNames = {
    "barrier", "bcast",   "reduce",    "allreduce", "alltoall",  "alltoallv",      "gather", "gatherv",
    "scatter", "scatterv", "allgather", "allgatherv", "reduce_scatter", "scan", "exscan",
    "alltoallw"};

std::vector<AlgorithmEntry>& algorithms()
{
  static std::vector<AlgorithmEntry> registry;
  return registry;
}

std::vector<SelectorEntry>& selectors()
{
  static std::vector<SelectorEntry> registry;
  return registry;
}

} // namespace

const char* collective_name(Collective op) { return kNames[static_cast<size_t>(op)]; }

Collective collective_from_name(const std::string& name)
{
  for (size_t i = 0; i < kNames.size(); ++i)
    if (name == kNames[i])
      return static_cast<Collective>(i);
  std::string valid;
  for (const char* known : kNames)
    valid += (valid.empty() ? "" : ", ") + std::string(known);
  throw InputError("unknown collective operation '" + name + "' (valid: " + valid + ")");
}

void AlgorithmRegistry::add(AlgorithmEntry entry)
{
  auto& registry = algorithms();
  auto position = std::find_if(registry.begin(), registry.end(), [&](const AlgorithmEntry& e) {
    return e.op > entry.op || (e.op == entry.op && e.name > entry.name);
  });
  registry.insert(position, std::move(entry));
}

const AlgorithmEntry& AlgorithmRegistry::find(Collective op, const std::string& name)
{
  for (const AlgorithmEntry& entry : algorithms())
    if (entry.op == op && entry.name == name)
      return entry;
  std::string valid;
  for (const AlgorithmEntry* entry : of(op))
    valid += (valid.empty() ? "" : ", ") + entry->name;
  throw InputError("collective '" + std::string(collective_name(op)) + "' has no algorithm '" + name +
                   "' (valid: " + valid + ")");
}

std::vector<const AlgorithmEntry*> AlgorithmRegistry::of(Collective op)
{
  std::vector<const AlgorithmEntry*> out;
  for (const AlgorithmEntry& entry : algorithms())
    if (entry.op == op)
      out.push_back(&entry);
  return out;
}

void SelectorRegistry::add(SelectorEntry entry)
{
  auto& registry = selectors();
  auto position = std::find_if(registry.begin(), registry.end(),
                               [&](const SelectorEntry& e) { return e.name > entry.name; });
  registry.insert(position, std::move(entry));
}

const SelectorEntry& SelectorRegistry::find(const std::string& name)
{
  for (const SelectorEntry& entry : selectors())
    if (entry.name == name)
      return entry;
  std::string valid;
  for (const SelectorEntry& entry : selectors())
    valid += (valid.empty() ? "" : ", ") + entry.name;
  throw InputError("unknown collective selector '" + name + "' (valid: " + valid + ")");
}

std::vector<const SelectorEntry*> SelectorRegistry::all()
{
  std::vector<const SelectorEntry*> out;
  for (const SelectorEntry& entry : selectors())
    out.push_back(&entry);
  return out;
}

CollectiveLibrary::CollectiveLibrary(const std::string& selector, const std::map<std::string, std::string>& forced)
    : selector_(&SelectorRegistry::find(selector))
{
  for (const auto& [op_name, algorithm] : forced) {
    Collective op = collective_from_name(op_name);
    forced_[static_cast<size_t>(op)] = &AlgorithmRegistry::find(op, algorithm);
  }
}

void CollectiveLibrary::run(Rank& rank, const Communicator& comm, const CollectiveCall& call) const
{
  CollectiveContext context{rank, comm, *this, comm.local_rank(rank.world_rank()), comm.size(), collective_tag(call.op)};
  choose(context, call).run(context, call);
}

RequestPtr CollectiveLibrary::start(Rank& rank, const Communicator& comm, CollectiveCall call) const
{
  call.nonblocking = true;
  const int tag = nonblocking_collective_tag(rank.next_nonblocking_collective(comm));
  auto request = std::make_shared<Request>(RequestKind::Collective, rank.world_rank(), comm, kAnySource, tag, 0);
  request->operation = collective_name(call.op);
  const std::string name = "rank " + std::to_string(rank.world_rank()) + " " + collective_name(call.op);
  rank.world().engine().spawn(name, [this, &rank, &comm, call = std::move(call), request, tag] {
    CollectiveContext context{rank, comm, *this, comm.local_rank(rank.world_rank()), comm.size(), tag};
    choose(context, call).run(context, call);
    request->complete();
  });
  return request;
}

void CollectiveLibrary::run_part(const CollectiveContext& context, const CollectiveCall& call) const
{
  choose(context, call).run(context, call);
}

void CollectiveLibrary::run_algorithm(const CollectiveContext& context, const std::string& name,
                                      const CollectiveCall& call) const
{
  lookup(call.op, name).run(context, call);
}

const AlgorithmEntry& CollectiveLibrary::choose(const CollectiveContext& context, const CollectiveCall& call) const
{
  if (const AlgorithmEntry* forced = forced_[static_cast<size_t>(call.op)])
    return *forced;
  if (trial_ && selector_->name == "automatic")
    return choose_automatically(context, call);
  const AlgorithmEntry& chosen = lookup(call.op, selector_->choose(call, comm_shape(context)));
  if (selector_->computes_layout && selector_->computes_layout(call))
    coll::node_layout(context);
  return chosen;
}

namespace {

// What makes two calls the same question for the automatic selector.
std::string call_signature(const CollectiveContext& context, const CollectiveCall& call)
{
  std::string out = std::to_string(static_cast<int>(call.op)) + "|" + std::to_string(call.root) + "|" +
                    std::to_string(call.bytes) + "|" + std::to_string(call.recv_bytes) + "|" +
                    std::to_string(call.element_bytes) + "|" + (call.commutative ? "c" : "n") +
                    (call.nonblocking ? "i" : "b") + "|";
  for (double count : call.send_counts)
    out += std::to_string(count) + ",";
  out += "|";
  for (double count : call.recv_counts)
    out += std::to_string(count) + ",";
  out += "|";
  for (int local = 0; local < context.size; ++local)
    out += std::to_string(context.comm.world_rank(local)) + ",";
  return out;
}

// The deciding rank's call, made valid for every rank of a trial: online, some sizes exist at the root only (gather's
// receive size, gatherv's counts, scatter's send size, scatterv's counts), and a non-root may decide.
CollectiveCall trial_call_for_all(const CollectiveCall& call, int size)
{
  CollectiveCall trial = call;
  trial.with_data = false;
  trial.send_data = nullptr;
  trial.recv_data = nullptr;
  switch (call.op) {
    case Collective::Gather:
    case Collective::Allgather:
      trial.recv_bytes = trial.bytes;
      break;
    case Collective::Scatter: trial.bytes = trial.recv_bytes; break;
    case Collective::Gatherv:
      if (trial.recv_counts.size() != static_cast<size_t>(size))
        trial.recv_counts.assign(size, call.bytes);
      break;
    case Collective::Scatterv:
      if (trial.send_counts.size() != static_cast<size_t>(size))
        trial.send_counts.assign(size, call.recv_bytes);
      break;
    default: break;
  }
  trial.send_displs.clear();
  trial.recv_displs.clear();
  return trial;
}

} // namespace

const AlgorithmEntry& CollectiveLibrary::choose_automatically(const CollectiveContext& context,
                                                              const CollectiveCall& call) const
{
  const int op = static_cast<int>(call.op);
  const uint64_t n = calls_made_[{context.rank.world_rank(), context.comm.context(), op}]++;
  const auto key = std::make_tuple(context.comm.context(), op, n);
  auto found = pending_.find(key);
  if (found == pending_.end())
    found = pending_.emplace(key, Pending{decide(context, call), 0}).first;
  AutomaticDecision& decision = decisions_[found->second.decision];
  ++decision.calls;
  if (++found->second.arrived == context.size)
    pending_.erase(found);
  return lookup(call.op, decision.chosen);
}

size_t CollectiveLibrary::decide(const CollectiveContext& context, const CollectiveCall& call) const
{
  const std::string signature = call_signature(context, call);
  if (auto known = decision_of_signature_.find(signature); known != decision_of_signature_.end())
    return known->second;
  const CollectiveCall trial_call = trial_call_for_all(call, context.size); // timed without data, as in replay
  AutomaticDecision decision{call.op, context.size, call.bytes, "", {}, 0};
  double best = 0;
  for (const AlgorithmEntry* entry : AlgorithmRegistry::of(call.op)) {
    const double seconds = trial_(entry->name, context.comm, trial_call);
    decision.candidates.emplace_back(entry->name, seconds);
    if (decision.chosen.empty() || seconds < best) {
      best = seconds;
      decision.chosen = entry->name;
    }
  }
  decisions_.push_back(std::move(decision));
  decision_of_signature_.emplace(signature, decisions_.size() - 1);
  return decisions_.size() - 1;
}

CommShape comm_shape(const CollectiveContext& context)
{
  const NodeLayout& layout = context.rank.world().node_layout(context.comm);
  CommShape shape;
  shape.size = context.size;
  shape.nodes = static_cast<int>(layout.members.size());
  shape.uniform = layout.uniform;
  shape.ranks_per_node = layout.ranks_per_node;
  shape.blocked = layout.blocked;
  shape.layout_computed = layout.computed_by_collective;
  shape.hierarchy_part = context.comm.role() != Communicator::Role::Ordinary;
  return shape;
}

const AlgorithmEntry& CollectiveLibrary::lookup(Collective op, const std::string& name) const
{
  auto& known = cache_[static_cast<size_t>(op)];
  auto found = known.find(name);
  if (found != known.end())
    return *found->second;
  const AlgorithmEntry& entry = AlgorithmRegistry::find(op, name);
  known.emplace(name, &entry);
  return entry;
}

} // namespace mpisim::mpi
