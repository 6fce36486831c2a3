// Open MPI's tuned trees (see ompi_trees.hpp). Each builder works on shifted ranks, where the root is 0, and the
// result is turned back into real ranks by in_real_ranks.
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace mpisim::mpi::ompi {
namespace {

// A rank's links in a tree over shifted ranks.
struct ShiftedLinks {
  std::optional<int> parent; // empty at the root
  std::vector<int> children;
};

Tree in_real_ranks(const ShiftedLinks& links, const Viewpoint& at, RootParent root_parent)
{
  Tree tree;
  tree.root = at.root;
  if (links.parent)
    tree.parent = at.to_real(*links.parent);
  else
    tree.parent = root_parent == RootParent::Itself ? at.root : kNoParent;
  tree.children.reserve(links.children.size());
  for (int child : links.children)
    tree.children.push_back(at.to_real(child));
  return tree;
}

// A communicator of one rank: the rank alone, with no parent.
Tree lone_root(const Viewpoint& at)
{
  return Tree{at.root, kNoParent, {}};
}

// --- k-ary tree ----------------------------------------------------------------------------------------------------

// A level of the k-ary tree: the shifted ranks first .. first + width - 1 (fewer on an incomplete last level).
struct Level {
  long long first = 0;
  long long width = 1;

  long long end() const { return first + width; }
};

Level level_holding(int shifted, int fanout)
{
  Level level;
  while (shifted >= level.end())
    level = Level{level.end(), level.width * fanout};
  return level;
}

ShiftedLinks kary_links(int fanout, int size, int shifted)
{
  const Level level = level_holding(shifted, fanout);
  ShiftedLinks links;
  if (shifted > 0) {
    // The level above has width / fanout ranks; the parent is the one congruent to this rank modulo that width.
    const long long above_width = level.width / fanout;
    const long long above_first = level.first - above_width;
    links.parent = static_cast<int>(above_first + (shifted - above_first) % above_width);
  }
  for (int i = 1; i <= fanout && shifted + i * level.width < size; ++i)
    links.children.push_back(static_cast<int>(shifted + i * level.width));
  return links;
}

// --- in-order binary tree ------------------------------------------------------------------------------------------

// The consecutive ranks first .. first + count - 1, the subtree of the highest of them. Below it: the upper run of
// count - count/2 - 1 ranks, then the lower run of count/2 ranks.
struct Run {
  int first = 0;
  int count = 0;

  int top() const { return first + count - 1; }
  Run upper() const { return {first + count / 2, count - count / 2 - 1}; }
  Run lower() const { return {first, count / 2}; }
  bool holds(int rank) const { return rank >= first && rank <= top(); }
};

// --- binomial trees ------------------------------------------------------------------------------------------------

unsigned bits(int shifted)
{
  return static_cast<unsigned>(shifted);
}
int highest_bit(int shifted)
{
  return static_cast<int>(std::bit_floor(bits(shifted)));
}
int lowest_bit(int shifted)
{
  return shifted & -shifted;
}

// Children shifted + step for step = first_step, 2 * first_step, ... while step < step_limit and inside the
// communicator.
std::vector<int> children_by_powers_of_two(int shifted, int size, long long first_step, long long step_limit)
{
  std::vector<int> children;
  for (long long step = first_step; step < step_limit && shifted + step < size; step *= 2)
    children.push_back(static_cast<int>(shifted + step));
  return children;
}

// --- chains --------------------------------------------------------------------------------------------------------

// The shifted ranks 1 .. size - 1 cut into `count` chains of consecutive ranks: the first `longer` chains have
// `shortest` + 1 ranks, the others `shortest`.
struct ChainLayout {
  int count = 1;
  int shortest = 0;
  int longer = 0;

  ChainLayout(int chain_count, int size)
      : count(chain_count), shortest((size - 1) / chain_count), longer((size - 1) % chain_count)
  {
  }
  int head(int chain) const { return 1 + chain * shortest + std::min(chain, longer); }
  int chain_of(int shifted) const
  {
    const int offset = shifted - 1;
    const int in_longer_chains = longer * (shortest + 1);
    if (offset < in_longer_chains)
      return offset / (shortest + 1);
    return longer + (offset - in_longer_chains) / shortest;
  }
};

int effective_chain_count(int requested, int size)
{
  return std::max(1, std::min({requested, kMaxChains, size - 1}));
}

} // namespace

Tree kary_tree(int fanout, const Viewpoint& at, RootParent root_parent)
{
  if (fanout < 2)
    throw std::invalid_argument("ompi::kary_tree: fanout " + std::to_string(fanout) + " (at least 2)");
  if (at.size == 1)
    return lone_root(at);
  return in_real_ranks(kary_links(fanout, at.size, at.shifted()), at, root_parent);
}

Tree in_order_binary_tree(int size, int rank)
{
  Tree tree;
  tree.root = size - 1;
  Run run{0, size};
  while (run.top() != rank) {
    tree.parent = run.top();
    run = run.upper().holds(rank) ? run.upper() : run.lower();
  }
  for (const Run& below : {run.upper(), run.lower()})
    if (below.count > 0)
      tree.children.push_back(below.top());
  return tree;
}

Tree binomial_tree(const Viewpoint& at, RootParent root_parent)
{
  const int shifted = at.shifted();
  ShiftedLinks links;
  if (shifted > 0)
    links.parent = shifted - highest_bit(shifted);
  const long long first_step = shifted == 0 ? 1 : 2LL * highest_bit(shifted);
  links.children = children_by_powers_of_two(shifted, at.size, first_step, at.size);
  return in_real_ranks(links, at, root_parent);
}

Tree in_order_binomial_tree(const Viewpoint& at, RootParent root_parent)
{
  const int shifted = at.shifted();
  ShiftedLinks links;
  if (shifted > 0)
    links.parent = shifted - lowest_bit(shifted);
  const long long step_limit = shifted == 0 ? at.size : lowest_bit(shifted);
  links.children = children_by_powers_of_two(shifted, at.size, 1, step_limit);
  return in_real_ranks(links, at, root_parent);
}

int in_order_binomial_subtree_size(const Viewpoint& at, int child)
{
  // The child's lowest set bit is the power of two that made it a child: its subtree is the next that many
  // shifted ranks, cut at the end of the communicator.
  const int shifted = at.to_shifted(child);
  return std::min(lowest_bit(shifted), at.size - shifted);
}

Tree chains(int chain_count, const Viewpoint& at)
{
  if (at.size == 1)
    return lone_root(at);
  const ChainLayout layout(effective_chain_count(chain_count, at.size), at.size);
  const int shifted = at.shifted();
  ShiftedLinks links;
  if (shifted == 0) {
    for (int chain = 0; chain < layout.count; ++chain)
      links.children.push_back(layout.head(chain));
    return in_real_ranks(links, at, RootParent::None);
  }
  const int chain = layout.chain_of(shifted);
  links.parent = shifted == layout.head(chain) ? 0 : shifted - 1;
  if (shifted + 1 < layout.head(chain + 1))
    links.children.push_back(shifted + 1);
  return in_real_ranks(links, at, RootParent::None);
}

double segment_count(double segment_bytes, double element_bytes, double count)
{
  const bool below_one_element = segment_bytes < element_bytes;
  const bool holds_the_message = segment_bytes >= element_bytes * count;
  if (below_one_element || holds_the_message)
    return count;
  const double whole_elements = std::floor(segment_bytes / element_bytes);
  const double leftover_bytes = segment_bytes - whole_elements * element_bytes;
  return leftover_bytes > std::floor(element_bytes / 2) ? whole_elements + 1 : whole_elements;
}

} // namespace mpisim::mpi::ompi
