// Open MPI's tree shapes (see bcast_ompi_tree.hpp). Origin: Open MPI's coll_tuned_topo.c, as in SimGrid 3.32
// (src/smpi/colls/coll_tuned_topo.cpp).
#include "mpi/collectives/bcast_ompi_tree.hpp"

namespace mpisim::mpi::bcast {

namespace {

int power(int base, int exponent)
{
  int result = 1;
  for (int i = 0; i < exponent; ++i)
    result *= base;
  return result;
}

int level_of(int fanout, int shifted)
{
  int level = 0;
  for (int seen = 0; seen <= shifted; ++level)
    seen += power(fanout, level);
  return level - 1;
}

} // namespace

TreeNode ompi_tree(int fanout, int me, int size, int root)
{
  TreeNode node;
  if (size < 2)
    return node;
  const int shifted = (me - root + size) % size;
  const int level = level_of(fanout, shifted);
  const int delta = power(fanout, level);
  for (int i = 1; i <= fanout && shifted + delta * i < size; ++i)
    node.children.push_back((shifted + delta * i + root) % size);
  if (shifted == 0)
    return node;
  int parent = shifted;
  if (parent < fanout) {
    parent = 0;
  } else {
    const int above = fanout > 1 ? (power(fanout, level) - 1) / (fanout - 1) : 0;
    while (parent >= above)
      parent -= delta / fanout;
  }
  node.parent = (parent + root) % size;
  return node;
}

TreeNode ompi_chain(int me, int size, int root)
{
  TreeNode node;
  const int shifted = (me - root + size) % size;
  if (shifted > 0)
    node.parent = (me - 1 + size) % size;
  if (shifted + 1 < size)
    node.children.push_back((me + 1) % size);
  return node;
}

long ompi_segment_count(double segment_bytes, double element_bytes, long count)
{
  if (segment_bytes < element_bytes || segment_bytes >= element_bytes * static_cast<double>(count))
    return count;
  long segment = static_cast<long>(segment_bytes / element_bytes);
  const double residual = segment_bytes - static_cast<double>(segment) * element_bytes;
  if (residual > std::floor(element_bytes / 2))
    ++segment;
  return segment;
}

} // namespace mpisim::mpi::bcast
