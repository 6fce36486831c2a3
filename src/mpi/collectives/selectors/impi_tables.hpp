// Intel MPI 4.1.3's tuning tables (from table 3.5-2 of the Intel MPI Reference Manual), as SimGrid 3.32 ships them
// (smpi_intel_mpi_selector.cpp), with each Intel algorithm under the name of the algorithm SimGrid runs for it:
//   allreduce: recursive doubling -> rdb; Rabenseifner -> rab1; reduce + bcast -> redbcast; topology-aware
//              reduce + bcast and topology-aware binomial gather + scatter -> mvapich2_two_level; binomial gather +
//              scatter -> smp_binomial; Shumilin's ring and ring -> ompi_ring_segmented
//   alltoall: Bruck -> bruck; isend/irecv + waitall -> mvapich2_scatter_dest; pairwise -> pair;
//             Plum's -> kMvapich2 (SimGrid runs its MVAPICH2 selector)
//   barrier: dissemination (plain and topology-aware) -> ompi_basic_linear; recursive doubling (plain and
//            topology-aware) -> ompi_recursivedoubling; binomial gather + scatter -> ompi_basic_linear (SimGrid's
//            default barrier)
//   bcast: binomial -> binomial_tree; recursive doubling, ring, topology-aware recursive doubling -> NTSL;
//          topology-aware binomial -> SMP_binomial; topology-aware ring -> SMP_linear; Shumilin's -> kMvapich2
//   reduce: Shumilin's (plain and topology-aware) -> kMvapich2; binomial -> binomial; topology-aware binomial ->
//           mvapich2_two_level; Rabenseifner (plain and topology-aware) -> rab
//   reduce_scatter: recursive halving -> kRecursiveHalving (ompi_basic_recursivehalving if commutative, else the
//                   MVAPICH2 selector); pairwise -> mpich_pair; recursive doubling -> mpich_rdb; reduce + scatterv
//                   (plain and topology-aware) -> reduce_scatterv
//   allgather: recursive doubling -> rdb; Bruck -> bruck; ring -> ring; topology-aware gatherv + bcast -> GB
//   allgatherv: recursive doubling -> mpich_rdb; Bruck -> ompi_bruck; ring -> ring; gatherv + bcast -> GB
//   gather, scatter: binomial (plain and topology-aware) -> ompi_binomial; Shumilin's -> kMvapich2
//   alltoallv: isend/irecv + waitall -> ompi_basic_linear; Plum's -> bruck
//
// One table per ranks-per-node configuration (1, 2, 4, 8, 16; the 1-ppn table when none matches or the
// communicator is not uniform). Rows are decision::CommRow (Intel's inclusive rank bounds written as size_below =
// bound + 1); bytes bounds are exclusive as in Intel's tables. Sizes: allreduce, bcast, reduce: the buffer;
// alltoall, allgather, gather, scatter: one block; reduce_scatter, allgatherv: the whole vector; barrier and
// alltoallv: 1. A row's entries stop where its declared length says, plus the one entry past it that SimGrid's
// search can reach (which matters once: 2 ranks per node, <= 16 ranks, reduce_scatter declares 1 entry for 4 listed,
// so every vector of 4 B or more runs recursive halving).
#pragma once

#include "mpi/collectives/selectors/decision_tables.hpp"

