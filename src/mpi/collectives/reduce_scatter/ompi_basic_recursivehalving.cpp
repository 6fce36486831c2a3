// reduce_scatter "ompi_basic_recursivehalving": the ranks beyond the largest power of two fold their whole input into
// their odd neighbour, which then speaks for both ranks' blocks; the survivors halve the vector at distances
// survivors/2, ..., 1, each sending the half it gives up and reducing the partner's copy of the half it keeps, until
// each holds its own block; the odd ranks finally hand their even neighbours their blocks. Non-commutative
// operations run mpich_pair; an empty vector sends nothing.
// Origin: Open MPI's coll/basic reduce_scatter (recursive halving), as SimGrid 3.32, except where a step has an empty
// half: both skip the step and the other half's partial sums are lost (a wrong result); here the non-empty half is
// sent, one way, so such calls take longer than in SMPI. Behaviour: docs/specifications/recursive-collectives.md.
#include "mpi/collectives/building_blocks/recursive_halving.hpp"

namespace mpisim::mpi {
namespace {

using halving::BlockLayout;
using halving::Fold;
using halving::Split;

// One halving step with the rank `peer`: the receive of the partner's copy of the kept half is posted first, then the
// given half goes out with a blocking send. Open MPI, and SimGrid with it, skip the whole step (both directions) when
// either half is empty, which loses the other half's contributions; here only an empty half is not sent.
void swap_halves(const CollectiveContext& c, const CollectiveCall& call, int peer, const Split& split,
                 const BlockLayout& layout, coll::Temp& result, coll::Temp& incoming)
{
  const double kept_at = layout.offset(split.kept);
  const double kept_bytes = layout.bytes(split.kept);
  const double given_bytes = layout.bytes(split.given);
  RequestPtr receive;
  if (kept_bytes > 0)
    receive = c.rank.irecv(c.comm, peer, c.tag, kept_bytes, incoming.at(kept_at));
  if (given_bytes > 0)
    c.rank.send(c.comm, peer, c.tag, given_bytes, result.at(layout.offset(split.given)));
  if (receive) {
    c.rank.wait(*receive);
    coll::reduce(call, incoming.at(kept_at), result.at(kept_at), kept_bytes);
  }
}

// The end of the fold: each odd rank of a folded pair sends its even neighbour that rank's block (not when empty).
void hand_back(const CollectiveContext& c, const Fold& fold, const std::vector<double>& counts,
               const std::vector<double>& displs, coll::Temp& result, std::byte* output)
{
  if (not fold.paired(c.me))
    return;
  const int sat_out = fold.goes_on(c.me) ? fold.pair_of(c.me) : c.me;
  if (counts[sat_out] == 0)
    return;
  if (fold.goes_on(c.me))
    c.rank.send(c.comm, sat_out, c.tag, counts[sat_out], result.at(displs[sat_out]));
  else
    c.rank.recv(c.comm, fold.pair_of(c.me), c.tag, counts[c.me], output);
}

void reduce_scatter_ompi_basic_recursivehalving(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "mpich_pair", call);
    return;
  }
  const std::vector<double>& counts = call.recv_counts;
  const double total = coll::total(counts);
  if (total == 0)
    return;
  const std::vector<double> displs = coll::displacements(counts, {});
  const Fold fold(c.size, Fold::Survivor::Odd);
  coll::Temp result(call, total);
  coll::Temp incoming(call, total);
  coll::copy(result.data(), call.send_data, total);
  if (halving::fold_in(c, call, fold, result.data(), incoming.data(), total)) {
    const int v = fold.new_rank(c.me);
    const BlockLayout layout = halving::folded_blocks(counts, fold);
    for (const Split& split : halving::splits_of(v, fold.survivors(), halving::Distances::Halving))
      swap_halves(c, call, fold.rank_of(v ^ split.distance), split, layout, result, incoming);
    coll::copy(call.recv_data, result.at(displs[c.me]), counts[c.me]);
  }
  hand_back(c, fold, counts, displs, result, call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "ompi_basic_recursivehalving",
                                   "recursive halving after folding the ranks beyond a power of two; a step with "
                                   "one empty half still sends the other",
                                   "Open MPI coll/basic reduce_scatter (which sends neither half then, losing data)",
                                   reduce_scatter_ompi_basic_recursivehalving});

} // namespace
} // namespace mpisim::mpi
