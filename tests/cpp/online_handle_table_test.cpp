// HandleTable (src/online/runtime/HandleTable.hpp): the one table behind every kind of MPI handle. Handles are given
// in order from the first user handle, never reused; predefined handles sit below it; dense and sparse storage
// answer alike.
#include "online/runtime/HandleTable.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace mpisim::online;

namespace {

constexpr HandleKind kKind{MPI_ERR_ARG, "thing"};

template <class Table> void expect_handles_in_order_never_reused(Table& table)
{
  EXPECT_EQ(table.insert("a"), 5);
  EXPECT_EQ(table.insert("b"), 6);
  EXPECT_TRUE(table.erase(5));
  EXPECT_FALSE(table.erase(5)); // already freed
  EXPECT_EQ(table.find(5), nullptr);
  EXPECT_EQ(table.insert("c"), 7); // 5 is not given again
  ASSERT_NE(table.find(6), nullptr);
  EXPECT_EQ(*table.find(6), "b");
  EXPECT_EQ(*table.find(7), "c");
}

template <class Table> void expect_invalid_handles_found_null(Table& table)
{
  table.insert("a"); // handle 5
  for (int handle : {-1, 0, 4, 6, 1000})
    EXPECT_EQ(table.find(handle), nullptr) << handle;
}

} // namespace

TEST(online_handle_table, DenseHandlesInOrderNeverReused)
{
  HandleTable<std::string, HandleStorage::Dense> table(kKind, 5);
  expect_handles_in_order_never_reused(table);
}

TEST(online_handle_table, SparseHandlesInOrderNeverReused)
{
  HandleTable<std::string> table(kKind, 5);
  expect_handles_in_order_never_reused(table);
}

TEST(online_handle_table, InvalidHandlesFoundNull)
{
  HandleTable<std::string, HandleStorage::Dense> dense(kKind, 5);
  HandleTable<std::string> sparse(kKind, 5);
  expect_invalid_handles_found_null(dense);
  expect_invalid_handles_found_null(sparse);
}

TEST(online_handle_table, PredefinedHandlesBelowTheFirst)
{
  HandleTable<std::string, HandleStorage::Dense> dense(kKind, 3);
  dense.insert_predefined(1, "world");
  EXPECT_EQ(*dense.find(1), "world");
  EXPECT_EQ(dense.find(2), nullptr); // reserved, not set
  EXPECT_EQ(dense.insert("user"), 3);

  HandleTable<std::string> sparse(kKind, 3);
  EXPECT_EQ(sparse.find(1), nullptr);
  sparse.insert_predefined(1, "env"); // made on first use
  EXPECT_EQ(*sparse.find(1), "env");
  EXPECT_EQ(sparse.insert("user"), 3);
}

TEST(online_handle_table, TakeMovesTheObjectOut)
{
  HandleTable<std::unique_ptr<int>> table(kKind, 1);
  const int handle = table.insert(std::make_unique<int>(42));
  std::optional<std::unique_ptr<int>> taken = table.take(handle);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(**taken, 42);
  EXPECT_EQ(table.find(handle), nullptr);
  EXPECT_FALSE(table.take(handle).has_value());
}

TEST(online_handle_table, FindHandleSearchesInHandleOrder)
{
  HandleTable<int, HandleStorage::Dense> table(kKind, 1);
  table.insert(10); // 1
  table.insert(20); // 2
  table.insert(20); // 3
  table.erase(2);
  EXPECT_EQ(table.find_handle([](int value) { return value == 20; }), 3); // the freed 2 is skipped
  EXPECT_EQ(table.find_handle([](int value) { return value == 10; }), 1);
  EXPECT_EQ(table.find_handle([](int value) { return value == 30; }), 0);
}

TEST(online_handle_table, ObjectsKeepTheirAddressInSparseTables)
{
  // Windows and groups hand out references into their table while other handles are made.
  HandleTable<std::string> table(kKind, 1);
  const std::string* first = table.find(table.insert("first"));
  for (int i = 0; i < 1000; ++i)
    table.insert(std::to_string(i));
  EXPECT_EQ(table.find(1), first);
  EXPECT_EQ(*first, "first");
}
