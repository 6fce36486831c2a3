// Selector "automatic": times every algorithm of the operation for each distinct call (operation, communicator,
// sizes), each alone on the communicator's hosts, and uses the fastest; every rank of the communicator gets the same
// choice, and the decisions are reported (CollectiveLibrary::automatic_decisions). SimGrid's "automatic" selector,
// which runs them all inside the simulation one after the other, inspired it. A library made without a trial runner
// (CollectiveLibrary's third argument; Simulation always gives one) runs the default selector instead.
#include "mpi/collectives/Collectives.hpp"

#include <map>
#include <memory>
#include <tuple>

namespace mpisim::mpi {
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
  case Collective::Allgather: trial.recv_bytes = trial.bytes; break;
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

class AutomaticSelector final : public CollectiveSelector {
public:
  AutomaticSelector(const CollectiveTrial& trial, std::vector<AutomaticDecision>& decisions)
      : trial_(trial), decisions_(decisions)
  {
  }

  // The n-th call of an operation on a communicator, per rank, maps to one decision (the first rank to arrive
  // decides; the entry goes once every member has passed).
  const AlgorithmEntry& choose(const CollectiveContext& context, const CollectiveCall& call) override
  {
    const int op = static_cast<int>(call.op);
    const uint64_t n = calls_made_[{context.rank.world_rank(), context.comm.context(), op}]++;
    const auto key = std::make_tuple(context.comm.context(), op, n);
    auto found = pending_.find(key);
    if (found == pending_.end())
      found = pending_.emplace(key, Pending{decide(context, call), 0}).first;
    const size_t decision = found->second.decision;
    ++decisions_[decision].calls;
    if (++found->second.arrived == context.size)
      pending_.erase(found);
    return *chosen_[decision];
  }

private:
  size_t decide(const CollectiveContext& context, const CollectiveCall& call)
  {
    const std::string signature = call_signature(context, call);
    if (auto known = decision_of_signature_.find(signature); known != decision_of_signature_.end())
      return known->second;
    const CollectiveCall trial_call = trial_call_for_all(call, context.size); // timed without data, as in replay
    AutomaticDecision decision{call.op, context.size, call.bytes, "", {}, 0};
    const AlgorithmEntry* fastest = nullptr;
    double best = 0;
    for (const AlgorithmEntry* entry : AlgorithmRegistry::of(call.op)) {
      const double seconds = trial_(entry->name, context.comm, trial_call);
      decision.candidates.emplace_back(entry->name, seconds);
      if (fastest == nullptr || seconds < best) {
        best = seconds;
        fastest = entry;
      }
    }
    decision.chosen = fastest->name;
    decisions_.push_back(std::move(decision));
    chosen_.push_back(fastest);
    decision_of_signature_.emplace(signature, decisions_.size() - 1);
    return decisions_.size() - 1;
  }

  const CollectiveTrial& trial_;
  std::vector<AutomaticDecision>& decisions_; // the library's report
  std::vector<const AlgorithmEntry*> chosen_; // decisions_[i]'s algorithm
  std::map<std::string, size_t> decision_of_signature_;
  struct Pending {
    size_t decision;
    int arrived;
  };
  std::map<std::tuple<int, int, uint64_t>, Pending> pending_; // (context, op, n)
  std::map<std::tuple<int, int, int>, uint64_t> calls_made_;  // (world rank, context, op)
};

std::unique_ptr<CollectiveSelector> make_automatic(const CollectiveSelectorContext& context)
{
  if (!context.trial)
    return SelectorRegistry::find("default").factory(context);
  return std::make_unique<AutomaticSelector>(context.trial, context.decisions);
}

const RegisterSelector kRegister({"automatic",
                                  "times every algorithm for each distinct call (alone, on the same hosts) and uses "
                                  "the fastest; the decisions are reported",
                                  make_automatic});

} // namespace
} // namespace mpisim::mpi
