// Open MPI 4.1.2's fixed decision rules (its tuned module) as SimGrid 3.32 encodes them
// (its ompi selector), with each rule's algorithm under the name SimGrid runs for it:
//   allreduce: basic_linear, nonoverlapping -> redbcast; recursive_doubling -> rdb; ring -> lr;
//              segmented_ring -> ompi_ring_segmented; rabenseifner -> rab_rdb
//   alltoall: linear, linear_sync, two_proc -> basic_linear; pairwise -> pair; modified_bruck -> bruck
//   alltoallv: basic_linear -> ompi_basic_linear; pairwise -> pair
//   barrier: linear, double_ring -> ompi_basic_linear (not ompi_doublering, as in SimGrid); recursive_doubling ->
//            ompi_recursivedoubling; bruck -> ompi_bruck; two_proc -> ompi_two_procs; tree -> ompi_tree
//   bcast: linear -> NTSL; chain, pipeline -> ompi_pipeline; split_binary_tree -> ompi_split_bintree;
//          binary_tree -> NTSB; binomial -> binomial_tree; knomial -> mvapich2_knomial_intra_node;
//          scatter_allgather -> scatter_rdb_allgather; scatter_allgather_ring -> scatter_LR_allgather
//   reduce: linear -> ompi_basic_linear; chain -> ompi_chain; pipeline -> ompi_pipeline; binary -> ompi_binary;
//           binomial -> ompi_binomial; in_order_binary -> ompi_in_order_binary; rabenseifner -> ompi_basic_linear
//   reduce_scatter: non-overlapping -> reduce_scatterv (SimGrid's default: reduce then scatterv);
//                   recursive_halving -> ompi_basic_recursivehalving; ring -> ompi_ring; butterfly -> ompi_butterfly
//   allgather: linear -> NTSLR_NB; bruck -> bruck; recursive_doubling -> rdb; ring -> ring;
//              neighbor_exchange -> ompi_neighborexchange; two_proc -> pair
//   allgatherv: default -> GB; bruck -> ompi_bruck; ring -> mpich_ring; neighbor_exchange -> ompi_neighborexchange;
//               two_proc -> pair
//   gather: linear -> ompi_basic_linear; binomial -> ompi_binomial; linear_sync -> ompi_linear_sync
//   scatter: linear -> ompi_basic_linear; binomial -> ompi_binomial; linear_nb -> ompi_linear_nb
// Sizes are bytes: allreduce, bcast, reduce: the buffer; alltoall, allgather, gather, scatter: one block;
// reduce_scatter: the whole vector; allgatherv: the whole vector divided by the communicator size.
#pragma once

#include "mpi/collectives/selectors/decision_tables.hpp"

