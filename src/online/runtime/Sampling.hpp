// The state behind SMPI's annotations for large studies (include/mpisim.h, api_sampling.cpp): statistics of sampled
// loops, the pass of a sampled loop each rank is in, buffers shared by call site, results of SMPI_SHARED_CALL. One
// per run (Runtime::sampling()); the rules follow SimGrid 3.32's SMPI (docs/online.md, "Sampling and shared memory").
#pragma once

#include <mpisim.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace mpisim::online {

// Real time measured for one sampled site, and SMPI's rule for when it has enough.
class SampleStatistics {
public:
  SampleStatistics(int wanted, double threshold) : wanted_(wanted), threshold_(threshold) {}

  // At most `wanted` samples; fewer once there are at least 2 and the relative standard error of the mean is below
  // the threshold (ignored when negative). A site always gets its first sample.
  bool needs_more() const;
  void add(double seconds);
  double mean() const { return count_ == 0 ? 0 : sum_ / count_; }
  double relative_standard_error() const;
  bool same_settings(int wanted, double threshold) const { return wanted == wanted_ && threshold == threshold_; }
  int wanted() const { return wanted_; }
  double threshold() const { return threshold_; }

private:
  int wanted_;
  double threshold_;
  int count_ = 0;
  double sum_ = 0, sum_of_squares_ = 0;
};

// A pass of a sampled loop on one rank: from the loop's start to its end.
struct SamplePass {
  mpisim_sample_pass visible{};           // what the macros read
  SampleStatistics* statistics = nullptr; // null: no pass in progress
  std::string where;                      // "file:line", for messages
  double started = 0;                     // thread CPU time at the start of the iteration that runs
  uint64_t calls_before = 0;              // the rank's MPI calls then (the body must make none)
};

// One buffer shared by the ranks allocating at a call site.
struct SharedBlock {
  void* address = nullptr;
  size_t size = 0;
  int holders = 0; // allocations not freed yet
  std::string site;
};

class Sampling {
public:
  explicit Sampling(int ranks) : passes_(static_cast<size_t>(ranks)) {}
  ~Sampling();
  Sampling(const Sampling&) = delete;
  Sampling& operator=(const Sampling&) = delete;

  // The statistics of a site: `rank` -1 for a global site.
  SampleStatistics& statistics(const std::string& file, int line, const std::string& tag, int rank, int wanted,
                               double threshold);
  SamplePass& pass(int rank) { return passes_[static_cast<size_t>(rank)]; }

  // The block of `site` with room for `size` bytes, made by the first allocation (null if `size` exceeds it).
  void* share(const std::string& site, size_t size);
  const SharedBlock* block_of(const std::string& site) const
  {
    auto found = block_of_site_.find(site);
    return found == block_of_site_.end() ? nullptr : &blocks_.at(found->second);
  }
  // Drops one holder of the block at `address`; false when `address` is not a shared block.
  bool release(void* address);

  void** call_result(const std::string& key);
  void set_call_result(const std::string& key, void* data) { call_results_[key] = data; }

private:
  std::map<std::tuple<std::string, int, std::string, int>, SampleStatistics> statistics_;
  std::vector<SamplePass> passes_;
  std::map<std::string, void*> block_of_site_;
  std::unordered_map<void*, SharedBlock> blocks_;
  std::map<std::string, void*> call_results_;
};

} // namespace mpisim::online
