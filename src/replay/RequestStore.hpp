// The replayer's pending non-blocking requests of one rank, keyed as SimGrid keys them: (src, dst, tag) in
// MPI_COMM_WORLD ranks, oldest first. A request completed by `test` leaves a null placeholder so that the `wait` the
// trace recorded for it finds nothing to do.
//
// A flat vector in posting order: a rank rarely has more than a few dozen requests pending, so a linear search beats
// a map of queues, which allocated on every isend/irecv.
#pragma once

#include "mpi/Request.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

namespace mpisim::replay {

class RequestStore {
public:
  using Key = std::tuple<int, int, int>;

  void add(const Key& key, mpi::RequestPtr request) { entries_.push_back({key, std::move(request)}); }
  // Oldest request under this key (possibly a null placeholder), or null when there is none.
  mpi::RequestPtr pop(const Key& key)
  {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (it == entries_.end())
      return nullptr;
    mpi::RequestPtr request = std::move(it->request);
    entries_.erase(it);
    return request;
  }
  // Every pending (non-null) request, oldest first; empties the store.
  std::vector<mpi::RequestPtr> take_all()
  {
    std::vector<mpi::RequestPtr> all;
    all.reserve(entries_.size());
    for (Entry& entry : entries_)
      if (entry.request)
        all.push_back(std::move(entry.request));
    entries_.clear();
    return all;
  }
  bool empty() const { return entries_.empty(); }

private:
  struct Entry {
    Key key;
    mpi::RequestPtr request;
  };
  std::vector<Entry> entries_;
};

} // namespace mpisim::replay
