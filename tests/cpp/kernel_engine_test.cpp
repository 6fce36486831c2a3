// Kernel: the event queue's ordering rule, actors, sleeping, waiting, deadlock reports, determinism.
#include "common/Errors.hpp"
#include "kernel/Actor.hpp"
#include "kernel/Engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace mpisim;
using namespace mpisim::kernel;

namespace {

struct RecordingEvent : Event {
  RecordingEvent(std::vector<int>& log, int id) : log(log), id(id) {}
  void fire() override { log.push_back(id); }
  std::vector<int>& log;
  int id;
};

TEST(KernelEventQueue, OrdersByDateThenPriorityThenInsertion)
{
  std::vector<int> log;
  RecordingEvent a(log, 1), b(log, 2), c(log, 3), d(log, 4), e(log, 5);
  EventQueue queue;
  queue.schedule(a, 2.0);
  queue.schedule(b, 1.0, /*priority=*/1);
  queue.schedule(c, 1.0, /*priority=*/0);
  queue.schedule(d, 1.0, /*priority=*/1); // same date and priority as b: after b
  queue.schedule(e, 0.5);
  while (not queue.empty())
    queue.pop()->fire();
  EXPECT_EQ(log, (std::vector<int>{5, 3, 2, 4, 1}));
}

TEST(KernelEventQueue, RescheduleAndCancel)
{
  std::vector<int> log;
  RecordingEvent a(log, 1), b(log, 2), c(log, 3);
  EventQueue queue;
  queue.schedule(a, 1.0);
  queue.schedule(b, 2.0);
  queue.schedule(c, 3.0);
  queue.schedule(c, 0.5); // moved earlier
  queue.cancel(a);
  EXPECT_FALSE(a.scheduled());
  EXPECT_EQ(queue.size(), 2u);
  while (not queue.empty())
    queue.pop()->fire();
  EXPECT_EQ(log, (std::vector<int>{3, 2}));
}

// Random operations on a queue of a few hundred events, checked against a sorted set of the keys: `date_of` and
// `priority_of` draw an event's date and priority from a random number.
template <class DateOf, class PriorityOf>
void expect_pops_in_key_order(EventQueue& queue, DateOf date_of, PriorityOf priority_of)
{
  struct Keyed : Event {
    void fire() override {}
    uint64_t sequence = 0;
    int16_t priority = 0;
  };
  constexpr int kEvents = 300;
  std::vector<Keyed> events(kEvents);
  using Key = std::tuple<double, int16_t, uint64_t, const Event*>;
  std::set<Key> expected;
  uint64_t sequence = 0; // the count of schedule() calls (the queue's own numbers may be renumbered)
  std::mt19937 random(42);
  auto remove_expected = [&](Keyed& event) { expected.erase({event.date(), event.priority, event.sequence, &event}); };
  for (int step = 0; step < 20000; ++step) {
    Keyed& event = events[random() % kEvents];
    const unsigned what = random() % 8;
    if (what < 4) { // (re)schedule
      if (event.scheduled())
        remove_expected(event);
      const double date = date_of(random());
      event.priority = priority_of(random());
      event.sequence = sequence++;
      queue.schedule(event, date, event.priority);
      expected.insert({date, event.priority, event.sequence, &event});
    } else if (what < 5) {
      if (event.scheduled())
        remove_expected(event);
      queue.cancel(event);
      EXPECT_FALSE(event.scheduled());
    } else if (not expected.empty()) {
      const Event* popped = queue.pop();
      ASSERT_EQ(popped, std::get<3>(*expected.begin())) << "step " << step;
      EXPECT_FALSE(popped->scheduled());
      expected.erase(expected.begin());
    }
    ASSERT_EQ(queue.size(), expected.size());
    if (random() % 4 == 0) { // reading the next date fills a vacant root: not after every step
      ASSERT_EQ(queue.next_date(), expected.empty() ? kNever : std::get<0>(*expected.begin()));
    }
  }
}

// A pop leaves the root vacant until the next operation: whatever comes next (a new event, a rescheduled or cancelled
// one, another pop), the events come out in the order of their keys (dates on a coarse grid, so that ties are
// frequent).
TEST(KernelEventQueue, PopsInKeyOrderWhateverFollowsAPop)
{
  EventQueue queue;
  expect_pops_in_key_order(
      queue, [](uint32_t random) { return static_cast<double>(random % 50); },
      [](uint32_t random) { return static_cast<int16_t>(random % 2); });
}

// The hold pattern of a replay: each popped event schedules its successor at once, which fills the vacant root and
// sinks from there (a hole taken down to a leaf, then the entry raised from it). The new date falls before every
// pending one (it rises back to the root), after all of them (it stays at the leaf), or among them, and so does the
// last entry that fills the root when the popped event schedules nothing; heaps of every size up to 70 end in last
// nodes with 0 to 3 children. Checked against a sorted set of the keys.
TEST(KernelEventQueue, PopsInKeyOrderWhenEachPopSchedulesItsSuccessor)
{
  struct Held : Event {
    void fire() override {}
  };
  std::mt19937 random(7);
  for (size_t count = 1; count <= 70; ++count) {
    EventQueue queue;
    std::vector<Held> events(count);
    std::set<std::tuple<double, uint64_t, const Event*>> expected; // date, schedule call, event
    uint64_t sequence = 0;
    double now = 0;
    auto schedule = [&](Held& event, double date) {
      queue.schedule(event, date);
      expected.insert({date, sequence++, &event});
    };
    for (Held& event : events)
      schedule(event, static_cast<double>(random() % 100));
    for (int step = 0; step < 400; ++step) {
      auto* popped = static_cast<Held*>(queue.pop());
      ASSERT_EQ(popped, std::get<2>(*expected.begin())) << "size " << count << " step " << step;
      now = std::get<0>(*expected.begin());
      expected.erase(expected.begin());
      const unsigned where = random() % 4;
      if (where == 0)
        schedule(*popped, now); // at the popped date: after its other events, before every later one
      else if (where == 1)
        schedule(*popped, now + 1000 + step); // after all of them
      else if (where == 2)
        schedule(*popped, now + static_cast<double>(random() % 100)); // among them, ties likely
      else if (expected.empty())
        schedule(*popped, now + 1); // nothing else pending: the queue must not run dry
      // else: none; the last entry fills the root at the next pop
    }
  }
}

// The key packs the date's bits, the priority and a 48-bit sequence number into one integer: negative dates, both
// zeros (equal dates), infinity and the extreme priorities keep their order, and so do events scheduled before and
// after the sequence numbers run out (about 10 000 schedules here, starting 3 000 before the end: the pending events
// are renumbered in their order).
TEST(KernelEventQueue, PacksDatesPrioritiesAndSequencesInOrder)
{
  constexpr double kDates[] = {-kNever, -2.0, -1e-300, -0.0, 0.0, 1e-300, 0.5, 1.0, 3.0, kNever};
  constexpr int16_t kPriorities[] = {-32768, -1, 0, 1, 32767};
  EventQueue queue(/*first_sequence=*/(uint64_t{1} << 48) - 3000);
  expect_pops_in_key_order(
      queue, [&](uint32_t random) { return kDates[random % std::size(kDates)]; },
      [&](uint32_t random) { return kPriorities[random % std::size(kPriorities)]; });
}

// Whether the next event is due in a round is read from the root's key (its date's bits mapped back), not from the
// event: the answer is the date's own (date - round < kTimePrecision), for dates a fraction of kTimePrecision apart,
// events scheduled inside the window after a later one was popped (they come out first), negative dates and both zeros.
TEST(KernelEventQueue, TellsWhetherTheNextEventIsWithinTheRoundsPrecision)
{
  struct Dated : Event {
    void fire() override {}
  };
  constexpr double kBases[] = {-1.0, -0.0, 0.0, 1e-300, 0.1001457392, 3.0};
  std::mt19937 random(11);
  for (const double base : kBases) {
    EventQueue queue;
    std::vector<Dated> events(64);
    std::set<std::tuple<double, uint64_t, const Event*>> expected; // date, schedule call, event
    uint64_t sequence = 0;
    auto schedule = [&](Dated& event, double date) {
      queue.schedule(event, date);
      expected.insert({date, sequence++, &event});
    };
    auto date_near = [&] { // 4 dates per kTimePrecision; the base itself (-0 too) one time in 16
      const uint32_t step = random() % 16;
      return step == 0 ? base : base + static_cast<double>(step) * 0.25e-9;
    };
    for (Dated& event : events)
      schedule(event, date_near());
    for (int step = 0; step < 2000; ++step) {
      const double round = date_near() - 1e-9;
      const double next = std::get<0>(*expected.begin());
      ASSERT_EQ(queue.next_within_precision_of(round), next - round < kTimePrecision)
          << "base " << base << " next " << next << " round " << round;
      auto* popped = static_cast<Dated*>(queue.pop());
      ASSERT_EQ(popped, std::get<2>(*expected.begin())) << "base " << base << " step " << step;
      expected.erase(expected.begin());
      schedule(*popped, date_near()); // often before the one just popped: within the window, it comes out first
    }
  }
}

TEST(KernelEngine, ActorsSleepInSimulatedTime)
{
  Engine engine;
  std::vector<std::pair<std::string, double>> log;
  engine.spawn("a", [&] {
    engine.sleep(1.5);
    log.emplace_back("a", engine.now());
    engine.sleep(1.0);
    log.emplace_back("a", engine.now());
  });
  engine.spawn("b", [&] {
    engine.sleep(2.0);
    log.emplace_back("b", engine.now());
  });
  engine.run();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], std::make_pair(std::string("a"), 1.5));
  EXPECT_EQ(log[1], std::make_pair(std::string("b"), 2.0));
  EXPECT_EQ(log[2], std::make_pair(std::string("a"), 2.5));
  EXPECT_DOUBLE_EQ(engine.now(), 2.5);
}

