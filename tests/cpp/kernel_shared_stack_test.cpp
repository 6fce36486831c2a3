// Kernel: actors on one shared stack with copy-on-switch (SharedStack): frames survive other actors' runs.
#include "kernel/Engine.hpp"
#include "kernel/Stacks.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::kernel;

namespace {

// Recurses `depth` frames, each with a local array filled from (actor, level); suspends at the bottom twice (other
// actors run on the same stack meanwhile), then checks every frame's array on the way back.
bool frames_survive(Engine& engine, int actor, int depth, double wake)
{
  std::array<uint32_t, 64> local{};
  for (size_t k = 0; k < local.size(); ++k)
    local[k] = static_cast<uint32_t>(actor * 1000003 + depth * 131 + static_cast<int>(k));
  bool deeper = true;
  if (depth > 0)
    deeper = frames_survive(engine, actor, depth - 1, wake);
  else {
    engine.sleep(wake);
    engine.sleep(wake);
  }
  for (size_t k = 0; k < local.size(); ++k)
    if (local[k] != static_cast<uint32_t>(actor * 1000003 + depth * 131 + static_cast<int>(k)))
      return false;
  return deeper;
}

} // namespace

TEST(KernelSharedStack, ActorsSuspendedAtDifferentDepthsKeepTheirLocals)
{
  Engine engine;
  engine.set_stack_provider(std::make_unique<SharedStack>(size_t{1} << 20));
  const int count = 500;
  int intact = 0;
  for (int i = 0; i < count; ++i)
    engine.spawn("a" + std::to_string(i), [&, i] {
      if (frames_survive(engine, i, i % 37, 1.0 + (i % 5)))
        ++intact;
    });
  engine.run();
  EXPECT_EQ(intact, count);
  EXPECT_DOUBLE_EQ(engine.now(), 10.0); // the latest actor sleeps twice 5 s
}

// All actors sleep once until the same date: the first round saves each actor when the next one starts (count - 1
// copies); in the second round the first actor woken saves the last one started, unless it is that one, then each
// ends and frees the stack for the next (no copy).
TEST(KernelSharedStack, AnActorIsCopiedOnlyWhenAnotherNeedsTheStack)
{
  Engine engine;
  auto owned = std::make_unique<SharedStack>(size_t{1} << 20);
  SharedStack& stack = *owned;
  engine.set_stack_provider(std::move(owned));
  const int count = 100;
  std::array<uintptr_t, 2> frame_of_first_two{};
  int first_woken = -1;
  for (int i = 0; i < count; ++i)
    engine.spawn("a" + std::to_string(i), [&, i] {
      int here = 0;
      if (i < 2)
        frame_of_first_two[static_cast<size_t>(i)] = reinterpret_cast<uintptr_t>(&here);
      engine.sleep(1.0);
      if (first_woken < 0)
        first_woken = i;
    });
  engine.run();
  EXPECT_EQ(stack.saves(), (count - 1) + (first_woken == count - 1 ? 0 : 1));
  EXPECT_EQ(frame_of_first_two[0], frame_of_first_two[1]); // one stack: the same frame at the same address
  // Each copy is the frames from the suspension point to the top: more than the registers saved, far less than a page.
  const double average = static_cast<double>(stack.bytes_saved()) / static_cast<double>(stack.saves());
  EXPECT_GT(average, 64.0);
  EXPECT_LT(average, 4096.0);
  EXPECT_EQ(stack.occupant(), nullptr); // all ended
}

namespace {

std::vector<std::byte> frames_of(size_t bytes, uint8_t seed)
{
  std::vector<std::byte> frames(bytes);
  for (size_t i = 0; i < bytes; ++i)
    frames[i] = static_cast<std::byte>((i * 7 + seed) & 0xff);
  return frames;
}

std::vector<std::byte> restored(const FrameCopy& copy)
{
  std::vector<std::byte> out(copy.bytes());
  copy.restore(out.data());
  return out;
}

} // namespace

