#include "mpi/collectives/ompi_trees.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::mpi::ompi {
namespace {

constexpr int kMaxFanout = 32;

int power(int base, int exponent)
{
  int p = 1;
  for (int i = 0; i < exponent; ++i)
    p *= base;
  return p;
}

// The level of `rank` in a complete tree of the given fanout (root at level 0).
int level_of(int fanout, int rank)
{
  int level = 0;
  for (int nodes = 0; nodes <= rank; ++level)
    nodes += power(fanout, level);
  return level - 1;
}

} // namespace

Tree build_tree(int fanout, int size, int rank, int root)
{
  Tree tree;
  tree.root = root;
  if (size < 2)
    return tree;
  const int shifted = (rank - root + size) % size;
  const int level = level_of(fanout, shifted);
  const int delta = power(fanout, level);
  for (int i = 0; i < fanout; ++i) {
    const int child = shifted + delta * (i + 1);
    if (child >= size)
      break;
    tree.children.push_back((child + root) % size);
  }
  // Nodes on the levels above mine; my parent is found by stepping back by a level's width until inside them.
  const int above = fanout > 1 ? (power(fanout, level) - 1) / (fanout - 1) : 0;
  int parent = shifted;
  if (parent < fanout)
    parent = 0;
  else
    while (parent >= above)
      parent -= delta / fanout;
  tree.parent = (parent + root) % size;
  return tree;
}

Tree build_in_order_bintree(int size, int rank)
{
  Tree tree;
  tree.root = size - 1;
  int me = rank;
  int parent = size - 1;
  int delta = 0;
  int left = -1;
  int right = -1;
  while (true) {
    const int right_size = size >> 1;
    left = -1;
    right = -1;
    if (size - 1 > 0) {
      left = parent - 1;
      if (left > 0)
        right = right_size - 1;
    }
    if (me == parent) {
      if (left >= 0)
        tree.children.push_back(left + delta);
      if (right >= 0)
        tree.children.push_back(right + delta);
      break;
    }
    if (me > right) { // the left subtree: the higher ranks, shifted down
      if (me == left)
        tree.parent = parent + delta;
      size = size - right_size - 1;
      delta += right_size;
      me -= right_size;
      parent = size - 1;
    } else {
      if (me == right)
        tree.parent = parent + delta;
      size = right_size;
      parent = right;
    }
  }
  return tree;
}

Tree build_bmtree(int size, int rank, int root)
{
  Tree tree;
  tree.root = root;
  const int index = (rank - root + size) % size;
  int mask = 1;
  while (mask <= index)
    mask <<= 1;
  tree.parent = rank == root ? root : ((index ^ (mask >> 1)) + root) % size;
  for (; mask < size; mask <<= 1) {
    const int child = index ^ mask;
    if (child >= size)
      break;
    tree.children.push_back((child + root) % size);
  }
  return tree;
}

Tree build_in_order_bmtree(int size, int rank, int root)
{
  Tree tree;
  tree.root = root;
  const int vrank = (rank - root + size) % size;
  if (rank == root)
    tree.parent = root;
  for (int mask = 1; mask < size; mask <<= 1) {
    const int remote = vrank ^ mask;
    if (remote < vrank) {
      tree.parent = (remote + root) % size;
      break;
    }
    if (remote < size)
      tree.children.push_back((remote + root) % size);
  }
  return tree;
}

Tree build_chain(int fanout, int size, int rank, int root)
{
  Tree tree;
  tree.root = root;
  fanout = std::clamp(fanout, 1, kMaxFanout);
  fanout = std::min(fanout, size - 1);
  const int shifted = (rank - root + size) % size;
  if (fanout <= 1) { // one chain root -> root+1 -> ... (also size 1 and 2)
    if (shifted != 0)
      tree.parent = (shifted - 1 + root) % size;
    if (shifted + 1 < size)
      tree.children.push_back((shifted + 1 + root) % size);
    return tree;
  }
  // The first `mark` chains are one longer than the others when size-1 is not a multiple of fanout.
  int longest = (size - 1) / fanout;
  int mark = fanout + 1;
  if ((size - 1) % fanout != 0) {
    ++longest;
    mark = (size - 1) % fanout;
  }
  if (shifted == 0) {
    int next = (root + 1) % size;
    tree.children.push_back(next);
    for (int i = 1; i < fanout; ++i) {
      next += longest;
      if (i > mark)
        --next;
      next %= size;
      tree.children.push_back(next);
    }
    return tree;
  }
  int head = 0;
  int length = 0;
  if (shifted - 1 < mark * longest) {
    head = 1 + (shifted - 1) / longest * longest;
    length = longest;
  } else {
    const int column = mark + (shifted - 1 - mark * longest) / (longest - 1);
    head = mark * longest + 1 + (column - mark) * (longest - 1);
    length = longest - 1;
  }
  tree.parent = ((shifted == head ? 0 : shifted - 1) + root) % size;
  if (shifted != head + length - 1 && shifted + 1 < size)
    tree.children.push_back((shifted + 1 + root) % size);
  return tree;
}

double segment_count(double segment_bytes, double type_bytes, double count)
{
  if (segment_bytes < type_bytes || segment_bytes >= type_bytes * count)
    return count;
  double per_segment = std::floor(segment_bytes / type_bytes);
  const double residual = segment_bytes - per_segment * type_bytes;
  if (residual > std::floor(type_bytes / 2))
    ++per_segment;
  return per_segment;
}

} // namespace mpisim::mpi::ompi