// The order of actors whose activities end at the same date: SimGrid 3.32's, as smpirun shows it
// (docs/specifications/same-date-order.md, whose worked examples these are, in seconds rather than milliseconds).
std::vector<int> resume_order(const std::vector<std::vector<double>>& sleeps)
{
  Engine engine;
  std::vector<int> order;
  for (size_t r = 0; r < sleeps.size(); ++r)
    engine.spawn("r" + std::to_string(r), [&, r] {
      for (double duration : sleeps[r])
        engine.sleep(duration);
      order.push_back(static_cast<int>(r));
    });
  engine.run();
  return order;
}

TEST(KernelSameDateOrder, SleepsStartedInOneRoundResumeNewestFirst)
{
  EXPECT_EQ(resume_order({{1}, {1}, {1}, {1}}), (std::vector<int>{3, 2, 1, 0}));
}

TEST(KernelSameDateOrder, SleepsStartedInEarlierRoundsResumeOldestFirst)
{
  // Every second sleep ends at 14 exactly; rank 3's started first (at 1), rank 0's last (at 4).
  EXPECT_EQ(resume_order({{4, 10}, {3, 11}, {2, 12}, {1, 13}}), (std::vector<int>{3, 2, 1, 0}));
  EXPECT_EQ(resume_order({{1, 13}, {2, 12}, {3, 11}, {4, 10}}), (std::vector<int>{0, 1, 2, 3}));
  // At 1 ranks 3 then 2 resume (their first sleeps were numbered newest first) and start their second sleeps in
  // that order, numbered newest first: rank 2's first. The same at 2 for ranks 1 then 0.
  EXPECT_EQ(resume_order({{2, 12}, {2, 12}, {1, 13}, {1, 13}}), (std::vector<int>{2, 3, 0, 1}));
}

