// Open MPI's tuned trees and segment count (src/mpi/collectives/building_blocks/ompi_trees.hpp): the worked examples of
// docs/specifications/ompi-topology-trees.md, each table as rank -> children in visiting order (every other rank of
// the table is a leaf; every parent follows from the children lists, and the root's parent is given), plus the
// subtree sizes of the in-order binomial tree, and a check that every builder gives a consistent spanning tree.
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mpisim::mpi;

namespace {

using Children = std::map<int, std::vector<int>>; // rank -> children; ranks not listed have none
using Builder = std::function<ompi::Tree(int rank)>;

// Checks every rank of a P-rank tree rooted at `root` against the children lists; each child's parent is the rank
// listing it, and the root's parent is `root_parent`.
void expect_tree(const std::string& what, int P, int root, int root_parent, const Children& children,
                 const Builder& build)
{
  std::vector<int> parent(static_cast<size_t>(P), -2);
  parent[static_cast<size_t>(root)] = root_parent;
  for (const auto& [rank, below] : children)
    for (int child : below)
      parent[static_cast<size_t>(child)] = rank;
  for (int rank = 0; rank < P; ++rank) {
    const ompi::Tree tree = build(rank);
    const auto listed = children.find(rank);
    const std::vector<int> expected = listed == children.end() ? std::vector<int>{} : listed->second;
    EXPECT_EQ(tree.root, root) << what << ", rank " << rank;
    EXPECT_EQ(tree.parent, parent[static_cast<size_t>(rank)]) << what << ", rank " << rank;
    EXPECT_EQ(tree.children, expected) << what << ", rank " << rank;
  }
}

ompi::Viewpoint at(int P, int rank, int root)
{
  return {.size = P, .rank = rank, .root = root};
}

Builder kary(int fanout, int P, int root, ompi::RootParent root_parent = ompi::RootParent::Itself)
{
  return [=](int rank) { return ompi::kary_tree(fanout, at(P, rank, root), root_parent); };
}
Builder in_order_binary(int P)
{
  return [=](int rank) { return ompi::in_order_binary_tree(P, rank); };
}
Builder binomial(int P, int root)
{
  return [=](int rank) { return ompi::binomial_tree(at(P, rank, root)); };
}
Builder in_order_binomial(int P, int root, ompi::RootParent root_parent = ompi::RootParent::Itself)
{
  return [=](int rank) { return ompi::in_order_binomial_tree(at(P, rank, root), root_parent); };
}
Builder chains(int count, int P, int root)
{
  return [=](int rank) { return ompi::chains(count, at(P, rank, root)); };
}
Builder pipeline(int P, int root)
{
  return [=](int rank) { return ompi::pipeline(at(P, rank, root)); };
}

// A chain a -> b -> c ... as children lists.
Children chain_of(const std::vector<int>& ranks)
{
  Children out;
  for (size_t i = 0; i + 1 < ranks.size(); ++i)
    out[ranks[i]] = {ranks[i + 1]};
  return out;
}
Children merged(std::initializer_list<Children> parts)
{
  Children out;
  for (const Children& part : parts)
    out.insert(part.begin(), part.end());
  return out;
}

// --- k-ary tree ----------------------------------------------------------------------------------------------------

TEST(mpi_coll_ompi_trees, KaryTreeSpacesChildrenByLevelWidth)
{
  expect_tree("f=2 P=8 R=0", 8, 0, 0, {{0, {1, 2}}, {1, {3, 5}}, {2, {4, 6}}, {3, {7}}}, kary(2, 8, 0));
  expect_tree("f=2 P=7 R=3", 7, 3, 3, {{3, {4, 5}}, {4, {6, 1}}, {5, {0, 2}}}, kary(2, 7, 3));
  expect_tree(
      "f=2 P=16 R=0", 16, 0, 0,
      {{0, {1, 2}}, {1, {3, 5}}, {2, {4, 6}}, {3, {7, 11}}, {4, {8, 12}}, {5, {9, 13}}, {6, {10, 14}}, {7, {15}}},
      kary(2, 16, 0));
  expect_tree("f=3 P=11 R=4", 11, 4, 4, {{4, {5, 6, 7}}, {5, {8, 0, 3}}, {6, {9, 1}}, {7, {10, 2}}}, kary(3, 11, 4));
}

TEST(mpi_coll_ompi_trees, KaryTreeSmallCases)
{
  expect_tree("P=1", 1, 0, -1, {}, kary(2, 1, 0));
  expect_tree("P=2 R=1", 2, 1, 1, {{1, {0}}}, kary(2, 2, 1));
  expect_tree("P=3 R=0", 3, 0, 0, {{0, {1, 2}}}, kary(2, 3, 0));
  expect_tree("f=5 P=4 R=1: fanout above P", 4, 1, 1, {{1, {2, 3, 0}}}, kary(5, 4, 1));
  EXPECT_THROW(ompi::kary_tree(1, at(5, 1, 0)), std::invalid_argument);
}

TEST(mpi_coll_ompi_trees, KaryTreeWithoutParentAtTheRoot)
{
  // bcast ompi_split_bintree's form: the same tree, parent -1 at the root.
  expect_tree("f=2 P=7 R=3", 7, 3, -1, {{3, {4, 5}}, {4, {6, 1}}, {5, {0, 2}}}, kary(2, 7, 3, ompi::RootParent::None));
}

// --- in-order binary tree ------------------------------------------------------------------------------------------

TEST(mpi_coll_ompi_trees, InOrderBinaryTreeIsRootedAtTheLastRank)
{
  expect_tree("P=8", 8, 7, -1, {{7, {6, 3}}, {6, {5, 4}}, {3, {2, 1}}, {1, {0}}}, in_order_binary(8));
  expect_tree("P=11", 11, 10, -1, {{10, {9, 4}}, {9, {8, 6}}, {8, {7}}, {6, {5}}, {4, {3, 1}}, {3, {2}}, {1, {0}}},
              in_order_binary(11));
  expect_tree("P=7", 7, 6, -1, {{6, {5, 2}}, {5, {4, 3}}, {2, {1, 0}}}, in_order_binary(7));
  expect_tree("P=5", 5, 4, -1, {{4, {3, 1}}, {3, {2}}, {1, {0}}}, in_order_binary(5));
  expect_tree("P=3", 3, 2, -1, {{2, {1, 0}}}, in_order_binary(3));
  expect_tree("P=2", 2, 1, -1, {{1, {0}}}, in_order_binary(2));
  expect_tree("P=1", 1, 0, -1, {}, in_order_binary(1));
  expect_tree(
      "P=16", 16, 15, -1,
      {{15, {14, 7}}, {14, {13, 10}}, {13, {12, 11}}, {10, {9, 8}}, {7, {6, 3}}, {6, {5, 4}}, {3, {2, 1}}, {1, {0}}},
      in_order_binary(16));
}

// --- binomial trees ------------------------------------------------------------------------------------------------

TEST(mpi_coll_ompi_trees, BinomialTree)
{
  expect_tree("P=8 R=0", 8, 0, 0, {{0, {1, 2, 4}}, {1, {3, 5}}, {2, {6}}, {3, {7}}}, binomial(8, 0));
  expect_tree("P=7 R=2", 7, 2, 2, {{2, {3, 4, 6}}, {3, {5, 0}}, {4, {1}}}, binomial(7, 2));
  expect_tree("P=11 R=4", 11, 4, 4, {{4, {5, 6, 8, 1}}, {5, {7, 9, 2}}, {6, {10, 3}}, {7, {0}}}, binomial(11, 4));
  expect_tree("P=2 R=1", 2, 1, 1, {{1, {0}}}, binomial(2, 1));
  expect_tree("P=1", 1, 0, 0, {}, binomial(1, 0));
}

TEST(mpi_coll_ompi_trees, InOrderBinomialTree)
{
  expect_tree("P=8 R=0", 8, 0, 0, {{0, {1, 2, 4}}, {2, {3}}, {4, {5, 6}}, {6, {7}}}, in_order_binomial(8, 0));
  expect_tree("P=7 R=2", 7, 2, 2, {{2, {3, 4, 6}}, {4, {5}}, {6, {0, 1}}}, in_order_binomial(7, 2));
  expect_tree("P=11 R=4", 11, 4, 4, {{4, {5, 6, 8, 1}}, {1, {2, 3}}, {6, {7}}, {8, {9, 10}}, {10, {0}}},
              in_order_binomial(11, 4));
  expect_tree("P=8 R=3", 8, 3, 3, {{3, {4, 5, 7}}, {5, {6}}, {7, {0, 1}}, {1, {2}}}, in_order_binomial(8, 3));
  expect_tree("P=1", 1, 0, 0, {}, in_order_binomial(1, 0));
  // gather/scatter ompi_binomial's form: parent -1 at the root.
  expect_tree("P=7 R=2, no root parent", 7, 2, -1, {{2, {3, 4, 6}}, {4, {5}}, {6, {0, 1}}},
              in_order_binomial(7, 2, ompi::RootParent::None));
}

// Ranks in each child's subtree, child by child.
std::vector<int> subtree_sizes(int P, int rank, int root)
{
  const ompi::Viewpoint view = at(P, rank, root);
  std::vector<int> sizes;
  for (int child : ompi::in_order_binomial_tree(view).children)
    sizes.push_back(ompi::in_order_binomial_subtree_size(view, child));
  return sizes;
}

TEST(mpi_coll_ompi_trees, InOrderBinomialSubtreeSizes)
{
  EXPECT_EQ(subtree_sizes(11, 4, 4), (std::vector<int>{1, 2, 4, 3}));
  EXPECT_EQ(subtree_sizes(11, 8, 4), (std::vector<int>{1, 2}));
  EXPECT_EQ(subtree_sizes(11, 1, 4), (std::vector<int>{1, 1}));
  EXPECT_EQ(subtree_sizes(11, 6, 4), (std::vector<int>{1}));
  EXPECT_EQ(subtree_sizes(11, 10, 4), (std::vector<int>{1}));
  EXPECT_EQ(subtree_sizes(7, 2, 2), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(subtree_sizes(7, 6, 2), (std::vector<int>{1, 1}));
  EXPECT_EQ(subtree_sizes(7, 4, 2), (std::vector<int>{1}));
}

// --- chains and pipeline -------------------------------------------------------------------------------------------

TEST(mpi_coll_ompi_trees, ChainsLongerFirst)
{
  expect_tree("f=4 P=8 R=0", 8, 0, -1,
              merged({{{0, {1, 3, 5, 7}}}, chain_of({1, 2}), chain_of({3, 4}), chain_of({5, 6})}), chains(4, 8, 0));
  expect_tree("f=3 P=11 R=4", 11, 4, -1,
              merged({{{4, {5, 9, 1}}}, chain_of({5, 6, 7, 8}), chain_of({9, 10, 0}), chain_of({1, 2, 3})}),
              chains(3, 11, 4));
  expect_tree("f=5 P=11 R=4", 11, 4, -1,
              merged({{{4, {5, 7, 9, 0, 2}}},
                      chain_of({5, 6}),
                      chain_of({7, 8}),
                      chain_of({9, 10}),
                      chain_of({0, 1}),
                      chain_of({2, 3})}),
              chains(5, 11, 4));
  expect_tree("f=3 P=8 R=2", 8, 2, -1,
              merged({{{2, {3, 6, 0}}}, chain_of({3, 4, 5}), chain_of({6, 7}), chain_of({0, 1})}), chains(3, 8, 2));
  expect_tree("f=2 P=7", 7, 0, -1, merged({{{0, {1, 4}}}, chain_of({1, 2, 3}), chain_of({4, 5, 6})}), chains(2, 7, 0));
  expect_tree("f=5 P=7", 7, 0, -1, merged({{{0, {1, 3, 4, 5, 6}}}, chain_of({1, 2})}), chains(5, 7, 0));
  // Reduce ompi_chain on 5 ranks (f = 5 / 2 = 2), root 2.
  expect_tree("f=2 P=5 R=2", 5, 2, -1, merged({{{2, {3, 0}}}, chain_of({3, 4}), chain_of({0, 1})}), chains(2, 5, 2));
}

TEST(mpi_coll_ompi_trees, ChainCountIsClampedToOneAndToPMinusOne)
{
  for (int f : {6, 10})
    expect_tree("f=" + std::to_string(f) + " P=7", 7, 0, -1, {{0, {1, 2, 3, 4, 5, 6}}}, chains(f, 7, 0));
  for (int f : {0, -3, 1})
    expect_tree("f=" + std::to_string(f) + " P=5", 5, 0, -1, chain_of({0, 1, 2, 3, 4}), chains(f, 5, 0));
  expect_tree("P=1", 1, 0, -1, {}, chains(3, 1, 0));
}

TEST(mpi_coll_ompi_trees, AtMost32Chains)
{
  // f = 40 or 32, P = 40: 32 chains of the 39 other ranks, 7 of two then 25 of one.
  Children expected{{0, {1, 3, 5, 7, 9, 11, 13}}};
  for (int head = 1; head <= 13; head += 2)
    expected[head] = {head + 1};
  for (int rank = 15; rank <= 39; ++rank)
    expected[0].push_back(rank);
  expect_tree("f=40 P=40", 40, 0, -1, expected, chains(40, 40, 0));
  expect_tree("f=32 P=40", 40, 0, -1, expected, chains(32, 40, 0));
  // f = 20: 19 chains of two, then 39 alone.
  Children twenty{{0, {}}};
  for (int head = 1; head <= 37; head += 2) {
    twenty[0].push_back(head);
    twenty[head] = {head + 1};
  }
  twenty[0].push_back(39);
  expect_tree("f=20 P=40", 40, 0, -1, twenty, chains(20, 40, 0));
}

TEST(mpi_coll_ompi_trees, Pipeline)
{
  expect_tree("P=8 R=0", 8, 0, -1, chain_of({0, 1, 2, 3, 4, 5, 6, 7}), pipeline(8, 0));
  expect_tree("P=7 R=3", 7, 3, -1, chain_of({3, 4, 5, 6, 0, 1, 2}), pipeline(7, 3));
  expect_tree("P=2 R=1", 2, 1, -1, chain_of({1, 0}), pipeline(2, 1));
  expect_tree("P=1", 1, 0, -1, {}, pipeline(1, 0));
  // Reduce ompi_chain on 2 or 3 ranks asks for 1 chain: the pipeline.
  expect_tree("f=1 P=3 R=1", 3, 1, -1, chain_of({1, 2, 0}), chains(3 / 2, 3, 1));
}

// Every builder, on every size up to 40 and every root, gives a tree: each non-root rank is the child of its parent,
// and following parents from any rank reaches the root.
TEST(mpi_coll_ompi_trees, EveryBuilderSpansTheCommunicator)
{
  for (int P = 1; P <= 40; ++P)
    for (int root = 0; root < P; ++root) {
      const std::map<std::string, Builder> builders = {
          {"binary", kary(2, P, root)},           {"ternary", kary(3, P, root)},
          {"binomial", binomial(P, root)},        {"in-order binomial", in_order_binomial(P, root)},
          {"chains", chains(P / 2, P, root)},     {"pipeline", pipeline(P, root)},
          {"in-order binary", in_order_binary(P)}};
      for (const auto& [name, build] : builders) {
        const std::string what = name + " P=" + std::to_string(P) + " R=" + std::to_string(root);
        std::vector<ompi::Tree> trees;
        for (int rank = 0; rank < P; ++rank)
          trees.push_back(build(rank));
        const int tree_root = trees[0].root;
        for (int rank = 0; rank < P; ++rank) {
          for (int child : trees[static_cast<size_t>(rank)].children)
            ASSERT_EQ(trees[static_cast<size_t>(child)].parent, rank) << what << ", child " << child;
          int hops = 0;
          for (int up = rank; up != tree_root; up = trees[static_cast<size_t>(up)].parent)
            ASSERT_LT(++hops, P) << what << ", rank " << rank << " does not reach the root";
        }
      }
    }
}

// --- segment count -------------------------------------------------------------------------------------------------

struct SegmentRow {
  double element_bytes;
  double segment_bytes;
  double count;
  double per_segment;
  double segments;
  double last;
};

TEST(mpi_coll_ompi_trees, SegmentCount)
{
  EXPECT_EQ(ompi::segment_count(1024, 4, 0), 0); // empty message: callers stop before cutting it
  const std::vector<SegmentRow> rows = {
      {4, 0, 1024, 1024, 1, 1024},
      {8, 4, 512, 512, 1, 512},
      {8, 0, 125, 125, 1, 125},
      {4, 1024, 1024, 256, 4, 256},
      {4, 1024, 1000, 256, 4, 232},
      {4, 4096, 1024, 1024, 1, 1024},
      {4, 8192, 1024, 1024, 1, 1024},
      {4, 1000, 250, 250, 1, 250},
      {1, 999, 1000, 999, 2, 1},
      {4, 1024, 3, 3, 1, 3},
      {12, 1026, 1000, 85, 12, 65},
      {12, 1027, 1000, 86, 12, 54},
      {8, 1020, 1000, 127, 8, 111},
      {8, 1021, 1000, 128, 8, 104},
      {8, 1024, 1000, 128, 8, 104},
      {12, 1025, 342, 85, 5, 2},
      {3, 10, 333, 3, 111, 3},
      {3, 11, 333, 4, 84, 1},
      {5, 7, 200, 1, 200, 1},
      {5, 8, 200, 2, 100, 2},
      {1, 7, 1000, 7, 143, 6},
      {4, 7, 25, 2, 13, 1},
      {2.5, 7, 40, 3, 14, 1},
      {1, 1048576, 6291463, 1048576, 7, 7},
      {16, 1048584, 196608, 65536, 3, 65536},
      {16, 1048585, 196608, 65537, 3, 65534},
  };
  for (const SegmentRow& row : rows) {
    const std::string what = "t=" + std::to_string(row.element_bytes) +
                             " segment=" + std::to_string(row.segment_bytes) + " n=" + std::to_string(row.count);
    const double per_segment = ompi::segment_count(row.segment_bytes, row.element_bytes, row.count);
    EXPECT_EQ(per_segment, row.per_segment) << what;
    const double segments = std::ceil(row.count / per_segment);
    EXPECT_EQ(segments, row.segments) << what;
    EXPECT_EQ(row.count - (segments - 1) * per_segment, row.last) << what;
  }
}

} // namespace
