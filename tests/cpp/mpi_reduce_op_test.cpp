// Reduction operations: inout = in op inout, element by element, with MPI's definitions (MPI-3.1 sec. 5.9).
#include "common/Errors.hpp"
#include "mpi/ReduceOp.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <vector>

using namespace mpisim;
using namespace mpisim::mpi;

namespace {

const Datatype& type(Element element)
{
  return *Datatype::predefined(element);
}
void reduce(ReduceOperation op, const void* in, void* inout, size_t count, const Datatype& t)
{
  ReduceOp::predefined(op)->apply(in, inout, count, t);
}

TEST(mpi_reduce_op, ArithmeticAndExtrema)
{
  int in[3] = {1, -5, 7}, inout[3] = {10, 20, -30};
  reduce(ReduceOperation::Sum, in, inout, 3, type(Element::Int));
  EXPECT_EQ(std::vector<int>(inout, inout + 3), (std::vector<int>{11, 15, -23}));
  double a[2] = {1.5, -2.0}, b[2] = {0.5, -3.0};
  reduce(ReduceOperation::Max, a, b, 2, type(Element::Double));
  EXPECT_EQ(b[0], 1.5);
  EXPECT_EQ(b[1], -2.0);
  long long p[1] = {-3}, q[1] = {7};
  reduce(ReduceOperation::Prod, p, q, 1, type(Element::LongLong));
  EXPECT_EQ(q[0], -21);
  std::complex<double> c[1] = {{1, 2}}, d[1] = {{3, -1}};
  reduce(ReduceOperation::Prod, c, d, 1, type(Element::DoubleComplex)); // (1+2i)(3-i) = 5+5i
  EXPECT_EQ(d[0], std::complex<double>(5, 5));
}

TEST(mpi_reduce_op, LogicalAndBitwise)
{
  int in[4] = {0, 1, 2, 0}, inout[4] = {0, 0, 3, 5};
  reduce(ReduceOperation::LogicalOr, in, inout, 4, type(Element::Int));
  EXPECT_EQ(std::vector<int>(inout, inout + 4), (std::vector<int>{0, 1, 1, 1}));
  unsigned char x[2] = {0xF0, 0x0F}, y[2] = {0x3C, 0x3C};
  reduce(ReduceOperation::BitwiseXor, x, y, 2, type(Element::Byte));
  EXPECT_EQ(y[0], 0xCC);
  EXPECT_EQ(y[1], 0x33);
  bool t[2] = {true, false}, u[2] = {true, true};
  reduce(ReduceOperation::LogicalAnd, t, u, 2, type(Element::CBool));
  EXPECT_TRUE(u[0]);
  EXPECT_FALSE(u[1]);
}

// The Fortran types reduce as the standard's groups say (MPI-3.1 section 5.9.2): MPI_COMPLEX sums, MPI_2REAL pairs
// take MINLOC with a real index, MPI_LOGICAL takes the logical operations only, MPI_INTEGER not the logical ones,
// MPI_CHARACTER none.
TEST(mpi_reduce_op, FortranTypesFollowTheStandardsGroups)
{
  std::complex<float> c[1] = {{1, 2}}, d[1] = {{3, -1}};
  reduce(ReduceOperation::Sum, c, d, 1, type(Element::FortranComplex));
  EXPECT_EQ(d[0], std::complex<float>(4, 1));
  float pairs_in[4] = {2.5f, 7, 1.0f, 9}, pairs_inout[4] = {2.5f, 3, 4.0f, 1}; // (value, index) x 2
  reduce(ReduceOperation::MinLoc, pairs_in, pairs_inout, 2, type(Element::FortranTwoReal));
  EXPECT_EQ(std::vector<float>(pairs_inout, pairs_inout + 4), (std::vector<float>{2.5f, 3, 1.0f, 9}));
  int logical_in[2] = {1, 0}, logical_inout[2] = {1, 1};
  reduce(ReduceOperation::LogicalAnd, logical_in, logical_inout, 2, type(Element::FortranLogical));
  EXPECT_EQ(std::vector<int>(logical_inout, logical_inout + 2), (std::vector<int>{1, 0}));
  Integer16Value big_in[1] = {Integer16Value{1} << 100}, big_inout[1] = {Integer16Value{1} << 100};
  reduce(ReduceOperation::Sum, big_in, big_inout, 1, type(Element::Integer16));
  EXPECT_TRUE(big_inout[0] == (Integer16Value{1} << 101));

  const auto op = [](ReduceOperation operation) { return ReduceOp::predefined(operation); };
  EXPECT_EQ(op(ReduceOperation::Sum)->undefined_for(type(Element::FortranLogical)),
            "MPI_SUM is not defined for MPI_LOGICAL");
  EXPECT_EQ(op(ReduceOperation::LogicalOr)->undefined_for(type(Element::FortranInteger)),
            "MPI_LOR is not defined for MPI_INTEGER");
  EXPECT_EQ(op(ReduceOperation::Max)->undefined_for(type(Element::FortranCharacter)),
            "MPI_MAX is not defined for MPI_CHARACTER");
  EXPECT_EQ(op(ReduceOperation::MaxLoc)->undefined_for(type(Element::FortranDoublePrecision)),
            "MPI_MAXLOC is not defined for MPI_DOUBLE_PRECISION");
  EXPECT_EQ(op(ReduceOperation::BitwiseAnd)->undefined_for(type(Element::Integer2)), "");
  EXPECT_EQ(op(ReduceOperation::MinLoc)->undefined_for(type(Element::FortranTwoInteger)), "");
  EXPECT_EQ(op(ReduceOperation::Prod)->undefined_for(type(Element::Complex32)), "");
}

// MAXLOC: larger value wins; equal values keep the smaller index. MINLOC mirrors it.
TEST(mpi_reduce_op, MaxLocAndMinLocOnPairs)
{
  struct DoubleInt {
    double value;
    int index;
  };
  DoubleInt in[3] = {{2.0, 5}, {1.0, 1}, {4.0, 9}}, inout[3] = {{1.0, 0}, {1.0, 3}, {4.0, 2}};
  reduce(ReduceOperation::MaxLoc, in, inout, 3, type(Element::DoubleInt));
  EXPECT_EQ(inout[0].value, 2.0);
  EXPECT_EQ(inout[0].index, 5);
  EXPECT_EQ(inout[1].index, 1);                      // tie: smaller index
  EXPECT_EQ(inout[2].index, 2);                      // tie: smaller index kept
  int pairs_in[2] = {3, 8}, pairs_inout[2] = {5, 1}; // MPI_2INT: (value, index)
  reduce(ReduceOperation::MinLoc, pairs_in, pairs_inout, 1, type(Element::TwoInt));
  EXPECT_EQ(pairs_inout[0], 3);
  EXPECT_EQ(pairs_inout[1], 8);
}

// A vector type (every other int): only the selected elements change.
TEST(mpi_reduce_op, NonContiguousTypesReduceOnlyTheirElements)
{
  DatatypePtr every_other = Datatype::vector(3, 1, 2, Datatype::predefined(Element::Int));
  int in[6] = {1, 100, 2, 100, 3, 100}, inout[6] = {10, -1, 20, -1, 30, -1};
  ReduceOp::predefined(ReduceOperation::Sum)->apply(in, inout, 1, *every_other);
  EXPECT_EQ(std::vector<int>(inout, inout + 6), (std::vector<int>{11, -1, 22, -1, 33, -1}));
}

TEST(mpi_reduce_op, UndefinedCombinationsAreInputErrors)
{
  double d[1] = {1}, e[1] = {2};
  try {
    reduce(ReduceOperation::BitwiseAnd, d, e, 1, type(Element::Double));
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "MPI_BAND is not defined for MPI_DOUBLE");
  }
  int pair[2] = {1, 2}, other[2] = {3, 4};
  EXPECT_THROW(reduce(ReduceOperation::Sum, pair, other, 1, type(Element::TwoInt)), InputError);
  EXPECT_THROW(reduce(ReduceOperation::MaxLoc, d, e, 1, type(Element::Double)), InputError);
}

TEST(mpi_reduce_op, UserOperationsAndReplace)
{
  // A non-commutative operation: inout = in * 10 + inout (keeps the order of operands visible).
  auto op = ReduceOp::user(
      [](const void* in, void* inout, int count, const Datatype&) {
        const int* a = static_cast<const int*>(in);
        int* b = static_cast<int*>(inout);
        for (int i = 0; i < count; ++i)
          b[i] = a[i] * 10 + b[i];
      },
      false, "shift");
  EXPECT_FALSE(op->commutative());
  int in[2] = {1, 2}, inout[2] = {3, 4};
  op->apply(in, inout, 2, type(Element::Int));
  EXPECT_EQ(inout[0], 13);
  EXPECT_EQ(inout[1], 24);
  reduce(ReduceOperation::Replace, in, inout, 2, type(Element::Int));
  EXPECT_EQ(inout[0], 1);
  int nines[2] = {9, 9};
  reduce(ReduceOperation::NoOp, nines, inout, 2, type(Element::Int));
  EXPECT_EQ(inout[1], 2);
}

} // namespace