TEST(KernelSameDateOrder, TheExactDateComesBeforeTheStartOrder)
{
  // Both end within kTimePrecision, in one round; rank 1's end is one bit earlier although its sleep started later.
  const double late = std::nextafter(1.0, 2.0);
  EXPECT_EQ(resume_order({{late}, {0.5, 0.5}}), (std::vector<int>{1, 0}));
}

TEST(KernelSameDateOrder, TimersThenHostsThenNetwork)
{
  // Scheduled network first, timers last, all at date 1: they fire timers, hosts, network.
  Engine engine;
  std::vector<int> log;
  RecordingEvent network(log, 2), hosts(log, 1), timer(log, 0);
  network.set_source(EventSource::Network);
  hosts.set_source(EventSource::Hosts);
  engine.schedule(network, 1.0);
  engine.schedule(hosts, 1.0);
  engine.schedule(timer, 1.0);
  std::vector<std::string> resumed;
  engine.spawn("waits for the network", [&] {
    auto message = engine.start_timer(1.0, "message");
    engine.wait(*message);
    resumed.push_back("network");
  });
  engine.spawn("sleeps", [&] {
    engine.sleep(1.0);
    resumed.push_back("sleep");
  });
  engine.run();
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(resumed, (std::vector<std::string>{"sleep", "network"}));
}

