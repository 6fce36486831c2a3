// allgather "2dmesh": the ranks form X rows of Y consecutive ranks (X <= Y, X the smallest divisor of P from
// floor(sqrt(P)) up to P/2). Phase 1: each rank posts receives from its row, then sends its block to each row member
// (blocking sends) and waits. Phase 2: the same along its column, with whole rows of Y blocks. SimGrid's "2dmesh"
// refuses sizes without such a divisor (1, primes above 3); those run as a 1 x P mesh (phase 1 only). Origin: Faraj
// and Yuan, ICS 2005 (SimGrid's "2dmesh").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

#include <cmath>

namespace mpisim::mpi {
namespace {

void allgather_2dmesh(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  int X = 1, Y = P;
  for (int x = static_cast<int>(std::sqrt(static_cast<double>(P))); x <= P / 2; ++x)
    if (P % x == 0) {
      X = std::min(x, P / x);
      Y = std::max(x, P / x);
      break;
    }
  allgather::place_own(c, call);
  const int row_base = (c.me / Y) * Y;
  std::vector<int> row, column;
  for (int i = 0; i < Y; ++i)
    row.push_back(row_base + i);
  for (int i = 0; i < X; ++i)
    column.push_back(i * Y + c.me % Y);
  allgather::exchange_with(
      c, call, row, 1, [](int peer) { return peer; }, c.me);
  allgather::exchange_with(
      c, call, column, Y, [Y](int peer) { return (peer / Y) * Y; }, row_base);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "2dmesh", "all-to-all within rows, then within columns",
                                   "Faraj and Yuan, ICS 2005", allgather_2dmesh});

} // namespace
} // namespace mpisim::mpi
