// ArrivalOrderLock (src/online/objects/ArrivalOrderLock.hpp), the lock of MPI_Win_lock: grants in arrival order as
// docs/specifications/one-sided.md states. A shared request is granted when no exclusive lock is held and no earlier
// request waits; an exclusive one when nothing is held and no earlier request waits; a release grants the waiting
// requests from the front of the queue until one is incompatible with the holders. Waiters are plain ids here.
#include "online/objects/ArrivalOrderLock.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using mpisim::online::ArrivalOrderLock;
using Granted = std::vector<int>;

namespace {

constexpr int kShared = MPI_LOCK_SHARED;
constexpr int kExclusive = MPI_LOCK_EXCLUSIVE;

// Requests `type` for `waiter`: true when granted at once, else queued.
bool request(ArrivalOrderLock<int>& lock, int type, int waiter)
{
  if (lock.try_take(type))
    return true;
  lock.wait(type, waiter);
  return false;
}

} // namespace

TEST(online_arrival_order_lock, SharedRequestsAreGrantedTogether)
{
  ArrivalOrderLock<int> lock;
  for (int waiter = 1; waiter <= 3; ++waiter)
    EXPECT_TRUE(request(lock, kShared, waiter));
  EXPECT_EQ(lock.shared_holders(), 3);
  EXPECT_FALSE(lock.exclusive_held());
  EXPECT_EQ(lock.release(kShared), Granted{});
  EXPECT_EQ(lock.shared_holders(), 2);
}

TEST(online_arrival_order_lock, ExclusiveWaitsForEveryHolder)
{
  // Two shared holders; the exclusive request is granted at the release of the second, not the first.
  ArrivalOrderLock<int> lock;
  ASSERT_TRUE(request(lock, kShared, 1));
  ASSERT_TRUE(request(lock, kShared, 2));
  EXPECT_FALSE(request(lock, kExclusive, 3));
  EXPECT_EQ(lock.release(kShared), Granted{});
  EXPECT_EQ(lock.release(kShared), Granted{3});
  EXPECT_TRUE(lock.exclusive_held());
  EXPECT_EQ(lock.shared_holders(), 0);
  EXPECT_EQ(lock.waiting(), 0U);
}

TEST(online_arrival_order_lock, NoRequestOvertakesAWaitingOne)
{
  // A shared holder, an exclusive request waiting: a new shared request is compatible with the holder, yet waits
  // behind the exclusive one (no writer starvation), and is granted when the writer releases.
  ArrivalOrderLock<int> lock;
  ASSERT_TRUE(request(lock, kShared, 1));
  EXPECT_FALSE(request(lock, kExclusive, 2));
  EXPECT_FALSE(request(lock, kShared, 3));
  EXPECT_EQ(lock.shared_holders(), 1);
  EXPECT_EQ(lock.release(kShared), Granted{2});
  EXPECT_EQ(lock.release(kExclusive), Granted{3});
  EXPECT_EQ(lock.shared_holders(), 1);
}

TEST(online_arrival_order_lock, ReleaseGrantsConsecutiveSharedRequestsUpToAnExclusiveOne)
{
  // Exclusive held; queue S4 S5 X6 S7. Its release grants S4 and S5 (compatible with each other), stops at X6;
  // X6 comes when both shared holders have released; S7 when X6 has.
  ArrivalOrderLock<int> lock;
  ASSERT_TRUE(request(lock, kExclusive, 1));
  const std::vector<std::pair<int, int>> queued{{kShared, 4}, {kShared, 5}, {kExclusive, 6}, {kShared, 7}};
  for (auto [type, waiter] : queued)
    EXPECT_FALSE(request(lock, type, waiter)) << waiter;
  EXPECT_EQ(lock.waiting(), 4U);
  EXPECT_EQ(lock.release(kExclusive), (Granted{4, 5}));
  EXPECT_EQ(lock.shared_holders(), 2);
  EXPECT_EQ(lock.release(kShared), Granted{});
  EXPECT_EQ(lock.release(kShared), Granted{6});
  EXPECT_EQ(lock.release(kExclusive), Granted{7});
  EXPECT_EQ(lock.waiting(), 0U);
  EXPECT_EQ(lock.release(kShared), Granted{});
  EXPECT_TRUE(lock.try_take(kExclusive)); // free again
}

TEST(online_arrival_order_lock, ExclusiveRequestsTakeTurnsInArrivalOrder)
{
  ArrivalOrderLock<int> lock;
  ASSERT_TRUE(request(lock, kExclusive, 1));
  EXPECT_FALSE(request(lock, kExclusive, 2));
  EXPECT_FALSE(request(lock, kExclusive, 3));
  EXPECT_FALSE(request(lock, kShared, 4));
  EXPECT_EQ(lock.release(kExclusive), Granted{2});
  EXPECT_EQ(lock.release(kExclusive), Granted{3});
  EXPECT_EQ(lock.release(kExclusive), Granted{4});
  EXPECT_FALSE(lock.exclusive_held());
  EXPECT_EQ(lock.shared_holders(), 1);
}
