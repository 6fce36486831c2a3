// The replayer's pending non-blocking requests of one rank, keyed as SimGrid keys them: (src, dst, tag) in
// MPI_COMM_WORLD ranks, oldest first. A request completed by `test` leaves a null placeholder so that the `wait` the
// trace recorded for it finds nothing to do.
#pragma once

#include "mpi/Request.hpp"

#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace mpisim::replay {

class RequestStore {
public:
  using Key = std::tuple<int, int, int>;

  void add(const Key& key, mpi::RequestPtr request) { store_[key].push_back(std::move(request)); }
  // Oldest request under this key (possibly a null placeholder), or null when there is none.
  mpi::RequestPtr pop(const Key& key)
  {
    auto it = store_.find(key);
    if (it == store_.end() || it->second.empty())
      return nullptr;
    mpi::RequestPtr request = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty())
      store_.erase(it);
    return request;
  }
  // Every pending (non-null) request, in key order then age; empties the store.
  std::vector<mpi::RequestPtr> take_all()
  {
    std::vector<mpi::RequestPtr> all;
    for (auto& [key, requests] : store_)
      for (auto& request : requests)
        if (request)
          all.push_back(std::move(request));
    store_.clear();
    return all;
  }
  bool empty() const { return store_.empty(); }

private:
  std::map<Key, std::deque<mpi::RequestPtr>> store_;
};

} // namespace mpisim::replay
