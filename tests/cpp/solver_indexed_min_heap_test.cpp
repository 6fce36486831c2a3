// IndexedMinHeap against a reference: a set ordered by (key, id). Sizes on both sides of kFlatLimit exercise the
// flat form (unordered, scanned) and the heap form; both must return the same keys and pop the same ids in the same
// order as the reference, whatever the updates in between.
#include "solver/IndexedMinHeap.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace mpisim::solver {
namespace {

using Reference = std::set<std::pair<double, uint32_t>>; // (key, id): the order the heap promises

// Drives a heap and the reference through the same random loads, updates, drops and pops.
class Scenario {
public:
  Scenario(size_t size, unsigned seed) : random_(seed), finished_(size, false)
  {
    heap_.reserve_ids(size);
    // Few distinct keys: ties on the key are frequent, so the id decides often.
    std::uniform_int_distribution<int> level(1, 8);
    for (uint32_t id = 0; id < size; ++id) {
      const double key = level(random_) * 0.5;
      heap_.push_unordered(id, key);
      reference_.insert({key, id});
    }
    heap_.heapify();
  }

  // Finishes a random fifth of the live ids (the filling finishes constraints whose users others fixed).
  void finish_some()
  {
    std::bernoulli_distribution chosen(0.2);
    for (auto entry = reference_.begin(); entry != reference_.end();)
      if (chosen(random_)) {
        finished_[entry->second] = true;
        entry = reference_.erase(entry);
      } else {
        ++entry;
      }
  }

  // Raises or lowers a random half of the live keys, as a group's releases do.
  void update_some()
  {
    std::bernoulli_distribution chosen(0.5);
    std::uniform_int_distribution<int> level(1, 8);
    std::vector<std::pair<double, uint32_t>> changed;
    for (auto entry = reference_.begin(); entry != reference_.end();)
      if (chosen(random_)) {
        changed.push_back(*entry);
        entry = reference_.erase(entry);
      } else {
        ++entry;
      }
    for (const auto& entry : changed) {
      const uint32_t id = entry.second;
      const double key = level(random_) * 0.5;
      heap_.update(id, key);
      reference_.insert({key, id});
    }
  }

  double expected_lowest() const
  {
    return reference_.empty() ? std::numeric_limits<double>::infinity() : reference_.begin()->first;
  }

  double lowest() { return heap_.lowest_key(is_finished()); }

  // Pops up to the lowest key: returns what the heap popped and what the reference says it should have.
  std::pair<std::vector<uint32_t>, std::vector<uint32_t>> pop_lowest()
  {
    const double threshold = expected_lowest();
    std::vector<uint32_t> popped;
    heap_.pop_up_to(threshold, is_finished(), popped);
    std::vector<uint32_t> expected;
    while (not reference_.empty() && reference_.begin()->first <= threshold) {
      expected.push_back(reference_.begin()->second);
      finished_[reference_.begin()->second] = true;
      reference_.erase(reference_.begin());
    }
    return {popped, expected};
  }

  bool done() const { return reference_.empty(); }
  bool contains(uint32_t id) const { return heap_.contains(id); }

private:
  struct IsFinished {
    const std::vector<bool>* flags;
    bool operator()(uint32_t id) const { return (*flags)[id]; }
  };
  IsFinished is_finished() const { return {&finished_}; }

  std::mt19937 random_;
  IndexedMinHeap heap_;
  Reference reference_;
  std::vector<bool> finished_;
};

void run_scenario(size_t size, unsigned seed)
{
  Scenario scenario(size, seed);
  int rounds = 0;
  while (not scenario.done()) {
    ASSERT_LT(++rounds, 1000) << "the set never empties";
    ASSERT_EQ(scenario.lowest(), scenario.expected_lowest());
    auto [popped, expected] = scenario.pop_lowest();
    ASSERT_EQ(popped, expected);
    for (uint32_t id : popped)
      ASSERT_FALSE(scenario.contains(id));
    scenario.finish_some();
    scenario.update_some();
  }
  EXPECT_EQ(scenario.lowest(), std::numeric_limits<double>::infinity());
}

TEST(IndexedMinHeap, FlatSetsMatchTheReference)
{
  for (size_t size : {size_t{1}, size_t{2}, size_t{7}, IndexedMinHeap::kFlatLimit})
    for (unsigned seed = 1; seed <= 50; ++seed)
      run_scenario(size, seed);
}

TEST(IndexedMinHeap, HeapOrderedSetsMatchTheReference)
{
  for (size_t size : {IndexedMinHeap::kFlatLimit + 1, size_t{200}})
    for (unsigned seed = 1; seed <= 50; ++seed)
      run_scenario(size, seed);
}

// The pop order is (key, id) in both forms: equal keys come out by ascending id, whatever the insertion order.
TEST(IndexedMinHeap, EqualKeysPopByAscendingId)
{
  for (size_t size : {size_t{5}, IndexedMinHeap::kFlatLimit + 5}) {
    IndexedMinHeap heap;
    heap.reserve_ids(size);
    for (size_t i = size; i-- > 0;)
      heap.push_unordered(static_cast<uint32_t>(i), i % 2 == 0 ? 1.0 : 2.0);
    heap.heapify();
    std::vector<uint32_t> popped;
    heap.pop_up_to(
        1.0, [](uint32_t) { return false; }, popped);
    std::vector<uint32_t> evens;
    for (uint32_t id = 0; id < size; id += 2)
      evens.push_back(id);
    EXPECT_EQ(popped, evens) << size << " entries";
    EXPECT_EQ(heap.lowest_key([](uint32_t) { return false; }), 2.0);
  }
}

// A finished entry is never returned by pop_up_to(), and a finished lowest entry does not hide the next one.
TEST(IndexedMinHeap, FinishedEntriesAreSkipped)
{
  for (size_t size : {size_t{4}, IndexedMinHeap::kFlatLimit + 4}) {
    IndexedMinHeap heap;
    heap.reserve_ids(size);
    for (uint32_t id = 0; id < size; ++id)
      heap.push_unordered(id, 1.0 + id);
    heap.heapify();
    auto finished = [](uint32_t id) { return id < 2; };
    EXPECT_EQ(heap.lowest_key(finished), 3.0) << size << " entries";
    std::vector<uint32_t> popped;
    heap.pop_up_to(3.5, finished, popped);
    EXPECT_EQ(popped, std::vector<uint32_t>{2}) << size << " entries";
  }
}

} // namespace
} // namespace mpisim::solver
