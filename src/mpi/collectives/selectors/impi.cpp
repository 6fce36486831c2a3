// Selector "impi": Intel MPI 4.1.3's tuning tables, as SimGrid 3.32 encodes them (its impi selector). The
// tables, and the map from Intel's algorithms to algorithm names, are in impi_tables.hpp.
//
// Where SimGrid's tables name an algorithm it does not have (Shumilin's, Plum's), SimGrid runs its MVAPICH2
// selector, and so do we (selector "mvapich2"). Recursive-halving reduce_scatter needs a commutative operation; for
// others SimGrid runs the MVAPICH2 selector too. SimGrid's reduce + scatterv switches to MPICH's rule on irregular
// counts. Messages of 2^31 B or more fall past the tables' last bound, where SimGrid reads an empty entry (undefined);
// we keep the last entry. Operations SimGrid does not select (gatherv, scatterv, scan, exscan) run what SimGrid runs.
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "mpi/collectives/selectors/impi_tables.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace mpisim::mpi {
namespace {

using coll::total;

using namespace impi_rules;

bool all_equal(const std::vector<double>& counts)
{
  return std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) == counts.end();
}

// Intel's ranks per node: the intra-node size on uniform communicators, 1 otherwise; unknown counts use the 1-ppn
// table.
const DecisionTable& table_for(const std::vector<PpnTable>& tables, const CommShape& shape)
{
  const int ranks_per_node = shape.uniform ? shape.ranks_per_node : 1;
  for (const PpnTable& conf : tables)
    if (conf.ranks_per_node == ranks_per_node)
      return conf.table;
  return tables.front().table;
}

// The size Intel decides on for each operation.
double decision_bytes(const CollectiveCall& call)
{
  switch (call.op) {
  case Collective::Barrier:
  case Collective::Alltoallv: return 1;
  case Collective::ReduceScatter:
  case Collective::Allgatherv: return total(call.recv_counts);
  case Collective::Allgather: return call.recv_bytes;
  default: return call.bytes;
  }
}

const std::vector<PpnTable>* tables_of(Collective op)
{
  switch (op) {
  case Collective::Barrier: return &barrier();
  case Collective::Bcast: return &bcast();
  case Collective::Reduce: return &reduce();
  case Collective::Allreduce: return &allreduce();
  case Collective::Alltoall: return &alltoall();
  case Collective::Alltoallv: return &alltoallv();
  case Collective::Gather: return &gather();
  case Collective::Scatter: return &scatter();
  case Collective::Allgather: return &allgather();
  case Collective::Allgatherv: return &allgatherv();
  case Collective::ReduceScatter: return &reduce_scatter();
  default: return nullptr;
  }
}

std::string mvapich2_choice(const CollectiveCall& call, const CommShape& shape)
{
  return SelectorRegistry::find("mvapich2").choose(call, shape);
}

std::string resolve(const std::string& algorithm, const CollectiveCall& call, const CommShape& shape)
{
  if (algorithm == kMvapich2)
    return mvapich2_choice(call, shape);
  if (algorithm == kRecursiveHalving)
    return call.commutative ? "ompi_basic_recursivehalving" : mvapich2_choice(call, shape);
  if (algorithm == "reduce_scatterv" && !all_equal(call.recv_counts))
    return call.commutative && total(call.recv_counts) / call.element_bytes > 524288 ? "mpich_pair" : "mpich_rdb";
  return algorithm;
}

std::string choose_impi(const CollectiveCall& call, const CommShape& shape)
{
  switch (call.op) {
  case Collective::Gatherv: return "linear_nbc";
  case Collective::Scatterv: return "linear_nbc";
  case Collective::Scan: return "linear";
  case Collective::Exscan: return "linear";
  case Collective::Alltoallw: return "linear_nbc"; // the only one, as in SimGrid
  default: break;
  }
  const DecisionTable& table = table_for(*tables_of(call.op), shape);
  return resolve(decision::decide(table, shape.size, decision_bytes(call)), call, shape);
}

const RegisterSelector kRegister({"impi", "Intel MPI 4.1.3's tuning tables, as SimGrid 3.32 encodes them",
                                  choose_impi});

} // namespace
} // namespace mpisim::mpi
