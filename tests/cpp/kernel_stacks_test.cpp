// Kernel: actors' stacks from an arena (no mapping per actor, slices reused, overflow caught by the canary).
#include "common/Errors.hpp"
#include "kernel/Engine.hpp"
#include "kernel/Stacks.hpp"

#include <gtest/gtest.h>

#include <alloca.h>

#include <cstdint>
#include <memory>
#include <string>

using namespace mpisim;
using namespace mpisim::kernel;

namespace {

// Under AddressSanitizer its allocator maps memory of its own as the run grows (not per actor: 64 to 80 mappings for
// the 40 000 actors below, depending on the kernel's own allocations), and it reports a write under a slice itself,
// before the canary is checked.
#if defined(__SANITIZE_ADDRESS__)
constexpr long long kSanitizerMappings = 160;
constexpr const char* kOverflowReport = "overflowed its stack of 16 KiB|AddressSanitizer: stack-buffer-underflow";
#else
constexpr long long kSanitizerMappings = 0;
constexpr const char* kOverflowReport = "internal error: actor 'deep' overflowed its stack of 16 KiB";
#endif

uintptr_t address(const void* pointer)
{
  return reinterpret_cast<uintptr_t>(pointer);
}

// Issue 13 item 6: 40 000 actors, all alive at once, more than Linux's default vm.max_map_count (65 530) allows with
// two mappings per stack; on the arena the reservations double from 256 slices, so 40 000 slices take 8 mappings
// (256 x (2^8 - 1) = 65 280 slices), whatever the rank count.
TEST(KernelStacks, ArenaActorsNeedNoMappingEach)
{
  Engine engine;
  engine.set_stack_provider(std::make_unique<StackArena>(16 * 1024));
  const long long before = mappings_in_use();
  long long while_all_alive = 0;
  const int count = 40000;
  int finished = 0;
  for (int i = 0; i < count; ++i)
    engine.spawn("a" + std::to_string(i), [&, i] {
      engine.sleep(1.0 + (i % 3));
      if (i == 0)
        while_all_alive = mappings_in_use();
      ++finished;
    });
  engine.run();
  EXPECT_EQ(finished, count);
  EXPECT_DOUBLE_EQ(engine.now(), 3.0);
  EXPECT_LE(while_all_alive - before, 8 + kSanitizerMappings);
}

// A slice given back by an actor that ended is the next one handed out: the frames of an actor spawned later lie at
// the same place in the slice of the actor that ended (the same call path: within a few bytes), not in the slice of
// the one still alive (a slice away).
TEST(KernelStacks, ArenaSlicesAreReusedWhenActorsEnd)
{
  Engine engine;
  engine.set_stack_provider(std::make_unique<StackArena>(16 * 1024));
  uintptr_t ended = 0, alive = 0, late = 0;
  engine.spawn("ends", [&] { ended = address(__builtin_frame_address(0)); });
  engine.spawn("alive", [&] {
    alive = address(__builtin_frame_address(0));
    engine.sleep(1.0);
    engine.spawn("late", [&] { late = address(__builtin_frame_address(0)); });
    engine.sleep(1.0);
  });
  engine.run();
  const auto distance = [](uintptr_t a, uintptr_t b) { return a > b ? a - b : b - a; };
  EXPECT_EQ(engine.stacks().stack_bytes(), 16u * 1024 - 16); // the slice's top 16 bytes are the arena's
  EXPECT_LT(distance(ended, late), 1024u);
  EXPECT_GE(distance(ended, alive), 15u * 1024);
}

// The arena has no guard: the crash handler's test is the stack pointer below the slice's bottom.
TEST(KernelStacks, ArenaOverflowIsToldByTheStackPointer)
{
  Engine engine;
  engine.set_stack_provider(std::make_unique<StackArena>(16 * 1024));
  engine.spawn("only", [&] {
    const Actor& me = engine.self();
    const auto* frame = static_cast<const char*>(__builtin_frame_address(0));
    EXPECT_EQ(engine.stacks().guard_bytes(), 0u);
    EXPECT_TRUE(me.overflows_stack(nullptr, address(frame - 17 * 1024))); // under the slice
    EXPECT_FALSE(me.overflows_stack(frame - 17 * 1024, address(frame)));  // a fault under it, the stack pointer in it
    EXPECT_FALSE(me.overflows_stack(nullptr, address(frame)));
  });
  engine.run();
}

// Writes `bytes` of a frame below the caller's: with more than the slice holds, under the slice's bottom.
[[gnu::noinline]] void use_stack(size_t bytes)
{
  auto* buffer = static_cast<volatile char*>(alloca(bytes));
  for (size_t i = 0; i < bytes; ++i)
    buffer[i] = 1;
}

// An actor that writes past the bottom of its slice (into the top of the slice under it, its neighbour's) is stopped
// with a line naming it when it next suspends, before its neighbour runs on the corrupt frames.
TEST(KernelStacksDeathTest, ArenaOverflowStopsAtTheNextSuspension)
{
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        Engine engine;
        engine.set_stack_provider(std::make_unique<StackArena>(16 * 1024));
        engine.spawn("neighbour", [&] { engine.sleep(2.0); }); // the first slice, under the second
        engine.spawn("deep", [&] {
          use_stack(20 * 1024);
          engine.sleep(1.0);
        });
        engine.run();
      },
      kOverflowReport);
}

} // namespace
