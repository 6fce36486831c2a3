// Selector "ompi": Open MPI 4.1.2's fixed decision rules (its tuned module), as SimGrid 3.32's
// ompi selector encodes them. The thresholds are tables in ompi_tables.hpp, with the map from
// Open MPI's algorithm names to the names SimGrid (and mpisim) runs.
//
// Reductions split on commutativity (allreduce, reduce, reduce_scatter). SimGrid's reduce_scatter "default" is reduce
// followed by scatterv, which switches to MPICH's rule when the counts are not all equal; we do the same. Operations
// Open MPI tunes but SimGrid does not select (gatherv, scatterv, scan, exscan) run what SimGrid runs for them.
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "mpi/collectives/selectors/ompi_tables.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace mpisim::mpi {
namespace {

using coll::total;

bool all_equal(const std::vector<double>& counts)
{
  return std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) == counts.end();
}

// SimGrid's reduce_scatter "default" on irregular counts calls MPICH's selector: pairwise above 524288 elements for
// commutative operations, recursive doubling otherwise (noncomm needs equal blocks, so it never applies here).
std::string irregular_reduce_scatter(const CollectiveCall& call)
{
  const double elements = total(call.recv_counts) / call.element_bytes;
  return call.commutative && elements > 524288 ? "mpich_pair" : "mpich_rdb";
}

std::string choose_reduce_scatter(const CollectiveCall& call, int size)
{
  const auto& table =
      call.commutative ? ompi_rules::reduce_scatter_commutative() : ompi_rules::reduce_scatter_noncommutative();
  std::string algorithm = decision::decide(table, size, total(call.recv_counts));
  if (algorithm == "reduce_scatterv" && !all_equal(call.recv_counts))
    return irregular_reduce_scatter(call);
  return algorithm;
}

// Open MPI decides allgatherv on the average block: the whole vector's bytes divided (integer division) by the size.
double allgatherv_block(const CollectiveCall& call, int size)
{
  return std::floor(total(call.recv_counts) / size);
}

std::string choose_ompi(const CollectiveCall& call, const CommShape& shape)
{
  using decision::decide;
  const int size = shape.size;
  switch (call.op) {
  case Collective::Barrier: return decide(ompi_rules::barrier(), size, 0);
  case Collective::Bcast: return decide(ompi_rules::bcast(), size, call.bytes);
  case Collective::Reduce:
    return decide(call.commutative ? ompi_rules::reduce_commutative() : ompi_rules::reduce_noncommutative(), size,
                  call.bytes);
  case Collective::Allreduce:
    return decide(call.commutative ? ompi_rules::allreduce_commutative() : ompi_rules::allreduce_noncommutative(), size,
                  call.bytes);
  case Collective::Alltoall: return decide(ompi_rules::alltoall(), size, call.bytes);
  case Collective::Alltoallv: return decide(ompi_rules::alltoallv(), size, 0);
  case Collective::Gather: return decide(ompi_rules::gather(), size, call.bytes);
  case Collective::Scatter: return decide(ompi_rules::scatter(), size, call.bytes);
  case Collective::Allgather: return decide(ompi_rules::allgather(), size, call.bytes);
  case Collective::Allgatherv: return decide(ompi_rules::allgatherv(), size, allgatherv_block(call, size));
  case Collective::ReduceScatter: return choose_reduce_scatter(call, size);
  case Collective::Gatherv: return "linear_nbc";
  case Collective::Scatterv: return "linear_nbc";
  case Collective::Scan: return "linear";
  case Collective::Exscan: return "linear";
  case Collective::Alltoallw: return "linear_nbc"; // the only one, as in SimGrid
  }
  return "linear_nbc";
}

const RegisterSelector kRegister({"ompi", "Open MPI 4.1.2's fixed decision rules, as SimGrid 3.32 encodes them",
                                  choose_ompi});

} // namespace
} // namespace mpisim::mpi
