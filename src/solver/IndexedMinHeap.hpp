// A binary min-heap of small integer ids keyed by doubles, whose keys can change in place.
//
// The max-min solver keeps its constraints in one, ordered by the level at which each would saturate;
// fixing a variable moves the level of every constraint it crosses, hence the in-place update.
// Ties on the key are broken by the smaller id so the order never depends on insertion history.
// Storage is flat vectors kept between uses: once warmed up, nothing allocates.
//
// Small sets are not kept in heap order: heapify() leaves up to kFlatLimit entries unordered, and lowest_key() and
// pop_up_to() scan them (the lowest entry is remembered until a key or the set changes). The filling of a component
// loads all its constraints but pops few or none (online LU's flows are all bounded, and a bound is usually reached
// first), so ordering them was most of the heap's cost there: 3.8 % fewer instructions over a replay of LU class A
// 64's solver calls, same results bit for bit (bench/README.md, "Session 26"). (key, id) is a total order when no key
// is NaN, so both forms give the same keys and pop the same entries in the same order; with NaN keys neither orders
// meaningfully.
#pragma once

#include <algorithm>
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

  // Up to this many entries, heapify() leaves them unordered (see the file comment).
  static constexpr size_t kFlatLimit = 64;

  bool empty() const { return entries_.empty(); }
  bool contains(uint32_t id) const { return slot_of_[id] != kAbsent; }

  void clear()
  {
    for (const Entry& entry : entries_)
      slot_of_[entry.id] = kAbsent;
    entries_.clear();
    flat_ = false;
    top_known_ = false;
  }

  // The lowest key among the entries whose id is not `finished` (infinity if none), having dropped finished entries
  // (at least those that came first; the others stay in but are never returned by pop_up_to()).
  template <class Finished> double lowest_key(Finished finished)
  {
    if (not flat_) {
      while (not entries_.empty() && finished(entries_.front().id))
        pop_root();
      return entries_.empty() ? std::numeric_limits<double>::infinity() : entries_.front().key;
    }
    // The lowest of the unfinished entries is the lowest entry if that is unfinished: the others are only looked at
    // when it is finished, and then all dropped at once.
    if (not entries_.empty() && finished(entries_[flat_top()].id))
      remove_flat_if([&finished](const Entry& entry) { return finished(entry.id); });
    return entries_.empty() ? std::numeric_limits<double>::infinity() : entries_[flat_top()].key;
  }

  // Removes every entry whose key is <= threshold; appends the ids of those not `finished` to `out`, in (key, id)
  // order.
  template <class Finished> void pop_up_to(double threshold, Finished finished, std::vector<uint32_t>& out)
  {
    if (not flat_) {
      while (not entries_.empty() && entries_.front().key <= threshold) {
        const uint32_t id = entries_.front().id;
        pop_root();
        if (not finished(id))
          out.push_back(id);
      }
      return;
    }
    if (entries_.empty() || not(entries_[flat_top()].key <= threshold)) // often: a bound comes first
      return;
    popped_.clear();
    remove_flat_if([&](const Entry& entry) {
      if (not(entry.key <= threshold))
        return false;
      if (not finished(entry.id))
        popped_.push_back(entry);
      return true;
    });
    std::sort(popped_.begin(), popped_.end(), before);
    for (const Entry& entry : popped_)
      out.push_back(entry.id);
  }

  // Loading, into an empty set only: append with push_unordered(), then call heapify() once (linear time). Nothing
  // is pushed after (the filling only removes entries and updates keys): there is no push() keeping either form.
  void push_unordered(uint32_t id, double key)
  {
    slot_of_[id] = static_cast<uint32_t>(entries_.size());
    entries_.push_back({key, id});
  }

  // Once the entries pushed unordered are all in; chooses the form (see the file comment).
  void heapify()
  {
    flat_ = entries_.size() <= kFlatLimit;
    top_known_ = false;
    if (flat_)
      return;
    for (size_t slot = entries_.size() / 2; slot-- > 0;)
      sift_down(slot);
  }

  void update(uint32_t id, double key)
  {
    size_t slot = slot_of_[id];
    bool went_up = key < entries_[slot].key;
    entries_[slot].key = key;
    if (flat_) {
      top_known_ = false;
      return;
    }
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

  void pop_root()
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

  // Flat, not empty: the slot of the lowest entry, found by a scan once after each change.
  size_t flat_top()
  {
    if (not top_known_) {
      top_ = 0;
      for (size_t slot = 1; slot < entries_.size(); ++slot)
        top_ = before(entries_[slot], entries_[top_]) ? slot : top_;
      top_known_ = true;
    }
    return top_;
  }

  // Flat: removes the entries `remove` accepts, each replaced in its slot by the last entry. Backwards, so that the
  // entry moved into a slot was already looked at. The lowest entry is then found again.
  template <class Remove> void remove_flat_if(Remove remove)
  {
    for (size_t slot = entries_.size(); slot-- > 0;) {
      if (not remove(entries_[slot]))
        continue;
      slot_of_[entries_[slot].id] = kAbsent;
      if (slot + 1 < entries_.size())
        place(slot, entries_.back());
      entries_.pop_back();
    }
    top_known_ = false;
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
  std::vector<Entry> popped_;     // pop_up_to() scratch (flat)
  bool flat_ = false;             // entries_ unordered (at most kFlatLimit of them when heapified)
  bool top_known_ = false;        // flat: top_ is the slot of the lowest entry
  size_t top_ = 0;
};

} // namespace mpisim::solver
