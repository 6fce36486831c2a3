#include "online/objects/Darray.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <numeric>

namespace mpisim::online {

namespace {

void require(bool condition, const std::string& message)
{
  if (not condition)
    throw InputError("MPI_Type_create_darray: " + message);
}

// The indices of one dimension that process coordinate `coord` owns.
std::vector<int> owned_indices(int gsize, Distribution distribution, int darg, int psize, int coord)
{
  std::vector<int> indices;
  const std::string where = " (global size " + std::to_string(gsize) + ", " + std::to_string(psize) + " processes)";
  if (distribution == Distribution::None) {
    require(psize == 1, "MPI_DISTRIBUTE_NONE needs 1 process in its dimension" + where);
    indices.resize(gsize);
    std::iota(indices.begin(), indices.end(), 0);
  } else if (distribution == Distribution::Block) {
    const int block = darg == kDefaultDarg ? (gsize + psize - 1) / psize : darg;
    require(block > 0 && static_cast<long>(block) * psize >= gsize,
            "block size " + std::to_string(block) + " does not cover the dimension" + where);
    for (int i = coord * block; i < std::min(gsize, (coord + 1) * block); ++i)
      indices.push_back(i);
  } else {
    const int cycle = darg == kDefaultDarg ? 1 : darg;
    require(cycle > 0, "cyclic block size " + std::to_string(cycle) + " must be positive");
    for (int i = 0; i < gsize; ++i)
      if ((i / cycle) % psize == coord)
        indices.push_back(i);
  }
  return indices;
}

} // namespace

mpi::DatatypePtr darray_layout(const DarrayRequest& request, const mpi::DatatypePtr& old)
{
  const size_t dims = request.gsizes.size();
  require(dims > 0 && request.distributions.size() == dims && request.dargs.size() == dims &&
              request.psizes.size() == dims,
          "ndims must be positive");
  const long processes = std::accumulate(request.psizes.begin(), request.psizes.end(), 1L, std::multiplies<>());
  require(processes == request.size,
          "the process grid has " + std::to_string(processes) + " processes, not " + std::to_string(request.size));
  require(request.rank >= 0 && request.rank < request.size, "invalid rank " + std::to_string(request.rank));
  // Process coordinates: ranks number the grid in row-major order, whatever the array's order.
  std::vector<int> coords(dims);
  for (size_t d = dims, rest = request.rank; d-- > 0;) {
    coords[d] = static_cast<int>(rest % request.psizes[d]);
    rest /= request.psizes[d];
  }
  // Dimensions from the slowest varying in memory to the fastest, with their strides in elements.
  std::vector<size_t> order(dims);
  std::iota(order.begin(), order.end(), 0);
  if (request.fortran_order)
    std::reverse(order.begin(), order.end());
  std::vector<std::ptrdiff_t> stride(dims, 1);
  for (size_t k = dims - 1; k > 0; --k)
    stride[order[k - 1]] = stride[order[k]] * request.gsizes[order[k]];
  std::vector<std::vector<int>> owned(dims);
  for (size_t d = 0; d < dims; ++d) {
    require(request.gsizes[d] > 0, "global sizes must be positive");
    owned[d] =
        owned_indices(request.gsizes[d], request.distributions[d], request.dargs[d], request.psizes[d], coords[d]);
  }
  // One row: the owned indices of the fastest dimension; rows at every combination of the other dimensions' indices.
  const size_t fastest = order.back();
  std::vector<int> ones(owned[fastest].size(), 1);
  mpi::DatatypePtr row = mpi::Datatype::indexed(ones, owned[fastest], old);
  std::vector<std::ptrdiff_t> row_starts{0};
  for (size_t k = 0; k + 1 < dims; ++k) {
    const size_t d = order[k];
    std::vector<std::ptrdiff_t> next;
    for (std::ptrdiff_t start : row_starts)
      for (int index : owned[d])
        next.push_back(start + index * stride[d] * old->extent());
    row_starts = std::move(next);
  }
  const std::ptrdiff_t total =
      std::accumulate(request.gsizes.begin(), request.gsizes.end(), std::ptrdiff_t{1}, std::multiplies<>());
  return mpi::Datatype::resized(mpi::Datatype::hindexed_block(1, row_starts, row), 0, total * old->extent());
}

} // namespace mpisim::online
