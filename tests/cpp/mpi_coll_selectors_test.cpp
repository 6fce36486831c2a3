// The library selectors: ompi, mpich, mvapich2, impi (SimGrid 3.32's encodings of Open MPI 4.1.2, MPICH 3.3b,
// MVAPICH2 1.9 for Stampede and Intel MPI 4.1.3).
//
// Each expectation is written from the library's rule as SimGrid 3.32 states it (its four selectors
// and its MVAPICH2 Stampede tables), cited in the comment above it, not from the selectors' tables. Thresholds
// are checked on both sides: Open MPI, MPICH and Intel MPI compare "size < bound" (checked at bound - 1, bound and
// bound + 1), MVAPICH2 "size <= bound" (checked at bound - 1, bound, bound + 1 with the change after bound).
// Communicator-size rows are checked at their first and last sizes.
//
// Suite names start with "mpi" so that `ctest -R mpi` selects them.
#include "mpi/collectives/Collectives.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mpisim;
using C = mpisim::mpi::Collective;
using mpisim::mpi::CommShape;

namespace {

// ------------------------------------------------------------------------------------------------------------------
// Calls and shapes
// ------------------------------------------------------------------------------------------------------------------

struct Options {
  bool commutative = true;
  double element_bytes = 1;
  bool in_place = false;
};

// A call whose decision size is `bytes`: the buffer (bcast, reduce, allreduce), one block (alltoall, gather, scatter,
// allgather, allgatherv: each rank's block), the whole vector in equal blocks (reduce_scatter).
mpi::CollectiveCall make_call(C op, int size, double bytes, const Options& options = {})
{
  static std::byte buffer[1];
  mpi::CollectiveCall call;
  call.op = op;
  call.bytes = call.recv_bytes = bytes;
  call.commutative = options.commutative;
  call.element_bytes = options.element_bytes;
  if (op == C::ReduceScatter)
    call.recv_counts.assign(size, bytes / size);
  if (op == C::Allgatherv || op == C::Alltoallv || op == C::Alltoallw || op == C::Gatherv || op == C::Scatterv) {
    call.recv_counts.assign(size, bytes);
    call.send_counts.assign(size, bytes);
  }
  if (options.in_place) {
    call.with_data = true;
    call.send_data = buffer;
    call.recv_data = buffer;
  }
  return call;
}

CommShape smp(int size, int ranks_per_node)
{
  return {size, size / ranks_per_node, ranks_per_node, true, true};
}

CommShape round_robin(int size, int ranks_per_node) // same counts per node, ranks not consecutive
{
  return {size, size / ranks_per_node, ranks_per_node, true, false};
}

CommShape uneven(int size) // one node with two ranks, the others with one
{
  return {size, size - 1, 2, false, true};
}

std::string choose(const char* selector, const mpi::CollectiveCall& call, const CommShape& shape)
{
  return mpi::SelectorRegistry::find(selector).choose(call, shape);
}

std::string choose(const char* selector, C op, int size, double bytes, const Options& options = {})
{
  return choose(selector, make_call(op, size, bytes, options), CommShape::flat(size));
}

// One threshold: at `ranks` ranks, `below` applies under `bytes` and `from` from `bytes` on ("size < bound" rules).
struct Bound {
  int ranks;
  double bytes;
  const char* below;
  const char* from;
};

void expect_bounds(const char* selector, C op, const std::vector<Bound>& bounds, const Options& options = {},
                   CommShape (*shape)(int) = CommShape::flat)
{
  for (const Bound& b : bounds) {
    auto at = [&](double bytes) { return choose(selector, make_call(op, b.ranks, bytes, options), shape(b.ranks)); };
    const std::string where =
        std::string(selector) + " " + mpi::collective_name(op) + " on " + std::to_string(b.ranks) + " ranks at ";
    if (b.bytes > 0) { // braces: EXPECT_EQ is an if/else
      EXPECT_EQ(at(b.bytes - 1), b.below) << where << b.bytes - 1 << " B";
    }
    EXPECT_EQ(at(b.bytes), b.from) << where << b.bytes << " B";
    EXPECT_EQ(at(b.bytes + 1), b.from) << where << b.bytes + 1 << " B";
  }
}

// MVAPICH2's "size <= bound": `upto` applies up to and including `bytes`, `above` after it.
struct InclusiveBound {
  int ranks;
  double bytes;
  const char* upto;
  const char* above;
};

void expect_inclusive_bounds(C op, const std::vector<InclusiveBound>& bounds, const Options& options = {},
                             CommShape (*shape)(int) = CommShape::flat)
{
  for (const InclusiveBound& b : bounds) {
    auto at = [&](double bytes) { return choose("mvapich2", make_call(op, b.ranks, bytes, options), shape(b.ranks)); };
    const std::string where =
        std::string("mvapich2 ") + mpi::collective_name(op) + " on " + std::to_string(b.ranks) + " ranks at ";
    EXPECT_EQ(at(b.bytes - 1), b.upto) << where << b.bytes - 1 << " B";
    EXPECT_EQ(at(b.bytes), b.upto) << where << b.bytes << " B";
    EXPECT_EQ(at(b.bytes + 1), b.above) << where << b.bytes + 1 << " B";
  }
}

// Size-only rules (barrier, alltoallv): the choice for each communicator size.
void expect_by_size(const char* selector, C op, const std::map<int, const char*>& expected)
{
  for (const auto& [ranks, algorithm] : expected)
    EXPECT_EQ(choose(selector, op, ranks, 1000), algorithm)
        << selector << " " << mpi::collective_name(op) << " on " << ranks << " ranks";
}

// ------------------------------------------------------------------------------------------------------------------
// The set of selectors and the names they can give
// ------------------------------------------------------------------------------------------------------------------

// The lead's "automatic" selector lives elsewhere; the others are these.
TEST(mpi_coll_selectors, TheSelectorsAreDefaultImpiMpichMvapich2Ompi)
{
  std::set<std::string> names;
  for (const mpi::SelectorEntry* entry : mpi::SelectorRegistry::all())
    if (entry->name != "automatic")
      names.insert(entry->name);
  EXPECT_EQ(names, (std::set<std::string>{"default", "impi", "mpich", "mvapich2", "ompi"}));
}

// SimGrid 3.32's algorithm names per operation (as in tests/python/test_coll_agreement.py), plus the names mpisim
// gives SimGrid's non-selectable implementations: linear_nbc ("post everything, then wait"), linear (scan, exscan)
// and reduce_scatterv (SimGrid's reduce_scatter "default": reduce then scatterv).
const std::map<C, std::string>& simgrid_algorithms()
{
  static const std::map<C, std::string> names = {
      {C::Gather, "ompi_basic_linear ompi_binomial ompi_linear_sync mvapich2_two_level linear_nbc"},
      {C::Allgather, "2dmesh 3dmesh bruck GB loosely_lr NTSLR NTSLR_NB pair rdb rhv ring SMP_NTS smp_simple "
                     "spreading_simple ompi_neighborexchange mvapich2_smp linear_nbc"},
      {C::Allgatherv, "GB pair ring ompi_neighborexchange ompi_bruck mpich_rdb mpich_ring linear_nbc"},
      {C::Allreduce, "lr rab1 rab2 rab_rdb rdb smp_binomial smp_binomial_pipeline smp_rdb smp_rsag smp_rsag_lr "
                     "smp_rsag_rab redbcast ompi_ring_segmented mvapich2_rs mvapich2_two_level rab"},
      {C::ReduceScatter, "ompi_basic_recursivehalving ompi_ring ompi_butterfly mpich_pair mpich_rdb mpich_noncomm "
                         "reduce_scatterv"},
      {C::Scatter, "ompi_basic_linear ompi_linear_nb ompi_binomial mvapich2_two_level_binomial "
                   "mvapich2_two_level_direct linear_nbc"},
      {C::Barrier, "ompi_basic_linear ompi_two_procs ompi_tree ompi_bruck ompi_recursivedoubling ompi_doublering "
                   "mpich_smp mvapich2_pair"},
      {C::Alltoall, "2dmesh 3dmesh basic_linear bruck pair pair_rma pair_light_barrier pair_mpi_barrier "
                    "pair_one_barrier rdb ring ring_light_barrier ring_mpi_barrier ring_one_barrier "
                    "mvapich2_scatter_dest"},
      {C::Alltoallv, "bruck pair pair_light_barrier pair_mpi_barrier pair_one_barrier ring ring_light_barrier "
                     "ring_mpi_barrier ring_one_barrier ompi_basic_linear linear_nbc"},
      {C::Bcast, "arrival_pattern_aware arrival_pattern_aware_wait arrival_scatter binomial_tree flattree "
                 "flattree_pipeline NTSB NTSL NTSL_Isend scatter_LR_allgather scatter_rdb_allgather SMP_binary "
                 "SMP_binomial SMP_linear ompi_split_bintree ompi_pipeline mvapich2_inter_node mvapich2_intra_node "
                 "mvapich2_knomial_intra_node"},
      {C::Reduce, "arrival_pattern_aware binomial flat_tree NTSL scatter_gather ompi_chain ompi_pipeline "
                  "ompi_basic_linear ompi_in_order_binary ompi_binary ompi_binomial mvapich2_knomial "
                  "mvapich2_two_level rab linear_nbc"},
      {C::Gatherv, "linear_nbc"},
      {C::Scatterv, "linear_nbc"},
      {C::Scan, "linear"},
      {C::Exscan, "linear"},
      {C::Alltoallw, "linear_nbc"}, // SimGrid's only alltoallw (online mode only)
  };
  return names;
}

bool is_simgrid_name(C op, const std::string& name)
{
  std::istringstream words(simgrid_algorithms().at(op));
  std::string word;
  while (words >> word)
    if (word == name)
      return true;
  return false;
}

// Every answer over a grid of communicator sizes (around every row bound of the four libraries), message sizes
// (around powers of two and the tables' odd bounds), shapes (flat, 2, 4, 16 ranks per node, round-robin, uneven),
// commutative or not, in place or not, is one of SimGrid's names: a misspelt name in any table shows here.
TEST(mpi_coll_selectors, EveryChoiceIsASimGridAlgorithm)
{
  const std::vector<int> sizes = {1,  2,   3,   4,   5,   7,   8,   9,    12,   16,   17,   32,   33,  64,
                                  65, 128, 129, 256, 257, 512, 513, 1024, 1025, 2048, 2049, 4096, 4097};
  std::vector<double> bytes = {0, 1, 3, 5, 11, 85, 345, 1279, 12289, 16684, 81920, 81921, 1681224, 4e6, 3e9};
  for (double p = 2; p <= 4194304; p *= 2)
    for (double b : {p, p + 1})
      bytes.push_back(b);
  int checked = 0;
  for (const char* selector : {"ompi", "mpich", "mvapich2", "impi"})
    for (size_t i = 0; i < mpi::kCollectiveCount; ++i) {
      const auto op = static_cast<C>(i);
      for (int size : sizes)
        for (const CommShape& shape :
             {CommShape::flat(size), smp(size, 2), smp(size, 4), smp(size, 16), round_robin(size, 2), uneven(size)})
          for (double b : bytes)
            for (bool commutative : {true, false})
              for (bool in_place : {false, op == C::Alltoall || op == C::Alltoallv}) {
                const std::string name = choose(selector, make_call(op, size, b, {commutative, 1, in_place}), shape);
                ++checked;
                ASSERT_TRUE(is_simgrid_name(op, name))
                    << selector << " " << mpi::collective_name(op) << " on " << size << " ranks ("
                    << shape.ranks_per_node << " per node), " << b << " B: '" << name << "'";
              }
    }
  EXPECT_GT(checked, 500000);
}

// ------------------------------------------------------------------------------------------------------------------
// ompi: Open MPI 4.1.2's fixed decision rules (SimGrid 3.32's ompi selector). Sizes: bytes of
// the buffer (allreduce, bcast, reduce), of one block (alltoall, allgather, gather, scatter), of the whole vector
// (reduce_scatter), of the whole vector / ranks (allgatherv).
// ------------------------------------------------------------------------------------------------------------------

// Commutative allreduce: algorithms 2 nonoverlapping (redbcast), 3 recursive doubling (rdb), 4 ring (lr),
// 5 segmented ring (ompi_ring_segmented), 6 rabenseifner (rab_rdb).
TEST(mpi_coll_selectors, OmpiAllreduceCommutative)
{
  expect_bounds("ompi", C::Allreduce,
                {
                    // < 4 ranks: < 8 ring, < 4096 rd, < 8192 ring, < 16384 rd, < 65536 ring, < 262144 seg. ring,
                    // then rabenseifner.
                    {2, 8, "lr", "rdb"},
                    {3, 4096, "rdb", "lr"},
                    {2, 8192, "lr", "rdb"},
                    {3, 16384, "rdb", "lr"},
                    {2, 65536, "lr", "ompi_ring_segmented"},
                    {3, 262144, "ompi_ring_segmented", "rab_rdb"},
                    // 4..7 ranks: < 16 ring, < 8192 rd, then rabenseifner.
                    {4, 16, "lr", "rdb"},
                    {7, 8192, "rdb", "rab_rdb"},
                    // 8..15: < 8192 rd, then rabenseifner.
                    {8, 8192, "rdb", "rab_rdb"},
                    {15, 8192, "rdb", "rab_rdb"},
                    // 16..31: < 64 segmented ring, < 4096 rd, then rabenseifner.
                    {16, 64, "ompi_ring_segmented", "rdb"},
                    {31, 4096, "rdb", "rab_rdb"},
                    // 32..63: < 128 segmented ring, then rabenseifner.
                    {32, 128, "ompi_ring_segmented", "rab_rdb"},
                    {63, 128, "ompi_ring_segmented", "rab_rdb"},
                    // 64..127: < 262144 rd, then rabenseifner.
                    {64, 262144, "rdb", "rab_rdb"},
                    {127, 262144, "rdb", "rab_rdb"},
                    // 128..255: < 131072 nonoverlapping, < 262144 rd, then rabenseifner.
                    {128, 131072, "redbcast", "rdb"},
                    {255, 262144, "rdb", "rab_rdb"},
                    // 256..511: < 4096 nonoverlapping, then rabenseifner.
                    {256, 4096, "redbcast", "rab_rdb"},
                    {511, 4096, "redbcast", "rab_rdb"},
                    // 512..2047: < 2048 nonoverlapping, < 16384 rd, then rabenseifner.
                    {512, 2048, "redbcast", "rdb"},
                    {2047, 16384, "rdb", "rab_rdb"},
                    // 2048..4095: < 2048 nonoverlapping, < 4096 segmented ring, < 16384 rd, then rabenseifner.
                    {2048, 2048, "redbcast", "ompi_ring_segmented"},
                    {4095, 4096, "ompi_ring_segmented", "rdb"},
                    {2048, 16384, "rdb", "rab_rdb"},
                    // >= 4096: < 2048 nonoverlapping, < 16384 segmented ring, < 32768 rd, then rabenseifner.
                    {4096, 2048, "redbcast", "ompi_ring_segmented"},
                    {4096, 16384, "ompi_ring_segmented", "rdb"},
                    {100000, 32768, "rdb", "rab_rdb"},
                });
  // Size 1 follows the "< 4" row.
  EXPECT_EQ(choose("ompi", C::Allreduce, 1, 7), "lr");
}

// Non-commutative allreduce: only algorithms 1/2 (redbcast) and 3 (rdb).
TEST(mpi_coll_selectors, OmpiAllreduceNonCommutative)
{
  const Options noncommutative{false};
  expect_bounds("ompi", C::Allreduce,
                {
                    {3, 131072, "rdb", "redbcast"}, // < 4 ranks: < 131072 rd, then linear
                    {4, 1e9, "rdb", "rdb"},         // 4..7: rd
                    {7, 1, "rdb", "rdb"},
                    {8, 1048576, "rdb", "redbcast"}, // 8..15: < 1 MiB rd, then nonoverlapping
                    {15, 1048576, "rdb", "redbcast"},
                    {16, 1e9, "rdb", "rdb"}, // 16..127: rd
                    {127, 1e9, "rdb", "rdb"},
                    {128, 131072, "redbcast", "rdb"}, // 128..255: < 131072 nonoverlapping, < 524288 rd, then
                    {255, 524288, "rdb", "redbcast"}, //   nonoverlapping
                    {256, 4096, "redbcast", "rdb"},   // 256..511: < 4096 nonoverlapping, < 524288 rd, then
                    {511, 524288, "rdb", "redbcast"}, //   nonoverlapping
                    {512, 2048, "redbcast", "rdb"},   // >= 512: < 2048 nonoverlapping, then rd
                    {5000, 2048, "redbcast", "rdb"},
                },
                noncommutative);
}

// Alltoall: 1 linear, 4 linear_sync, 5 two_proc run as basic_linear; 2 pairwise (pair); 3 modified bruck (bruck).
TEST(mpi_coll_selectors, OmpiAlltoall)
{
  expect_bounds("ompi", C::Alltoall,
                {
                    // 2 ranks: < 2 pairwise, < 4 two_proc, < 16 pairwise, < 64 two_proc, < 256 pairwise,
                    // < 4096 two_proc, < 32768 pairwise, < 262144 linear_sync, < 1 MiB two_proc, then pairwise.
                    {2, 2, "pair", "basic_linear"},
                    {2, 4, "basic_linear", "pair"},
                    {2, 16, "pair", "basic_linear"},
                    {2, 64, "basic_linear", "pair"},
                    {2, 256, "pair", "basic_linear"},
                    {2, 4096, "basic_linear", "pair"},
                    {2, 32768, "pair", "basic_linear"},
                    {2, 1048576, "basic_linear", "pair"},
                    // 3..7 (and 1, which is not "== 2"): linear variants, pairwise for [524288, 1 MiB).
                    {3, 524288, "basic_linear", "pair"},
                    {7, 1048576, "pair", "basic_linear"},
                    {1, 524288, "basic_linear", "pair"},
                    // 16..31: < 4 linear_sync, < 512 bruck, then linear variants.
                    {16, 4, "basic_linear", "bruck"},
                    {31, 512, "bruck", "basic_linear"},
                    // 32..63: < 512 bruck.
                    {32, 512, "bruck", "basic_linear"},
                    // 64..127: < 1024 bruck, ..., from 262144 pairwise.
                    {64, 1024, "bruck", "basic_linear"},
                    {127, 262144, "basic_linear", "pair"},
                    // 512..1023: < 512 bruck, ..., from 262144 pairwise.
                    {512, 512, "bruck", "basic_linear"},
                    {1023, 262144, "basic_linear", "pair"},
                    // >= 4096: < 2048 bruck, then linear variants.
                    {4096, 2048, "bruck", "basic_linear"},
                });
  // 8..15 ranks: linear variants only.
  for (double b : {1.0, 1000.0, 1e7})
    EXPECT_EQ(choose("ompi", C::Alltoall, 8, b), "basic_linear");
}

// The default selector runs Open MPI's alltoall rule too (SimGrid's alltoall__default calls alltoall__ompi), and its
// table is checked branch for branch against SimGrid's in mpi_collectives_test.cpp: both selectors agree on 2 ranks
// or more. (On one rank, where nothing is sent, the default's table says basic_linear throughout, while SimGrid's
// "< 8" branch, which "ompi" follows, says pair for blocks of 512 KiB to 1 MiB.)
TEST(mpi_coll_selectors, OmpiAlltoallIsTheDefaultSelectorsRule)
{
  for (int ranks :
       {2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 2047, 2048, 4095, 4096, 9000})
    for (double t = 1; t <= 4194304; t *= 2)
      for (double bytes : {t - 1, t, t + 1})
        EXPECT_EQ(choose("ompi", C::Alltoall, ranks, bytes), choose("default", C::Alltoall, ranks, bytes))
            << ranks << " ranks, " << bytes << " B";
}

// Alltoallv and barrier depend on the communicator size only.
TEST(mpi_coll_selectors, OmpiAlltoallvAndBarrier)
{
  // Alltoallv: < 4 pairwise, < 64 linear, < 128 pairwise, < 256 linear, < 1024 pairwise, then linear.
  expect_by_size("ompi", C::Alltoallv,
                 {{1, "pair"},
                  {3, "pair"},
                  {4, "ompi_basic_linear"},
                  {63, "ompi_basic_linear"},
                  {64, "pair"},
                  {127, "pair"},
                  {128, "ompi_basic_linear"},
                  {255, "ompi_basic_linear"},
                  {256, "pair"},
                  {1023, "pair"},
                  {1024, "ompi_basic_linear"}});
  // Barrier: < 4 recursive doubling, < 8 linear, < 64 recursive doubling, < 256 bruck, < 512 tree, < 1024 bruck,
  // < 4096 tree, then bruck.
  expect_by_size("ompi", C::Barrier,
                 {{1, "ompi_recursivedoubling"},
                  {3, "ompi_recursivedoubling"},
                  {4, "ompi_basic_linear"},
                  {7, "ompi_basic_linear"},
                  {8, "ompi_recursivedoubling"},
                  {63, "ompi_recursivedoubling"},
                  {64, "ompi_bruck"},
                  {255, "ompi_bruck"},
                  {256, "ompi_tree"},
                  {511, "ompi_tree"},
                  {512, "ompi_bruck"},
                  {1023, "ompi_bruck"},
                  {1024, "ompi_tree"},
                  {4095, "ompi_tree"},
                  {4096, "ompi_bruck"}});
}

// Bcast: 1 linear (NTSL), 2 chain and 3 pipeline (ompi_pipeline), 4 split binary tree (ompi_split_bintree),
// 5 binary tree (NTSB), 6 binomial (binomial_tree), 7 knomial (mvapich2_knomial_intra_node), 8 scatter_allgather
// (scatter_rdb_allgather); 9 scatter_allgather_ring is never chosen.
TEST(mpi_coll_selectors, OmpiBcast)
{
  const char* knomial = "mvapich2_knomial_intra_node";
  expect_bounds("ompi", C::Bcast,
                {
                    // < 4 ranks: < 32 pipeline, < 256 binary, < 512 pipeline, < 1024 knomial, < 32768 linear,
                    // < 131072 binary, < 262144 chain, < 524288 linear, < 1 MiB binomial, then binary.
                    {2, 32, "ompi_pipeline", "NTSB"},
                    {3, 256, "NTSB", "ompi_pipeline"},
                    {2, 512, "ompi_pipeline", knomial},
                    {3, 1024, knomial, "NTSL"},
                    {2, 32768, "NTSL", "NTSB"},
                    {3, 131072, "NTSB", "ompi_pipeline"},
                    {2, 262144, "ompi_pipeline", "NTSL"},
                    {3, 524288, "NTSL", "binomial_tree"},
                    {2, 1048576, "binomial_tree", "NTSB"},
                    // 4..7: < 64 binary, < 128 binomial, < 2048 binary, < 8192 binomial, < 1 MiB linear, then chain.
                    {4, 64, "NTSB", "binomial_tree"},
                    {7, 128, "binomial_tree", "NTSB"},
                    {4, 2048, "NTSB", "binomial_tree"},
                    {7, 8192, "binomial_tree", "NTSL"},
                    {4, 1048576, "NTSL", "ompi_pipeline"},
                    // 8..15: < 8 knomial, < 64 binary, < 4096 knomial, < 16384 binary, < 32768 binomial, then linear.
                    {8, 8, knomial, "NTSB"},
                    {15, 64, "NTSB", knomial},
                    {8, 4096, knomial, "NTSB"},
                    {15, 16384, "NTSB", "binomial_tree"},
                    {8, 32768, "binomial_tree", "NTSL"},
                    // 16..31: < 4096 knomial, < 1 MiB binomial, then scatter_allgather.
                    {16, 4096, knomial, "binomial_tree"},
                    {31, 1048576, "binomial_tree", "scatter_rdb_allgather"},
                    // 32..63: < 2048 binomial, then knomial.
                    {32, 2048, "binomial_tree", knomial},
                    // 128..255: < 2 binomial, < 16384 binary, < 32768 linear, < 65536 binary, then knomial.
                    {128, 2, "binomial_tree", "NTSB"},
                    {255, 16384, "NTSB", "NTSL"},
                    {128, 32768, "NTSL", "NTSB"},
                    {255, 65536, "NTSB", knomial},
                    // 256..1023: < 16384 knomial, < 32768 split binary tree, then knomial.
                    {256, 16384, knomial, "ompi_split_bintree"},
                    {1023, 32768, "ompi_split_bintree", knomial},
                    // 1024..2047: < 524288 knomial; 2048..4095: < 262144 knomial; then scatter_allgather.
                    {1024, 524288, knomial, "scatter_rdb_allgather"},
                    {2048, 262144, knomial, "scatter_rdb_allgather"},
                    // >= 4096: < 8192 knomial, < 16384 binary, < 262144 knomial, then scatter_allgather.
                    {4096, 8192, knomial, "NTSB"},
                    {4096, 16384, "NTSB", knomial},
                    {9000, 262144, knomial, "scatter_rdb_allgather"},
                });
  EXPECT_EQ(choose("ompi", C::Bcast, 64, 1), knomial); // 64..127: knomial
  EXPECT_EQ(choose("ompi", C::Bcast, 127, 1e8), knomial);
}

// Reduce: 1 linear (ompi_basic_linear), 2 chain, 3 pipeline, 4 binary, 5 binomial, 6 in-order binary (the ompi_
// versions), 7 rabenseifner (SimGrid runs ompi_basic_linear).
TEST(mpi_coll_selectors, OmpiReduce)
{
  expect_bounds("ompi", C::Reduce,
                {
                    // < 4 ranks: < 8 rabenseifner, < 16 binary, < 32 pipeline, < 262144 linear, < 524288 pipeline,
                    // < 1 MiB chain, then pipeline.
                    {2, 8, "ompi_basic_linear", "ompi_binary"},
                    {3, 16, "ompi_binary", "ompi_pipeline"},
                    {2, 32, "ompi_pipeline", "ompi_basic_linear"},
                    {3, 262144, "ompi_basic_linear", "ompi_pipeline"},
                    {2, 524288, "ompi_pipeline", "ompi_chain"},
                    {3, 1048576, "ompi_chain", "ompi_pipeline"},
                    // 4..7: < 4096 binary, < 65536 chain, < 262144 binomial, < 524288 linear, < 1 MiB binomial,
                    // then linear.
                    {4, 4096, "ompi_binary", "ompi_chain"},
                    {7, 65536, "ompi_chain", "ompi_binomial"},
                    {4, 262144, "ompi_binomial", "ompi_basic_linear"},
                    {7, 524288, "ompi_basic_linear", "ompi_binomial"},
                    {4, 1048576, "ompi_binomial", "ompi_basic_linear"},
                    // 8..15: < 8192 binary; 16..31: < 4096 binary; then binomial.
                    {8, 8192, "ompi_binary", "ompi_binomial"},
                    {15, 8192, "ompi_binary", "ompi_binomial"},
                    {16, 4096, "ompi_binary", "ompi_binomial"},
                    {31, 4096, "ompi_binary", "ompi_binomial"},
                    // 256..511: < 8192 binomial, < 16384 in-order binary, then binomial.
                    {256, 8192, "ompi_binomial", "ompi_in_order_binary"},
                    {511, 16384, "ompi_in_order_binary", "ompi_binomial"},
                    // 2048..4095: < 512 binomial, < 1024 in-order, < 8192 binomial, < 16384 in-order, then binomial.
                    {2048, 512, "ompi_binomial", "ompi_in_order_binary"},
                    {4095, 1024, "ompi_in_order_binary", "ompi_binomial"},
                    {2048, 8192, "ompi_binomial", "ompi_in_order_binary"},
                    {4095, 16384, "ompi_in_order_binary", "ompi_binomial"},
                    // >= 4096: < 16 binomial, < 32 in-order, < 1024 binomial, < 2048 in-order, < 8192 binomial,
                    // < 16384 in-order, then binomial.
                    {4096, 16, "ompi_binomial", "ompi_in_order_binary"},
                    {4096, 32, "ompi_in_order_binary", "ompi_binomial"},
                    {4096, 1024, "ompi_binomial", "ompi_in_order_binary"},
                    {4096, 2048, "ompi_in_order_binary", "ompi_binomial"},
                    {4096, 8192, "ompi_binomial", "ompi_in_order_binary"},
                    {4096, 16384, "ompi_in_order_binary", "ompi_binomial"},
                });
  for (int ranks : {32, 255, 512, 2047}) // 32..255 and 512..2047: binomial
    EXPECT_EQ(choose("ompi", C::Reduce, ranks, 10000), "ompi_binomial") << ranks;
  // Non-commutative: < 4 ranks: < 8 in-order binary, then linear; 4..7 linear; 8..15: < 1024 in-order, < 8192
  // linear, < 16384 in-order, < 262144 linear, then in-order; 16..127 in-order; 128..255: < 512 in-order, < 1024
  // linear, then in-order; >= 256 in-order.
  const Options noncommutative{false};
  expect_bounds("ompi", C::Reduce,
                {
                    {3, 8, "ompi_in_order_binary", "ompi_basic_linear"},
                    {4, 1, "ompi_basic_linear", "ompi_basic_linear"},
                    {8, 1024, "ompi_in_order_binary", "ompi_basic_linear"},
                    {15, 8192, "ompi_basic_linear", "ompi_in_order_binary"},
                    {8, 16384, "ompi_in_order_binary", "ompi_basic_linear"},
                    {15, 262144, "ompi_basic_linear", "ompi_in_order_binary"},
                    {16, 1e9, "ompi_in_order_binary", "ompi_in_order_binary"},
                    {128, 512, "ompi_in_order_binary", "ompi_basic_linear"},
                    {255, 1024, "ompi_basic_linear", "ompi_in_order_binary"},
                    {256, 1024, "ompi_in_order_binary", "ompi_in_order_binary"},
                },
                noncommutative);
}

// Reduce_scatter on the whole vector: 1 non-overlapping (SimGrid's reduce + scatterv, "reduce_scatterv"),
// 2 recursive halving, 3 ring, 4 butterfly. Power-of-two sizes keep equal blocks exact.
TEST(mpi_coll_selectors, OmpiReduceScatter)
{
  const char* halving = "ompi_basic_recursivehalving";
  expect_bounds("ompi", C::ReduceScatter,
                {
                    {2, 65536, "ompi_ring", "ompi_butterfly"},  // < 4 ranks: < 65536 ring, < 131072 butterfly,
                    {2, 131072, "ompi_butterfly", "ompi_ring"}, //   then ring
                    {4, 8, "reduce_scatterv", halving},         // 4..7: < 8 non-overlapping, < 262144 halving,
                    {4, 262144, halving, "ompi_ring"},          //   then ring
                    {8, 262144, halving, "ompi_ring"},          // 8..31: < 262144 halving, then ring
                    {32, 64, "reduce_scatterv", halving},       // 32..63: < 64, < 2048 halving, < 524288
                    {32, 2048, halving, "ompi_butterfly"},      //   butterfly, then ring
                    {32, 524288, "ompi_butterfly", "ompi_ring"},
                    {64, 256, "reduce_scatterv", halving}, // 64..127: < 256, < 512 halving, < 2048
                    {64, 512, halving, "ompi_butterfly"},  //   butterfly, < 4096 halving, then butterfly
                    {64, 2048, "ompi_butterfly", halving},
                    {64, 4096, halving, "ompi_butterfly"},
                    {128, 256, "reduce_scatterv", halving}, // 128..255: < 256, < 512 halving, butterfly
                    {128, 512, halving, "ompi_butterfly"},
                    {256, 256, "reduce_scatterv", halving}, // 256..511: < 256, < 1024 halving, butterfly
                    {256, 1024, halving, "ompi_butterfly"},
                    {512, 512, "reduce_scatterv", halving}, // 512..1023: < 512, < 2048 halving, < 8192
                    {512, 2048, halving, "ompi_butterfly"}, //   butterfly, < 16384 halving, butterfly
                    {512, 8192, "ompi_butterfly", halving},
                    {512, 16384, halving, "ompi_butterfly"},
                    {1024, 4096, halving, "ompi_butterfly"},  // 1024..2047: < 512, < 4096 halving, < 16384
                    {1024, 16384, "ompi_butterfly", halving}, //   butterfly, < 32768 halving, butterfly
                    {1024, 32768, halving, "ompi_butterfly"},
                    {2048, 512, "reduce_scatterv", halving}, // 2048..4095: < 512, < 4096 halving, butterfly
                    {2048, 4096, halving, "ompi_butterfly"},
                    {4096, 1024, "reduce_scatterv", halving}, // >= 4096: < 1024, < 8192 halving, butterfly
                    {4096, 8192, halving, "ompi_butterfly"},
                });
  // Non-commutative: always non-overlapping; SimGrid's reduce + scatterv runs MPICH's rule on irregular counts
  // (commutative and more than 524288 elements: pairwise; otherwise recursive doubling).
  EXPECT_EQ(choose("ompi", C::ReduceScatter, 64, 1e6, {false}), "reduce_scatterv");
  mpi::CollectiveCall irregular = make_call(C::ReduceScatter, 4, 0);
  irregular.recv_counts = {1, 2, 3, 1};
  EXPECT_EQ(choose("ompi", irregular, CommShape::flat(4)), "mpich_rdb"); // 7 B on 4 ranks: non-overlapping, irregular
  irregular.recv_counts = {4, 3, 2, 1};
  irregular.commutative = false;
  EXPECT_EQ(choose("ompi", irregular, CommShape::flat(4)), "mpich_rdb");
  irregular.recv_counts = {1, 2, 3, 4};
  irregular.commutative = true;
  EXPECT_EQ(choose("ompi", irregular, CommShape::flat(5)), halving); // 5 ranks: 10 B is halving, irregular or not
}

// Allgather on one block: 1 linear (NTSLR_NB), 2 bruck, 3 recursive doubling (rdb), 4 ring, 5 neighbor exchange,
// 6 two_proc (pair).
TEST(mpi_coll_selectors, OmpiAllgather)
{
  const char* neighbor = "ompi_neighborexchange";
  expect_by_size("ompi", C::Allgather, {{1, "rdb"}, {2, "pair"}, {3, "rdb"}, {31, "rdb"}});
  expect_bounds("ompi", C::Allgather,
                {
                    {32, 1024, "rdb", neighbor}, // 32..63: < 1024 rd, < 65536 neighbor, then ring
                    {63, 65536, neighbor, "ring"},
                    {64, 512, "rdb", neighbor}, // 64..127: < 512 rd, < 65536 neighbor, then ring
                    {127, 65536, neighbor, "ring"},
                    {128, 512, "rdb", neighbor},     // 128..255: < 512, < 131072 neighbor, < 524288 ring,
                    {255, 131072, neighbor, "ring"}, //   < 1 MiB neighbor, then ring
                    {128, 524288, "ring", neighbor},
                    {255, 1048576, neighbor, "ring"},
                    {256, 32, "rdb", "bruck"}, // 256..511: < 32 rd, < 128 bruck, < 1024 rd, then as 128..255
                    {511, 128, "bruck", "rdb"},
                    {256, 1024, "rdb", neighbor},
                    {512, 64, "rdb", "bruck"}, // 512..1023: < 64 rd, < 256 bruck, < 2048 rd, then neighbor
                    {1023, 256, "bruck", "rdb"},
                    {512, 2048, "rdb", neighbor},
                    {1024, 4, "rdb", "bruck"}, // 1024..2047: < 4 rd, < 8 bruck, < 16 rd, < 32 bruck,
                    {1024, 8, "bruck", "rdb"}, //   < 256 rd, < 512 bruck, < 4096 rd, then neighbor
                    {2047, 16, "rdb", "bruck"},
                    {2047, 32, "bruck", "rdb"},
                    {1024, 256, "rdb", "bruck"},
                    {1024, 512, "bruck", "rdb"},
                    {2047, 4096, "rdb", neighbor},
                    {2048, 32, "bruck", "rdb"}, // 2048..4095: < 32 bruck, < 128 rd, < 512 bruck, < 4096 rd
                    {4095, 128, "rdb", "bruck"},
                    {2048, 512, "bruck", "rdb"},
                    {4095, 4096, "rdb", neighbor},
                    {4096, 2, "rdb", "bruck"}, // >= 4096: < 2 rd, < 8 bruck, < 16 rd, < 512 bruck, < 4096 rd
                    {4096, 8, "bruck", "rdb"},
                    {4096, 16, "rdb", "bruck"},
                    {4096, 512, "bruck", "rdb"},
                    {4096, 4096, "rdb", neighbor},
                });
}

// Allgatherv on the average block (whole vector / ranks): 1 default (GB), 2 bruck (ompi_bruck), 3 ring (mpich_ring),
// 4 neighbor exchange, 5 two_proc (pair).
TEST(mpi_coll_selectors, OmpiAllgatherv)
{
  const char* neighbor = "ompi_neighborexchange";
  expect_bounds("ompi", C::Allgatherv,
                {
                    {2, 2048, "mpich_ring", "pair"}, // 2 ranks: < 2048 ring, < 4096 two_proc, < 8192
                    {2, 4096, "pair", "mpich_ring"}, //   ring, then two_proc
                    {2, 8192, "mpich_ring", "pair"},
                    {3, 256, "GB", neighbor},          // 3..7 (and 1): < 256 default, < 4096 neighbor,
                    {7, 4096, neighbor, "mpich_ring"}, //   < 8192 ring, < 16384 neighbor, < 262144 bruck,
                    {3, 8192, "mpich_ring", neighbor}, //   then neighbor
                    {7, 16384, neighbor, "ompi_bruck"},
                    {3, 262144, "ompi_bruck", neighbor},
                    {1, 256, "GB", neighbor},
                    {8, 1024, "GB", "ompi_bruck"}, // 8..15: < 1024 default, then bruck
                    {16, 128, "GB", "ompi_bruck"}, // 16..31: < 128 default, < 262144 bruck, then ring
                    {31, 262144, "ompi_bruck", "mpich_ring"},
                    {32, 256, "GB", "ompi_bruck"}, // 32..63: < 256, < 8192 bruck, then ring
                    {63, 8192, "ompi_bruck", "mpich_ring"},
                    {64, 256, "GB", "ompi_bruck"}, // 64..127: < 256, < 4096 bruck, then ring
                    {127, 4096, "ompi_bruck", "mpich_ring"},
                    {128, 1024, "ompi_bruck", neighbor}, // 128..255: < 1024 bruck, < 65536 neighbor, ring
                    {255, 65536, neighbor, "mpich_ring"},
                    {256, 1024, "ompi_bruck", "mpich_ring"}, // 256..511: < 1024 bruck, then ring
                    {512, 512, "ompi_bruck", "GB"},          // 512..1023: < 512 bruck, < 1024 default, < 4096
                    {1023, 1024, "GB", "ompi_bruck"},        //   bruck, < 1 MiB neighbor, then ring
                    {512, 4096, "ompi_bruck", neighbor},
                    {1023, 1048576, neighbor, "mpich_ring"},
                    {1024, 4096, "ompi_bruck", neighbor}, // >= 1024: < 4096 bruck, then neighbor
                });
  // The average is the integer quotient: 3 ranks with 767 B in all average 255 B (default), 768 B average 256 B.
  mpi::CollectiveCall call = make_call(C::Allgatherv, 3, 0);
  call.recv_counts = {255, 256, 256};
  EXPECT_EQ(choose("ompi", call, CommShape::flat(3)), "GB");
  call.recv_counts = {256, 256, 256};
  EXPECT_EQ(choose("ompi", call, CommShape::flat(3)), neighbor);
}

// Gather: 1 linear (ompi_basic_linear), 2 binomial (ompi_binomial), 3 linear_sync (ompi_linear_sync).
// Scatter: 1 linear (ompi_basic_linear), 2 binomial (ompi_binomial), 3 linear_nb (ompi_linear_nb).
TEST(mpi_coll_selectors, OmpiGatherAndScatter)
{
  expect_bounds("ompi", C::Gather,
                {
                    {2, 2, "ompi_linear_sync", "ompi_basic_linear"},  // < 4 ranks: < 2 linear_sync, < 4 linear,
                    {3, 4, "ompi_basic_linear", "ompi_binomial"},     //   < 32768 binomial, < 65536 linear,
                    {2, 32768, "ompi_binomial", "ompi_basic_linear"}, //   < 131072 binomial, then linear_sync
                    {3, 65536, "ompi_basic_linear", "ompi_binomial"},
                    {2, 131072, "ompi_binomial", "ompi_linear_sync"},
                    {4, 1024, "ompi_binomial", "ompi_basic_linear"},  // 4..7: < 1024 binomial, < 8192 linear,
                    {7, 8192, "ompi_basic_linear", "ompi_binomial"},  //   < 32768 binomial, < 262144 linear,
                    {4, 32768, "ompi_binomial", "ompi_basic_linear"}, //   then linear_sync
                    {7, 262144, "ompi_basic_linear", "ompi_linear_sync"},
                    {8, 1e9, "ompi_binomial", "ompi_binomial"}, // 8..255: binomial
                    {255, 1, "ompi_binomial", "ompi_binomial"},
                    {256, 2048, "ompi_binomial", "ompi_basic_linear"}, // 256..511: < 2048 binomial, < 8192
                    {511, 8192, "ompi_basic_linear", "ompi_binomial"}, //   linear, then binomial
                    {512, 8192, "ompi_binomial", "ompi_binomial"},     // >= 512: binomial
                });
  expect_bounds("ompi", C::Scatter,
                {
                    {2, 2, "ompi_linear_nb", "ompi_basic_linear"},      // < 4 ranks: < 2 linear_nb, < 131072
                    {3, 131072, "ompi_basic_linear", "ompi_linear_nb"}, //   linear, < 262144 linear_nb, linear
                    {2, 262144, "ompi_linear_nb", "ompi_basic_linear"},
                    {4, 2048, "ompi_binomial", "ompi_basic_linear"}, // 4..7: < 2048 binomial, < 4096 linear,
                    {7, 4096, "ompi_basic_linear", "ompi_binomial"}, //   < 8192 binomial, < 32768 linear,
                    {4, 8192, "ompi_binomial", "ompi_basic_linear"}, //   < 1 MiB linear_nb, then linear
                    {7, 32768, "ompi_basic_linear", "ompi_linear_nb"},
                    {4, 1048576, "ompi_linear_nb", "ompi_basic_linear"},
                    {8, 16384, "ompi_binomial", "ompi_linear_nb"},        // 8..15: < 16384 binomial, < 1 MiB
                    {15, 1048576, "ompi_linear_nb", "ompi_basic_linear"}, // linear_nb, then linear
                    {16, 16384, "ompi_binomial", "ompi_basic_linear"},    // 16..31: < 16384 binomial, < 32768
                    {31, 32768, "ompi_basic_linear", "ompi_linear_nb"},   //   linear, then linear_nb
                    {32, 512, "ompi_binomial", "ompi_linear_nb"},         // 32..63: < 512 binomial, < 8192
                    {63, 8192, "ompi_linear_nb", "ompi_binomial"},        //   linear_nb, < 16384 binomial,
                    {32, 16384, "ompi_binomial", "ompi_linear_nb"},       //   then linear_nb
                    {64, 512, "ompi_binomial", "ompi_linear_nb"},         // >= 64: < 512 binomial, then linear_nb
                });
}

// What SimGrid runs for operations its selectors do not tune.
TEST(mpi_coll_selectors, UntunedOperationsRunSimGridsImplementations)
{
  for (const char* selector : {"ompi", "mpich", "mvapich2", "impi"})
    for (int ranks : {1, 5, 64}) {
      EXPECT_EQ(choose(selector, C::Gatherv, ranks, 100), "linear_nbc") << selector;
      EXPECT_EQ(choose(selector, C::Scatterv, ranks, 100), "linear_nbc") << selector;
      EXPECT_EQ(choose(selector, C::Scan, ranks, 100), "linear") << selector;
      EXPECT_EQ(choose(selector, C::Exscan, ranks, 100), "linear") << selector;
    }
}

// ------------------------------------------------------------------------------------------------------------------
// mpich: MPICH 3.3b (SimGrid 3.32's mpich selector)
// ------------------------------------------------------------------------------------------------------------------

TEST(mpi_coll_selectors, MpichFixedChoices)
{
  for (int ranks : {2, 7, 64}) {
    EXPECT_EQ(choose("mpich", C::Barrier, ranks, 0), "ompi_bruck");    // barrier: bruck
    EXPECT_EQ(choose("mpich", C::Alltoallv, ranks, 10), "bruck");      // alltoallv: bruck
    EXPECT_EQ(choose("mpich", C::Gather, ranks, 10), "ompi_binomial"); // gather, scatter: binomial
    EXPECT_EQ(choose("mpich", C::Scatter, ranks, 1e6), "ompi_binomial");
  }
}

// SimGrid's MPICH takes the SMP path on ordinary communicators: commutative allreduce and reduce run MVAPICH2's
// two-level algorithms. Otherwise allreduce is recursive doubling (Rabenseifner needs a commutative operation), and
// reduce binomial (reduce-scatter + gather needs one too).
TEST(mpi_coll_selectors, MpichReductions)
{
  for (double bytes : {1.0, 2048.0, 2049.0, 1e7}) {
    EXPECT_EQ(choose("mpich", C::Allreduce, 16, bytes), "mvapich2_two_level");
    EXPECT_EQ(choose("mpich", C::Reduce, 16, bytes), "mvapich2_two_level");
    EXPECT_EQ(choose("mpich", C::Allreduce, 16, bytes, {false}), "rdb");
    EXPECT_EQ(choose("mpich", C::Reduce, 16, bytes, {false}), "binomial");
  }
  // Reduce_scatter, on element counts: commutative: above 524288 elements pairwise, else recursive doubling.
  expect_bounds("mpich", C::ReduceScatter, {{4, 524289, "mpich_rdb", "mpich_pair"}});
  EXPECT_EQ(choose("mpich", C::ReduceScatter, 4, 4.0 * 524288, {true, 4}), "mpich_rdb"); // 524288 elements of 4 B
  EXPECT_EQ(choose("mpich", C::ReduceScatter, 4, 4.0 * 524292, {true, 4}), "mpich_pair");
  // Non-commutative: equal blocks on a power-of-two size: noncomm; otherwise recursive doubling, at any size.
  EXPECT_EQ(choose("mpich", C::ReduceScatter, 4, 4e6, {false}), "mpich_noncomm");
  EXPECT_EQ(choose("mpich", C::ReduceScatter, 6, 6e6, {false}), "mpich_rdb");
  mpi::CollectiveCall irregular = make_call(C::ReduceScatter, 4, 0, {false});
  irregular.recv_counts = {1, 2, 3, 4};
  EXPECT_EQ(choose("mpich", irregular, CommShape::flat(4)), "mpich_rdb");
}

// Bcast: on a uniform communicator (every node the same number of ranks; one rank per node included) SMP_binomial;
// otherwise binomial below 12288 B or on <= 8 ranks, then scatter + recursive-doubling allgather below 524288 B on
// an even number of ranks, else scatter + ring allgather.
TEST(mpi_coll_selectors, MpichBcast)
{
  EXPECT_EQ(choose("mpich", C::Bcast, 16, 1e6), "SMP_binomial");
  EXPECT_EQ(choose("mpich", make_call(C::Bcast, 16, 1e6), smp(16, 4)), "SMP_binomial");
  expect_bounds("mpich", C::Bcast,
                {
                    {8, 1e6, "binomial_tree", "binomial_tree"},
                    {9, 12288, "binomial_tree", "scatter_LR_allgather"}, // odd size: ring allgather
                    {10, 12288, "binomial_tree", "scatter_rdb_allgather"},
                    {10, 524288, "scatter_rdb_allgather", "scatter_LR_allgather"},
                },
                {}, uneven);
}

// Alltoall on one block: Bruck below 256 B on >= 8 ranks, below 32768 B MVAPICH2's scatter-destination, then
// pairwise on odd sizes (sic: MPICH's pairwise exchange is for powers of two) and ring otherwise.
TEST(mpi_coll_selectors, MpichAlltoall)
{
  expect_bounds("mpich", C::Alltoall,
                {
                    {8, 256, "bruck", "mvapich2_scatter_dest"},
                    {7, 256, "mvapich2_scatter_dest", "mvapich2_scatter_dest"},
                    {7, 32768, "mvapich2_scatter_dest", "pair"},
                    {8, 32768, "mvapich2_scatter_dest", "ring"},
                });
}

// Allgather on the gathered vector (block * ranks): power-of-two sizes below 524288 B recursive doubling; otherwise
// Bruck up to 81920 B (inclusive), ring above. Allgatherv the same on the total element count, with MPICH's rdb,
// Open MPI's Bruck and MPICH's ring.
TEST(mpi_coll_selectors, MpichAllgather)
{
  EXPECT_EQ(choose("mpich", C::Allgather, 8, 65535), "rdb");   // 524280 B
  EXPECT_EQ(choose("mpich", C::Allgather, 8, 65536), "ring");  // 524288 B
  EXPECT_EQ(choose("mpich", C::Allgather, 5, 16384), "bruck"); // 81920 B
  EXPECT_EQ(choose("mpich", C::Allgather, 5, 16385), "ring");  // 81925 B
  EXPECT_EQ(choose("mpich", C::Allgather, 6, 1), "bruck");
  EXPECT_EQ(choose("mpich", C::Allgatherv, 4, 131071), "mpich_rdb");  // 524284 elements
  EXPECT_EQ(choose("mpich", C::Allgatherv, 4, 131072), "mpich_ring"); // 524288
  EXPECT_EQ(choose("mpich", C::Allgatherv, 5, 16384), "ompi_bruck");  // 81920
  mpi::CollectiveCall call = make_call(C::Allgatherv, 5, 16384);
  call.recv_counts[0] += 1; // 81921
  EXPECT_EQ(choose("mpich", call, CommShape::flat(5)), "mpich_ring");
  // Element counts, not bytes: 4-byte elements, 16384 of them on 5 ranks is still Bruck.
  call = make_call(C::Allgatherv, 5, 4.0 * 16384, {true, 4});
  EXPECT_EQ(choose("mpich", call, CommShape::flat(5)), "ompi_bruck");
}

// ------------------------------------------------------------------------------------------------------------------
// mvapich2: MVAPICH2 1.9, Stampede tables (as SimGrid 3.32's
// mvapich2 selector encodes them). Rows serve communicators up to their size (the last row the rest); entries
// message sizes up to their bound.
// ------------------------------------------------------------------------------------------------------------------

TEST(mpi_coll_selectors, Mvapich2FixedChoices)
{
  for (int ranks : {2, 7, 64}) {
    EXPECT_EQ(choose("mvapich2", C::Barrier, ranks, 0), "mvapich2_pair");
    EXPECT_EQ(choose("mvapich2", C::Alltoallv, ranks, 10), "ring");
    EXPECT_EQ(choose("mvapich2", C::Alltoallv, ranks, 10, {true, 1, true}), "ompi_basic_linear"); // in place
  }
}

// Alltoall: SimGrid always uses the 1-ppn table. <= 2 ranks pairwise; <= 4: scatter-destination up to 262144 B;
// <= 8: recursive doubling up to 8 B; <= 16: rd up to 64, bruck up to 512; <= 32: rd up to 32, bruck up to 2048;
// <= 64 (and above): rd up to 8, bruck up to 1024; then scatter-destination. In place: the in-place algorithm
// (ring) over the whole range.
TEST(mpi_coll_selectors, Mvapich2Alltoall)
{
  const char* dest = "mvapich2_scatter_dest";
  expect_inclusive_bounds(C::Alltoall, {
                                           {2, 1e6, "pair", "pair"},
                                           {3, 262144, dest, "pair"},
                                           {4, 262144, dest, "pair"},
                                           {5, 8, "rdb", dest},
                                           {8, 8, "rdb", dest},
                                           {9, 64, "rdb", "bruck"},
                                           {16, 512, "bruck", dest},
                                           {17, 32, "rdb", "bruck"},
                                           {32, 2048, "bruck", dest},
                                           {33, 8, "rdb", "bruck"},
                                           {64, 1024, "bruck", dest},
                                           {1000, 1024, "bruck", dest},
                                       });
  EXPECT_EQ(choose("mvapich2", make_call(C::Alltoall, 64, 100), smp(64, 16)), "bruck"); // 16 ppn: still 1-ppn table
  EXPECT_EQ(choose("mvapich2", C::Alltoall, 16, 100, {true, 1, true}), "ring");
}

// Allgather: the table of the communicator's ranks per node (1, 2 or 16, uniform communicators), else 1 ppn.
// Two-level entries run mvapich2_smp on blocked communicators, MPICH's rule on others, and recursive doubling when
// no ppn table matched.
TEST(mpi_coll_selectors, Mvapich2Allgather)
{
  // 1 ppn: <= 2 ranks ring; <= 4 rd up to 262144; <= 64 rd up to 32768; then ring.
  expect_inclusive_bounds(C::Allgather,
                          {{2, 1, "ring", "ring"}, {4, 262144, "rdb", "ring"}, {64, 32768, "rdb", "ring"}});
  // 2 ppn, <= 8 ranks: rd up to 32768, then ring two-level; <= 32: rd two-level up to 65536.
  expect_inclusive_bounds(C::Allgather,
                          {{8, 32768, "rdb", "mvapich2_smp"}, {32, 65536, "mvapich2_smp", "mvapich2_smp"}}, {},
                          [](int n) { return smp(n, 2); });
  // Same, ranks not consecutive: MPICH's allgather (8 ranks x 32769 B = 262152 B < 524288 B: recursive doubling).
  EXPECT_EQ(choose("mvapich2", make_call(C::Allgather, 8, 32769), round_robin(8, 2)), "rdb");
  // 16 ppn: <= 16 ranks rd up to 1024; more ranks: MVAPICH2's "RD allgather comm" up to 1024 (run as rdb), then ring.
  expect_inclusive_bounds(C::Allgather, {{16, 1024, "rdb", "ring"}, {32, 1024, "rdb", "ring"}}, {},
                          [](int n) { return smp(n, 16); });
  // 4 ppn matches no table: 1 ppn table.
  EXPECT_EQ(choose("mvapich2", make_call(C::Allgather, 8, 131073), smp(8, 4)), "ring");
}

// Gather (blocked communicators): <= 16 ranks direct up to 524288 B then MPICH's (binomial); <= 32: direct up to
// 16384, MPICH's up to 131072, then two-level direct; <= 64: two-level up to 256, direct up to 16384, then two-level.
// Non-blocked communicators: MPICH's gather.
TEST(mpi_coll_selectors, Mvapich2Gather)
{
  expect_inclusive_bounds(C::Gather, {
                                         {16, 524288, "ompi_basic_linear", "ompi_binomial"},
                                         {17, 16384, "ompi_basic_linear", "ompi_binomial"},
                                         {32, 131072, "ompi_binomial", "mvapich2_two_level"},
                                         {33, 256, "mvapich2_two_level", "ompi_basic_linear"},
                                         {64, 16384, "ompi_basic_linear", "mvapich2_two_level"},
                                     });
  EXPECT_EQ(choose("mvapich2", make_call(C::Gather, 16, 100), round_robin(16, 2)), "ompi_binomial");
  // Before any collective computed the node layout, SimGrid reads "not blocked": MPICH's gather at every size.
  CommShape fresh = smp(32, 4);
  fresh.layout_computed = false;
  for (double bytes : {1.0, 16384.0, 131073.0})
    EXPECT_EQ(choose("mvapich2", make_call(C::Gather, 32, bytes), fresh), "ompi_binomial") << bytes;
  EXPECT_EQ(choose("mvapich2", make_call(C::Gather, 32, 131073), smp(32, 4)), "mvapich2_two_level");
}

// The allgather, scatter and non-empty bcast rules compute the node layout first (later gathers see it); the others
// do not.
// MPICH's allgatherv with nothing to gather returns at once in SimGrid: mpich_ring, which then sends nothing.
TEST(mpi_coll_selectors, MpichAllgathervOfNothing)
{
  EXPECT_EQ(choose("mpich", make_call(C::Allgatherv, 24, 0), CommShape::flat(24)), "mpich_ring");
  EXPECT_EQ(choose("mpich", make_call(C::Allgatherv, 32, 0), CommShape::flat(32)), "mpich_ring");
  EXPECT_EQ(choose("mpich", make_call(C::Allgatherv, 24, 1), CommShape::flat(24)), "ompi_bruck");
}

TEST(mpi_coll_selectors, Mvapich2RulesThatComputeTheNodeLayout)
{
  const auto& entry = mpi::SelectorRegistry::find("mvapich2");
  ASSERT_NE(entry.computes_layout, nullptr);
  EXPECT_TRUE(entry.computes_layout(make_call(C::Allgather, 8, 100)));
  EXPECT_TRUE(entry.computes_layout(make_call(C::Scatter, 8, 100)));
  EXPECT_TRUE(entry.computes_layout(make_call(C::Bcast, 8, 1)));
  EXPECT_FALSE(entry.computes_layout(make_call(C::Bcast, 8, 0)));
  EXPECT_FALSE(entry.computes_layout(make_call(C::Gather, 8, 100)));
  EXPECT_FALSE(entry.computes_layout(make_call(C::Allreduce, 8, 100)));
}

// Allgatherv on the whole vector against ranks x bound: <= 32 ranks rd up to 512 B per rank, <= 64 (and above) up
// to 256, then ring; recursive doubling needs a power of two (Bruck otherwise).
TEST(mpi_coll_selectors, Mvapich2Allgatherv)
{
  expect_inclusive_bounds(C::Allgatherv, {{16, 512, "mpich_rdb", "mpich_ring"},
                                          {64, 256, "mpich_rdb", "mpich_ring"},
                                          {12, 512, "ompi_bruck", "mpich_ring"}});
}

// Allreduce: <= 16 ranks two-level up to 1024 B, then reduce-scatter (mvapich2_rs); <= 32: two-level up to 16384;
// <= 1024: two-level up to 65536; larger: two-level up to 4096 (multicast and reduce entries are two-level), rs above.
// Two-level needs a commutative operation: recursive doubling otherwise.
TEST(mpi_coll_selectors, Mvapich2Allreduce)
{
  expect_inclusive_bounds(C::Allreduce, {
                                            {16, 1024, "mvapich2_two_level", "mvapich2_rs"},
                                            {32, 16384, "mvapich2_two_level", "mvapich2_rs"},
                                            {1024, 65536, "mvapich2_two_level", "mvapich2_rs"},
                                            {2048, 4096, "mvapich2_two_level", "mvapich2_rs"},
                                            {5000, 4096, "mvapich2_two_level", "mvapich2_rs"},
                                        });
  expect_inclusive_bounds(C::Allreduce, {{16, 1024, "rdb", "mvapich2_rs"}}, {false});
}

// Bcast: two-level entries (nearly all) run MVAPICH2's two-level bcast (mvapich2_intra_node); the single-level
// entries of the Stampede tables are scatter + ring allgather (65..128 ranks above 524288 B).
TEST(mpi_coll_selectors, Mvapich2Bcast)
{
  for (double bytes : {1.0, 8192.0, 16384.0, 1e6})
    EXPECT_EQ(choose("mvapich2", C::Bcast, 16, bytes), "mvapich2_intra_node") << bytes;
  expect_inclusive_bounds(C::Bcast, {{65, 524288, "mvapich2_intra_node", "scatter_LR_allgather"},
                                     {128, 524288, "mvapich2_intra_node", "scatter_LR_allgather"}});
}

// Reduce, <= 16 ranks: knomial two-level up to 262144 B (two-level when commutative, binomial otherwise), binomial up
// to 1 MiB, then reduce-scatter + gather when count >= the largest power of two <= ranks (binomial otherwise).
// <= 32 ranks, 65537..262144 B: knomial, single level.
TEST(mpi_coll_selectors, Mvapich2Reduce)
{
  expect_inclusive_bounds(C::Reduce, {{16, 262144, "mvapich2_two_level", "binomial"},
                                      {16, 1048576, "binomial", "scatter_gather"},
                                      {32, 65536, "mvapich2_two_level", "mvapich2_knomial"}});
  expect_inclusive_bounds(C::Reduce, {{16, 262144, "binomial", "binomial"}, {32, 65536, "binomial", "binomial"}},
                          {false});
  // 1048577 B of 131072-B elements is 8 elements < 16: binomial.
  EXPECT_EQ(choose("mvapich2", C::Reduce, 16, 1048577, {true, 131072}), "binomial");
}

// Reduce_scatter on the whole vector, commutative: <= 16 ranks basic (SimGrid's reduce + scatterv) up to 64 B,
// recursive halving up to 65536, then pairwise; <= 128: basic up to 128, then halving. Non-commutative: MPICH's
// noncomm on power-of-two sizes with equal blocks, recursive doubling otherwise.
TEST(mpi_coll_selectors, Mvapich2ReduceScatter)
{
  expect_inclusive_bounds(C::ReduceScatter, {{16, 64, "reduce_scatterv", "ompi_basic_recursivehalving"},
                                             {16, 65536, "ompi_basic_recursivehalving", "mpich_pair"},
                                             {128, 128, "reduce_scatterv", "ompi_basic_recursivehalving"}});
  EXPECT_EQ(choose("mvapich2", C::ReduceScatter, 16, 1600, {false}), "mpich_noncomm");
  EXPECT_EQ(choose("mvapich2", C::ReduceScatter, 12, 1200, {false}), "mpich_rdb");
  mpi::CollectiveCall irregular = make_call(C::ReduceScatter, 4, 0);
  irregular.recv_counts = {1, 2, 3, 4}; // 10 B: basic, irregular: MPICH's rule
  EXPECT_EQ(choose("mvapich2", irregular, CommShape::flat(4)), "mpich_rdb");
}

// Scatter by ranks per node. 1 ppn: <= 2 ranks binomial, <= 32 direct, <= 64 binomial up to 32 B. 2 ppn, <= 8 ranks:
// two-level direct up to 512 B (binomial when a node's ranks are not consecutive). 16 ppn, 65..128 ranks: multicast
// up to 16 B (falls back to the next entry, two-level direct), two-level direct up to 2048, then direct.
TEST(mpi_coll_selectors, Mvapich2Scatter)
{
  expect_inclusive_bounds(C::Scatter, {{2, 1e6, "ompi_binomial", "ompi_binomial"},
                                       {32, 1e6, "ompi_basic_linear", "ompi_basic_linear"},
                                       {64, 32, "ompi_binomial", "ompi_basic_linear"}});
  expect_inclusive_bounds(C::Scatter, {{8, 512, "mvapich2_two_level_direct", "ompi_basic_linear"}}, {},
                          [](int n) { return smp(n, 2); });
  EXPECT_EQ(choose("mvapich2", make_call(C::Scatter, 8, 512), round_robin(8, 2)), "ompi_binomial");
  expect_inclusive_bounds(C::Scatter,
                          {{128, 16, "mvapich2_two_level_direct", "mvapich2_two_level_direct"},
                           {128, 2048, "mvapich2_two_level_direct", "ompi_basic_linear"}},
                          {}, [](int n) { return smp(n, 16); });
  // 16 ppn, > 1024 ranks: multicast up to 16 B falls back to two-level binomial.
  EXPECT_EQ(choose("mvapich2", make_call(C::Scatter, 4096, 16), smp(4096, 16)), "mvapich2_two_level_binomial");
}

// ------------------------------------------------------------------------------------------------------------------
// impi: Intel MPI 4.1.3 (SimGrid 3.32's impi selector). Tables by ranks per node (1, 2, 4, 8, 16 on
// uniform communicators, 1 otherwise); rows serve communicators up to their size; entries sizes below their bound.
// ------------------------------------------------------------------------------------------------------------------

// Allreduce, 1 ppn, <= 2 ranks: < 6 B Shumilin's ring (ompi_ring_segmented), < 85 recursive doubling, ...,
// < 16684 rd, < 34279 ring, < 1681224 reduce + bcast, then Shumilin's ring. <= 16 ranks: ..., < 52730 Rabenseifner
// (rab1), < 300705 ring. 2 ppn, <= 128 ranks: < 1663862 topology-aware reduce + bcast (mvapich2_two_level).
TEST(mpi_coll_selectors, ImpiAllreduce)
{
  expect_bounds("impi", C::Allreduce,
                {
                    {2, 6, "ompi_ring_segmented", "rdb"},
                    {2, 85, "rdb", "ompi_ring_segmented"},
                    {1, 16684, "rdb", "ompi_ring_segmented"},
                    {2, 1681224, "redbcast", "ompi_ring_segmented"},
                    {16, 52730, "rab1", "ompi_ring_segmented"},
                    {9, 15505, "rdb", "rab1"},
                });
  expect_bounds("impi", C::Allreduce, {{128, 1663862, "mvapich2_two_level", "rab1"}}, {},
                [](int n) { return smp(n, 2); });
  // A non-uniform communicator uses the 1-ppn table (5 ranks, <= 8 row: < 118 rd, < 146 topology-aware reduce +
  // bcast).
  EXPECT_EQ(choose("impi", make_call(C::Allreduce, 5, 117), uneven(5)), "rdb");
  EXPECT_EQ(choose("impi", make_call(C::Allreduce, 5, 118), uneven(5)), "mvapich2_two_level");
}

// Alltoall, 1 ppn: <= 2 ranks pairwise; <= 4: Plum's (SimGrid: its MVAPICH2 selector) below 0 B (never), then
// isend/irecv (mvapich2_scatter_dest); <= 16: < 84645 isend/irecv, < 167570 pairwise, < 413152 Plum's (MVAPICH2:
// scatter-destination on 16 ranks), then isend/irecv; <= 32: < 61 Bruck, < 164 isend/irecv, < 696 Bruck.
TEST(mpi_coll_selectors, ImpiAlltoall)
{
  expect_bounds("impi", C::Alltoall,
                {
                    {2, 1e6, "pair", "pair"},
                    {4, 1, "mvapich2_scatter_dest", "mvapich2_scatter_dest"},
                    {16, 84645, "mvapich2_scatter_dest", "pair"},
                    {9, 167570, "pair", "mvapich2_scatter_dest"},
                    {32, 61, "bruck", "mvapich2_scatter_dest"},
                    {17, 164, "mvapich2_scatter_dest", "bruck"},
                });
}

// Barrier, 1 ppn: <= 2 ranks recursive doubling, <= 8 dissemination (SimGrid: ompi_basic_linear), <= 64 recursive
// doubling, then dissemination. Alltoallv decides on 1 B: isend/irecv (ompi_basic_linear).
TEST(mpi_coll_selectors, ImpiBarrierAndAlltoallv)
{
  expect_by_size("impi", C::Barrier,
                 {{2, "ompi_recursivedoubling"},
                  {3, "ompi_basic_linear"},
                  {8, "ompi_basic_linear"},
                  {9, "ompi_recursivedoubling"},
                  {64, "ompi_recursivedoubling"},
                  {65, "ompi_basic_linear"}});
  for (int ranks : {2, 16, 1000})
    EXPECT_EQ(choose("impi", C::Alltoallv, ranks, 1e6), "ompi_basic_linear");
}

// Bcast, 1 ppn, <= 2 ranks: < 1 B recursive doubling (SimGrid: NTSL), < 402 Shumilin's (MVAPICH2's rule: two-level
// on 2 ranks), < 682 ring (NTSL), < 1433 topology-aware binomial (SMP_binomial), ..., < 21845 binomial, < 95963
// topology-aware ring (SMP_linear). <= 4 ranks: Shumilin's.
TEST(mpi_coll_selectors, ImpiBcast)
{
  expect_bounds("impi", C::Bcast,
                {
                    {2, 1, "NTSL", "mvapich2_intra_node"},
                    {2, 402, "mvapich2_intra_node", "NTSL"},
                    {2, 682, "NTSL", "SMP_binomial"},
                    {2, 21845, "binomial_tree", "SMP_linear"},
                    {4, 1e6, "mvapich2_intra_node", "mvapich2_intra_node"},
                });
}

// Reduce_scatter on the whole vector. 2 ppn, <= 16 ranks declares one entry while listing four, so SimGrid reads the
// second one: below 4 B reduce + scatterv, from 4 B recursive halving (commutative: ompi_basic_recursivehalving,
// otherwise SimGrid's MVAPICH2 selector, here MPICH's noncomm on 16 ranks with equal blocks).
TEST(mpi_coll_selectors, ImpiReduceScatter)
{
  auto two_ppn = [](int n) { return smp(n, 2); };
  expect_bounds("impi", C::ReduceScatter, {{16, 4, "reduce_scatterv", "ompi_basic_recursivehalving"}}, {}, two_ppn);
  EXPECT_EQ(choose("impi", make_call(C::ReduceScatter, 16, 1e8), smp(16, 2)), "ompi_basic_recursivehalving");
  EXPECT_EQ(choose("impi", make_call(C::ReduceScatter, 16, 1600, {false}), smp(16, 2)), "mpich_noncomm");
}

// Gather, 1 ppn, <= 8 ranks: < 17561 B Shumilin's (SimGrid's MVAPICH2 selector: direct on <= 16 blocked ranks),
// < 44791 binomial, then Shumilin's. Scatter's Shumilin's likewise.
TEST(mpi_coll_selectors, ImpiGather)
{
  expect_bounds("impi", C::Gather,
                {{8, 17561, "ompi_basic_linear", "ompi_binomial"}, {8, 44791, "ompi_binomial", "ompi_basic_linear"}});
}

// Allgather, 1 ppn, <= 4 ranks: < 1 B gatherv + bcast (GB), < 384 recursive doubling, < 1533 GB, ..., < 31816 ring.
TEST(mpi_coll_selectors, ImpiAllgather)
{
  expect_bounds("impi", C::Allgather,
                {{4, 1, "GB", "rdb"}, {3, 384, "rdb", "GB"}, {4, 1533, "GB", "rdb"}, {4, 10763, "GB", "ring"}});
}

} // namespace
