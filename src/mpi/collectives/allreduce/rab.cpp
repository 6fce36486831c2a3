// allreduce "rab": Rabenseifner's allreduce (1997). With 2^k <= P < 2^(k+1) and r = P - 2^k, the first 2r ranks pair
// up (even me, odd me + 1): they swap halves (the even one sends the upper ceil(n/2) elements, the odd one the lower
// floor(n/2)), each reduces the half it kept, and the odd one sends its reduced half to the even one, which alone
// goes on. The 2^k remaining ranks (new ranks; new rank i is rank 2i for i < r, i + r otherwise) then halve the
// vector k times: at level j (distance 2^j in new ranks) the range splits into a lower floor(len/2) and an upper
// rest; the rank whose bit j is 0 keeps the lower part and sends the upper. The allgather walks the levels back,
// each pair swapping the parts they hold, and each even rank of the first 2r finally sends the whole result to its
// odd partner. Every reduction keeps the lower ranks on the left (non-commutative operations keep their order).
// Origin: Rabenseifner's MPI_I_anyReduce, as SimGrid 3.32's allreduce__rab (its reduce rab).
// SimGrid runs this protocol only for predefined operations on predefined types (count >= 1, P > 1) and otherwise
// calls the configured allreduce, rab itself: replays (MPI_BYTE, no operation), user operations and one rank
// recurse without end there. The protocol runs here in every case (one rank: a copy).
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

struct Part {
  long start = 0; // elements
  long count = 0;
};

void allreduce_rab(const CollectiveContext& c, const CollectiveCall& call)
{
  const double eb = call.element_bytes;
  const long n = allreduce::element_count(call);
  auto bytes = [&](long elements) { return elements * eb; };
  coll::Temp mine(call, call.bytes), received(call, call.bytes);
  coll::copy(mine.data(), call.send_data, call.bytes);
  const int pof2 = allreduce::lower_power_of_two(c.size);
  int levels = 0;
  while ((1 << levels) < pof2)
    ++levels;
  const int r = c.size - pof2;
  const long low = n / 2;
  if (c.me < 2 * r) {
    if (c.me % 2 == 0) {
      c.rank.sendrecv(c.comm, c.me + 1, c.tag, bytes(n - low), c.me + 1, c.tag, bytes(low), mine.at(bytes(low)),
                      received.data());
      coll::reduce_left(call, mine.data(), received.data(), bytes(low));
      c.rank.recv(c.comm, c.me + 1, c.tag, bytes(n - low), mine.at(bytes(low)));
    } else {
      c.rank.sendrecv(c.comm, c.me - 1, c.tag, bytes(low), c.me - 1, c.tag, bytes(n - low), mine.data(),
                      received.at(bytes(low)));
      coll::reduce(call, received.at(bytes(low)), mine.at(bytes(low)), bytes(n - low));
      c.rank.send(c.comm, c.me - 1, c.tag, bytes(n - low), mine.at(bytes(low)));
    }
  }
  const bool goes_on = c.me >= 2 * r || c.me % 2 == 0;
  if (goes_on) {
    const int new_rank = c.me < 2 * r ? c.me / 2 : c.me - r;
    auto old_rank = [&](int rank) { return rank < r ? 2 * rank : rank + r; };
    std::vector<Part> lower(levels), upper(levels);
    Part held{0, n};
    for (int level = 0, distance = 1; level < levels; ++level, distance *= 2) {
      lower[level] = {held.start, held.count / 2};
      upper[level] = {held.start + held.count / 2, held.count - held.count / 2};
      const bool keeps_lower = (new_rank / distance) % 2 == 0;
      const Part& kept = keeps_lower ? lower[level] : upper[level];
      const Part& given = keeps_lower ? upper[level] : lower[level];
      const int peer = old_rank(keeps_lower ? new_rank + distance : new_rank - distance);
      c.rank.sendrecv(c.comm, peer, c.tag, bytes(given.count), peer, c.tag, bytes(kept.count),
                      mine.at(bytes(given.start)), received.at(bytes(kept.start)));
      allreduce::combine(call, c.me, peer, received.at(bytes(kept.start)), mine.at(bytes(kept.start)),
                         bytes(kept.count));
      held = kept;
    }
    coll::copy(coll::at(call.recv_data, bytes(held.start)), mine.at(bytes(held.start)), bytes(held.count));
    for (int level = levels - 1, distance = pof2 / 2; level >= 0; --level, distance /= 2) {
      const bool holds_lower = (new_rank / distance) % 2 == 0;
      const Part& sent = holds_lower ? lower[level] : upper[level];
      const Part& got = holds_lower ? upper[level] : lower[level];
      const int peer = old_rank(holds_lower ? new_rank + distance : new_rank - distance);
      c.rank.sendrecv(c.comm, peer, c.tag, bytes(sent.count), peer, c.tag, bytes(got.count),
                      coll::at(call.recv_data, bytes(sent.start)), coll::at(call.recv_data, bytes(got.start)));
    }
  }
  if (c.me < 2 * r) {
    if (c.me % 2 == 0)
      c.rank.send(c.comm, c.me + 1, c.tag, call.bytes, call.recv_data);
    else
      c.rank.recv(c.comm, c.me - 1, c.tag, call.bytes, call.recv_data);
  }
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rab",
                                   "Rabenseifner: pairwise halving of the extra ranks, recursive halving, doubling",
                                   "Rabenseifner 1997 (MPI_I_anyReduce), SimGrid allreduce__rab", allreduce_rab});

} // namespace
} // namespace mpisim::mpi
