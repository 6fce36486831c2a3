// Kernel: per-actor memory contexts (the online mode's swap privatization) entered before each actor runs,
// inherited by spawned actors, and borrowed by MemoryContextScope.
#include "kernel/Engine.hpp"
#include "kernel/MemoryContexts.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mpisim::kernel;

namespace {

// One int of "private memory" per context: the value in place is `slot`, the others are saved in `saved`.
struct IntContexts : MemoryContexts {
  explicit IntContexts(int contexts) : saved(static_cast<size_t>(contexts), 0) {}
  void enter(int id) override
  {
    entered.push_back(id);
    if (id == in_place)
      return;
    if (in_place != kNoMemoryContext)
      saved[static_cast<size_t>(in_place)] = slot;
    slot = saved[static_cast<size_t>(id)];
    in_place = id;
  }
  int current() const override { return in_place; }
  bool is_private(const void* address) const override { return address == &slot; }

  int slot = 0;
  std::vector<int> saved;
  int in_place = kNoMemoryContext;
  std::vector<int> entered;
};

TEST(KernelMemoryContexts, EachActorRunsWithItsOwnValueAndSpawnedActorsInheritIt)
{
  Engine engine;
  IntContexts contexts(2);
  engine.set_memory_contexts(&contexts);
  std::vector<std::string> log;
  for (int id = 0; id < 2; ++id) {
    Actor& actor = engine.spawn("a" + std::to_string(id), [&, id] {
      contexts.slot += 10 * (id + 1); // 10 in context 0, 20 in context 1
      engine.spawn("child", [&] { contexts.slot += 1; });
      engine.sleep(1.0);
      log.push_back("a" + std::to_string(id) + " sees " + std::to_string(contexts.slot));
    });
    actor.set_memory_context(id);
  }
  engine.run();
  // Each child ran in its parent's context: 11 and 21, whatever ran in between. (The two sleeps, started in one
  // round, end together: the newest resumes first, as in SimGrid.)
  EXPECT_EQ(log, (std::vector<std::string>{"a1 sees 21", "a0 sees 11"}));
}

TEST(KernelMemoryContexts, ScopeBorrowsAContextAndGivesTheRunningActorItsOwnBack)
{
  Engine engine;
  IntContexts contexts(2);
  engine.set_memory_contexts(&contexts);
  int seen_inside = -1, seen_after = -1;
  Actor& writer = engine.spawn("writer", [&] {
    contexts.slot = 5;
    {
      MemoryContextScope scope(engine, 1); // as a message delivered into context 1's buffer
      seen_inside = contexts.current();
      contexts.slot = 42;
    }
    seen_after = contexts.slot;
  });
  writer.set_memory_context(0);
  int reader_sees = -1;
  Actor& reader = engine.spawn("reader", [&] { reader_sees = contexts.slot; });
  reader.set_memory_context(1);
  engine.run();
  EXPECT_EQ(seen_inside, 1);
  EXPECT_EQ(seen_after, 5);   // the writer's own value is back in place
  EXPECT_EQ(reader_sees, 42); // what was written in context 1
}

TEST(KernelMemoryContexts, ScopeFromTheEngineLeavesTheBorrowedContextInPlace)
{
  Engine engine;
  IntContexts contexts(3);
  engine.set_memory_contexts(&contexts);
  contexts.enter(0);
  contexts.entered.clear();
  {
    MemoryContextScope scope(engine, 2); // no actor running: nothing to give back
  }
  EXPECT_EQ(contexts.entered, (std::vector<int>{2}));
  EXPECT_EQ(contexts.current(), 2);
}

} // namespace
