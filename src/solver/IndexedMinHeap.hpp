// A binary min-heap of small integer ids keyed by doubles, whose keys can change in place.
//
// The max-min solver keeps its constraints in one, ordered by the level at which each would saturate;
// fixing a variable moves the level of every constraint it crosses, hence the in-place update.
// Ties on the key are broken by the smaller id so the order never depends on insertion history.
// Storage is two flat vectors kept between uses: once warmed up, nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace mpisim::solver {

class IndexedMinHeap {
public:
  // Ids must be below this before they are pushed.
  void reserve_ids(size_t id_count)
  {
    if (slot_of_.size() < id_count)
      slot_of_.resize(id_count, kAbsent);
  }

  bool empty() const { return entries_.empty(); }
  bool contains(uint32_t id) const { return slot_of_[id] != kAbsent; }
  uint32_t top_id() const { return entries_.front().id; }
  double top_key() const { return entries_.front().key; }

  void clear()
  {
    for (const Entry& entry : entries_)
      slot_of_[entry.id] = kAbsent;
    entries_.clear();
  }

  void push(uint32_t id, double key)
  {
    push_unordered(id, key);
    sift_up(entries_.size() - 1);
  }

  // Bulk loading: append with push_unordered(), then call heapify() once (linear time).
  void push_unordered(uint32_t id, double key)
  {
    slot_of_[id] = static_cast<uint32_t>(entries_.size());
    entries_.push_back({key, id});
  }

  void heapify()
  {
    for (size_t slot = entries_.size() / 2; slot-- > 0;)
      sift_down(slot);
  }

  void pop()
  {
    slot_of_[entries_.front().id] = kAbsent;
    if (entries_.size() > 1) {
      place(0, entries_.back());
      entries_.pop_back();
      sift_down(0);
    } else {
      entries_.pop_back();
    }
  }

  void update(uint32_t id, double key)
  {
    size_t slot = slot_of_[id];
    bool went_up = key < entries_[slot].key;
    entries_[slot].key = key;
    if (went_up)
      sift_up(slot);
    else
      sift_down(slot);
  }

private:
  static constexpr uint32_t kAbsent = std::numeric_limits<uint32_t>::max();

  struct Entry {
    double key;
    uint32_t id;
  };

  // Without short-circuit: which of two entries comes first is a coin toss the branch predictor loses half the time
  // (online LU's solves sift heaps of about 22 constraints on average), while the three flags combine into a value
  // without a jump.
  static bool before(const Entry& a, const Entry& b)
  {
    return static_cast<bool>(static_cast<int>(a.key < b.key) |
                             (static_cast<int>(a.key == b.key) & static_cast<int>(a.id < b.id)));
  }

  void place(size_t slot, const Entry& entry)
  {
    entries_[slot] = entry;
    slot_of_[entry.id] = static_cast<uint32_t>(slot);
  }

  void sift_up(size_t slot)
  {
    Entry moving = entries_[slot];
    while (slot > 0) {
      size_t parent = (slot - 1) / 2;
      if (!before(moving, entries_[parent]))
        break;
      place(slot, entries_[parent]);
      slot = parent;
    }
    place(slot, moving);
  }

  void sift_down(size_t slot)
  {
    Entry moving = entries_[slot];
    size_t count = entries_.size();
    while (true) {
      size_t child = 2 * slot + 1;
      if (child >= count)
        break;
      if (child + 1 < count) // the smaller child, chosen without a jump
        child += static_cast<size_t>(before(entries_[child + 1], entries_[child]));
      if (!before(entries_[child], moving))
        break;
      place(slot, entries_[child]);
      slot = child;
    }
    place(slot, moving);
  }

  std::vector<Entry> entries_;
  std::vector<uint32_t> slot_of_; // id -> index in entries_, or kAbsent
};

} // namespace mpisim::solver
