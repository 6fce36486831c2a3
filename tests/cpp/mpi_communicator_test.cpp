// Communicator rank maps: the identity group (MPI_COMM_WORLD and its duplicates, read without a table), dense and
// sparse groups; each asked both ways, members and strangers; the two sides of an intercommunicator.
#include "mpi/Communicator.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

using mpisim::mpi::Communicator;

namespace {

std::vector<int> first_ranks(int count)
{
  std::vector<int> ranks(static_cast<size_t>(count));
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

// Every member's local rank maps to its world rank and back; world ranks outside the group map to -1.
void expect_maps(const Communicator& comm, const std::vector<int>& world_ranks, const std::vector<int>& strangers)
{
  ASSERT_EQ(comm.size(), static_cast<int>(world_ranks.size()));
  for (int local = 0; local < comm.size(); ++local) {
    EXPECT_EQ(comm.world_rank(local), world_ranks[static_cast<size_t>(local)]) << "local " << local;
    EXPECT_EQ(comm.local_rank(world_ranks[static_cast<size_t>(local)]), local) << "local " << local;
  }
  for (const int stranger : strangers)
    EXPECT_EQ(comm.local_rank(stranger), -1) << "world rank " << stranger;
}

} // namespace

TEST(mpi_communicator, IdentityGroupMapsEachRankToItself)
{
  const Communicator world(0, "MPI_COMM_WORLD", first_ranks(16));
  expect_maps(world, first_ranks(16), {-1, -7, 16, 17, 1 << 30});
}

TEST(mpi_communicator, PermutedGroupIsNoIdentity)
{
  // The same world ranks in another order: local 0 is world 1.
  const std::vector<int> swapped = {1, 0, 2, 3};
  const Communicator comm(1, "swapped", swapped);
  expect_maps(comm, swapped, {-1, 4, 5});
}

TEST(mpi_communicator, PrefixOfTheWorldWithAGapIsNoIdentity)
{
  // Ranks 0, 1, 3: the first two are themselves, the third is not.
  const std::vector<int> gapped = {0, 1, 3};
  const Communicator comm(2, "gapped", gapped);
  expect_maps(comm, gapped, {2, 4, -1});
}

TEST(mpi_communicator, SparseGroupOfFarRanks)
{
  // Two members far apart: the sorted-pairs map.
  const std::vector<int> far = {1000000, 5};
  const Communicator comm(3, "far", far);
  expect_maps(comm, far, {0, 6, 999999, 1000001, -1});
}

TEST(mpi_communicator, EmptyGroupHoldsNobody)
{
  const Communicator comm(4, "empty", {});
  expect_maps(comm, {}, {0, 1, -1});
}

// An intercommunicator's two sides: each keeps its own group, names the other's members as peers, and tells which
// side a world rank is on; an intracommunicator's peers are its own members.
TEST(mpi_communicator, IntercommunicatorSidesNameEachOthersMembersAsPeers)
{
  Communicator evens(7, "inter", {0, 2, 4});
  Communicator odds(7, "inter", {1, 3});
  Communicator::join_as_intercommunicator(evens, odds);
  ASSERT_TRUE(evens.is_inter() && odds.is_inter());
  EXPECT_EQ(evens.remote(), &odds);
  EXPECT_EQ(evens.peer_count(), 2);
  EXPECT_EQ(odds.peer_count(), 3);
  EXPECT_EQ(evens.peer_world_rank(1), 3);
  EXPECT_EQ(odds.peer_world_rank(2), 4);
  EXPECT_EQ(evens.peer_local_rank(3), 1);
  EXPECT_EQ(evens.peer_local_rank(2), -1); // a member of its own group is no peer
  EXPECT_EQ(evens.local_rank(4), 2);       // its own group as before
  EXPECT_EQ(&evens.side_of(3), &odds);
  EXPECT_EQ(&odds.side_of(3), &odds);
  EXPECT_EQ(&odds.side_of(0), &evens);

  const Communicator world(0, "MPI_COMM_WORLD", first_ranks(4));
  EXPECT_FALSE(world.is_inter());
  EXPECT_EQ(world.peer_count(), 4);
  EXPECT_EQ(world.peer_world_rank(3), 3);
  EXPECT_EQ(&world.side_of(2), &world);
}
