// barrier "mpich_smp": a dissemination barrier (ompi_bruck) inside each node, then one among the node leaders, then
// each leader releases its node with a 1-byte binomial broadcast ("binomial_tree"). Origin: MPICH's SMP-aware
// barrier, as SimGrid 3.32 runs it (barrier__mpich_smp, whose barrier__mpich is ompi_bruck and whose bcast__mpich on
// a node communicator is the binomial tree).
#include "mpi/collectives/building_blocks/two_level.hpp"

namespace mpisim::mpi {
namespace {

void barrier_mpich_smp(const CollectiveContext& c, const CollectiveCall& call)
{
  const two_level::Place place = two_level::place_of(c);
  const CollectiveContext node = two_level::sub_context(c, place.layout.intra(place.node));
  c.library.run_algorithm(node, "ompi_bruck", call);
  if (place.leader())
    c.library.run_algorithm(two_level::sub_context(c, place.layout.leaders()), "ompi_bruck", call);
  CollectiveCall release;
  release.op = Collective::Bcast;
  release.bytes = 1;
  release.root = 0;
  c.library.run_algorithm(node, "binomial_tree", release);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "mpich_smp",
                                   "barrier in each node, then among leaders, then a release broadcast per node",
                                   "MPICH SMP-aware barrier", barrier_mpich_smp});

} // namespace
} // namespace mpisim::mpi
