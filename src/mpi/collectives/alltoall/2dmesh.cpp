// alltoall "2dmesh": ranks form an X x Y grid (X <= Y, the divisor of P closest above sqrt(P)); each rank first sends
// its whole send buffer to the other ranks of its row (an allgather along the row, blocking sends after all
// receives are posted), then sends to each rank of its column the Y blocks its row holds for that rank. Origin:
// SimGrid 3.32's alltoall 2dmesh (Star-MPI). SimGrid finds no grid for P = 1 or a prime P > 3 and returns an error
// without communicating; mpisim then runs "basic_linear".
#include "mpi/collectives/CollectiveData.hpp"

#include <cmath>
#include <optional>

namespace mpisim::mpi {
namespace {

struct Grid {
  int rows, columns; // X, Y
};

// SimGrid's search: the first divisor x of P from floor(sqrt(P)) up to P/2.
std::optional<Grid> find_grid(int size)
{
  for (int x = static_cast<int>(std::sqrt(static_cast<double>(size))); x <= size / 2; ++x)
    if (size % x == 0)
      return Grid{std::min(x, size / x), std::max(x, size / x)};
  return std::nullopt;
}

void alltoall_2dmesh(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::optional<Grid> grid = find_grid(c.size);
  if (not grid) {
    c.library.run_algorithm(c, "basic_linear", call);
    return;
  }
  const int P = c.size, Y = grid->columns, X = grid->rows;
  const double block = call.recv_bytes;
  const int row_base = (c.me / Y) * Y, column = c.me % Y;
  // rows[j]: the send buffer of rank row_base + j.
  coll::Temp rows(call, block * P * Y), out(call, block * Y);
  std::vector<RequestPtr> requests;
  for (int j = 0; j < Y; ++j)
    if (row_base + j != c.me)
      requests.push_back(c.rank.irecv(c.comm, row_base + j, c.tag, P * call.recv_bytes, rows.at(j * P * block)));
  for (int j = 0; j < Y; ++j)
    if (row_base + j != c.me)
      c.rank.send(c.comm, row_base + j, c.tag, P * call.bytes, call.send_data);
  c.rank.waitall(requests);
  // The row's blocks for me, and (below) for each rank of my column: from rows[], or my own send buffer.
  auto block_of = [&](int j, int dst) -> const std::byte* {
    return row_base + j == c.me ? coll::at(call.send_data, dst * block) : rows.at((j * P + dst) * block);
  };
  for (int j = 0; j < Y; ++j)
    coll::copy(coll::at(call.recv_data, (row_base + j) * block), block_of(j, c.me), block);
  requests.clear();
  for (int i = 0; i < X; ++i) {
    const int src = i * Y + column;
    const int src_row = src / Y;
    if (src != c.me)
      requests.push_back(
          c.rank.irecv(c.comm, src, c.tag, Y * call.recv_bytes, coll::at(call.recv_data, src_row * Y * block)));
  }
  for (int i = 0; i < X; ++i) {
    const int dst = i * Y + column;
    if (dst == c.me)
      continue;
    for (int j = 0; j < Y; ++j)
      coll::copy(out.at(j * block), block_of(j, dst), block);
    c.rank.send(c.comm, dst, c.tag, Y * call.bytes, out.data());
  }
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "2dmesh", "allgather along rows, then exchange along columns",
                                   "SimGrid 3.32's alltoall 2dmesh (Star-MPI)", alltoall_2dmesh});

} // namespace
} // namespace mpisim::mpi
