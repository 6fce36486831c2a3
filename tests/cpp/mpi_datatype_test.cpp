// Datatypes: type maps, bounds and pack/unpack, checked against layouts worked out by hand from MPI-3.1 chapter 4.
#include "common/Errors.hpp"
#include "mpi/Datatype.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

using namespace mpisim;
using namespace mpisim::mpi;

namespace {

DatatypePtr type_int()
{
  return Datatype::predefined(Element::Int);
}
DatatypePtr type_double()
{
  return Datatype::predefined(Element::Double);
}

template <typename T> std::vector<T> packed(const Datatype& type, const void* source, size_t count)
{
  std::vector<std::byte> bytes(type.packed_size(count));
  type.pack(source, count, bytes.data());
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(mpi_datatype, PredefinedSizesAndPairs)
{
  EXPECT_EQ(type_int()->size(), sizeof(int));
  EXPECT_EQ(type_double()->extent(), 8);
  EXPECT_TRUE(type_double()->is_contiguous());
  // MPI_DOUBLE_INT is struct {double; int}: 12 bytes of data in a 16-byte extent.
  DatatypePtr double_int = Datatype::predefined(Element::DoubleInt);
  EXPECT_EQ(double_int->size(), 12u);
  EXPECT_EQ(double_int->extent(), 16);
  EXPECT_FALSE(double_int->is_contiguous());
  // MPI_SHORT_INT is struct {short; int}: 6 bytes in 8.
  EXPECT_EQ(Datatype::predefined(Element::ShortInt)->size(), 6u);
  EXPECT_EQ(Datatype::predefined(Element::ShortInt)->extent(), 8);
}

// vector(count 3, blocklength 2, stride 4) of int: elements {0,1}, {4,5}, {8,9}; size 6 ints; extent = the span of
// the last block's end: (2*4 + 2) ints = 40 bytes (no trailing stride).
TEST(mpi_datatype, VectorLayout)
{
  DatatypePtr v = Datatype::vector(3, 2, 4, type_int());
  EXPECT_EQ(v->size(), 6 * sizeof(int));
  EXPECT_EQ(v->lb(), 0);
  EXPECT_EQ(v->extent(), 10 * static_cast<std::ptrdiff_t>(sizeof(int)));
  ASSERT_EQ(v->blocks().size(), 3u);
  EXPECT_EQ(v->blocks()[1].offset, 4 * static_cast<std::ptrdiff_t>(sizeof(int)));
  std::vector<int> data(24);
  std::iota(data.begin(), data.end(), 0);
  // Two elements: the second starts one extent (10 ints) later.
  EXPECT_EQ(packed<int>(*v, data.data(), 2), (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));
}

TEST(mpi_datatype, ContiguousOfContiguousIsContiguousAndMerged)
{
  DatatypePtr c = Datatype::contiguous(4, Datatype::contiguous(3, type_double()));
  EXPECT_TRUE(c->is_contiguous());
  EXPECT_EQ(c->blocks().size(), 1u);
  EXPECT_EQ(c->size(), 12 * sizeof(double));
  Element element;
  ASSERT_TRUE(c->homogeneous(element));
  EXPECT_EQ(element, Element::Double);
  ASSERT_EQ(c->signature().size(), 1u);
  EXPECT_EQ(c->signature()[0].count, 12u);
}

// indexed({2, 1}, {3, 0}) of int: ints 3, 4 then 0 (type-map order, not address order); lb 0, ub 5 ints.
TEST(mpi_datatype, IndexedKeepsTypeMapOrder)
{
  DatatypePtr t = Datatype::indexed({2, 1}, {3, 0}, type_int());
  EXPECT_EQ(t->lb(), 0);
  EXPECT_EQ(t->extent(), 5 * static_cast<std::ptrdiff_t>(sizeof(int)));
  int data[5] = {10, 11, 12, 13, 14};
  EXPECT_EQ(packed<int>(*t, data, 1), (std::vector<int>{13, 14, 10}));
  // unpack is the inverse
  std::vector<std::byte> bytes(t->packed_size(1));
  t->pack(data, 1, bytes.data());
  int back[5] = {0, 0, 0, 0, 0};
  t->unpack(bytes.data(), 1, back);
  EXPECT_EQ(std::vector<int>(back, back + 5), (std::vector<int>{10, 0, 0, 13, 14}));
}

// struct {char c; double d;} with displacements 0 and 8: size 9, extent 16 (padded to double's alignment).
TEST(mpi_datatype, StructIsPaddedToItsAlignment)
{
  DatatypePtr s = Datatype::structure({1, 1}, {0, 8}, {Datatype::predefined(Element::Char), type_double()});
  EXPECT_EQ(s->size(), 9u);
  EXPECT_EQ(s->extent(), 16);
  EXPECT_EQ(s->true_extent(), 16);
  Element element;
  EXPECT_FALSE(s->homogeneous(element));
}

// resized(int, lb -4, extent 12): three elements sit 12 bytes apart; lb and extent as given; true bounds are the int.
TEST(mpi_datatype, ResizedChangesTheStride)
{
  DatatypePtr r = Datatype::resized(type_int(), -4, 12);
  EXPECT_EQ(r->lb(), -4);
  EXPECT_EQ(r->extent(), 12);
  EXPECT_EQ(r->true_lb(), 0);
  EXPECT_EQ(r->true_extent(), 4);
  EXPECT_FALSE(r->is_contiguous());
  int data[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(packed<int>(*r, data, 3), (std::vector<int>{0, 3, 6}));
}

// MPI-1's markers (MPI-1.1 section 3.12.3). struct {LB at -4, int at 0, UB at 12}: lb -4, ub 12 (extent 16), 4 bytes
// of data. Two of them in a row: copies 16 bytes apart, markers at -4, 12 (lower) and 12, 28 (upper): lb -4, ub 28.
// The markers are sticky: next to a double at 100, the framed int keeps the type's upper bound at 12, where the
// data alone would give 108 (and 112 once padded).
TEST(mpi_datatype, BoundMarkersAreStickyThroughDerivedTypes)
{
  const DatatypePtr lb = Datatype::lower_bound_marker(), ub = Datatype::upper_bound_marker();
  EXPECT_EQ(lb->size(), 0u);
  EXPECT_EQ(lb->extent(), 0);
  DatatypePtr framed = Datatype::structure({1, 1, 1}, {-4, 0, 12}, {lb, type_int(), ub});
  EXPECT_EQ(framed->lb(), -4);
  EXPECT_EQ(framed->extent(), 16);
  EXPECT_EQ(framed->size(), 4u);
  EXPECT_EQ(framed->true_lb(), 0);
  EXPECT_EQ(framed->true_extent(), 4);
  DatatypePtr two = Datatype::contiguous(2, framed);
  EXPECT_EQ(two->lb(), -4);
  EXPECT_EQ(two->extent(), 32);
  DatatypePtr outer = Datatype::structure({1, 1}, {0, 100}, {framed, type_double()});
  EXPECT_EQ(outer->lb(), -4);
  EXPECT_EQ(outer->extent(), 16);
  EXPECT_EQ(outer->size(), 12u);
  // Without markers the same struct spans the data, padded to the double's alignment: 0 .. 112.
  DatatypePtr unmarked = Datatype::structure({1, 1}, {0, 100}, {type_int(), type_double()});
  EXPECT_EQ(unmarked->extent(), 112);
  // Resized bounds are markers too (MPI-2): an int resized to 0..4 next to the double keeps the upper bound at 4.
  DatatypePtr resized = Datatype::structure({1, 1}, {0, 100}, {Datatype::resized(type_int(), 0, 4), type_double()});
  EXPECT_EQ(resized->extent(), 4);
}

// One marker alone: struct {char at 0, UB at 8} spans 0..8 (the data's lower bound, the marker's upper one, no
// padding); three such elements pack the chars at 0, 8 and 16.
TEST(mpi_datatype, AnUpperMarkerAloneSetsTheStride)
{
  DatatypePtr t =
      Datatype::structure({1, 1}, {0, 8}, {Datatype::predefined(Element::Char), Datatype::upper_bound_marker()});
  EXPECT_EQ(t->lb(), 0);
  EXPECT_EQ(t->extent(), 8);
  const char data[24] = {'a', 0, 0, 0, 0, 0, 0, 0, 'b', 0, 0, 0, 0, 0, 0, 0, 'c'};
  EXPECT_EQ(packed<char>(*t, data, 3), (std::vector<char>{'a', 'b', 'c'}));
  // A type holding only the marker has no data bounds: lb = ub = the marker's displacement.
  DatatypePtr only = Datatype::structure({1}, {8}, {Datatype::upper_bound_marker()});
  EXPECT_EQ(only->lb(), 8);
  EXPECT_EQ(only->extent(), 0);
}

// The Fortran types: their sizes, and the pair types' layout (two values, no padding).
TEST(mpi_datatype, FortranTypes)
{
  EXPECT_EQ(Datatype::predefined(Element::FortranInteger)->size(), 4u);
  EXPECT_EQ(Datatype::predefined(Element::FortranDoubleComplex)->size(), 16u);
  EXPECT_EQ(Datatype::predefined(Element::Integer16)->size(), 16u);
  EXPECT_EQ(Datatype::predefined(Element::Complex32)->size(), 32u);
  DatatypePtr two_real = Datatype::predefined(Element::FortranTwoReal);
  EXPECT_EQ(two_real->size(), 8u);
  EXPECT_EQ(two_real->extent(), 8);
  EXPECT_TRUE(two_real->is_contiguous());
  EXPECT_EQ(two_real->name(), "MPI_2REAL");
}

// MPICH datatype/lbub: 4 bytes resized to lb 6, extent -9 (ub -3); three copies sit at 0, -9, -18, so the bounds are
// those of the last copy (lb -12) and of the first (ub -3): extent 9; true bounds -18..4.
TEST(mpi_datatype, ContiguousOfNegativeExtentTakesBoundsFromBothEnds)
{
  DatatypePtr r = Datatype::resized(Datatype::contiguous(4, Datatype::predefined(Element::Byte)), 6, -9);
  DatatypePtr c = Datatype::contiguous(3, r);
  EXPECT_EQ(c->size(), 12u);
  EXPECT_EQ(c->lb(), -12);
  EXPECT_EQ(c->extent(), 9);
  EXPECT_EQ(c->true_lb(), -18);
  EXPECT_EQ(c->true_extent(), 22);
  DatatypePtr v = Datatype::hvector(2, 3, 100, r); // blocks of three copies at 0 and 100
  EXPECT_EQ(v->lb(), -12);
  EXPECT_EQ(v->extent(), 109);
}

// subarray of a 4x5 int array (C order), subsizes 2x3 starting at (1, 2): rows 1 and 2, columns 2..4:
// elements 7, 8, 9, 12, 13, 14; extent is the whole array (20 ints). Fortran order transposes the roles.
TEST(mpi_datatype, SubarrayInCAndFortranOrder)
{
  std::vector<int> data(20);
  std::iota(data.begin(), data.end(), 0);
  DatatypePtr c = Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Datatype::Order::C, type_int());
  EXPECT_EQ(c->extent(), 20 * static_cast<std::ptrdiff_t>(sizeof(int)));
  EXPECT_EQ(packed<int>(*c, data.data(), 1), (std::vector<int>{7, 8, 9, 12, 13, 14}));
  // Fortran: dims (5, 4) column-major = the same memory seen as 4 columns of 5; subsizes (3, 2) from (2, 1):
  // columns 1 and 2, rows 2..4 -> 1*5+2.. = 7, 8, 9 and 12, 13, 14.
  DatatypePtr f = Datatype::subarray({5, 4}, {3, 2}, {2, 1}, Datatype::Order::Fortran, type_int());
  EXPECT_EQ(packed<int>(*f, data.data(), 1), (std::vector<int>{7, 8, 9, 12, 13, 14}));
  // A piece running past the end of a dimension (start 3 + subsize 2 > size 4) is rejected.
  EXPECT_THROW(Datatype::subarray({2, 3, 4}, {1, 1, 2}, {1, 2, 3}, Datatype::Order::C, type_int()), InputError);
  std::vector<int> cube(24);
  std::iota(cube.begin(), cube.end(), 0);
  DatatypePtr piece = Datatype::subarray({2, 3, 4}, {2, 2, 2}, {0, 1, 2}, Datatype::Order::C, type_int());
  // (i, j, k) with i in 0..1, j in 1..2, k in 2..3: 6, 7, 10, 11, 18, 19, 22, 23.
  EXPECT_EQ(packed<int>(*piece, cube.data(), 1), (std::vector<int>{6, 7, 10, 11, 18, 19, 22, 23}));
}

TEST(mpi_datatype, HvectorOfStructsRoundTrips)
{
  struct Particle {
    double x, y;
    int id;
  };
  DatatypePtr particle = Datatype::structure({2, 1}, {0, offsetof(Particle, id)}, {type_double(), type_int()});
  EXPECT_EQ(particle->extent(), static_cast<std::ptrdiff_t>(sizeof(Particle)));
  DatatypePtr every_other = Datatype::hvector(3, 1, 2 * sizeof(Particle), particle);
  Particle in[6], out[6] = {};
  for (int i = 0; i < 6; ++i)
    in[i] = {i + 0.5, -i - 0.25, 100 + i};
  std::vector<std::byte> bytes(every_other->packed_size(1));
  every_other->pack(in, 1, bytes.data());
  every_other->unpack(bytes.data(), 1, out);
  for (int i = 0; i < 6; ++i) {
    if (i % 2 == 0) {
      EXPECT_EQ(out[i].x, in[i].x);
      EXPECT_EQ(out[i].id, in[i].id);
    } else {
      EXPECT_EQ(out[i].id, 0);
    }
  }
}

TEST(mpi_datatype, BadArgumentsAreInputErrors)
{
  EXPECT_THROW(Datatype::contiguous(-1, type_int()), InputError);
  EXPECT_THROW(Datatype::vector(2, -1, 3, type_int()), InputError);
  EXPECT_THROW(Datatype::contiguous(2, nullptr), InputError);
  EXPECT_THROW(Datatype::structure({1}, {0, 4}, {type_int()}), InputError);
}

TEST(mpi_datatype, EmptyTypes)
{
  DatatypePtr empty = Datatype::contiguous(0, type_int());
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_TRUE(empty->is_contiguous());
  EXPECT_TRUE(empty->blocks().empty());
}

} // namespace

// MPI_Type_get_contents returns the constructor's arguments as given (MPI-3.1 4.1.13), not the constructors a type
// is built from internally (vector from hvector, subarray from hindexed_block and resized).
TEST(mpi_datatype, RecipesAreTheConstructorsArguments)
{
  using C = Datatype::Combiner;
  EXPECT_EQ(type_int()->recipe().combiner, C::Named);
  DatatypePtr vector = Datatype::vector(3, 2, 5, type_int());
  EXPECT_EQ(vector->recipe().combiner, C::Vector);
  EXPECT_EQ(vector->recipe().integers, (std::vector<int>{3, 2, 5}));
  EXPECT_TRUE(vector->recipe().addresses.empty());
  ASSERT_EQ(vector->recipe().types.size(), 1u);
  EXPECT_EQ(vector->recipe().types[0], type_int());

  DatatypePtr indexed = Datatype::indexed({2, 1}, {0, 5}, type_int());
  EXPECT_EQ(indexed->recipe().combiner, C::Indexed);
  EXPECT_EQ(indexed->recipe().integers, (std::vector<int>{2, 2, 1, 0, 5}));
  DatatypePtr block = Datatype::hindexed_block(2, {0, 24}, type_double());
  EXPECT_EQ(block->recipe().combiner, C::HindexedBlock);
  EXPECT_EQ(block->recipe().integers, (std::vector<int>{2, 2}));
  EXPECT_EQ(block->recipe().addresses, (std::vector<std::ptrdiff_t>{0, 24}));
  DatatypePtr structure = Datatype::structure({1, 1}, {0, 8}, {type_int(), type_double()});
  EXPECT_EQ(structure->recipe().combiner, C::Struct);
  EXPECT_EQ(structure->recipe().types, (std::vector<DatatypePtr>{type_int(), type_double()}));
  DatatypePtr subarray = Datatype::subarray({6, 8}, {2, 3}, {1, 4}, Datatype::Order::Fortran, type_int());
  EXPECT_EQ(subarray->recipe().combiner, C::Subarray);
  EXPECT_EQ(subarray->recipe().integers, (std::vector<int>{2, 6, 8, 2, 3, 1, 4, 1}));
  DatatypePtr resized = Datatype::resized(vector, -4, 64);
  EXPECT_EQ(resized->recipe().combiner, C::Resized);
  EXPECT_EQ(resized->recipe().addresses, (std::vector<std::ptrdiff_t>{-4, 64}));
  EXPECT_EQ(resized->recipe().types[0], vector);
}

TEST(mpi_datatype, DuplicateHasTheLayoutOfItsOriginal)
{
  DatatypePtr vector = Datatype::vector(3, 2, 5, type_int());
  DatatypePtr dup = Datatype::duplicate(vector);
  EXPECT_NE(dup, vector);
  EXPECT_EQ(dup->recipe().combiner, Datatype::Combiner::Dup);
  EXPECT_EQ(dup->recipe().types[0], vector);
  EXPECT_EQ(dup->size(), vector->size());
  EXPECT_EQ(dup->extent(), vector->extent());
  EXPECT_EQ(dup->blocks().size(), vector->blocks().size());
  DatatypePtr named = Datatype::duplicate(type_int());
  EXPECT_FALSE(named->is_predefined());
  EXPECT_EQ(vector->recipe().combiner, Datatype::Combiner::Vector); // the original keeps its own
}

TEST(mpi_datatype, FortranKindIsAPredefinedTypeWithItsParameters)
{
  DatatypePtr real8 = Datatype::parameterized(type_double(), Datatype::Combiner::F90Real, {15, 307});
  EXPECT_NE(real8, type_double());
  EXPECT_TRUE(real8->is_predefined()); // MPI_Type_free refuses it, reductions take it as a double
  EXPECT_EQ(real8->size(), sizeof(double));
  EXPECT_EQ(real8->extent(), static_cast<std::ptrdiff_t>(sizeof(double)));
  Element element{};
  ASSERT_TRUE(real8->homogeneous(element));
  EXPECT_EQ(element, Element::Double);
  EXPECT_EQ(real8->recipe().combiner, Datatype::Combiner::F90Real);
  EXPECT_EQ(real8->recipe().integers, (std::vector<int>{15, 307})); // MPI_Type_get_contents: p and r as given
  EXPECT_TRUE(real8->recipe().addresses.empty());
  EXPECT_TRUE(real8->recipe().types.empty());
  EXPECT_EQ(type_double()->recipe().combiner, Datatype::Combiner::Named); // the sized type keeps its own
}