TEST(KernelSameDateOrder, WaitAnyAnswersWithTheActivityThatWokeIt)
{
  // Both end at 1, `first` before `second` (scheduled first); by the time the waiter runs both are done. SimGrid's
  // waitany answers with the one whose completion woke it, not the lowest index.
  Engine engine;
  size_t index = 99;
  engine.spawn("waiter", [&] {
    auto first = engine.start_timer(1.0, "first");
    auto second = engine.start_timer(1.0, "second");
    Activity* both[] = {second.get(), first.get()};
    index = engine.wait_any(both);
    EXPECT_TRUE(second->done());
  });
  engine.run();
  EXPECT_EQ(index, 1u);
}

// Rounds (same-date-order.md, "Rounds"): an actor that yields goes behind the others ready at its date, which run
// to their own yield or block first; the clock does not move meanwhile, and a sleep started after a yield is numbered
// in the order the actors reached it.
TEST(KernelSameDateOrder, YieldingActorsTakeTurnsCallByCall)
{
  Engine engine;
  std::vector<std::string> log;
  auto actor = [&](const std::string& name, int calls) {
    return [&, name, calls] {
      for (int call = 1; call <= calls; ++call) {
        log.push_back(name + std::to_string(call) + "@" + std::to_string(engine.now()));
        engine.yield();
      }
      engine.sleep(1.0);
      log.push_back(name + " woke");
    };
  };
  engine.spawn("a", actor("a", 3));
  engine.spawn("b", actor("b", 1));
  engine.spawn("c", actor("c", 2));
  engine.run();
  // Turns: a1 b1 c1 | a2 (b sleeps) c2 | a3 (c sleeps) | (a sleeps). Sleeps started in b, c, a order, numbered
  // newest first: a, c, b resume at 1.
  EXPECT_EQ(log, (std::vector<std::string>{"a1@0.000000", "b1@0.000000", "c1@0.000000", "a2@0.000000", "c2@0.000000",
                                           "a3@0.000000", "a woke", "c woke", "b woke"}));
}

TEST(KernelEngine, AYieldingActorCanBeKilledAndInterrupted)
{
  Engine engine;
  std::vector<std::string> log;
  Actor& victim = engine.spawn("victim", [&] {
    engine.yield();
    log.push_back("victim ran on"); // never: killed while it waited for its turn
  });
  Actor& target = engine.spawn("target", [&] {
    engine.yield();
    log.push_back("target resumed");
  });
  engine.spawn("killer", [&] {
    engine.kill(victim);
    engine.interrupt(target, [&] { log.push_back("handler"); });
  });
  engine.run();
  EXPECT_EQ(log, (std::vector<std::string>{"handler", "target resumed"}));
  EXPECT_TRUE(engine.killed(victim));
}

TEST(KernelSameDateOrder, ASleepLastsAtLeastThePrecision)
{
  Engine engine;
  double woke = -1;
  engine.spawn("a", [&] {
    engine.sleep(1e-12);
    woke = engine.now();
  });
  engine.run();
  EXPECT_EQ(woke, kTimePrecision);
}

TEST(KernelEngine, WaitAnyReturnsTheFirstToComplete)
{
  Engine engine;
  size_t index = 99;
  double when = -1;
  engine.spawn("waiter", [&] {
    auto slow = engine.start_timer(3.0, "slow");
    auto fast = engine.start_timer(1.0, "fast");
    Activity* both[] = {slow.get(), fast.get()};
    index = engine.wait_any(both);
    when = engine.now();
  });
  engine.run();
  EXPECT_EQ(index, 1u);
  EXPECT_DOUBLE_EQ(when, 1.0);
}

// An interrupt (a simulated signal) runs in the interrupted actor at the date it is sent, while the actor is blocked;
// the actor then goes back to what it waited for and resumes when that completes, not before.
TEST(KernelEngine, InterruptRunsInTheBlockedActorThenItWaitsOn)
{
  Engine engine;
  std::vector<std::pair<std::string, double>> log;
  Actor& sleeper = engine.spawn("sleeper", [&] {
    engine.sleep(5.0);
    log.emplace_back("woke", engine.now());
  });
  engine.spawn("sender", [&] {
    engine.sleep(2.0);
    engine.interrupt(sleeper, [&] {
      EXPECT_EQ(&engine.self(), &sleeper);
      log.emplace_back("handler", engine.now());
      engine.sleep(1.0); // a handler may block too: the sleeper's own wait still ends at 5
      log.emplace_back("handler done", engine.now());
    });
    log.emplace_back("sent", engine.now());
  });
  engine.run();
  const std::vector<std::pair<std::string, double>> expected = {
      {"sent", 2.0}, {"handler", 2.0}, {"handler done", 3.0}, {"woke", 5.0}};
  EXPECT_EQ(log, expected);
}

