// Open MPI 4.1's fixed decision table for alltoall, as SimGrid 3.32 ships it (in its ompi selector, from Open
// MPI's tuned module). Rows: communicators smaller than `comm_below`; within a row, the first entry
// whose `block_below` exceeds the per-peer block size (bytes) gives the algorithm. Open MPI's "linear_sync" and
// "two_proc" are run as basic_linear, as SimGrid does.
#pragma once

#include <limits>
#include <vector>

namespace mpisim::mpi::ompi_tables {

inline constexpr double kAbove = std::numeric_limits<double>::infinity();

struct Threshold {
  double block_below;
  const char* algorithm;
};
struct Row {
  double comm_below;
  std::vector<Threshold> thresholds;
};

inline const char* kLinear = "basic_linear";
inline const char* kPair = "pair";
inline const char* kBruck = "bruck";

inline const std::vector<Row>& alltoall()
{
  static const std::vector<Row> table = {
      {2, {{kAbove, kLinear}}}, // one rank: SimGrid's "< 8" branch (no message is sent anyway)
      {3,
       {{2, kPair},
        {4, kLinear},
        {16, kPair},
        {64, kLinear},
        {256, kPair},
        {4096, kLinear},
        {32768, kPair},
        {262144, kLinear},
        {1048576, kLinear},
        {kAbove, kPair}}},
      {8,
       {{8192, kLinear}, {16384, kLinear}, {65536, kLinear}, {524288, kLinear}, {1048576, kPair}, {kAbove, kLinear}}},
      {16, {{262144, kLinear}, {kAbove, kLinear}}},
      {32,
       {{4, kLinear},
        {512, kBruck},
        {8192, kLinear},
        {32768, kLinear},
        {262144, kLinear},
        {524288, kLinear},
        {kAbove, kLinear}}},
      {64, {{512, kBruck}, {524288, kLinear}, {kAbove, kLinear}}},
      {128, {{1024, kBruck}, {2048, kLinear}, {4096, kLinear}, {262144, kLinear}, {kAbove, kPair}}},
      {256, {{1024, kBruck}, {2048, kLinear}, {262144, kLinear}, {kAbove, kPair}}},
      {512, {{1024, kBruck}, {8192, kLinear}, {32768, kLinear}, {kAbove, kPair}}},
      {1024, {{512, kBruck}, {8192, kLinear}, {16384, kLinear}, {131072, kLinear}, {262144, kLinear}, {kAbove, kPair}}},
      {2048, {{512, kBruck}, {1024, kLinear}, {2048, kLinear}, {16384, kLinear}, {262144, kLinear}, {kAbove, kLinear}}},
      {4096, {{1024, kBruck}, {4096, kLinear}, {8192, kLinear}, {131072, kLinear}, {kAbove, kLinear}}},
      {kAbove,
       {{2048, kBruck}, {8192, kLinear}, {16384, kLinear}, {32768, kLinear}, {65536, kLinear}, {kAbove, kLinear}}},
  };
  return table;
}

inline const char* lookup(const std::vector<Row>& table, int comm_size, double block_bytes)
{
  for (const Row& row : table) {
    if (comm_size >= row.comm_below)
      continue;
    for (const Threshold& threshold : row.thresholds)
      if (block_bytes < threshold.block_below)
        return threshold.algorithm;
  }
  return kLinear;
}

} // namespace mpisim::mpi::ompi_tables
