#include "online/runtime/Sampling.hpp"

#include <sys/mman.h>

#include <cmath>

namespace mpisim::online {

bool SampleStatistics::needs_more() const
{
  if (count_ == 0)
    return true;
  return count_ < wanted_ && (threshold_ < 0 || count_ < 2 || relative_standard_error() >= threshold_);
}

void SampleStatistics::add(double seconds)
{
  ++count_;
  sum_ += seconds;
  sum_of_squares_ += seconds * seconds;
}

double SampleStatistics::relative_standard_error() const
{
  const double mean = this->mean();
  if (count_ == 0 || mean <= 0)
    return 0;
  // Population variance from the running sums; rounding may make it slightly negative when samples are equal.
  const double variance = std::max(0.0, sum_of_squares_ / count_ - mean * mean);
  return std::sqrt(variance / count_) / mean;
}

Sampling::~Sampling()
{
  for (auto& [address, block] : blocks_)
    munmap(address, block.size);
}

SampleStatistics& Sampling::statistics(const std::string& file, int line, const std::string& tag, int rank, int wanted,
                                       double threshold)
{
  auto key = std::make_tuple(file, line, tag, rank);
  auto found = statistics_.find(key);
  if (found == statistics_.end())
    found = statistics_.emplace(key, SampleStatistics(wanted, threshold)).first;
  return found->second;
}

void* Sampling::share(const std::string& site, size_t size)
{
  auto found = block_of_site_.find(site);
  if (found != block_of_site_.end()) {
    SharedBlock& block = blocks_.at(found->second);
    if (size > block.size)
      return nullptr;
    ++block.holders;
    return block.address;
  }
  // Anonymous pages: zeroed, and only those the program touches take memory.
  void* address = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (address == MAP_FAILED)
    return nullptr;
  blocks_[address] = SharedBlock{address, size, 1, site};
  block_of_site_[site] = address;
  return address;
}

bool Sampling::release(void* address)
{
  auto found = blocks_.find(address);
  if (found == blocks_.end())
    return false;
  SharedBlock& block = found->second;
  if (--block.holders == 0) {
    munmap(address, block.size);
    block_of_site_.erase(block.site);
    blocks_.erase(found);
  }
  return true;
}

void** Sampling::call_result(const std::string& key)
{
  auto found = call_results_.find(key);
  return found == call_results_.end() ? nullptr : &found->second;
}

} // namespace mpisim::online
