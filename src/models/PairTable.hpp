// Answers kept by pair of hosts, for models that ask the same pairs again and again (a rank exchanges with the same
// peers every iteration) and whose answer costs more than a lookup (a route's sums, a common network).
#pragma once

#include "platform/Platform.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace mpisim::models {

// The answers are kept per source host, in kWays slots side by side (newest first; a new pair pushes out the oldest),
// so a lookup reads a few cache lines of one host's own, without the nodes and chains of a hash map. Past kMaxSlots
// slots, hosts share their slots. What the table holds never changes an answer, only whether it is computed again.
template <class Value> class PairTable {
public:
  explicit PairTable(size_t hosts) : capacity_(std::bit_ceil(std::clamp<size_t>(kWays * hosts, kWays, kMaxSlots))) {}

  // The answer for (src, dst): kept, or `compute()`'s, then kept.
  template <class Compute> Value find(platform::HostId src, platform::HostId dst, Compute&& compute)
  {
    if (slots_.empty()) // at the first question: a model that never asks (a FLAT cluster's) takes no memory
      slots_.resize(capacity_);
    const uint64_t pair = (uint64_t{src} << 32) | dst;
    const size_t sets = slots_.size() / kWays;
    Slot* set = &slots_[(src & (sets - 1)) * kWays];
    for (size_t way = 0; way < kWays; ++way)
      if (set[way].pair == pair)
        return set[way].value;
    const Value value = compute(); // first: a pair whose computation throws leaves the table as it was
    std::move_backward(set, set + kWays - 1, set + kWays);
    set[0] = Slot{pair, value};
    return value;
  }

  // A 3-D stencil's six peers, with room; at most 2^20 slots in all (32 MiB of 32-byte slots, 256 bytes per host).
  static constexpr size_t kWays = 8;
  static constexpr size_t kMaxSlots = size_t{1} << 20;

private:
  static constexpr uint64_t kNoPair = std::numeric_limits<uint64_t>::max();
  struct Slot {
    uint64_t pair = kNoPair;
    Value value{};
  };
  size_t capacity_; // slots
  std::vector<Slot> slots_;
};

} // namespace mpisim::models