namespace mpisim::mpi::ompi_rules {

using decision::DecisionTable;
using decision::kAbove;

inline const DecisionTable& allreduce_noncommutative()
{
  static const DecisionTable table = {
      {1, 4, {{131072, "rdb"}, {kAbove, "redbcast"}}},
      {1, 8, {{kAbove, "rdb"}}},
      {1, 16, {{1048576, "rdb"}, {kAbove, "redbcast"}}},
      {1, 128, {{kAbove, "rdb"}}},
      {1, 256, {{131072, "redbcast"}, {524288, "rdb"}, {kAbove, "redbcast"}}},
      {1, 512, {{4096, "redbcast"}, {524288, "rdb"}, {kAbove, "redbcast"}}},
      {1, kAbove, {{2048, "redbcast"}, {kAbove, "rdb"}}},
  };
  return table;
}

inline const DecisionTable& allreduce_commutative()
{
  static const DecisionTable table = {
      {1,
       4,
       {{8, "lr"},
        {4096, "rdb"},
        {8192, "lr"},
        {16384, "rdb"},
        {65536, "lr"},
        {262144, "ompi_ring_segmented"},
        {kAbove, "rab_rdb"}}},
      {1, 8, {{16, "lr"}, {8192, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 16, {{8192, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 32, {{64, "ompi_ring_segmented"}, {4096, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 64, {{128, "ompi_ring_segmented"}, {kAbove, "rab_rdb"}}},
      {1, 128, {{262144, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 256, {{131072, "redbcast"}, {262144, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 512, {{4096, "redbcast"}, {kAbove, "rab_rdb"}}},
      {1, 2048, {{2048, "redbcast"}, {16384, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, 4096, {{2048, "redbcast"}, {4096, "ompi_ring_segmented"}, {16384, "rdb"}, {kAbove, "rab_rdb"}}},
      {1, kAbove, {{2048, "redbcast"}, {16384, "ompi_ring_segmented"}, {32768, "rdb"}, {kAbove, "rab_rdb"}}},
  };
  return table;
}

inline const DecisionTable& alltoall()
{
  static const DecisionTable table = {
      {2,
       3,
       {{2, "pair"},
        {4, "basic_linear"},
        {16, "pair"},
        {64, "basic_linear"},
        {256, "pair"},
        {4096, "basic_linear"},
        {32768, "pair"},
        {262144, "basic_linear"},
        {1048576, "basic_linear"},
        {kAbove, "pair"}}},
      {1,
       8,
       {{8192, "basic_linear"},
        {16384, "basic_linear"},
        {65536, "basic_linear"},
        {524288, "basic_linear"},
        {1048576, "pair"},
        {kAbove, "basic_linear"}}},
      {1, 16, {{262144, "basic_linear"}, {kAbove, "basic_linear"}}},
      {1,
       32,
       {{4, "basic_linear"},
        {512, "bruck"},
        {8192, "basic_linear"},
        {32768, "basic_linear"},
        {262144, "basic_linear"},
        {524288, "basic_linear"},
        {kAbove, "basic_linear"}}},
      {1, 64, {{512, "bruck"}, {524288, "basic_linear"}, {kAbove, "basic_linear"}}},
      {1,
       128,
       {{1024, "bruck"}, {2048, "basic_linear"}, {4096, "basic_linear"}, {262144, "basic_linear"}, {kAbove, "pair"}}},
      {1, 256, {{1024, "bruck"}, {2048, "basic_linear"}, {262144, "basic_linear"}, {kAbove, "pair"}}},
      {1, 512, {{1024, "bruck"}, {8192, "basic_linear"}, {32768, "basic_linear"}, {kAbove, "pair"}}},
      {1,
       1024,
       {{512, "bruck"},
        {8192, "basic_linear"},
        {16384, "basic_linear"},
        {131072, "basic_linear"},
        {262144, "basic_linear"},
        {kAbove, "pair"}}},
      {1,
       2048,
       {{512, "bruck"},
        {1024, "basic_linear"},
        {2048, "basic_linear"},
        {16384, "basic_linear"},
        {262144, "basic_linear"},
        {kAbove, "basic_linear"}}},
      {1,
       4096,
       {{1024, "bruck"},
        {4096, "basic_linear"},
        {8192, "basic_linear"},
        {131072, "basic_linear"},
        {kAbove, "basic_linear"}}},
      {1,
       kAbove,
       {{2048, "bruck"},
        {8192, "basic_linear"},
        {16384, "basic_linear"},
        {32768, "basic_linear"},
        {65536, "basic_linear"},
        {kAbove, "basic_linear"}}},
  };
  return table;
}

inline const DecisionTable& alltoallv()
{
  static const DecisionTable table = {
      {1, 4, {{kAbove, "pair"}}},    {1, 64, {{kAbove, "ompi_basic_linear"}}},
      {1, 128, {{kAbove, "pair"}}},  {1, 256, {{kAbove, "ompi_basic_linear"}}},
      {1, 1024, {{kAbove, "pair"}}}, {1, kAbove, {{kAbove, "ompi_basic_linear"}}},
  };
  return table;
}

inline const DecisionTable& barrier()
{
  static const DecisionTable table = {
      {1, 4, {{kAbove, "ompi_recursivedoubling"}}},
      {1, 8, {{kAbove, "ompi_basic_linear"}}},
      {1, 64, {{kAbove, "ompi_recursivedoubling"}}},
      {1, 256, {{kAbove, "ompi_bruck"}}},
      {1, 512, {{kAbove, "ompi_tree"}}},
      {1, 1024, {{kAbove, "ompi_bruck"}}},
      {1, 4096, {{kAbove, "ompi_tree"}}},
      {1, kAbove, {{kAbove, "ompi_bruck"}}},
  };
  return table;
}

inline const DecisionTable& bcast()
{
  static const DecisionTable table = {
      {1,
       4,
       {{32, "ompi_pipeline"},
        {256, "NTSB"},
        {512, "ompi_pipeline"},
        {1024, "mvapich2_knomial_intra_node"},
        {32768, "NTSL"},
        {131072, "NTSB"},
        {262144, "ompi_pipeline"},
        {524288, "NTSL"},
        {1048576, "binomial_tree"},
        {kAbove, "NTSB"}}},
      {1,
       8,
       {{64, "NTSB"},
        {128, "binomial_tree"},
        {2048, "NTSB"},
        {8192, "binomial_tree"},
        {1048576, "NTSL"},
        {kAbove, "ompi_pipeline"}}},
      {1,
       16,
       {{8, "mvapich2_knomial_intra_node"},
        {64, "NTSB"},
        {4096, "mvapich2_knomial_intra_node"},
        {16384, "NTSB"},
        {32768, "binomial_tree"},
        {kAbove, "NTSL"}}},
      {1, 32, {{4096, "mvapich2_knomial_intra_node"}, {1048576, "binomial_tree"}, {kAbove, "scatter_rdb_allgather"}}},
      {1, 64, {{2048, "binomial_tree"}, {kAbove, "mvapich2_knomial_intra_node"}}},
      {1, 128, {{kAbove, "mvapich2_knomial_intra_node"}}},
      {1,
       256,
       {{2, "binomial_tree"},
        {16384, "NTSB"},
        {32768, "NTSL"},
        {65536, "NTSB"},
        {kAbove, "mvapich2_knomial_intra_node"}}},
      {1,
       1024,
       {{16384, "mvapich2_knomial_intra_node"},
        {32768, "ompi_split_bintree"},
        {kAbove, "mvapich2_knomial_intra_node"}}},
      {1, 2048, {{524288, "mvapich2_knomial_intra_node"}, {kAbove, "scatter_rdb_allgather"}}},
      {1, 4096, {{262144, "mvapich2_knomial_intra_node"}, {kAbove, "scatter_rdb_allgather"}}},
      {1,
       kAbove,
       {{8192, "mvapich2_knomial_intra_node"},
        {16384, "NTSB"},
        {262144, "mvapich2_knomial_intra_node"},
        {kAbove, "scatter_rdb_allgather"}}},
  };
  return table;
}

inline const DecisionTable& reduce_noncommutative()
{
  static const DecisionTable table = {
      {1, 4, {{8, "ompi_in_order_binary"}, {kAbove, "ompi_basic_linear"}}},
      {1, 8, {{kAbove, "ompi_basic_linear"}}},
      {1,
       16,
       {{1024, "ompi_in_order_binary"},
        {8192, "ompi_basic_linear"},
        {16384, "ompi_in_order_binary"},
        {262144, "ompi_basic_linear"},
        {kAbove, "ompi_in_order_binary"}}},
      {1, 128, {{kAbove, "ompi_in_order_binary"}}},
      {1, 256, {{512, "ompi_in_order_binary"}, {1024, "ompi_basic_linear"}, {kAbove, "ompi_in_order_binary"}}},
      {1, kAbove, {{kAbove, "ompi_in_order_binary"}}},
  };
  return table;
}

inline const DecisionTable& reduce_commutative()
{
  static const DecisionTable table = {
      {1,
       4,
       {{8, "ompi_basic_linear"},
        {16, "ompi_binary"},
        {32, "ompi_pipeline"},
        {262144, "ompi_basic_linear"},
        {524288, "ompi_pipeline"},
        {1048576, "ompi_chain"},
        {kAbove, "ompi_pipeline"}}},
      {1,
       8,
       {{4096, "ompi_binary"},
        {65536, "ompi_chain"},
        {262144, "ompi_binomial"},
        {524288, "ompi_basic_linear"},
        {1048576, "ompi_binomial"},
        {kAbove, "ompi_basic_linear"}}},
      {1, 16, {{8192, "ompi_binary"}, {kAbove, "ompi_binomial"}}},
      {1, 32, {{4096, "ompi_binary"}, {kAbove, "ompi_binomial"}}},
      {1, 256, {{kAbove, "ompi_binomial"}}},
      {1, 512, {{8192, "ompi_binomial"}, {16384, "ompi_in_order_binary"}, {kAbove, "ompi_binomial"}}},
      {1, 2048, {{kAbove, "ompi_binomial"}}},
      {1,
       4096,
       {{512, "ompi_binomial"},
        {1024, "ompi_in_order_binary"},
        {8192, "ompi_binomial"},
        {16384, "ompi_in_order_binary"},
        {kAbove, "ompi_binomial"}}},
      {1,
       kAbove,
       {{16, "ompi_binomial"},
        {32, "ompi_in_order_binary"},
        {1024, "ompi_binomial"},
        {2048, "ompi_in_order_binary"},
        {8192, "ompi_binomial"},
        {16384, "ompi_in_order_binary"},
        {kAbove, "ompi_binomial"}}},
  };
  return table;
}

inline const DecisionTable& reduce_scatter_noncommutative()
{
  static const DecisionTable table = {
      {1, kAbove, {{kAbove, "reduce_scatterv"}}},
  };
  return table;
}

inline const DecisionTable& reduce_scatter_commutative()
{
  static const DecisionTable table = {
      {1, 4, {{65536, "ompi_ring"}, {131072, "ompi_butterfly"}, {kAbove, "ompi_ring"}}},
      {1, 8, {{8, "reduce_scatterv"}, {262144, "ompi_basic_recursivehalving"}, {kAbove, "ompi_ring"}}},
      {1, 32, {{262144, "ompi_basic_recursivehalving"}, {kAbove, "ompi_ring"}}},
      {1,
       64,
       {{64, "reduce_scatterv"},
        {2048, "ompi_basic_recursivehalving"},
        {524288, "ompi_butterfly"},
        {kAbove, "ompi_ring"}}},
      {1,
       128,
       {{256, "reduce_scatterv"},
        {512, "ompi_basic_recursivehalving"},
        {2048, "ompi_butterfly"},
        {4096, "ompi_basic_recursivehalving"},
        {kAbove, "ompi_butterfly"}}},
      {1, 256, {{256, "reduce_scatterv"}, {512, "ompi_basic_recursivehalving"}, {kAbove, "ompi_butterfly"}}},
      {1, 512, {{256, "reduce_scatterv"}, {1024, "ompi_basic_recursivehalving"}, {kAbove, "ompi_butterfly"}}},
      {1,
       1024,
       {{512, "reduce_scatterv"},
        {2048, "ompi_basic_recursivehalving"},
        {8192, "ompi_butterfly"},
        {16384, "ompi_basic_recursivehalving"},
        {kAbove, "ompi_butterfly"}}},
      {1,
       2048,
       {{512, "reduce_scatterv"},
        {4096, "ompi_basic_recursivehalving"},
        {16384, "ompi_butterfly"},
        {32768, "ompi_basic_recursivehalving"},
        {kAbove, "ompi_butterfly"}}},
      {1, 4096, {{512, "reduce_scatterv"}, {4096, "ompi_basic_recursivehalving"}, {kAbove, "ompi_butterfly"}}},
      {1, kAbove, {{1024, "reduce_scatterv"}, {8192, "ompi_basic_recursivehalving"}, {kAbove, "ompi_butterfly"}}},
  };
  return table;
}

inline const DecisionTable& allgather()
{
  static const DecisionTable table = {
      {2, 3, {{kAbove, "pair"}}},
      {1, 32, {{kAbove, "rdb"}}},
      {1, 64, {{1024, "rdb"}, {65536, "ompi_neighborexchange"}, {kAbove, "ring"}}},
      {1, 128, {{512, "rdb"}, {65536, "ompi_neighborexchange"}, {kAbove, "ring"}}},
      {1,
       256,
       {{512, "rdb"},
        {131072, "ompi_neighborexchange"},
        {524288, "ring"},
        {1048576, "ompi_neighborexchange"},
        {kAbove, "ring"}}},
      {1,
       512,
       {{32, "rdb"},
        {128, "bruck"},
        {1024, "rdb"},
        {131072, "ompi_neighborexchange"},
        {524288, "ring"},
        {1048576, "ompi_neighborexchange"},
        {kAbove, "ring"}}},
      {1, 1024, {{64, "rdb"}, {256, "bruck"}, {2048, "rdb"}, {kAbove, "ompi_neighborexchange"}}},
      {1,
       2048,
       {{4, "rdb"},
        {8, "bruck"},
        {16, "rdb"},
        {32, "bruck"},
        {256, "rdb"},
        {512, "bruck"},
        {4096, "rdb"},
        {kAbove, "ompi_neighborexchange"}}},
      {1, 4096, {{32, "bruck"}, {128, "rdb"}, {512, "bruck"}, {4096, "rdb"}, {kAbove, "ompi_neighborexchange"}}},
      {1,
       kAbove,
       {{2, "rdb"}, {8, "bruck"}, {16, "rdb"}, {512, "bruck"}, {4096, "rdb"}, {kAbove, "ompi_neighborexchange"}}},
  };
  return table;
}

inline const DecisionTable& allgatherv()
{
  static const DecisionTable table = {
      {2, 3, {{2048, "mpich_ring"}, {4096, "pair"}, {8192, "mpich_ring"}, {kAbove, "pair"}}},
      {1,
       8,
       {{256, "GB"},
        {4096, "ompi_neighborexchange"},
        {8192, "mpich_ring"},
        {16384, "ompi_neighborexchange"},
        {262144, "ompi_bruck"},
        {kAbove, "ompi_neighborexchange"}}},
      {1, 16, {{1024, "GB"}, {kAbove, "ompi_bruck"}}},
      {1, 32, {{128, "GB"}, {262144, "ompi_bruck"}, {kAbove, "mpich_ring"}}},
      {1, 64, {{256, "GB"}, {8192, "ompi_bruck"}, {kAbove, "mpich_ring"}}},
      {1, 128, {{256, "GB"}, {4096, "ompi_bruck"}, {kAbove, "mpich_ring"}}},
      {1, 256, {{1024, "ompi_bruck"}, {65536, "ompi_neighborexchange"}, {kAbove, "mpich_ring"}}},
      {1, 512, {{1024, "ompi_bruck"}, {kAbove, "mpich_ring"}}},
      {1,
       1024,
       {{512, "ompi_bruck"},
        {1024, "GB"},
        {4096, "ompi_bruck"},
        {1048576, "ompi_neighborexchange"},
        {kAbove, "mpich_ring"}}},
      {1, kAbove, {{4096, "ompi_bruck"}, {kAbove, "ompi_neighborexchange"}}},
  };
  return table;
}

inline const DecisionTable& gather()
{
  static const DecisionTable table = {
      {1,
       4,
       {{2, "ompi_linear_sync"},
        {4, "ompi_basic_linear"},
        {32768, "ompi_binomial"},
        {65536, "ompi_basic_linear"},
        {131072, "ompi_binomial"},
        {kAbove, "ompi_linear_sync"}}},
      {1,
       8,
       {{1024, "ompi_binomial"},
        {8192, "ompi_basic_linear"},
        {32768, "ompi_binomial"},
        {262144, "ompi_basic_linear"},
        {kAbove, "ompi_linear_sync"}}},
      {1, 256, {{kAbove, "ompi_binomial"}}},
      {1, 512, {{2048, "ompi_binomial"}, {8192, "ompi_basic_linear"}, {kAbove, "ompi_binomial"}}},
      {1, kAbove, {{kAbove, "ompi_binomial"}}},
  };
  return table;
}

inline const DecisionTable& scatter()
{
  static const DecisionTable table = {
      {1,
       4,
       {{2, "ompi_linear_nb"},
        {131072, "ompi_basic_linear"},
        {262144, "ompi_linear_nb"},
        {kAbove, "ompi_basic_linear"}}},
      {1,
       8,
       {{2048, "ompi_binomial"},
        {4096, "ompi_basic_linear"},
        {8192, "ompi_binomial"},
        {32768, "ompi_basic_linear"},
        {1048576, "ompi_linear_nb"},
        {kAbove, "ompi_basic_linear"}}},
      {1, 16, {{16384, "ompi_binomial"}, {1048576, "ompi_linear_nb"}, {kAbove, "ompi_basic_linear"}}},
      {1, 32, {{16384, "ompi_binomial"}, {32768, "ompi_basic_linear"}, {kAbove, "ompi_linear_nb"}}},
      {1, 64, {{512, "ompi_binomial"}, {8192, "ompi_linear_nb"}, {16384, "ompi_binomial"}, {kAbove, "ompi_linear_nb"}}},
      {1, kAbove, {{512, "ompi_binomial"}, {kAbove, "ompi_linear_nb"}}},
  };
  return table;
}

} // namespace mpisim::mpi::ompi_rules
