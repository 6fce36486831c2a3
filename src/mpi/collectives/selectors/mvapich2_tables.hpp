// MVAPICH2 1.9's tuning tables for TACC Stampede, as SimGrid 3.32 ships them,
// with each MVAPICH2 function under the name of the algorithm SimGrid runs for it:
//   alltoall: MPIR_Alltoall_bruck_MV2 -> bruck; _RD_ -> rdb; _Scatter_dest_ -> mvapich2_scatter_dest;
//             _pairwise_ -> pair; _inplace_ -> ring
//   allgather: _Bruck_ -> bruck; _RD_ -> rdb; _Ring_ -> ring; two-level (MPIR_2lvl_Allgather_MV2) -> mvapich2_smp;
//              MPIR_Allgather_RD_Allgather_Comm_MV2 -> kUnsupported (SimGrid has no body for it)
//   gather: MPIR_Gather_MV2_Direct -> ompi_basic_linear; _two_level_Direct -> mvapich2_two_level;
//           MPIR_Gather_intra (MPICH's gather) -> ompi_binomial
//   allgatherv: _Rec_Doubling_ -> mpich_rdb; _Bruck_ -> ompi_bruck; _Ring_ -> mpich_ring
//   allreduce: _pt2pt_rd_ -> rdb; _pt2pt_rs_ -> mvapich2_rs; two-level -> mvapich2_two_level;
//              multicast variants -> kMulticast; _reduce_p2p_, _reduce_shmem_ -> kReduceOnly
//   bcast: _binomial_ -> binomial_tree; _scatter_ring_allgather(_shm)_ -> scatter_LR_allgather;
//          _scatter_doubling_allgather_ -> scatter_rdb_allgather; pipelined and shared-memory bcasts -> kMpichBcast
//          (SimGrid runs its MPICH bcast for them)
//   reduce: knomial wrappers -> mvapich2_knomial; _binomial_ -> binomial; _redscat_gather_ -> scatter_gather;
//           _shmem_ -> ompi_basic_linear; two-level -> mvapich2_two_level
//   reduce_scatter: MPIR_Reduce_Scatter_Basic_MV2 -> reduce_scatterv (SimGrid's default: reduce then scatterv);
//                   _Rec_Halving_ -> ompi_basic_recursivehalving; _Pair_Wise_ -> mpich_pair
//   scatter: _Binomial -> ompi_binomial; _Direct -> ompi_basic_linear; _two_level_Binomial ->
//            mvapich2_two_level_binomial; _two_level_Direct -> mvapich2_two_level_direct; multicast -> kMulticast
//
// A table is MVAPICH2's: rows by the largest communicator size they serve (the first row whose `max_ranks` >= the
// size, else the last row); within a row, the first entry whose `max_bytes` >= the message size (inclusive bound,
// kAbove for MVAPICH2's -1), else the last entry. Entries past a row's declared length are dropped, as MVAPICH2's
// search never reaches them. `two_level` is MVAPICH2's per-entry two-level flag (allgather, allreduce, bcast, reduce).
// Tables with several "ppn" configurations (alltoall, allgather, scatter) are chosen by ranks per node.
#pragma once

#include <limits>
#include <vector>

