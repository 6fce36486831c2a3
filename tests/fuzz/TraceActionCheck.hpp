// What the replayer takes for granted in a parsed action (replay/TraceAction.hpp): finite amounts, not negative
// except the receive size (negative: probe for it) and the source line of `location` (an annotation the replay
// ignores, read as any integer as SimGrid does), peers and roots among the ranks, a collective's call present.
// An action breaking these passed the reader's checks and would reach the simulation: a finding.
#pragma once

#include "FuzzInput.hpp"
#include "replay/TraceAction.hpp"

#include <cmath>

namespace mpisim::fuzz {

inline void check_action(const replay::TraceAction& action, int world_size)
{
  using replay::ActionKind;
  const std::string name(replay::action_name(action.kind));
  const bool may_be_negative =
      action.kind == ActionKind::Recv || action.kind == ActionKind::Irecv || action.kind == ActionKind::Location;
  if (not std::isfinite(action.amount) || not std::isfinite(action.amount2))
    finding(name + ": amount not finite");
  if (not may_be_negative && (action.amount < 0 || action.amount2 < 0))
    finding(name + ": negative amount");
  const auto is_rank = [&](int32_t rank) { return rank >= 0 && rank < world_size; };
  if (not is_rank(action.src) || not is_rank(action.dst) || not is_rank(action.root))
    finding(name + ": peer or root outside [0, " + std::to_string(world_size) + ")");
  if (replay::is_collective(action.kind) && not action.details)
    finding(name + ": collective without its call");
}

} // namespace mpisim::fuzz
