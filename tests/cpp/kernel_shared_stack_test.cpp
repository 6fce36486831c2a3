// Kernel: actors on one shared stack with copy-on-switch (SharedStack): frames survive other actors' runs.
#include "kernel/Engine.hpp"
#include "kernel/Stacks.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

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