// In wait_any the interrupted actor resumes for the handler and returns only when one of its activities is done.
TEST(KernelEngine, InterruptDuringWaitAnyKeepsWaiting)
{
  Engine engine;
  size_t index = 99;
  double when = -1;
  int handled = 0;
  Actor& waiter = engine.spawn("waiter", [&] {
    auto slow = engine.start_timer(3.0, "slow");
    auto fast = engine.start_timer(4.0, "fast");
    Activity* both[] = {fast.get(), slow.get()};
    index = engine.wait_any(both);
    when = engine.now();
  });
  engine.spawn("sender", [&] {
    engine.sleep(1.0);
    engine.interrupt(waiter, [&] { ++handled; });
    engine.interrupt(waiter, [&] { ++handled; });
  });
  engine.run();
  EXPECT_EQ(handled, 2);
  EXPECT_EQ(index, 1u);
  EXPECT_DOUBLE_EQ(when, 3.0);
}

// wait_all returns once the last of its activities is done, whatever their order, and skips those done at the call;
// 20 activities: more than the actor holds in its own lines (WaitList::kInline), the rest on the heap.
TEST(KernelEngine, WaitAllReturnsWhenTheLastIsDoneInsideOrBeyondTheInlineList)
{
  for (const int count : {3, 12, 13, 20}) {
    Engine engine;
    double when = -1;
    engine.spawn("waiter", [&] {
      std::vector<std::shared_ptr<TimerActivity>> timers;
      std::vector<Activity*> activities;
      auto done = engine.start_timer(0.0, "done at the call");
      engine.sleep(0.5);
      activities.push_back(done.get());
      for (int i = 0; i < count; ++i) { // ends at 1, 2, 3... in reverse order of the list: 3 before 2 before 1...
        timers.push_back(engine.start_timer(1.0 + (count - 1 - i), "timer"));
        activities.push_back(timers.back().get());
      }
      engine.wait_all(activities);
      when = engine.now();
      for (const auto& timer : timers)
        EXPECT_TRUE(timer->done());
    });
    engine.run();
    EXPECT_DOUBLE_EQ(when, 0.5 + count) << count << " activities";
  }
}

// An interrupt's handler may wait_all in its turn (20 activities: on the heap) while the actor is in a wait_all of its
// own (3, inline): the outer wait's list is kept and the actor returns from it when its last activity is done.
TEST(KernelEngine, WaitAllInsideAnInterruptedWaitAllKeepsTheOuterList)
{
  Engine engine;
  double inner_done = -1, outer_done = -1;
  Actor& waiter = engine.spawn("waiter", [&] {
    std::vector<std::shared_ptr<TimerActivity>> timers;
    std::vector<Activity*> activities;
    for (const double delay : {4.0, 2.0, 3.0}) {
      timers.push_back(engine.start_timer(delay, "outer"));
      activities.push_back(timers.back().get());
    }
    engine.wait_all(activities);
    outer_done = engine.now();
  });
  engine.spawn("sender", [&] {
    engine.sleep(1.0);
    engine.interrupt(waiter, [&] {
      std::vector<std::shared_ptr<TimerActivity>> timers;
      std::vector<Activity*> activities;
      for (int i = 0; i < 20; ++i) {
        timers.push_back(engine.start_timer(0.25 * (i % 7), "inner"));
        activities.push_back(timers.back().get());
      }
      engine.wait_all(activities);
      inner_done = engine.now();
    });
  });
  engine.run();
  EXPECT_DOUBLE_EQ(inner_done, 2.5); // 1 + 0.25 * 6
  EXPECT_DOUBLE_EQ(outer_done, 4.0);
}

