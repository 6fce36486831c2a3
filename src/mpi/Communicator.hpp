// Communicators: an ordered group of world ranks and a context id that keeps their traffic apart. An
// intercommunicator is two such objects sharing one context, one per group: each side's own group is the ranks it
// holds, and its peers (whom point-to-point calls name, and who receive from it) are the other side's.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::mpi {

inline constexpr int kAnySource = -1;
inline constexpr int kAnyTag = -1;

class Communicator {
public:
  // Node and leader communicators are the parts of a hierarchy that SMP-aware collectives build (World::node_layout);
  // selectors that take the SMP-aware path on ordinary communicators do not take it on those.
  enum class Role : uint8_t { Ordinary, Node, Leaders };

  Communicator(int context, std::string name, std::vector<int> world_ranks, Role role = Role::Ordinary);
  Role role() const { return role_; }

  // Makes `a` and `b` (same context, disjoint groups) the two sides of an intercommunicator.
  static void join_as_intercommunicator(Communicator& a, Communicator& b);
  bool is_inter() const { return remote_ != nullptr; }
  // The other side of an intercommunicator, whose own group is this one's remote group (null for an intracommunicator).
  const Communicator* remote() const { return remote_; }
  // The side `world_rank` belongs to: this one for an intracommunicator.
  const Communicator& side_of(int world_rank) const
  {
    return remote_ != nullptr && local_rank(world_rank) < 0 ? *remote_ : *this;
  }
  // Point-to-point peers: ranks of the remote group on an intercommunicator, of the group itself otherwise.
  int peer_count() const { return remote_ != nullptr ? remote_->size() : size(); }
  int peer_world_rank(int peer) const { return remote_ != nullptr ? remote_->world_rank(peer) : world_rank(peer); }
  int peer_local_rank(int world_rank) const
  {
    return remote_ != nullptr ? remote_->local_rank(world_rank) : local_rank(world_rank);
  }

  int context() const { return context_; }
  const std::string& name() const { return name_; }
  int size() const { return static_cast<int>(world_ranks_.size()); }
  // MPI_COMM_WORLD and its duplicates map each rank to itself: no table is read, so a message to a random peer of a
  // large job does not wait for a cache line of the table (one per send otherwise).
  int world_rank(int local_rank) const { return identity_ ? local_rank : world_ranks_[local_rank]; }
  // -1 when the world rank is not a member.
  int local_rank(int world_rank) const
  {
    if (identity_)
      return world_rank >= 0 && world_rank < size() ? world_rank : -1;
    if (not sparse_)
      return world_rank >= 0 && world_rank < static_cast<int>(local_of_world_.size()) ? local_of_world_[world_rank]
                                                                                      : -1;
    return sparse_local_rank(world_rank);
  }

private:
  // What every message reads (the rank maps' flags, the context, the remote side, the group) comes first: one cache
  // line of the record, which the program's computation may have evicted since the last call.
  Role role_;
  bool sparse_ = false;
  bool identity_ = false; // world_ranks_[i] == i for every i
  int context_;
  const Communicator* remote_ = nullptr;
  std::vector<int> world_ranks_;
  // World rank -> local rank: a dense table when the group spans few world ranks (MPI_COMM_WORLD and the like),
  // sorted (world, local) pairs otherwise, so that the many small node communicators of a large job stay small.
  int sparse_local_rank(int world_rank) const;
  std::vector<int> local_of_world_;
  std::vector<std::pair<int, int>> sorted_world_local_;
  std::string name_;
};

} // namespace mpisim::mpi