namespace mpisim::mpi::impi_rules {

using decision::DecisionTable;
using decision::kAbove;

// Markers the selector resolves.
inline constexpr const char* kMvapich2 = "(mvapich2 selector)";
inline constexpr const char* kRecursiveHalving = "(recursive halving)";

struct PpnTable {
  int ranks_per_node;
  DecisionTable table;
};

inline const std::vector<PpnTable>& allreduce()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{6, "ompi_ring_segmented"}, {85, "rdb"}, {192, "ompi_ring_segmented"}, {853, "rdb"},
                  {1279, "ompi_ring_segmented"}, {16684, "rdb"}, {34279, "ompi_ring_segmented"},
                  {1681224, "redbcast"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 5, {{16, "ompi_ring_segmented"}, {47, "rdb"}, {2062, "ompi_ring_segmented"}, {16699, "rdb"},
                  {33627, "ompi_ring_segmented"}, {70732, "ompi_ring_segmented"}, {1300705, "redbcast"},
                  {kAbove, "ompi_ring_segmented"}}},
          {1, 9, {{118, "rdb"}, {146, "mvapich2_two_level"}, {16760, "rdb"}, {36364, "mvapich2_two_level"},
                  {136239, "ompi_ring_segmented"}, {315710, "ompi_ring_segmented"}, {3220366, "redbcast"},
                  {kAbove, "ompi_ring_segmented"}}},
          {1, 17, {{934, "rdb"}, {1160, "mvapich2_two_level"}, {15505, "rdb"}, {52730, "rab1"},
                   {300705, "ompi_ring_segmented"}, {563680, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, kAbove, {{5, "mvapich2_two_level"}, {11, "mvapich2_two_level"}, {182, "rdb"},
                       {700, "mvapich2_two_level"}, {1450, "mvapich2_two_level"}, {11146, "rdb"},
                       {25539, "mvapich2_two_level"}, {37634, "mvapich2_two_level"}, {93784, "mvapich2_two_level"},
                       {817658, "rab1"}, {kAbove, "redbcast"}}},
      }},
      {2, {
          {1, 5, {{2084, "ompi_ring_segmented"}, {15216, "rdb"}, {99715, "ompi_ring_segmented"},
                  {168666, "redbcast"}, {363889, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 9, {{14978, "rdb"}, {66879, "rab1"}, {179296, "ompi_ring_segmented"}, {304801, "redbcast"},
                  {704509, "ompi_ring_segmented"}, {kAbove, "rab1"}}},
          {1, 17, {{16405, "rdb"}, {81784, "rab1"}, {346385, "ompi_ring_segmented"}, {807546, "ompi_ring_segmented"},
                   {1259854, "rab1"}, {kAbove, "redbcast"}}},
          {1, 33, {{8913, "rdb"}, {103578, "rab1"}, {615876, "ompi_ring_segmented"}, {kAbove, "rab1"}}},
          {1, 65, {{1000, "rdb"}, {2249, "rab1"}, {6029, "rdb"}, {325357, "rab1"}, {1470976, "ompi_ring_segmented"},
                   {2556670, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, 129, {{664, "rdb"}, {754706, "rab1"}, {1663862, "mvapich2_two_level"}, {3269097, "rab1"},
                    {kAbove, "ompi_ring_segmented"}}},
          {1, kAbove, {{789, "rdb"}, {2247589, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
      }},
      {4, {
          {1, 5, {{5738, "rdb"}, {197433, "rab1"}, {593742, "ompi_ring_segmented"}, {kAbove, "rab1"}}},
          {1, 9, {{5655, "rdb"}, {75166, "rab1"}, {177639, "ompi_ring_segmented"}, {988014, "redbcast"},
                  {1643869, "rab1"}, {2494859, "ompi_ring_segmented"}, {kAbove, "rab1"}}},
          {1, 17, {{587, "rdb"}, {3941, "rab1"}, {9003, "rdb"}, {101469, "rab1"}, {355768, "ompi_ring_segmented"},
                   {3341814, "redbcast"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 33, {{795, "rdb"}, {146567, "rab1"}, {732118, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, 65, {{528, "rdb"}, {221277, "rab1"}, {1440737, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, 129, {{481, "rdb"}, {593833, "rab1"}, {2962021, "ompi_ring_segmented"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 257, {{584, "rdb"}, {kAbove, "rab1"}}},
          {1, kAbove, {{604, "rdb"}, {2997006, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
      }},
      {8, {
          {1, 9, {{2560, "rdb"}, {114230, "mvapich2_two_level"}, {288510, "ompi_ring_segmented"}, {664038, "rab1"},
                  {1339913, "mvapich2_two_level"}, {kAbove, "mvapich2_two_level"}}},
          {1, 17, {{497, "rdb"}, {54201, "rab1"}, {356217, "ompi_ring_segmented"}, {3413609, "redbcast"},
                   {kAbove, "ompi_ring_segmented"}}},
          {1, 33, {{377, "rdb"}, {109745, "rab1"}, {716514, "ompi_ring_segmented"}, {3976768, "redbcast"},
                   {kAbove, "ompi_ring_segmented"}}},
          {1, 65, {{109, "rdb"}, {649, "smp_binomial"}, {266080, "rab1"}, {1493331, "ompi_ring_segmented"},
                   {2541403, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, 129, {{7, "rdb"}, {751, "smp_binomial"}, {408808, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 257, {{828, "smp_binomial"}, {909676, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 513, {{847, "smp_binomial"}, {1007066, "rab1"}, {1068775, "mvapich2_two_level"}, {2803389, "rab1"},
                    {kAbove, "ompi_ring_segmented"}}},
          {1, kAbove, {{1974, "smp_binomial"}, {4007876, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
      }},
      {16, {
          {1, 17, {{409, "rdb"}, {768, "mvapich2_two_level"}, {1365, "mvapich2_two_level"},
                   {3071, "mvapich2_two_level"}, {11299, "rab1"}, {21746, "mvapich2_two_level"}, {55629, "rab1"},
                   {86065, "mvapich2_two_level"}, {153867, "rab1"}, {590560, "mvapich2_two_level"},
                   {1448760, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 33, {{6, "rdb"}, {24, "smp_binomial"}, {86, "rdb"}, {875, "smp_binomial"}, {74528, "rab1"},
                   {813050, "ompi_ring_segmented"}, {1725981, "ompi_ring_segmented"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 65, {{1018, "smp_binomial"}, {1217, "mvapich2_two_level"}, {2370, "smp_binomial"}, {160654, "rab1"},
                   {1885487, "ompi_ring_segmented"}, {kAbove, "redbcast"}}},
          {1, 129, {{2291, "smp_binomial"}, {434465, "rab1"}, {3525103, "ompi_ring_segmented"},
                    {kAbove, "ompi_ring_segmented"}}},
          {1, 257, {{2189, "smp_binomial"}, {713154, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, 513, {{2140, "smp_binomial"}, {1235056, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
          {1, kAbove, {{2153, "smp_binomial"}, {2629855, "rab1"}, {kAbove, "ompi_ring_segmented"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& alltoall()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{kAbove, "pair"}}},
          {1, 5, {{0, kMvapich2}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 9, {{kAbove, "mvapich2_scatter_dest"}}},
          {1, 17, {{0, "pair"}, {84645, "mvapich2_scatter_dest"}, {167570, "pair"}, {413152, kMvapich2},
                   {kAbove, "mvapich2_scatter_dest"}}},
          {1, 33, {{61, "bruck"}, {164, "mvapich2_scatter_dest"}, {696, "bruck"}, {143254, "mvapich2_scatter_dest"},
                   {387024, "pair"}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 65, {{523, "bruck"}, {146088, "mvapich2_scatter_dest"}, {488989, kMvapich2},
                   {kAbove, "mvapich2_scatter_dest"}}},
          {1, kAbove, {{270, "bruck"}, {628, kMvapich2}, {kAbove, "mvapich2_scatter_dest"}}},
      }},
      {2, {
          {1, 5, {{1, "mvapich2_scatter_dest"}, {75, "pair"}, {131072, "mvapich2_scatter_dest"},
                  {kAbove, "mvapich2_scatter_dest"}}},
          {1, 9, {{709, "bruck"}, {131072, "mvapich2_scatter_dest"}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 17, {{40048, "mvapich2_scatter_dest"}, {131072, "pair"}, {155927, "pair"}, {kAbove, kMvapich2}}},
          {1, 33, {{105, "bruck"}, {130, "mvapich2_scatter_dest"}, {1030, "bruck"}, {58893, "mvapich2_scatter_dest"},
                   {131072, "mvapich2_scatter_dest"}, {271838, "pair"}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, kAbove, {{521, "bruck"}, {2032, kMvapich2}, {2412, "mvapich2_scatter_dest"}, {4112, kMvapich2},
                       {61620, "mvapich2_scatter_dest"}, {131072, "pair"}, {427408, "pair"}, {kAbove, kMvapich2}}},
      }},
      {4, {
          {1, 9, {{512, "bruck"}, {32768, "mvapich2_scatter_dest"}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 65, {{7, "bruck"}, {199, kMvapich2}, {764, "bruck"}, {6409, kMvapich2},
                   {20026, "mvapich2_scatter_dest"}, {32768, "pair"}, {221643, kMvapich2}, {kAbove, "pair"}}},
          {1, kAbove, {{262, "bruck"}, {7592, kMvapich2}, {22871, "mvapich2_scatter_dest"}, {32768, "pair"},
                       {47538, "pair"}, {101559, kMvapich2}, {kAbove, "pair"}}},
      }},
      {8, {
          {1, 17, {{973, "bruck"}, {5126, kMvapich2}, {16898, "mvapich2_scatter_dest"}, {32768, kMvapich2},
                   {65456, kMvapich2}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 33, {{874, "bruck"}, {6727, kMvapich2}, {17912, "mvapich2_scatter_dest"}, {32768, "pair"},
                   {41513, "pair"}, {199604, kMvapich2}, {kAbove, "pair"}}},
          {1, 65, {{5, "bruck"}, {114, kMvapich2}, {552, "bruck"}, {8130, kMvapich2}, {32768, "pair"},
                   {34486, "pair"}, {160113, kMvapich2}, {kAbove, "pair"}}},
          {1, 129, {{270, "bruck"}, {3679, kMvapich2}, {32768, "pair"}, {64367, "pair"}, {146595, kMvapich2},
                    {kAbove, "pair"}}},
          {1, kAbove, {{133, "bruck"}, {4017, kMvapich2}, {32768, "pair"}, {76351, kMvapich2}, {kAbove, "pair"}}},
      }},
      {16, {
          {1, 33, {{963, "bruck"}, {1818, kMvapich2}, {20007, "mvapich2_scatter_dest"}, {32768, kMvapich2},
                   {54296, kMvapich2}, {169735, "pair"}, {kAbove, "mvapich2_scatter_dest"}}},
          {1, 65, {{17, "bruck"}, {42, kMvapich2}, {592, "bruck"}, {2015, kMvapich2},
                   {2753, "mvapich2_scatter_dest"}, {6496, "pair"}, {20402, kMvapich2}, {32768, "pair"},
                   {36246, "pair"}, {93229, kMvapich2}, {kAbove, "pair"}}},
          {1, 129, {{18, "bruck"}, {40, kMvapich2}, {287, "bruck"}, {1308, kMvapich2}, {6842, "bruck"},
                    {32768, "pair"}, {36986, "pair"}, {129081, kMvapich2}, {kAbove, "pair"}}},
          {1, 257, {{135, "bruck"}, {1538, kMvapich2}, {3267, "bruck"}, {4132, "pair"}, {31469, kMvapich2},
                    {32768, "pair"}, {kAbove, "pair"}}},
          {1, kAbove, {{66, "bruck"}, {1637, kMvapich2}, {2626, "bruck"}, {4842, kMvapich2}, {32768, "pair"},
                       {33963, "pair"}, {72978, kMvapich2}, {kAbove, "pair"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& barrier()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{kAbove, "ompi_recursivedoubling"}}},
          {1, 5, {{kAbove, "ompi_basic_linear"}}},
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, 65, {{kAbove, "ompi_recursivedoubling"}}},
          {1, kAbove, {{kAbove, "ompi_basic_linear"}}},
      }},
      {2, {
          {1, 3, {{kAbove, "ompi_basic_linear"}}},
          {1, 5, {{kAbove, "ompi_basic_linear"}}},
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, 33, {{kAbove, "ompi_recursivedoubling"}}},
          {1, 129, {{kAbove, "ompi_basic_linear"}}},
          {1, kAbove, {{kAbove, "ompi_recursivedoubling"}}},
      }},
      {4, {
          {1, 5, {{kAbove, "ompi_recursivedoubling"}}},
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, 33, {{kAbove, "ompi_recursivedoubling"}}},
          {1, kAbove, {{kAbove, "ompi_recursivedoubling"}}},
      }},
      {8, {
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, 33, {{kAbove, "ompi_recursivedoubling"}}},
          {1, kAbove, {{kAbove, "ompi_recursivedoubling"}}},
      }},
      {16, {
          {1, 5, {{kAbove, "ompi_recursivedoubling"}}},
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, 33, {{kAbove, "ompi_recursivedoubling"}}},
          {1, kAbove, {{kAbove, "ompi_recursivedoubling"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& bcast()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{1, "NTSL"}, {402, kMvapich2}, {682, "NTSL"}, {1433, "SMP_binomial"}, {5734, kMvapich2},
                  {21845, "binomial_tree"}, {95963, "SMP_linear"}, {409897, "NTSL"}, {kAbove, "binomial_tree"}}},
          {1, 5, {{kAbove, kMvapich2}}},
          {1, 9, {{3, "SMP_linear"}, {4, kMvapich2}, {25, "SMP_linear"}, {256, "binomial_tree"}, {682, "SMP_linear"},
                  {1264, "binomial_tree"}, {2234, "SMP_linear"}, {6655, "NTSL"}, {16336, "binomial_tree"},
                  {3998434, kMvapich2}, {kAbove, "SMP_linear"}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {2, {
          {1, 5, {{806, "SMP_binomial"}, {18093, kMvapich2}, {51366, "SMP_linear"}, {182526, "SMP_binomial"},
                  {618390, "binomial_tree"}, {kAbove, kMvapich2}}},
          {1, 9, {{24, "binomial_tree"}, {74, "SMP_binomial"}, {18137, "binomial_tree"}, {614661, kMvapich2},
                  {1284626, "binomial_tree"}, {kAbove, "NTSL"}}},
          {1, 17, {{1, "binomial_tree"}, {158, kMvapich2}, {16955, "binomial_tree"}, {kAbove, kMvapich2}}},
          {1, 33, {{242, kMvapich2}, {10345, "binomial_tree"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{1, "binomial_tree"}, {737, kMvapich2}, {5340, "binomial_tree"}, {kAbove, kMvapich2}}},
      }},
      {4, {
          {1, 9, {{256, "SMP_binomial"}, {17181, "binomial_tree"}, {1048576, kMvapich2}, {kAbove, kMvapich2}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {8, {
          {1, 17, {{3, "binomial_tree"}, {318, kMvapich2}, {1505, "binomial_tree"}, {1048576, kMvapich2},
                   {kAbove, kMvapich2}}},
          {1, 33, {{422, kMvapich2}, {851, "binomial_tree"}, {kAbove, kMvapich2}}},
          {1, 65, {{468, kMvapich2}, {699, "binomial_tree"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {16, {
          {1, 9, {{256, "SMP_binomial"}, {17181, "binomial_tree"}, {1048576, kMvapich2}, {kAbove, kMvapich2}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& reduce()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {2, {
          {1, 3, {{kAbove, kMvapich2}}},
          {1, 5, {{10541, kMvapich2}, {kAbove, kMvapich2}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {4, {
          {1, 257, {{kAbove, kMvapich2}}},
          {1, kAbove, {{45, kMvapich2}, {kAbove, kMvapich2}}},
      }},
      {8, {
          {1, 513, {{kAbove, kMvapich2}}},
          {1, kAbove, {{5, kMvapich2}, {11882, kMvapich2}, {kAbove, kMvapich2}}},
      }},
      {16, {
          {1, 257, {{kAbove, kMvapich2}}},
          {1, kAbove, {{45, kMvapich2}, {kAbove, kMvapich2}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& reduce_scatter()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{5, "reduce_scatterv"}, {522429, "mpich_pair"}, {1375877, "reduce_scatterv"},
                  {2932736, "mpich_pair"}, {kAbove, "reduce_scatterv"}}},
          {1, 5, {{4, "reduce_scatterv"}, {15, kRecursiveHalving}, {120, "mpich_rdb"}, {651, kRecursiveHalving},
                  {12188, "mpich_rdb"}, {33890, kRecursiveHalving}, {572117, "mpich_pair"},
                  {1410202, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 9, {{4, "reduce_scatterv"}, {2263, kRecursiveHalving}, {25007, "mpich_rdb"},
                  {34861, kRecursiveHalving}, {169625, "mpich_pair"}, {2734000, "reduce_scatterv"},
                  {kAbove, "mpich_pair"}}},
          {1, 17, {{4, "reduce_scatterv"}, {14228, kRecursiveHalving}, {46084, "mpich_rdb"}, {522139, "mpich_pair"},
                   {kAbove, "reduce_scatterv"}}},
          {1, 33, {{4, "reduce_scatterv"}, {27516, kRecursiveHalving}, {61693, "mpich_rdb"}, {2483469, "mpich_pair"},
                   {kAbove, "reduce_scatterv"}}},
          {1, 65, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {100396, kRecursiveHalving}, {kAbove, "mpich_pair"}}},
          {1, kAbove, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {186926, kRecursiveHalving}, {278259, "mpich_rdb"},
                       {1500100, "mpich_pair"}, {kAbove, "reduce_scatterv"}}},
      }},
      {2, {
          {1, 3, {{6, kRecursiveHalving}, {kAbove, "mpich_pair"}}},
          {1, 5, {{5, "reduce_scatterv"}, {13, "reduce_scatterv"}, {59, "mpich_rdb"}, {76, kRecursiveHalving},
                  {91488, "mpich_rdb"}, {680063, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 9, {{4, "reduce_scatterv"}, {11, "reduce_scatterv"}, {31, kRecursiveHalving}, {69615, "mpich_rdb"},
                  {202632, "mpich_pair"}, {396082, "reduce_scatterv"}, {1495696, "reduce_scatterv"},
                  {kAbove, "mpich_pair"}}},
          {1, 17, {{4, "reduce_scatterv"}, {kAbove, kRecursiveHalving}}},
          {1, 33, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {992, kRecursiveHalving}, {71417, "mpich_rdb"},
                   {kAbove, "mpich_pair"}}},
          {1, 65, {{4, "reduce_scatterv"}, {1472, kRecursiveHalving}, {196592, "mpich_rdb"}, {kAbove, "mpich_pair"}}},
          {1, 129, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {32892, kRecursiveHalving}, {381072, "mpich_rdb"},
                    {kAbove, "mpich_pair"}}},
          {1, kAbove, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {33262, kRecursiveHalving}, {1571397, "mpich_rdb"},
                       {2211398, "reduce_scatterv"}, {kAbove, "reduce_scatterv"}}},
      }},
      {4, {
          {1, 5, {{12, "reduce_scatterv"}, {27, "reduce_scatterv"}, {49, "mpich_rdb"}, {187, kRecursiveHalving},
                  {405673, "mpich_rdb"}, {594687, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 9, {{24, "reduce_scatterv"}, {155, kRecursiveHalving}, {204501, "mpich_rdb"},
                  {274267, "reduce_scatterv"}, {kAbove, "reduce_scatterv"}}},
          {1, 17, {{63, kRecursiveHalving}, {72, "mpich_rdb"}, {264, kRecursiveHalving}, {168421, "mpich_rdb"},
                   {168421, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 33, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {12, kRecursiveHalving}, {18, "reduce_scatterv"},
                   {419, kRecursiveHalving}, {188739, "mpich_rdb"}, {716329, "reduce_scatterv"},
                   {1365841, "reduce_scatterv"}, {2430194, "mpich_pair"}, {kAbove, "reduce_scatterv"}}},
          {1, 65, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {17, "reduce_scatterv"}, {635, kRecursiveHalving},
                   {202937, "mpich_rdb"}, {308253, "reduce_scatterv"}, {1389874, "reduce_scatterv"},
                   {kAbove, "mpich_pair"}}},
          {1, 129, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"}, {1238, kRecursiveHalving},
                    {280097, "mpich_rdb"}, {631434, "reduce_scatterv"}, {2605072, "reduce_scatterv"},
                    {kAbove, "mpich_pair"}}},
          {1, 257, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"}, {2418, kRecursiveHalving},
                    {kAbove, "mpich_rdb"}}},
          {1, kAbove, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"},
                       {33182, kRecursiveHalving}, {3763779, "mpich_rdb"}, {kAbove, "reduce_scatterv"}}},
      }},
      {8, {
          {1, 9, {{5, "reduce_scatterv"}, {494, kRecursiveHalving}, {97739, "mpich_rdb"}, {522836, "mpich_pair"},
                  {554174, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 17, {{5, "reduce_scatterv"}, {62, kRecursiveHalving}, {94, "mpich_rdb"}, {215, kRecursiveHalving},
                   {185095, "mpich_rdb"}, {454784, "reduce_scatterv"}, {607911, "reduce_scatterv"},
                   {kAbove, "reduce_scatterv"}}},
          {1, 33, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {302, kRecursiveHalving}, {250841, "mpich_rdb"},
                   {665822, "reduce_scatterv"}, {1760980, "reduce_scatterv"}, {kAbove, "reduce_scatterv"}}},
          {1, 65, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {41, "reduce_scatterv"}, {306, kRecursiveHalving},
                   {332405, "mpich_rdb"}, {1269189, "reduce_scatterv"}, {3712421, "reduce_scatterv"},
                   {kAbove, "reduce_scatterv"}}},
          {1, 129, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {39, "reduce_scatterv"}, {526, kRecursiveHalving},
                    {487878, "mpich_rdb"}, {kAbove, "reduce_scatterv"}}},
          {1, 257, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {36, "reduce_scatterv"}, {1382, kRecursiveHalving},
                    {424162, "mpich_rdb"}, {632881, "reduce_scatterv"}, {1127566, "mpich_rdb"},
                    {kAbove, "reduce_scatterv"}}},
          {1, 513, {{4, "reduce_scatterv"}, {34, "reduce_scatterv"}, {5884, kRecursiveHalving}, {kAbove, "mpich_rdb"}}},
          {1, kAbove, {{5, "reduce_scatterv"}, {32, "reduce_scatterv"}, {25105, kRecursiveHalving},
                       {kAbove, "mpich_rdb"}}},
      }},
      {16, {
          {1, 5, {{12, "reduce_scatterv"}, {27, "reduce_scatterv"}, {49, "mpich_rdb"}, {187, kRecursiveHalving},
                  {405673, "mpich_rdb"}, {594687, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 9, {{24, "reduce_scatterv"}, {155, kRecursiveHalving}, {204501, "mpich_rdb"},
                  {274267, "reduce_scatterv"}, {kAbove, "reduce_scatterv"}}},
          {1, 17, {{63, kRecursiveHalving}, {72, "mpich_rdb"}, {264, kRecursiveHalving}, {168421, "mpich_rdb"},
                   {168421, "reduce_scatterv"}, {kAbove, "mpich_pair"}}},
          {1, 33, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {12, kRecursiveHalving}, {18, "reduce_scatterv"},
                   {419, kRecursiveHalving}, {188739, "mpich_rdb"}, {716329, "reduce_scatterv"},
                   {1365841, "reduce_scatterv"}, {2430194, "mpich_pair"}, {kAbove, "reduce_scatterv"}}},
          {1, 65, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {17, "reduce_scatterv"}, {635, kRecursiveHalving},
                   {202937, "mpich_rdb"}, {308253, "reduce_scatterv"}, {1389874, "reduce_scatterv"},
                   {kAbove, "mpich_pair"}}},
          {1, 129, {{0, "mpich_rdb"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"}, {1238, kRecursiveHalving},
                    {280097, "mpich_rdb"}, {631434, "reduce_scatterv"}, {2605072, "reduce_scatterv"},
                    {kAbove, "mpich_pair"}}},
          {1, 257, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"}, {2418, kRecursiveHalving},
                    {kAbove, "mpich_rdb"}}},
          {1, kAbove, {{0, "mpich_pair"}, {4, "reduce_scatterv"}, {16, "reduce_scatterv"},
                       {33182, kRecursiveHalving}, {3763779, "mpich_rdb"}, {kAbove, "reduce_scatterv"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& allgather()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 5, {{1, "GB"}, {384, "rdb"}, {1533, "GB"}, {3296, "rdb"}, {10763, "GB"}, {31816, "ring"},
                  {193343, "GB"}, {405857, "ring"}, {597626, "GB"}, {1844323, "ring"}, {kAbove, "GB"}}},
          {1, 9, {{12, "GB"}, {46, "rdb"}, {205, "GB"}, {3422, "bruck"}, {4200, "GB"}, {8748, "rdb"},
                  {24080, "ring"}, {33244, "GB"}, {371159, "rdb"}, {kAbove, "ring"}}},
          {1, 17, {{3, "GB"}, {53, "rdb"}, {100, "GB"}, {170, "rdb"}, {6077, "GB"}, {127644, "rdb"}, {143741, "GB"},
                   {kAbove, "ring"}}},
          {1, kAbove, {{184, "rdb"}, {320, "GB"}, {759, "rdb"}, {1219, "GB"}, {2633, "rdb"}, {8259, "GB"},
                       {123678, "rdb"}, {160801, "GB"}, {284341, "rdb"}, {kAbove, "GB"}}},
      }},
      {2, {
          {1, 9, {{490, "rdb"}, {558, "bruck"}, {2319, "rdb"}, {46227, "ring"}, {2215101, "rdb"}, {kAbove, "ring"}}},
          {1, 17, {{1005, "rdb"}, {1042, "bruck"}, {2059, "rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{2454, "rdb"}, {kAbove, "ring"}}},
      }},
      {4, {
          {1, 9, {{2861, "rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{605, "rdb"}, {kAbove, "ring"}}},
      }},
      {8, {
          {1, 17, {{66, "rdb"}, {213, "GB"}, {514, "rdb"}, {kAbove, "ring"}}},
          {1, 33, {{91, "rdb"}, {213, "GB"}, {514, "rdb"}, {kAbove, "ring"}}},
          {1, 65, {{71, "rdb"}, {213, "GB"}, {514, "rdb"}, {kAbove, "ring"}}},
          {1, 129, {{305, "rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{213, "rdb"}, {kAbove, "ring"}}},
      }},
      {16, {
          {1, 9, {{2861, "rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{605, "rdb"}, {kAbove, "ring"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& allgatherv()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{259668, "ring"}, {635750, "GB"}, {kAbove, "ring"}}},
          {1, 5, {{1, "mpich_rdb"}, {5, "GB"}, {46, "mpich_rdb"}, {2590, "ompi_bruck"}, {1177259, "ring"},
                  {2767234, "GB"}, {kAbove, "ring"}}},
          {1, 9, {{99, "ompi_bruck"}, {143, "mpich_rdb"}, {4646, "ompi_bruck"}, {63522, "ring"}, {2187806, "GB"},
                  {kAbove, "ring"}}},
          {1, kAbove, {{1, "mpich_rdb"}, {5, "GB"}, {46, "mpich_rdb"}, {2590, "ompi_bruck"}, {1177259, "ring"},
                       {2767234, "GB"}, {kAbove, "ring"}}},
      }},
      {2, {
          {1, 5, {{3147, "mpich_rdb"}, {5622, "ompi_bruck"}, {kAbove, "ring"}}},
          {1, 9, {{975, "mpich_rdb"}, {4158, "ompi_bruck"}, {kAbove, "ring"}}},
          {1, 17, {{2146, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 33, {{81, "mpich_rdb"}, {414, "ompi_bruck"}, {1190, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{1, "ompi_bruck"}, {3, "mpich_rdb"}, {783, "ompi_bruck"}, {1782, "GB"}, {kAbove, "ring"}}},
      }},
      {4, {
          {1, 9, {{2554, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 17, {{272, "mpich_rdb"}, {657, "ompi_bruck"}, {2078, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 33, {{1081, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 65, {{547, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{19, "mpich_rdb"}, {239, "ompi_bruck"}, {327, "mpich_rdb"}, {821, "GB"}, {kAbove, "ring"}}},
      }},
      {8, {
          {1, 17, {{55, "mpich_rdb"}, {514, "ompi_bruck"}, {kAbove, "ring"}}},
          {1, 33, {{53, "mpich_rdb"}, {167, "GB"}, {514, "ompi_bruck"}, {kAbove, "ring"}}},
          {1, 65, {{13, "mpich_rdb"}, {319, "GB"}, {kAbove, "ring"}}},
          {1, 129, {{2, "mpich_rdb"}, {11, "ompi_bruck"}, {48, "mpich_rdb"}, {201, "ompi_bruck"}, {304, "mpich_rdb"},
                    {1048, "GB"}, {kAbove, "ring"}}},
          {1, kAbove, {{5, "mpich_rdb"}, {115, "GB"}, {129, "mpich_rdb"}, {451, "GB"}, {kAbove, "ring"}}},
      }},
      {16, {
          {1, 9, {{2554, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 17, {{272, "mpich_rdb"}, {657, "ompi_bruck"}, {2078, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 33, {{1081, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, 65, {{547, "mpich_rdb"}, {kAbove, "ring"}}},
          {1, kAbove, {{19, "mpich_rdb"}, {239, "ompi_bruck"}, {327, "mpich_rdb"}, {821, "GB"}, {kAbove, "ring"}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& gather()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 9, {{17561, kMvapich2}, {44791, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 17, {{16932, kMvapich2}, {84425, "ompi_binomial"}, {158363, kMvapich2}, {702801, "ompi_binomial"},
                   {1341444, kMvapich2}, {2413569, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{47187, kMvapich2}, {349696, "ompi_binomial"}, {2147483647, kMvapich2},
                       {kAbove, "ompi_binomial"}}},
      }},
      {2, {
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {4, {
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {8, {
          {1, 17, {{kAbove, kMvapich2}}},
          {1, 33, {{9, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 65, {{784, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 129, {{160, kMvapich2}, {655, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {16, {
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& scatter()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, 3, {{16391, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 5, {{16723, kMvapich2}, {153541, "ompi_binomial"}, {425631, kMvapich2}, {794142, "ompi_binomial"},
                  {1257027, kMvapich2}, {kAbove, "ompi_binomial"}}},
          {1, 9, {{2633, kMvapich2}, {6144, "ompi_binomial"}, {14043, kMvapich2}, {24576, "ompi_binomial"},
                  {107995, kMvapich2}, {1752729, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 17, {{2043, kMvapich2}, {2252, "ompi_binomial"}, {17749, kMvapich2}, {106020, "ompi_binomial"},
                   {628654, kMvapich2}, {3751354, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{65907, kMvapich2}, {245132, "ompi_binomial"}, {1042439, kMvapich2},
                       {2147483647, "ompi_binomial"}, {kAbove, "ompi_binomial"}}},
      }},
      {2, {
          {1, kAbove, {{kAbove, kMvapich2}}},
      }},
      {4, {
          {1, 9, {{kAbove, kMvapich2}}},
          {1, 17, {{140, kMvapich2}, {1302, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 33, {{159, kMvapich2}, {486, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 65, {{149, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{139, "ompi_binomial"}, {kAbove, kMvapich2}}},
      }},
      {8, {
          {1, 17, {{587, "ompi_binomial"}, {1370, "ompi_binomial"}, {2102, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 33, {{1038, "ompi_binomial"}, {2065, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 65, {{515, "ompi_binomial"}, {2069, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 129, {{284, "ompi_binomial"}, {796, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{139, "ompi_binomial"}, {kAbove, kMvapich2}}},
      }},
      {16, {
          {1, 9, {{kAbove, kMvapich2}}},
          {1, 17, {{140, kMvapich2}, {1302, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 33, {{159, kMvapich2}, {486, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, 65, {{149, "ompi_binomial"}, {kAbove, kMvapich2}}},
          {1, kAbove, {{139, "ompi_binomial"}, {kAbove, kMvapich2}}},
      }},
  };
  return tables;
}

inline const std::vector<PpnTable>& alltoallv()
{
  static const std::vector<PpnTable> tables = {
      {1, {
          {1, kAbove, {{kAbove, "ompi_basic_linear"}}},
      }},
      {2, {
          {1, kAbove, {{kAbove, "ompi_basic_linear"}}},
      }},
      {4, {
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, kAbove, {{4, "ompi_basic_linear"}, {kAbove, "bruck"}}},
      }},
      {8, {
          {1, 17, {{kAbove, "ompi_basic_linear"}}},
          {1, kAbove, {{0, "ompi_basic_linear"}, {kAbove, "bruck"}}},
      }},
      {16, {
          {1, 9, {{kAbove, "ompi_basic_linear"}}},
          {1, kAbove, {{4, "ompi_basic_linear"}, {kAbove, "bruck"}}},
      }},
  };
  return tables;
}
} // namespace mpisim::mpi::impi_rules
