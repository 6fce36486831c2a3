// Selector "mvapich2": MVAPICH2 1.9's rules with its tuning tables for TACC Stampede, as SimGrid 3.32 encodes them
// (its mvapich2 selector). The tables, and the map from MVAPICH2's
// functions to algorithm names, are in mvapich2_tables.hpp; this file holds the rules around them.
//
// Where SimGrid's selector does more than pick one algorithm, the name chosen here is the closest registered one:
//   - two-level bcast: SimGrid runs mvapich2_inter_node among node leaders, then MPICH's bcast inside each node; we
//     name mvapich2_intra_node, MVAPICH2's complete two-level bcast (same two phases; it re-decides the two-level
//     split with its own thresholds).
//   - bcast, reduce and allreduce of 0 bytes return at once in SimGrid; we name the table's choice (which sends at
//     most empty messages).
//   - non-commutative reduce_scatter on a power-of-two communicator with equal blocks: SimGrid runs mpich_noncomm
//     and then mpich_rdb as well (a missing "else"); we run mpich_noncomm only, as MVAPICH2 does.
//   - gather reads the communicator's "blocked" flag before anything computed it: MPICH's gather until an earlier
//     allgather, scatter, non-empty bcast or SMP-aware algorithm computed the node layout (CommShape::layout_computed).
//   - allgather tables naming MVAPICH2's "RD allgather comm" (16 ranks per node, >= 32 ranks, <= 1024 B): SimGrid's
//     stub returns an error without communicating; we run rdb, the recursive doubling MVAPICH2 does there.
// State SimGrid's selector leaves in globals for later algorithms (knomial factors, segment sizes, intra-node
// functions) is not passed: algorithms use their SimGrid defaults.
// Operations MVAPICH2 tunes but SimGrid does not select (gatherv, scatterv, scan, exscan) run what SimGrid runs.
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "mpi/collectives/selectors/mvapich2_tables.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace mpisim::mpi {
namespace {

using coll::power_of_two;
using coll::power_of_two_below;
using coll::total;

using namespace mvapich2_rules;

bool all_equal(const std::vector<double>& counts)
{
  return std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) == counts.end();
}

bool in_place(const CollectiveCall& call)
{
  return call.has_data() && call.send_data == call.recv_data;
}

// The ppn configuration: the one matching the ranks per node of a uniform communicator, else the first.
const Mv2Table* table_by_ppn(const std::vector<PpnTable>& tables, const CommShape& shape, bool* matched)
{
  for (const PpnTable& conf : tables)
    if (shape.uniform && conf.ranks_per_node == shape.ranks_per_node) {
      *matched = true;
      return &conf.table;
    }
  *matched = false;
  return &tables.front().table;
}

// In place, MVAPICH2 uses its in-place algorithm (ring) over the whole size range of SimGrid's 1-ppn table.
std::string choose_alltoall(const CollectiveCall& call, const CommShape& shape)
{
  if (in_place(call))
    return "ring";
  return entry_for(alltoall_1ppn(), shape.size, call.bytes).algorithm;
}

// MPICH's allgather rule (SimGrid's allgather__mpich), used by MVAPICH2 on non-blocked communicators.
std::string mpich_allgather(const CollectiveCall& call, int size)
{
  const double whole = call.bytes * size;
  if (power_of_two(size) && whole < 524288)
    return "rdb";
  return whole <= 81920 ? "bruck" : "ring";
}

std::string choose_allgather(const CollectiveCall& call, const CommShape& shape)
{
  bool partial_subscription = false;
  const Mv2Table* table = table_by_ppn(allgather_by_ppn(), shape, &partial_subscription);
  const Mv2Entry& entry = entry_for(*table, shape.size, call.recv_bytes);
  if (entry.two_level) {
    if (!partial_subscription)
      return "rdb";
    return shape.blocked ? "mvapich2_smp" : mpich_allgather(call, shape.size);
  }
  if (entry.algorithm == kUnsupported)
    return "rdb";
  return entry.algorithm;
}

// SimGrid reads the communicator's "blocked" flag here without computing the node layout first; until an earlier
// collective computed it, the flag reads false and MPICH's gather runs (so always, on a trace of gathers alone).
std::string choose_gather(const CollectiveCall& call, const CommShape& shape)
{
  if (!shape.layout_computed || !shape.blocked)
    return "ompi_binomial"; // MPICH's gather
  return entry_for(gather(), shape.size, call.bytes).algorithm;
}

// Bounds are per rank (MVAPICH2 compares the whole vector with size * bound); recursive doubling needs a power of
// two, Bruck's algorithm runs otherwise.
std::string choose_allgatherv(const CollectiveCall& call, int size)
{
  const Mv2Row& row = row_for(allgatherv(), size);
  std::string algorithm = row.entries[entry_index(row, total(call.recv_counts), 0, size)].algorithm;
  if (algorithm == "mpich_rdb" && !power_of_two(size))
    return "ompi_bruck";
  return algorithm;
}

