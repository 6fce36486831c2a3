// Selector "default": what SimGrid 3.32 runs when no selector is configured: binomial
// bcast, Open MPI's linear barrier, Open MPI's alltoall decision table, reduce + bcast for allreduce, reduce +
// scatterv for reduce_scatter, and "post everything then wait" for the rest.
//
// Irregular reduce_scatter counts switch to MPICH's choice, as SimGrid does: pairwise above 524288 elements in all,
// recursive doubling otherwise (commutative operations; SimGrid's replay reduces with MPI_OP_NULL; the others:
// the "mpich" selector's rule). A non-commutative operation or a derived datatype reduces with Open MPI's basic
// linear algorithm (SimGrid's non-blocking one combines in an order made for commutative operations); a derived
// datatype's allreduce is the "ompi" selector's choice.
#include "mpi/collectives/Collectives.hpp"
#include "mpi/collectives/selectors/ompi_alltoall_table.hpp"

#include <algorithm>
#include <numeric>

namespace mpisim::mpi {
namespace {

std::string choose_reduce_scatter(const CollectiveCall& call, const CommShape& shape)
{
  const auto& counts = call.recv_counts;
  const bool regular = std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) == counts.end();
  if (regular)
    return "reduce_scatterv";
  if (not call.commutative)
    return SelectorRegistry::find("mpich").choose(call, shape);
  const double elements = std::accumulate(counts.begin(), counts.end(), 0.0) / call.element_bytes;
  return elements > 524288 ? "mpich_pair" : "mpich_rdb";
}

// Online only: the element type is a derived datatype (replay has none).
bool derived_type(const CollectiveCall& call)
{
  return call.reduce_type && not call.reduce_type->is_predefined();
}

// SimGrid's non-blocking collectives: post every message at once. Its ibarrier lets the root
// answer before everyone has arrived, which is no barrier: the linear barrier (same messages) is run instead.
std::string choose_nonblocking(const CollectiveCall& call)
{
  switch (call.op) {
  case Collective::Barrier: return "ompi_basic_linear";
  case Collective::Scan:
  case Collective::Exscan: return "linear";
  default: return "linear_nbc";
  }
}

std::string choose_default(const CollectiveCall& call, const CommShape& shape)
{
  if (call.nonblocking)
    return choose_nonblocking(call);
  switch (call.op) {
  case Collective::Barrier: return "ompi_basic_linear";
  case Collective::Bcast: return "binomial_tree";
  case Collective::Reduce: return call.commutative && not derived_type(call) ? "linear_nbc" : "ompi_basic_linear";
  case Collective::Allreduce:
    return derived_type(call) ? SelectorRegistry::find("ompi").choose(call, shape) : "redbcast";
  case Collective::Alltoall: return ompi_tables::lookup(ompi_tables::alltoall(), shape.size, call.bytes);
  case Collective::Alltoallv: return "linear_nbc";
  case Collective::Gather: return "linear_nbc";
  case Collective::Gatherv: return "linear_nbc";
  case Collective::Scatter: return "linear_nbc";
  case Collective::Scatterv: return "linear_nbc";
  case Collective::Allgather: return "linear_nbc";
  case Collective::Allgatherv: return "linear_nbc";
  case Collective::ReduceScatter: return choose_reduce_scatter(call, shape);
  case Collective::Scan: return "linear";
  case Collective::Exscan: return "linear";
  case Collective::Alltoallw: return "linear_nbc"; // the only one, as in SimGrid
  }
  return "linear_nbc";
}

const RegisterSelector kRegister({"default", "SimGrid 3.32's default choices (smpirun without a selector)",
                                  choose_default});

} // namespace
} // namespace mpisim::mpi
