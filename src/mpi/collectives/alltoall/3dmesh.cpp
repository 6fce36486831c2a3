// alltoall "3dmesh": ranks form X x X x Z (x the first integer from floor(cbrt(P)) up to P/3 whose square divides P);
// each rank sends its whole send buffer along its row (X ranks), then its row's buffers along its column, so that
// every rank holds the send buffers of its whole plane; then it sends to the rank at the same place of each other
// plane (rank + k X^2) the X^2 blocks its plane holds for it. Blocking sends, after the receives of each phase are
// posted. Origin: SimGrid 3.32's alltoall 3dmesh (Star-MPI). SimGrid finds no mesh for P = 1, 2 and some others
// (10, ...) and returns an error without communicating; mpisim then runs "basic_linear".
#include "mpi/collectives/CollectiveData.hpp"

#include <cmath>
#include <optional>

namespace mpisim::mpi {
namespace {

// X (= Y), or nothing: SimGrid's search.
std::optional<int> find_side(int size)
{
  for (int x = static_cast<int>(std::cbrt(static_cast<double>(size))); x <= size / 3; ++x)
    if (size % (x * x) == 0)
      return x;
  return std::nullopt;
}

void alltoall_3dmesh(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::optional<int> side = find_side(c.size);
  if (not side) {
    c.library.run_algorithm(c, "basic_linear", call);
    return;
  }
  const int P = c.size, X = *side, plane = X * X, Z = P / plane;
  const double block = call.recv_bytes;
  const int plane_base = (c.me / plane) * plane, row_base = (c.me / X) * X, column_base = c.me % X + plane_base;
  // buffers[j]: the send buffer of rank plane_base + j.
  coll::Temp buffers(call, block * P * plane), out(call, block * plane);
  auto buffer_of = [&](int rank) { return buffers.at((rank % plane) * P * block); };
  coll::copy(buffer_of(c.me), call.send_data, P * block);

  std::vector<RequestPtr> requests;
  for (int i = 0; i < X; ++i)
    if (row_base + i != c.me)
      requests.push_back(c.rank.irecv(c.comm, row_base + i, c.tag, P * call.recv_bytes, buffer_of(row_base + i)));
  for (int i = 0; i < X; ++i)
    if (row_base + i != c.me)
      c.rank.send(c.comm, row_base + i, c.tag, P * call.bytes, call.send_data);
  c.rank.waitall(requests);

  requests.clear();
  for (int i = 0; i < X; ++i) {
    const int src = i * X + column_base;
    if (src != c.me)
      requests.push_back(c.rank.irecv(c.comm, src, c.tag, X * P * call.recv_bytes, buffer_of((src / X) * X)));
  }
  for (int i = 0; i < X; ++i) {
    const int dst = i * X + column_base;
    if (dst != c.me)
      c.rank.send(c.comm, dst, c.tag, X * P * call.bytes, buffer_of(row_base));
  }
  c.rank.waitall(requests);

  for (int j = 0; j < plane; ++j)
    coll::copy(coll::at(call.recv_data, (plane_base + j) * block), buffers.at((j * P + c.me) * block), block);
  requests.clear();
  for (int k = 1; k < Z; ++k) {
    const int src = (c.me + k * plane) % P;
    const int src_plane = src / plane;
    requests.push_back(
        c.rank.irecv(c.comm, src, c.tag, plane * call.recv_bytes, coll::at(call.recv_data, src_plane * plane * block)));
  }
  for (int k = 1; k < Z; ++k) {
    const int dst = (c.me + k * plane) % P;
    for (int j = 0; j < plane; ++j)
      coll::copy(out.at(j * block), buffers.at((j * P + dst) * block), block);
    c.rank.send(c.comm, dst, c.tag, plane * call.bytes, out.data());
  }
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "3dmesh",
                                   "allgather along rows and columns, then exchange between planes",
                                   "SimGrid 3.32's alltoall 3dmesh (Star-MPI)", alltoall_3dmesh});

} // namespace
} // namespace mpisim::mpi
