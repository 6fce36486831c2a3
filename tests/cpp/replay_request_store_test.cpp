#include "replay/RequestStore.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

using mpisim::mpi::Communicator;
using mpisim::mpi::Request;
using mpisim::mpi::RequestKind;
using mpisim::mpi::RequestPtr;
using mpisim::replay::RequestStore;

namespace {
RequestPtr receive_from(const Communicator& comm, int source)
{
  return std::make_shared<Request>(RequestKind::Receive, 0, comm, source, 0, 8.0);
}
} // namespace

// A waitall waits on exactly the store's pending requests, in place, oldest first, without the entries a test
// completed (null); clearing releases them and leaves the store empty for the next one.
TEST(replay_request_store, PendingHoldsOnlyThePendingRequests)
{
  const Communicator comm(0, "MPI_COMM_WORLD", {0, 1, 2});
  RequestStore store;

  const RequestPtr first = receive_from(comm, 1);
  const RequestPtr second = receive_from(comm, 2);
  store.add({1, 0, 0}, first);
  store.add({1, 0, 5}, nullptr); // completed by a test: no request
  store.add({2, 0, 0}, second);
  std::span<const RequestPtr> waited = store.pending();
  ASSERT_EQ(waited.size(), 2u);
  EXPECT_EQ(waited[0], first);
  EXPECT_EQ(waited[1], second);
  EXPECT_FALSE(store.empty());
  store.clear();
  EXPECT_TRUE(store.empty());

  const RequestPtr third = receive_from(comm, 2);
  store.add({2, 0, 0}, third);
  waited = store.pending(); // the previous waitall's requests are not kept
  ASSERT_EQ(waited.size(), 1u);
  EXPECT_EQ(waited[0], third);
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(second.use_count(), 1);
  store.clear();
  EXPECT_EQ(third.use_count(), 1);
}

// A wait takes the oldest request under its key, placeholders included, and the others keep their keys: the
// placeholders a waitall drops take their keys with them.
TEST(replay_request_store, PopTakesTheOldestUnderItsKey)
{
  const Communicator comm(0, "MPI_COMM_WORLD", {0, 1, 2});
  RequestStore store;

  const RequestPtr older = receive_from(comm, 1);
  const RequestPtr newer = receive_from(comm, 1);
  const RequestPtr other = receive_from(comm, 2);
  store.add({1, 0, 0}, older);
  store.add({2, 0, 3}, nullptr);
  store.add({2, 0, 0}, other);
  store.add({1, 0, 0}, newer);
  EXPECT_EQ(store.pop({1, 0, 0}), older);
  EXPECT_EQ(store.pop({1, 0, 7}), nullptr); // no such key
  ASSERT_EQ(store.pending().size(), 2u);    // the placeholder of {2, 0, 3} goes
  EXPECT_EQ(store.pop({2, 0, 3}), nullptr);
  EXPECT_EQ(store.pop({1, 0, 0}), newer);
  EXPECT_EQ(store.pop({2, 0, 0}), other);
  EXPECT_TRUE(store.empty());
}
