// Selector "mpich": MPICH 3.3b's decision rules as SimGrid 3.32 encodes them (its mpich selector). MPICH's
// rules are a few thresholds each, kept here as named constants; the documentation page lists them as tables.
//
// SimGrid's MPICH takes the SMP-aware path on every ordinary communicator: commutative allreduce and reduce run
// MVAPICH2's two-level algorithms, and bcast on a uniform communicator (the same number of ranks on every node) runs
// SMP_binomial. Those branches are skipped on the node and leader communicators SMP-aware algorithms build
// (SimGrid's is_smp_comm; CommShape::hierarchy_part). Reduce_scatter and allgatherv decide on element counts
// (SimGrid sums the counts without the type size), the others on bytes. Operations MPICH tunes but SimGrid does not
// select (gatherv, scatterv, scan, exscan) run what SimGrid runs for them.
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace mpisim::mpi {
namespace {

using coll::power_of_two;
using coll::power_of_two_below;
using coll::total;

// MPICH's thresholds (bytes unless said otherwise).
constexpr double kAllreduceShort = 2048;  // MPIR_PARAM_ALLREDUCE_SHORT_MSG_SIZE
constexpr double kAlltoallShort = 256;    // per-peer block
constexpr double kAlltoallMedium = 32768; // per-peer block
constexpr int kAlltoallBruckMinRanks = 8;
constexpr double kBcastShort = 12288;
constexpr double kBcastMedium = 524288;
constexpr int kBcastBinomialMaxRanks = 8;
constexpr double kReduceShort = 2048;
constexpr double kReduceScatterLongElements = 524288; // elements in the whole vector
constexpr double kAllgatherMedium = 524288;           // whole gathered vector
constexpr double kAllgatherShort = 81920;             // whole gathered vector (inclusive bound)

std::string choose_allreduce(const CollectiveCall& call, const CommShape& shape)
{
  const int size = shape.size;
  if (call.commutative && not shape.hierarchy_part)
    return "mvapich2_two_level";
  // Rabenseifner needs a commutative operation, so what remains is recursive doubling; the rule is kept whole.
  const double count = call.bytes / call.element_bytes;
  const bool rabenseifner = call.bytes > kAllreduceShort && count >= power_of_two_below(size) && call.commutative;
  return rabenseifner ? "rab_rdb" : "rdb";
}

std::string choose_alltoall(const CollectiveCall& call, int size)
{
  if (call.bytes < kAlltoallShort && size >= kAlltoallBruckMinRanks)
    return "bruck";
  if (call.bytes < kAlltoallMedium)
    return "mvapich2_scatter_dest";
  return size % 2 != 0 ? "pair" : "ring";
}

std::string choose_bcast(const CollectiveCall& call, const CommShape& shape)
{
  if (shape.uniform && not shape.hierarchy_part)
    return "SMP_binomial";
  if (call.bytes < kBcastShort || shape.size <= kBcastBinomialMaxRanks)
    return "binomial_tree";
  if (call.bytes < kBcastMedium && shape.size % 2 == 0)
    return "scatter_rdb_allgather";
  return "scatter_LR_allgather";
}

std::string choose_reduce(const CollectiveCall& call, const CommShape& shape)
{
  const int size = shape.size;
  if (call.commutative && not shape.hierarchy_part)
    return "mvapich2_two_level";
  const double count = call.bytes / call.element_bytes;
  if (count < power_of_two_below(size) || call.bytes < kReduceShort || !call.commutative)
    return "binomial";
  return "scatter_gather";
}

std::string choose_reduce_scatter(const CollectiveCall& call, int size)
{
  const double elements = total(call.recv_counts) / call.element_bytes;
  if (call.commutative)
    return elements > kReduceScatterLongElements ? "mpich_pair" : "mpich_rdb";
  const auto& counts = call.recv_counts;
  const bool regular = std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) == counts.end();
  return power_of_two(size) && regular ? "mpich_noncomm" : "mpich_rdb";
}

std::string choose_allgather(double total_bytes, int size, const char* recursive_doubling, const char* bruck,
                             const char* ring)
{
  if (power_of_two(size) && total_bytes < kAllgatherMedium)
    return recursive_doubling;
  if (total_bytes <= kAllgatherShort)
    return bruck;
  return ring;
}

std::string choose_mpich(const CollectiveCall& call, const CommShape& shape)
{
  const int size = shape.size;
  switch (call.op) {
  case Collective::Barrier: return "ompi_bruck";
  case Collective::Bcast: return choose_bcast(call, shape);
  case Collective::Reduce: return choose_reduce(call, shape);
  case Collective::Allreduce: return choose_allreduce(call, shape);
  case Collective::Alltoall: return choose_alltoall(call, size);
  case Collective::Alltoallv: return "bruck";
  case Collective::Gather: return "ompi_binomial";
  case Collective::Scatter: return "ompi_binomial";
  case Collective::Allgather: return choose_allgather(call.bytes * size, size, "rdb", "bruck", "ring");
  case Collective::Allgatherv:
    // With nothing to gather SimGrid's rule returns at once: mpich_ring sends no message then.
    if (total(call.recv_counts) == 0)
      return "mpich_ring";
    return choose_allgather(total(call.recv_counts) / call.element_bytes, size, "mpich_rdb", "ompi_bruck",
                            "mpich_ring");
  case Collective::ReduceScatter: return choose_reduce_scatter(call, size);
  case Collective::Gatherv: return "linear_nbc";
  case Collective::Scatterv: return "linear_nbc";
  case Collective::Scan: return "linear";
  case Collective::Exscan: return "linear";
  case Collective::Alltoallw: return "linear_nbc"; // the only one, as in SimGrid
  }
  return "linear_nbc";
}

const RegisterSelector kRegister({"mpich", "MPICH 3.3b's decision rules, as SimGrid 3.32 encodes them", choose_mpich});

} // namespace
} // namespace mpisim::mpi