// Multicast is never available: leading multicast entries are skipped, a multicast choice becomes recursive
// doubling; two-level entries run the two-level algorithm (commutative) or recursive doubling.
std::string choose_allreduce(const CollectiveCall& call, int size)
{
  const Mv2Row& row = row_for(allreduce(), size);
  size_t first = 0;
  while (first + 1 < row.entries.size() && row.entries[first].algorithm == kMulticast)
    ++first;
  const Mv2Entry& entry = row.entries[entry_index(row, call.bytes, first)];
  if (entry.two_level)
    return call.commutative ? "mvapich2_two_level" : "rdb";
  if (entry.algorithm == kMulticast || entry.algorithm == kReduceOnly)
    return "rdb";
  return entry.algorithm;
}

// MPICH's bcast rule (SimGrid's bcast__mpich) on an ordinary communicator.
std::string mpich_bcast(const CollectiveCall& call, const CommShape& shape)
{
  if (shape.uniform)
    return "SMP_binomial";
  if (call.bytes < 12288 || shape.size <= 8)
    return "binomial_tree";
  return call.bytes < 524288 && shape.size % 2 == 0 ? "scatter_rdb_allgather" : "scatter_LR_allgather";
}

std::string choose_bcast(const CollectiveCall& call, const CommShape& shape)
{
  const Mv2Entry& entry = entry_for(bcast(), shape.size, call.bytes);
  if (entry.two_level)
    return "mvapich2_intra_node";
  if (entry.algorithm == kMpichBcast)
    return mpich_bcast(call, shape);
  return entry.algorithm;
}

// Two-level and knomial reductions need a commutative operation (binomial otherwise); reduce-scatter + gather needs
// at least one element per rank of the largest power of two.
std::string choose_reduce(const CollectiveCall& call, int size)
{
  const Mv2Entry& entry = entry_for(reduce(), size, call.bytes);
  std::string algorithm = entry.algorithm;
  if (entry.two_level)
    return call.commutative ? "mvapich2_two_level" : "binomial";
  if (algorithm == "mvapich2_knomial")
    return call.commutative ? algorithm : "binomial";
  if (algorithm == "scatter_gather")
    return call.bytes / call.element_bytes >= power_of_two_below(size) ? algorithm : "binomial";
  return algorithm;
}

// SimGrid's reduce_scatter "default" (the table's basic algorithm) switches to MPICH's rule on irregular counts.
std::string choose_reduce_scatter(const CollectiveCall& call, int size)
{
  const bool regular = all_equal(call.recv_counts);
  if (!call.commutative)
    return power_of_two(size) && regular ? "mpich_noncomm" : "mpich_rdb";
  std::string algorithm = entry_for(reduce_scatter(), size, total(call.recv_counts)).algorithm;
  if (algorithm == "reduce_scatterv" && !regular)
    return total(call.recv_counts) / call.element_bytes > 524288 ? "mpich_pair" : "mpich_rdb";
  return algorithm;
}

// Multicast falls back to the next entry; two-level algorithms need each node's ranks to be consecutive.
std::string choose_scatter(const CollectiveCall& call, const CommShape& shape)
{
  bool partial_subscription = false;
  const Mv2Table* table = table_by_ppn(scatter_by_ppn(), shape, &partial_subscription);
  const Mv2Row& row = row_for(*table, shape.size);
  size_t index = entry_index(row, call.bytes);
  if (row.entries[index].algorithm == kMulticast) {
    if (index + 1 >= row.entries.size())
      return "ompi_binomial";
    ++index;
  }
  std::string algorithm = row.entries[index].algorithm;
  const bool two_level = algorithm == "mvapich2_two_level_direct" || algorithm == "mvapich2_two_level_binomial";
  if (two_level && !shape.blocked)
    return "ompi_binomial";
  return algorithm;
}

std::string choose_mvapich2(const CollectiveCall& call, const CommShape& shape)
{
  const int size = shape.size;
  switch (call.op) {
  case Collective::Barrier: return "mvapich2_pair";
  case Collective::Bcast: return choose_bcast(call, shape);
  case Collective::Reduce: return choose_reduce(call, size);
  case Collective::Allreduce: return choose_allreduce(call, size);
  case Collective::Alltoall: return choose_alltoall(call, shape);
  case Collective::Alltoallv: return in_place(call) ? "ompi_basic_linear" : "ring";
  case Collective::Gather: return choose_gather(call, shape);
  case Collective::Scatter: return choose_scatter(call, shape);
  case Collective::Allgather: return choose_allgather(call, shape);
  case Collective::Allgatherv: return choose_allgatherv(call, size);
  case Collective::ReduceScatter: return choose_reduce_scatter(call, size);
  case Collective::Gatherv: return "linear_nbc";
  case Collective::Scatterv: return "linear_nbc";
  case Collective::Scan: return "linear";
  case Collective::Exscan: return "linear";
  case Collective::Alltoallw: return "linear_nbc"; // the only one, as in SimGrid
  }
  return "linear_nbc";
}

// SimGrid's allgather and scatter rules compute the node layout before deciding, bcast too unless the message is
// empty; two-level reduce and allreduce do it through their algorithms.
bool computes_layout(const CollectiveCall& call)
{
  return call.op == Collective::Allgather || call.op == Collective::Scatter ||
         (call.op == Collective::Bcast && call.bytes > 0);
}

const RegisterSelector kRegister({"mvapich2",
                                  "MVAPICH2 1.9's rules with its Stampede tables, as SimGrid 3.32 encodes them",
                                  choose_mvapich2, computes_layout});

} // namespace
} // namespace mpisim::mpi
