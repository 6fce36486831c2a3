// The FIFO queues of a mailbox (posted receives, unexpected messages, waiting probes).
//
// A std::deque allocates about 600 bytes even when empty, and every rank has three of these queues: at 100 000 ranks
// that alone was 170 MB. This queue is a vector that allocates on first use, grows by what it holds, and removes
// from the front in constant time (matching usually takes the oldest entry); entries in the middle are erased as
// from a vector.
#pragma once

#include <cstddef>
#include <vector>

namespace mpisim::mpi {

template <class T> class MatchQueue {
public:
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size() - head_; }
  bool empty() const { return size() == 0; }

  void push_back(const T& item) { items_.push_back(item); }

  // Asks the processor to load the oldest entry (nothing when empty: a prefetch never faults).
  void prefetch_head() const { __builtin_prefetch(items_.data() + head_); }

  // Removes the entry at `it`; returns the position of the entry that followed it.
  iterator erase(iterator it)
  {
    if (it != begin())
      return items_.erase(it);
    *it = T{};
    ++head_;
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAfter && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), begin()); // keeps the dead prefix from growing without bound
      head_ = 0;
    }
    return begin();
  }

private:
  static constexpr size_t kCompactAfter = 64;
  std::vector<T> items_;
  size_t head_ = 0; // entries before it are removed
};

} // namespace mpisim::mpi
