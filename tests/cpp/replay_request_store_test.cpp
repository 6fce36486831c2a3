#include "replay/RequestStore.hpp"

#include <gtest/gtest.h>

#include <memory>
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

// A waitall takes exactly the store's pending requests, oldest first, without the entries a test completed (null), and
// leaves the store empty for the next one.
TEST(replay_request_store, TakeAllHoldsOnlyThePendingRequests)
{
  const Communicator comm(0, "MPI_COMM_WORLD", {0, 1, 2});
  RequestStore store;

  const RequestPtr first = receive_from(comm, 1);
  const RequestPtr second = receive_from(comm, 2);
  store.add({1, 0, 0}, first);
  store.add({2, 0, 0}, second);
  store.add({1, 0, 5}, nullptr); // completed by a test: no request
  std::vector<RequestPtr> waited = store.take_all();
  ASSERT_EQ(waited.size(), 2u);
  EXPECT_EQ(waited[0], first);
  EXPECT_EQ(waited[1], second);
  EXPECT_TRUE(store.empty());

  const RequestPtr third = receive_from(comm, 2);
  store.add({2, 0, 0}, third);
  waited = store.take_all(); // the previous waitall's requests are not kept
  ASSERT_EQ(waited.size(), 1u);
  EXPECT_EQ(waited[0], third);
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(second.use_count(), 1);
}
