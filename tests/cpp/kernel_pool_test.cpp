// Kernel: BlockPool and PoolAllocator (free lists by size for the objects made per simulated message).
#include "kernel/Pool.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

using namespace mpisim::kernel;

namespace {

struct Record {
  double values[25];
  int id;
};

TEST(BlockPool, HandsOutTheBlockFreedLastAndNeverTheSameBlockTwice)
{
  BlockPool pool(200);
  EXPECT_EQ(pool.block_bytes(), 208u); // 200 rounded up to 16
  void* a = pool.allocate();
  void* b = pool.allocate();
  EXPECT_NE(a, b);
  // One slab of 64 KiB: 65 536 / 208 = 315 blocks.
  EXPECT_EQ(pool.reserved_bytes(), 315u * 208u);
  pool.release(a);
  EXPECT_EQ(pool.allocate(), a);
  std::set<void*> live{a, b};
  for (int i = 0; i < 1000; ++i)
    EXPECT_TRUE(live.insert(pool.allocate()).second);
  // 1 002 blocks take 4 slabs.
  EXPECT_EQ(pool.reserved_bytes(), 4u * 315u * 208u);
}

// The thread's totals: what the slabs took, what objects hold now and at most (deltas: other tests share the thread).
TEST(BlockPool, CountsTheBytesInObjectsAndTheirPeak)
{
  const PoolBytes before = BlockPool::thread_bytes();
  {
    BlockPool pool(200);
    std::vector<void*> blocks;
    for (int i = 0; i < 3; ++i)
      blocks.push_back(pool.allocate());
    pool.release(blocks.back());
    blocks.pop_back();
    const PoolBytes& now = BlockPool::thread_bytes();
    EXPECT_EQ(now.reserved - before.reserved, 315u * 208u);
    EXPECT_EQ(now.in_use - before.in_use, 2u * 208u);
    EXPECT_GE(now.peak_in_use, before.in_use + 3u * 208u);
    for (void* block : blocks)
      pool.release(block);
  }
  EXPECT_EQ(BlockPool::thread_bytes().reserved, before.reserved); // its slabs went with it
  EXPECT_EQ(BlockPool::thread_bytes().in_use, before.in_use);
}

TEST(PoolAllocator, SharedObjectsReuseTheirBlocks)
{
  const void* first = nullptr;
  {
    auto record = std::allocate_shared<Record>(PoolAllocator<Record>{});
    record->id = 7;
    first = record.get();
  }
  auto again = std::allocate_shared<Record>(PoolAllocator<Record>{});
  EXPECT_EQ(again.get(), first);
  std::vector<std::shared_ptr<Record>> many;
  for (int i = 0; i < 10000; ++i) {
    many.push_back(std::allocate_shared<Record>(PoolAllocator<Record>{}));
    many.back()->id = i;
  }
  for (int i = 0; i < 10000; ++i)
    EXPECT_EQ(many[static_cast<size_t>(i)]->id, i);
}

} // namespace
