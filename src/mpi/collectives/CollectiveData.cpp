#include "mpi/collectives/CollectiveData.hpp"

#include <cstring>
#include <numeric>

namespace mpisim::mpi::coll {

void copy(std::byte* to, const std::byte* from, double bytes)
{
  if (to == nullptr || from == nullptr || to == from || bytes <= 0)
    return;
  std::memmove(to, from, static_cast<size_t>(bytes));
}

void reduce(const CollectiveCall& call, const std::byte* in, std::byte* inout, double bytes)
{
  if (in == nullptr || inout == nullptr || not call.reduce_op || bytes <= 0)
    return;
  const Datatype& type = *call.reduce_type;
  call.reduce_op->apply_to_packed(in, inout, static_cast<size_t>(bytes) / type.size(), type);
}

void reduce_left(const CollectiveCall& call, std::byte* left, std::byte* right, double bytes)
{
  if (left == nullptr || right == nullptr || not call.reduce_op || bytes <= 0)
    return;
  reduce(call, left, right, bytes);
  coll::copy(left, right, bytes);
}

Temp::Temp(const CollectiveCall& call, double bytes)
{
  if (call.has_data() && bytes > 0)
    storage_.resize(static_cast<size_t>(bytes));
}

std::vector<double> displacements(const std::vector<double>& counts, const std::vector<double>& displs)
{
  if (not displs.empty())
    return displs;
  std::vector<double> out(counts.size());
  double offset = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    out[i] = offset;
    offset += counts[i];
  }
  return out;
}

double total(const std::vector<double>& counts)
{
  return std::accumulate(counts.begin(), counts.end(), 0.0);
}

} // namespace mpisim::mpi::coll
