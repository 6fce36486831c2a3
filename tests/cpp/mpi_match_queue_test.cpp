#include "mpi/MatchQueue.hpp"

#include <gtest/gtest.h>

#include <vector>

using mpisim::mpi::MatchQueue;

namespace {
std::vector<int> contents(const MatchQueue<int>& queue)
{
  return {queue.begin(), queue.end()};
}
} // namespace

TEST(MatchQueue, KeepsPostingOrderAcrossFrontAndMiddleRemovals)
{
  MatchQueue<int> queue;
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.begin(), queue.end());
  for (int i = 1; i <= 5; ++i)
    queue.push_back(i);
  auto next = queue.erase(queue.begin()); // the front: 2 follows
  EXPECT_EQ(*next, 2);
  next = queue.erase(queue.begin() + 1); // 3, in the middle: 4 follows
  EXPECT_EQ(*next, 4);
  EXPECT_EQ(contents(queue), (std::vector<int>{2, 4, 5}));
  queue.push_back(6);
  EXPECT_EQ(contents(queue), (std::vector<int>{2, 4, 5, 6}));
  EXPECT_EQ(queue.size(), 4u);
}

TEST(MatchQueue, EmptiedQueueStartsAgain)
{
  MatchQueue<int> queue;
  queue.push_back(1);
  const auto next = queue.erase(queue.begin());
  EXPECT_EQ(next, queue.end());
  EXPECT_TRUE(queue.empty());
  queue.push_back(7);
  EXPECT_EQ(contents(queue), (std::vector<int>{7}));
}

TEST(MatchQueue, LongFifoUseKeepsOrderThroughCompaction)
{
  // 1000 in, then out from the front while new ones arrive: the removed prefix is compacted along the way.
  MatchQueue<int> queue;
  for (int i = 0; i < 1000; ++i)
    queue.push_back(i);
  int expected = 0;
  for (int round = 0; round < 3000; ++round) {
    ASSERT_EQ(*queue.begin(), expected);
    queue.erase(queue.begin());
    ++expected;
    queue.push_back(1000 + round);
  }
  EXPECT_EQ(queue.size(), 1000u);
  EXPECT_EQ(*queue.begin(), 3000);
  EXPECT_EQ(*(queue.end() - 1), 3999);
}
