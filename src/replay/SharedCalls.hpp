// The collective calls being replayed, one copy per distinct call instead of one per rank. Every rank of a trace's
// allreduce makes the same call (the same op, sizes, root and flops), and a rank keeps its call for as long as its
// part of the collective lasts: at the largest scales, every rank at once (224 bytes each). A rank hands its action's
// details over when it starts a collective (`take`) and gives the shared copy back when the action is done
// (`give_back`); the last rank to give a call back frees it. Calls with per-rank arrays (the v-variants, whose arrays
// are P entries long and differ between ranks) or a file name stay with their action.
#pragma once

#include "replay/TraceAction.hpp"

#include <bit>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace mpisim::replay {

class SharedCalls {
public:
  struct Entry {
    std::unique_ptr<ActionDetails> details;
    uint32_t users = 0;
  };

  // The shared entry for `details`' call, taking `details` over when it is the first of its kind and freeing it
  // otherwise; null, and `details` left as it is, for a call that is not shared.
  Entry* take(std::unique_ptr<ActionDetails>& details)
  {
    if (not shareable(*details))
      return nullptr;
    auto [found, added] = entries_.try_emplace(key_of(*details));
    Entry& entry = found->second;
    if (added)
      entry.details = std::move(details);
    else
      details.reset();
    ++entry.users;
    return &entry;
  }

  void give_back(Entry* entry)
  {
    if (--entry->users == 0)
      entries_.erase(key_of(*entry->details));
  }

  size_t calls() const { return entries_.size(); }

private:
  // The call's fields (doubles by their bits: equal keys are the same call bit for bit).
  struct Key {
    uint64_t words[6];
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const
    {
      uint64_t hash = 0xcbf29ce484222325ULL;
      for (uint64_t word : key.words)
        hash = (hash ^ word) * 0x100000001b3ULL;
      return static_cast<size_t>(hash ^ (hash >> 29));
    }
  };

  static bool shareable(const ActionDetails& details)
  {
    static_assert(sizeof(mpi::CollectiveCall) == 184 && sizeof(ActionDetails) == 224,
                  "a field was added to the call or the details: key_of() and shareable() must consider it");
    const mpi::CollectiveCall& call = details.call;
    return details.file.empty() && call.send_counts.empty() && call.recv_counts.empty() && call.send_displs.empty() &&
           call.recv_displs.empty() && not call.with_data && call.send_data == nullptr && call.recv_data == nullptr &&
           not call.reduce_op && not call.reduce_type;
  }

  static Key key_of(const ActionDetails& details)
  {
    const mpi::CollectiveCall& call = details.call;
    return Key{{static_cast<uint64_t>(call.op) | uint64_t{call.commutative} << 8 | uint64_t{call.nonblocking} << 9 |
                    uint64_t{static_cast<uint32_t>(call.root)} << 32,
                uint64_t{static_cast<uint32_t>(details.communicator)}, std::bit_cast<uint64_t>(call.bytes),
                std::bit_cast<uint64_t>(call.recv_bytes), std::bit_cast<uint64_t>(call.reduce_flops),
                std::bit_cast<uint64_t>(call.element_bytes)}};
  }

  std::unordered_map<Key, Entry, KeyHash> entries_;
};

} // namespace mpisim::replay
