// The replayer's pending non-blocking requests of one rank, keyed as SimGrid keys them: (src, dst, tag) in
// MPI_COMM_WORLD ranks, oldest first. A request completed by `test` leaves a null placeholder so that the `wait` the
// trace recorded for it finds nothing to do.
//
// Flat vectors in posting order: a rank rarely has more than a few dozen requests pending, so a linear search beats
// a map of queues, which allocated on every isend/irecv. The keys and the requests are kept apart so that a waitall
// waits on the store's own requests, in place: a vector made per waitall cost a malloc and a free of a block that
// glibc's per-thread cache cannot hold when thousands of ranks wait at once (about 900 instructions a waitall at
// 16 384 ranks, most of them the free's merging of neighbouring chunks).
#pragma once

#include "mpi/Request.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <tuple>
#include <vector>

namespace mpisim::replay {

class RequestStore {
public:
  using Key = std::tuple<int, int, int>;

  void add(const Key& key, mpi::RequestPtr request)
  {
    keys_.push_back(key);
    requests_.push_back(std::move(request));
  }
  // Oldest request under this key (possibly a null placeholder), or null when there is none.
  mpi::RequestPtr pop(const Key& key)
  {
    auto found = std::find(keys_.begin(), keys_.end(), key);
    if (found == keys_.end())
      return nullptr;
    const auto index = found - keys_.begin();
    mpi::RequestPtr request = std::move(requests_[static_cast<size_t>(index)]);
    keys_.erase(found);
    requests_.erase(requests_.begin() + index);
    return request;
  }
  // Every pending (non-null) request, oldest first, still held by the store: valid until the next add, pop or
  // clear. The placeholders go (a waitall is their recorded wait's last chance).
  std::span<const mpi::RequestPtr> pending()
  {
    if (std::find(requests_.begin(), requests_.end(), nullptr) != requests_.end())
      drop_placeholders();
    return requests_;
  }
  // Empties the store, releasing its requests oldest first (capacity kept for the next ones).
  void clear()
  {
    keys_.clear();
    requests_.clear();
  }
  bool empty() const { return keys_.empty(); }

private:
  void drop_placeholders()
  {
    size_t kept = 0;
    for (size_t i = 0; i < requests_.size(); ++i)
      if (requests_[i]) {
        keys_[kept] = keys_[i];
        requests_[kept++] = std::move(requests_[i]);
      }
    keys_.resize(kept);
    requests_.resize(kept);
  }

  std::vector<Key> keys_;
  std::vector<mpi::RequestPtr> requests_; // requests_[i] was posted under keys_[i]
};

} // namespace mpisim::replay
