// allgather "3dmesh": the ranks form Z planes of X x Y (X = Y, the smallest x >= cbrt(P) with x*x dividing P, up to
// P/3). Each phase posts receives from its peers, sends to them with blocking sends, and waits: along the row (its
// block), then the column (whole rows of X blocks), then across the planes (whole planes of X*Y blocks). SimGrid's
// "3dmesh" refuses sizes without such an x (1 and 2); those run as a 1 x 1 x P mesh (the last phase only). The row
// and column phases keep SimGrid's arithmetic (rows of X ranks, columns at stride Y), which is the mesh as X = Y.
// Origin: Faraj and Yuan, ICS 2005 (SimGrid's "3dmesh").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

#include <cmath>

namespace mpisim::mpi {
namespace {

void allgather_3dmesh(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  int X = 1, Z = P;
  for (int x = static_cast<int>(std::cbrt(P)); x <= P / 3; ++x)
    if (P % (x * x) == 0) {
      X = x;
      Z = P / (x * x);
      break;
    }
  const int plane = X * X;
  allgather::place_own(c, call);
  const int z_base = (c.me / plane) * plane;
  const int row_base = (c.me / X) * X;
  std::vector<int> row, column, across;
  for (int i = 0; i < X; ++i) {
    row.push_back(row_base + i);
    column.push_back(i * X + c.me % X + z_base);
  }
  for (int i = 1; i < Z; ++i)
    across.push_back((c.me + i * plane) % P);
  allgather::exchange_with(
      c, call, row, 1, [](int peer) { return peer; }, c.me);
  allgather::exchange_with(
      c, call, column, X, [X](int peer) { return (peer / X) * X; }, row_base);
  allgather::exchange_with(
      c, call, across, plane, [plane](int peer) { return (peer / plane) * plane; }, z_base);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "3dmesh", "all-to-all along rows, columns, then planes",
                                   "Faraj and Yuan, ICS 2005", allgather_3dmesh});

} // namespace
} // namespace mpisim::mpi