namespace mpisim::mpi::mvapich2_rules {

inline constexpr double kAbove = std::numeric_limits<double>::infinity();

// Markers for functions SimGrid does not map to one algorithm; the selector resolves them.
inline constexpr const char* kMulticast = "(multicast)";    // hardware multicast: never available in SimGrid
inline constexpr const char* kReduceOnly = "(reduce only)"; // reduce to rank 0 (used only inside two-level rules)
inline constexpr const char* kUnsupported = "(rd allgather comm)"; // SimGrid's stub returns an error
inline constexpr const char* kMpichBcast = "(mpich bcast)";        // SimGrid's bcast__mpich selector

struct Mv2Entry {
  double max_bytes;
  const char* algorithm;
  bool two_level;
};

struct Mv2Row {
  double max_ranks;
  std::vector<Mv2Entry> entries;
};

using Mv2Table = std::vector<Mv2Row>;

inline const Mv2Row& row_for(const Mv2Table& table, int comm_size)
{
  for (const Mv2Row& row : table)
    if (comm_size <= row.max_ranks)
      return row;
  return table.back();
}

// The entry for `bytes`, searching from entry `first`; MVAPICH2's allgatherv scales the bounds by the size.
inline size_t entry_index(const Mv2Row& row, double bytes, size_t first = 0, double scale = 1)
{
  size_t i = first;
  while (i + 1 < row.entries.size() && bytes > scale * row.entries[i].max_bytes)
    ++i;
  return i;
}

inline const Mv2Entry& entry_for(const Mv2Table& table, int comm_size, double bytes)
{
  const Mv2Row& row = row_for(table, comm_size);
  return row.entries[entry_index(row, bytes)];
}

// SimGrid's alltoall always uses the 1-ppn table (its ranks-per-node check is commented out); the 2- and 16-ppn
// tables are kept for reference.
inline const Mv2Table& alltoall_1ppn()
{
  static const Mv2Table table = {
      {2, {{kAbove, "pair", false}}},
      {4, {{262144, "mvapich2_scatter_dest", false}, {kAbove, "pair", false}}},
      {8, {{8, "rdb", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {16, {{64, "rdb", false}, {512, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {32, {{32, "rdb", false}, {2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {64, {{8, "rdb", false}, {1024, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
  };
  return table;
}

inline const Mv2Table& alltoall_2ppn()
{
  static const Mv2Table table = {
      {4, {{32, "rdb", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {8, {{64, "rdb", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {16, {{64, "rdb", false}, {2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {32, {{16, "rdb", false}, {2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {64, {{8, "rdb", false}, {1024, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {128, {{4, "rdb", false}, {2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
  };
  return table;
}

inline const Mv2Table& alltoall_16ppn()
{
  static const Mv2Table table = {
      {16, {{2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {32, {{2048, "bruck", false}, {kAbove, "mvapich2_scatter_dest", false}}},
      {64, {{2048, "bruck", false}, {16384, "mvapich2_scatter_dest", false}, {kAbove, "pair", false}}},
      {128, {{2048, "bruck", false}, {kAbove, "pair", false}}},
      {256, {{1024, "bruck", false}, {kAbove, "pair", false}}},
      {512, {{1024, "bruck", false}, {kAbove, "pair", false}}},
      {1024, {{1024, "bruck", false}, {kAbove, "pair", false}}},
  };
  return table;
}

inline const Mv2Table& allgather_1ppn()
{
  static const Mv2Table table = {
      {2, {{kAbove, "ring", false}}},
      {4, {{262144, "rdb", false}, {kAbove, "ring", false}}},
      {8, {{131072, "rdb", false}, {kAbove, "ring", false}}},
      {16, {{131072, "rdb", false}, {kAbove, "ring", false}}},
      {32, {{65536, "rdb", false}, {kAbove, "ring", false}}},
      {64, {{32768, "rdb", false}, {kAbove, "ring", false}}},
  };
  return table;
}

inline const Mv2Table& allgather_2ppn()
{
  static const Mv2Table table = {
      {4, {{524288, "rdb", false}, {kAbove, "ring", false}}}, {8, {{32768, "rdb", false}, {524288, "ring", true}}},
      {16, {{16384, "rdb", false}, {524288, "ring", true}}},  {32, {{65536, "rdb", true}, {524288, "ring", true}}},
      {64, {{32768, "rdb", true}, {524288, "ring", true}}},   {128, {{65536, "rdb", true}, {524288, "ring", true}}},
  };
  return table;
}

inline const Mv2Table& allgather_16ppn()
{
  static const Mv2Table table = {
      {16, {{1024, "rdb", false}, {kAbove, "ring", false}}},
      {32, {{1024, kUnsupported, false}, {kAbove, "ring", false}}},
      {64, {{1024, kUnsupported, false}, {kAbove, "ring", false}}},
      {128, {{1024, kUnsupported, false}, {kAbove, "ring", false}}},
      {256, {{1024, kUnsupported, false}, {kAbove, "ring", false}}},
      {512, {{1024, kUnsupported, false}, {kAbove, "ring", false}}},
  };
  return table;
}

inline const Mv2Table& gather()
{
  static const Mv2Table table = {
      {16, {{524288, "ompi_basic_linear", false}, {kAbove, "ompi_binomial", false}}},
      {32,
       {{16384, "ompi_basic_linear", false}, {131072, "ompi_binomial", false}, {kAbove, "mvapich2_two_level", false}}},
      {64,
       {{256, "mvapich2_two_level", false},
        {16384, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level", false}}},
      {128,
       {{512, "mvapich2_two_level", false},
        {16384, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level", false}}},
      {256,
       {{512, "mvapich2_two_level", false},
        {16384, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level", false}}},
      {512,
       {{512, "mvapich2_two_level", false},
        {16384, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level", false}}},
      {1024,
       {{512, "mvapich2_two_level", false},
        {16384, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level", false}}},
  };
  return table;
}

inline const Mv2Table& allgatherv()
{
  static const Mv2Table table = {
      {16, {{512, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
      {32, {{512, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
      {64, {{256, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
      {128, {{256, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
      {256, {{256, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
      {512, {{256, "mpich_rdb", false}, {kAbove, "mpich_ring", false}}},
  };
  return table;
}

inline const Mv2Table& allreduce()
{
  static const Mv2Table table = {
      {16, {{1024, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {32, {{1024, "rdb", true}, {16384, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {64, {{512, "rdb", true}, {16384, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {128, {{512, "rdb", true}, {16384, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {256, {{512, "rdb", true}, {16384, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {512, {{512, "rdb", true}, {16384, "rdb", true}, {kAbove, "mvapich2_rs", false}}},
      {1024, {{512, "rdb", true}, {8192, "rdb", true}, {65536, "mvapich2_rs", true}, {kAbove, "mvapich2_rs", false}}},
      {2048, {{64, "rdb", true}, {512, kReduceOnly, true}, {4096, kMulticast, true}, {16384, "mvapich2_rs", false}}},
  };
  return table;
}

inline const Mv2Table& bcast()
{
  static const Mv2Table table = {
      {16,
       {{8, kMpichBcast, true},
        {16, kMpichBcast, true},
        {1024, kMpichBcast, true},
        {8192, kMpichBcast, true},
        {16384, "binomial_tree", true},
        {32768, kMpichBcast, true},
        {65536, kMpichBcast, true},
        {131072, "scatter_LR_allgather", true},
        {262144, "scatter_LR_allgather", true},
        {524288, "scatter_rdb_allgather", true},
        {kAbove, "scatter_LR_allgather", true}}},
      {32,
       {{128, kMpichBcast, true},
        {256, kMpichBcast, true},
        {32768, kMpichBcast, true},
        {65536, kMpichBcast, true},
        {131072, kMpichBcast, true},
        {262144, kMpichBcast, true},
        {524288, kMpichBcast, true},
        {kAbove, kMpichBcast, true}}},
      {64,
       {{2, kMpichBcast, true},
        {4, kMpichBcast, true},
        {16, kMpichBcast, true},
        {32, kMpichBcast, true},
        {128, kMpichBcast, true},
        {256, kMpichBcast, true},
        {4096, kMpichBcast, true},
        {32768, kMpichBcast, true},
        {kAbove, kMpichBcast, true}}},
      {128,
       {{8192, kMpichBcast, true},
        {16384, kMpichBcast, true},
        {524288, kMpichBcast, true},
        {kAbove, "scatter_LR_allgather", false}}},
      {256,
       {{16384, kMpichBcast, true},
        {131072, kMpichBcast, true},
        {262144, "scatter_LR_allgather", true},
        {524288, kMpichBcast, true},
        {kAbove, "scatter_LR_allgather", true}}},
      {512,
       {{4096, kMpichBcast, true},
        {16384, kMpichBcast, true},
        {131072, kMpichBcast, true},
        {262144, kMpichBcast, true},
        {kAbove, "scatter_LR_allgather", true}}},
      {1024,
       {{8192, kMpichBcast, true},
        {16384, kMpichBcast, true},
        {65536, kMpichBcast, true},
        {524288, kMpichBcast, true},
        {kAbove, "scatter_LR_allgather", true}}},
      {2048,
       {{16, kMpichBcast, true},
        {32, kMpichBcast, true},
        {4096, kMpichBcast, true},
        {16384, kMpichBcast, true},
        {32768, kMpichBcast, true},
        {524288, kMpichBcast, true},
        {kAbove, "scatter_LR_allgather", true}}},
  };
  return table;
}

inline const Mv2Table& reduce()
{
  static const Mv2Table table = {
      {16, {{262144, "mvapich2_knomial", true}, {1048576, "binomial", false}, {kAbove, "scatter_gather", false}}},
      {32,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", true},
        {32768, "mvapich2_knomial", true},
        {65536, "binomial", true},
        {262144, "mvapich2_knomial", false},
        {1048576, "binomial", false},
        {kAbove, "scatter_gather", false}}},
      {64,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", true},
        {65536, "binomial", true},
        {262144, "mvapich2_knomial", true},
        {kAbove, "scatter_gather", false}}},
      {128,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", false},
        {65536, "binomial", true},
        {262144, "mvapich2_knomial", false},
        {1048576, "binomial", true},
        {kAbove, "scatter_gather", false}}},
      {256,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", true},
        {32768, "binomial", true},
        {65536, "binomial", false},
        {262144, "binomial", true},
        {1048576, "binomial", true},
        {kAbove, "scatter_gather", false}}},
      {512,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", false},
        {65536, "binomial", true},
        {262144, "binomial", true},
        {1048576, "binomial", true},
        {kAbove, "scatter_gather", false}}},
      {1024,
       {{8192, "mvapich2_knomial", true},
        {16384, "mvapich2_knomial", false},
        {65536, "binomial", true},
        {262144, "binomial", true},
        {kAbove, "binomial", true}}},
      {2048,
       {{2048, "mvapich2_knomial", true},
        {4096, "mvapich2_knomial", false},
        {16384, "binomial", true},
        {65536, "binomial", true},
        {131072, "binomial", true},
        {kAbove, "binomial", true}}},
  };
  return table;
}

inline const Mv2Table& reduce_scatter()
{
  static const Mv2Table table = {
      {16,
       {{64, "reduce_scatterv", false}, {65536, "ompi_basic_recursivehalving", false}, {kAbove, "mpich_pair", false}}},
      {32,
       {{64, "reduce_scatterv", false}, {131072, "ompi_basic_recursivehalving", false}, {kAbove, "mpich_pair", false}}},
      {64,
       {{1024, "reduce_scatterv", false},
        {262144, "ompi_basic_recursivehalving", false},
        {kAbove, "mpich_pair", false}}},
      {128, {{128, "reduce_scatterv", false}, {kAbove, "ompi_basic_recursivehalving", false}}},
      {256, {{128, "reduce_scatterv", false}, {kAbove, "ompi_basic_recursivehalving", false}}},
      {512, {{256, "reduce_scatterv", false}, {kAbove, "ompi_basic_recursivehalving", false}}},
  };
  return table;
}

inline const Mv2Table& scatter_1ppn()
{
  static const Mv2Table table = {
      {2, {{kAbove, "ompi_binomial", false}}},
      {4, {{kAbove, "ompi_basic_linear", false}}},
      {8, {{kAbove, "ompi_basic_linear", false}}},
      {16, {{kAbove, "ompi_basic_linear", false}}},
      {32, {{kAbove, "ompi_basic_linear", false}}},
      {64, {{32, "ompi_binomial", false}, {kAbove, "ompi_basic_linear", false}}},
  };
  return table;
}

inline const Mv2Table& scatter_2ppn()
{
  static const Mv2Table table = {
      {4, {{4096, "ompi_binomial", false}, {kAbove, "ompi_basic_linear", false}}},
      {8, {{512, "mvapich2_two_level_direct", false}, {kAbove, "ompi_basic_linear", false}}},
      {16, {{2048, "mvapich2_two_level_direct", false}, {kAbove, "ompi_basic_linear", false}}},
      {32, {{2048, "mvapich2_two_level_direct", false}, {kAbove, "ompi_basic_linear", false}}},
      {64, {{8192, "mvapich2_two_level_direct", false}, {kAbove, "ompi_basic_linear", false}}},
      {128,
       {{16, "ompi_binomial", false},
        {128, "mvapich2_two_level_binomial", false},
        {16384, "mvapich2_two_level_direct", false},
        {kAbove, "ompi_basic_linear", false}}},
  };
  return table;
}

inline const Mv2Table& scatter_16ppn()
{
  static const Mv2Table table = {
      {16, {{256, "ompi_binomial", false}, {kAbove, "ompi_basic_linear", false}}},
      {32, {{512, "ompi_binomial", false}, {kAbove, "ompi_basic_linear", false}}},
      {64, {{1024, "mvapich2_two_level_direct", false}, {kAbove, "ompi_basic_linear", false}}},
      {128,
       {{16, kMulticast, false},
        {16, "mvapich2_two_level_direct", false},
        {2048, "mvapich2_two_level_direct", false},
        {kAbove, "ompi_basic_linear", false}}},
      {256,
       {{16, kMulticast, false},
        {16, "mvapich2_two_level_direct", false},
        {2048, "mvapich2_two_level_direct", false},
        {kAbove, "ompi_basic_linear", false}}},
      {512,
       {{16, kMulticast, false},
        {16, "mvapich2_two_level_direct", false},
        {4096, "mvapich2_two_level_direct", false},
        {kAbove, "ompi_basic_linear", false}}},
      {1024,
       {{16, kMulticast, false},
        {16, "ompi_binomial", false},
        {32, "ompi_binomial", false},
        {4096, "mvapich2_two_level_direct", false},
        {kAbove, "ompi_basic_linear", false}}},
      {2048,
       {{16, kMulticast, false},
        {16, "mvapich2_two_level_binomial", false},
        {128, "mvapich2_two_level_binomial", false},
        {1024, "mvapich2_two_level_direct", false},
        {16384, "mvapich2_two_level_direct", false},
        {65536, "ompi_basic_linear", false},
        {kAbove, "mvapich2_two_level_direct", false}}},
  };
  return table;
}
// Configurations by ranks per node (MVAPICH2's "ppn conf"); the first is used when none matches.
struct PpnTable {
  int ranks_per_node;
  const Mv2Table& table;
};

inline std::vector<PpnTable> allgather_by_ppn()
{
  return {{1, allgather_1ppn()}, {2, allgather_2ppn()}, {16, allgather_16ppn()}};
}

inline std::vector<PpnTable> scatter_by_ppn()
{
  return {{1, scatter_1ppn()}, {2, scatter_2ppn()}, {16, scatter_16ppn()}};
}

} // namespace mpisim::mpi::mvapich2_rules
