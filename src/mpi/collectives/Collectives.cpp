#include "mpi/collectives/Collectives.hpp"

#include "common/Errors.hpp"
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace mpisim::mpi {

namespace {

constexpr std::array<const char*, kCollectiveCount> kNames = {
    "barrier", "bcast",    "reduce",    "allreduce",  "alltoall",       "alltoallv", "gather", "gatherv",
    "scatter", "scatterv", "allgather", "allgatherv", "reduce_scatter", "scan",      "exscan", "alltoallw"};

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

const char* collective_name(Collective op)
{
  return kNames[static_cast<size_t>(op)];
}

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

namespace {

// A selector given by its rule. The rule answers with names; each is resolved to its entry the first time this run's
// selector meets it for an operation, so the registry is searched once per operation and name.
class RuleSelector final : public CollectiveSelector {
public:
  RuleSelector(SelectorRule rule, ComputesLayout computes_layout) : rule_(rule), computes_layout_(computes_layout) {}

  const AlgorithmEntry& choose(const CollectiveContext& context, const CollectiveCall& call) override
  {
    const AlgorithmEntry& chosen = resolve(call.op, rule_(call, comm_shape(context)));
    if (computes_layout_ && computes_layout_(call))
      coll::node_layout(context);
    return chosen;
  }

private:
  const AlgorithmEntry& resolve(Collective op, const std::string& name)
  {
    auto& known = resolved_[static_cast<size_t>(op)];
    auto found = known.find(name);
    if (found == known.end())
      found = known.emplace(name, &AlgorithmRegistry::find(op, name)).first;
    return *found->second;
  }

  SelectorRule rule_;
  ComputesLayout computes_layout_;
  std::array<std::unordered_map<std::string, const AlgorithmEntry*>, kCollectiveCount> resolved_;
};

} // namespace

SelectorEntry::SelectorEntry(std::string name, std::string description, SelectorFactory factory)
    : name(std::move(name)), description(std::move(description)), factory(std::move(factory))
{
}

SelectorEntry::SelectorEntry(std::string name, std::string description, SelectorRule rule,
                             ComputesLayout computes_layout)
    : name(std::move(name)), description(std::move(description)),
      factory([rule, computes_layout](const CollectiveSelectorContext&) {
        return std::make_unique<RuleSelector>(rule, computes_layout);
      }),
      rule(rule), computes_layout(computes_layout)
{
}

std::string SelectorEntry::choose(const CollectiveCall& call, const CommShape& shape) const
{
  if (rule == nullptr)
    throw std::logic_error("collective selector '" + name + "' has no rule: it chooses while the simulation runs");
  return rule(call, shape);
}

void SelectorRegistry::add(SelectorEntry entry)
{
  auto& registry = selectors();
  auto position =
      std::find_if(registry.begin(), registry.end(), [&](const SelectorEntry& e) { return e.name > entry.name; });
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

CollectiveLibrary::CollectiveLibrary(const std::string& selector, const std::map<std::string, std::string>& forced,
                                     CollectiveTrial trial)
    : selector_entry_(&SelectorRegistry::find(selector)), trial_(std::move(trial))
{
  for (const auto& [op_name, algorithm] : forced) {
    Collective op = collective_from_name(op_name);
    forced_[static_cast<size_t>(op)] = &AlgorithmRegistry::find(op, algorithm);
  }
  selector_ = selector_entry_->factory(CollectiveSelectorContext{trial_, decisions_});
}

void CollectiveLibrary::run(Rank& rank, const Communicator& comm, const CollectiveCall& call) const
{
  rank.world().check_operation(rank.world_rank(), comm, true); // a failed member or a revocation: no collective
  CollectiveContext context{
      rank, comm, *this, comm.local_rank(rank.world_rank()), comm.size(), collective_tag(call.op)};
  choose(context, call).run(context, call);
}

RequestPtr CollectiveLibrary::start(Rank& rank, const Communicator& comm, CollectiveCall call) const
{
  rank.world().check_operation(rank.world_rank(), comm, true);
  call.nonblocking = true;
  const int tag = nonblocking_collective_tag(rank.next_nonblocking_collective(comm));
  auto request = std::make_shared<Request>(RequestKind::Collective, rank.world_rank(), comm, kAnySource, tag, 0);
  request->operation = collective_name(call.op);
  rank.spawn_helper(request->operation, [this, &rank, &comm, call = std::move(call), request, tag] {
    CollectiveContext context{rank, comm, *this, comm.local_rank(rank.world_rank()), comm.size(), tag};
    try {
      choose(context, call).run(context, call);
    } catch (const ProcessFailure& failure) { // the request ends with it; its wait raises it in the rank
      rank.world().fail_request(*request, failure.kind(), failure.failed_rank());
      return;
    }
    request->complete();
  });
  return request;
}

void CollectiveLibrary::agree_on_context(Rank& rank, const Communicator& parent) const
{
  CollectiveCall call;
  call.op = Collective::Allreduce;
  call.bytes = sizeof(int);
  call.element_bytes = sizeof(int);
  run(rank, parent, call);
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
  return selector_->choose(context, call);
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