// Sent to itself, the handler runs at once (as raise() does); sent to an actor that has finished, it is dropped.
TEST(KernelEngine, InterruptOfSelfRunsAtOnceAndOfFinishedActorIsDropped)
{
  Engine engine;
  std::vector<std::string> log;
  Actor& quick = engine.spawn("quick", [&] { log.emplace_back("quick ends"); });
  engine.spawn("self", [&] {
    engine.sleep(1.0);
    engine.interrupt(engine.self(), [&] { log.emplace_back("own handler"); });
    engine.interrupt(quick, [&] { log.emplace_back("never"); });
    log.emplace_back("after");
  });
  engine.run();
  EXPECT_EQ(log, (std::vector<std::string>{"quick ends", "own handler", "after"}));
}

TEST(KernelEngine, DeadlockNamesEachBlockedActorAndWhatItWaitsFor)
{
  struct Never : Activity {
    std::string describe() const override { return "a message that never comes"; }
  };
  Engine engine;
  auto never = std::make_shared<Never>();
  engine.spawn("rank 0", [&] { engine.wait(*never); });
  engine.spawn("rank 1", [&] {
    engine.sleep(2.0);
    engine.wait(*never);
  });
  try {
    engine.run();
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& error) {
    std::string text = error.what();
    EXPECT_NE(text.find("deadlock at simulated time 2 s: 2 blocked actors"), std::string::npos) << text;
    EXPECT_NE(text.find("rank 0 waits for a message that never comes"), std::string::npos) << text;
    EXPECT_NE(text.find("rank 1 waits for a message that never comes"), std::string::npos) << text;
  }
}

// A timer's description is a fixed text, a text written from a subject and two ids only when asked (the writer runs
// once per describe(), never when the timer starts or fires), or a text the caller made.
TEST(KernelEngine, TimersAreDescribedWhenAsked)
{
  struct Names {
    std::vector<std::string> hosts{"node-0", "node-1", "node-2"};
    mutable int written = 0;
  } names;
  auto write = [](const void* subject, uint32_t first, uint32_t second) {
    const auto& of = *static_cast<const Names*>(subject);
    ++of.written;
    return "message from " + of.hosts[first] + " to " + of.hosts[second];
  };
  Engine engine;
  std::string described[3];
  engine.spawn("rank 0", [&] {
    auto message = engine.start_timer(1.0, {write, &names, 2, 0});
    auto fixed = engine.start_timer(2.0, "rendezvous handshake");
    auto text = engine.start_timer_with_text(3.0, std::string("file server: request ") + "7");
    engine.wait(*message);
    EXPECT_EQ(names.written, 0);
    described[0] = message->describe();
    described[1] = fixed->describe();
    described[2] = text->describe();
    engine.wait(*text);
    EXPECT_EQ(engine.now(), 3.0);
  });
  engine.run();
  EXPECT_EQ(names.written, 1);
  EXPECT_EQ(described[0], "message from node-2 to node-0");
  EXPECT_EQ(described[1], "rendezvous handshake");
  EXPECT_EQ(described[2], "file server: request 7");
}

// A process failure: the killed actor never runs again, whatever it waited for, and counts as finished.
TEST(KernelEngine, KilledActorStopsWhereItIsAndTheRunEnds)
{
  Engine engine;
  std::vector<double> woke;
  Actor& sleeper = engine.spawn("rank 0", [&] {
    engine.sleep(5.0);
    woke.push_back(engine.now()); // never: killed at 1 s
  });
  engine.spawn("rank 1", [&] {
    engine.sleep(3.0);
    woke.push_back(engine.now());
  });
  engine.schedule_background(1.0, [&] { engine.kill(sleeper); });
  engine.run();
  EXPECT_EQ(woke, std::vector<double>{3.0});
  EXPECT_TRUE(engine.killed(sleeper));
  EXPECT_EQ(engine.now(), 3.0); // the killed actor's sleep (until 5 s) does not hold the run
}

// Background actions do not keep a blocked run going: the deadlock is reported at once, not at their date.
TEST(KernelEngine, BackgroundActionsDoNotDelayADeadlock)
{
  struct Never : Activity {
    std::string describe() const override { return "nothing"; }
  };
  Engine engine;
  auto never = std::make_shared<Never>();
  bool fired = false;
  engine.spawn("rank 0", [&] {
    engine.sleep(2.0);
    engine.wait(*never);
  });
  engine.schedule_background(10.0, [&] { fired = true; });
  EXPECT_THROW(engine.run(), DeadlockError);
  EXPECT_EQ(engine.now(), 2.0);
  EXPECT_FALSE(fired);
}