// Copies of one depth are kept as their differences from the first: 3 words changed cost 2.5 words plus the bitmaps;
// frames differing in most words become the depth's new reference, and the copies made before keep theirs.
TEST(KernelSharedStack, FrameCopiesKeepTheirDifferencesFromACopyOfTheSameDepth)
{
  SharedStack stack(size_t{1} << 16, 0); // no plain copies
  const size_t bytes = 1024;             // 128 words, a bitmap of 2
  const std::vector<std::byte> first = frames_of(bytes, 1);
  std::vector<std::byte> close = first;
  close[0 * 8 + 3] = std::byte{0xee};  // its XOR with the reference fits in 32 bits
  close[64 * 8 + 7] = std::byte{0xee}; // this one does not
  close[127 * 8 + 3] = std::byte{0xee};
  const std::vector<std::byte> other = frames_of(bytes, 99);

  FrameCopy a, b, c, d;
  a.save(stack, first.data(), bytes);
  EXPECT_EQ(stack.references_made(), 1);
  EXPECT_EQ(a.own_bytes(), 0u); // it is the reference
  b.save(stack, close.data(), bytes);
  EXPECT_EQ(stack.references_made(), 1);
  EXPECT_EQ(stack.words_differing(), 3u);
  EXPECT_EQ(b.own_bytes(), (2u + 1u + 1u + 1u) * 8u); // the bitmaps (2 words, 1), 1 wide XOR, 2 narrow in a word
  c.save(stack, other.data(), bytes);                 // every word differs: a new reference
  EXPECT_EQ(stack.references_made(), 2);
  EXPECT_EQ(c.own_bytes(), 0u);
  d.save(stack, other.data(), bytes); // the same as the new reference
  EXPECT_EQ(stack.references_made(), 2);
  EXPECT_EQ(d.own_bytes(), 0u);
  EXPECT_EQ(restored(a), first);
  EXPECT_EQ(restored(b), close);
  EXPECT_EQ(restored(c), other);
  EXPECT_EQ(restored(d), other);

  // Saved again, at another depth and in bytes that are not whole words: kept whole, restored exactly.
  const std::vector<std::byte> odd = frames_of(1001, 5);
  b.save(stack, odd.data(), odd.size());
  EXPECT_EQ(b.bytes(), 1001u);
  EXPECT_EQ(restored(b), odd);
  EXPECT_EQ(restored(a), first);
  b.clear();
  EXPECT_EQ(b.bytes(), 0u);
}

// Actors suspended at one point of the same code differ in a few words: their copies hold little more than those.
TEST(KernelSharedStack, ActorsSuspendedInTheSameCodeShareMostOfTheirFrames)
{
  Engine engine;
  auto owned = std::make_unique<SharedStack>(size_t{1} << 20, 0); // no plain copies
  SharedStack& stack = *owned;
  engine.set_stack_provider(std::move(owned));
  const int count = 200;
  int intact = 0;
  for (int i = 0; i < count; ++i)
    engine.spawn("a" + std::to_string(i), [&, i] {
      if (frames_survive(engine, i % 2, 3, 1.0)) // two kinds of locals, the same depth
        ++intact;
    });
  engine.run();
  EXPECT_EQ(intact, count);
  const double words_saved = static_cast<double>(stack.bytes_saved()) / 8.0;
  EXPECT_LT(static_cast<double>(stack.words_differing()), 0.25 * words_saved);
  EXPECT_LT(stack.references_made(), 10);
}

// Within the budget a copy is the frames themselves, its buffer reused by the actor's later copies that fit; past it,
// copies are differences from a reference again, and every copy restores exactly.
TEST(KernelSharedStack, CopiesArePlainWhileTheBudgetLasts)
{
  const size_t bytes = 1024; // 128 words
  SharedStack stack(size_t{1} << 16, 2 * bytes + 8);
  const std::vector<std::byte> first = frames_of(bytes, 1), second = frames_of(bytes, 2), third = frames_of(bytes, 3);
  FrameCopy a, b, c;
  a.save(stack, first.data(), bytes);
  EXPECT_EQ(a.own_bytes(), bytes); // plain
  EXPECT_EQ(stack.plain_bytes_granted(), bytes);
  a.save(stack, second.data(), bytes - 16); // fits its buffer: nothing granted
  EXPECT_EQ(stack.plain_bytes_granted(), bytes);
  EXPECT_EQ(restored(a), std::vector<std::byte>(second.begin(), second.end() - 16));
  b.save(stack, second.data(), bytes);
  EXPECT_EQ(stack.plain_bytes_granted(), 2 * bytes);
  EXPECT_EQ(stack.references_made(), 0);
  c.save(stack, third.data(), bytes); // over the budget: a reference of its own, as without plain copies
  EXPECT_EQ(stack.plain_bytes_granted(), 2 * bytes);
  EXPECT_EQ(stack.references_made(), 1);
  EXPECT_EQ(c.own_bytes(), 0u);
  const std::vector<std::byte> odd = frames_of(1001, 5);
  a.save(stack, odd.data(), odd.size()); // not whole words: still plain, in its buffer
  EXPECT_EQ(a.bytes(), 1001u);
  EXPECT_EQ(restored(a), odd);
  EXPECT_EQ(restored(b), second);
  EXPECT_EQ(restored(c), third);
  a.clear();
  EXPECT_EQ(a.own_bytes(), 0u);
  EXPECT_EQ(stack.plain_bytes_granted(), 2 * bytes); // not given back
}