TEST(KernelEngine, ExceptionInAnActorReachesTheCaller)
{
  Engine engine;
  engine.spawn("faulty", [&] {
    engine.sleep(1.0);
    throw InputError("trace.txt", 7, "bad action");
  });
  engine.spawn("other", [&] { engine.sleep(5.0); });
  EXPECT_THROW(engine.run(), InputError);
}

TEST(KernelEngine, ManyActorsAreCheap)
{
  Engine engine;
  engine.set_stack_size(64 * 1024);
  const int count = 20000;
  int finished = 0;
  for (int i = 0; i < count; ++i)
    engine.spawn("a" + std::to_string(i), [&, i] {
      engine.sleep(1.0 + (i % 7));
      ++finished;
    });
  engine.run();
  EXPECT_EQ(finished, count);
  EXPECT_DOUBLE_EQ(engine.now(), 7.0);
}

TEST(KernelEngine, FingerprintIsReproducibleAndSensitive)
{
  auto run = [](double second_delay) {
    Engine engine;
    engine.spawn("a", [&] { engine.sleep(1.0); });
    engine.spawn("b", [&] { engine.sleep(second_delay); });
    engine.run();
    return engine.fingerprint();
  };
  EXPECT_EQ(run(2.0), run(2.0));
  EXPECT_NE(run(2.0), run(3.0));
}

// Issue 12: the crash handler tells a stack overflow from other faults by the guard region under each actor's stack.
// With a 64 KiB stack, an address 66 KiB below the running frame (a few hundred bytes under the stack's top) lies in
// the guard; the frame itself, null and the guard of another actor are not this actor's overflow.
TEST(KernelEngine, StackOverflowIsToldByTheGuardRegion)
{
  Engine engine;
  engine.set_stack_size(64 * 1024);
  const char* other_frame = nullptr;
  engine.spawn("first", [&] {
    other_frame = static_cast<const char*>(__builtin_frame_address(0));
    engine.sleep(1.0);
  });
  engine.spawn("second", [&] {
    const Actor& me = engine.self();
    const auto* frame = static_cast<const char*>(__builtin_frame_address(0));
    const char* in_guard = frame - 66 * 1024;
    EXPECT_GE(stack_guard_bytes(), 4096u);
    const auto sp = [](const char* address) { return reinterpret_cast<uintptr_t>(address); };
    EXPECT_TRUE(me.overflows_stack(in_guard, sp(frame)));                 // the faulting access is in the guard
    EXPECT_TRUE(me.overflows_stack(nullptr, sp(in_guard)));               // the stack pointer has gone below the stack
    EXPECT_FALSE(me.overflows_stack(frame, sp(frame)));                   // a fault inside the stack
    EXPECT_FALSE(me.overflows_stack(nullptr, sp(frame)));                 // a null pointer
    EXPECT_FALSE(me.overflows_stack(other_frame - 66 * 1024, sp(frame))); // another actor's guard
  });
  engine.run();
}

} // namespace

// Issue 13: ranks whose stacks cannot all be mapped are refused before the first is made, naming the limit. A thousand
// stacks of 1 TiB are about 2^50 bytes, more than a process's address space (2^47); four of 8 MiB fit.
TEST(Kernel, StackCapacityIsCheckedBeforeAnyActorIsMade)
{
  EXPECT_NO_THROW(GuardedStacks(8u << 20).check_capacity(4));
  try {
    GuardedStacks(size_t(1) << 40).check_capacity(1000);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 0);
    EXPECT_NE(error.message().find("1000 ranks with stacks of 1 TiB need 1e+03 TiB of address space"),
              std::string::npos)
        << error.what();
    EXPECT_NE(error.message().find("more than the process has"), std::string::npos) << error.what();
  }
  std::ifstream limit("/proc/sys/vm/max_map_count");
  long long mappings = 0;
  if (limit >> mappings) { // half as many stacks as mappings allowed, plus one: over vm.max_map_count
    try {
      GuardedStacks(64 * 1024).check_capacity(mappings / 2 + 1);
      FAIL() << "no error";
    } catch (const InputError& error) {
      EXPECT_NE(error.message().find("vm.max_map_count allows (" + std::to_string(mappings)), std::string::npos)
          << error.what();
      EXPECT_NE(error.message().find("sysctl -w vm.max_map_count="), std::string::npos) << error.what();
    }
  }
}
