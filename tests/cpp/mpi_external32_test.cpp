// The external32 representation (MPI-3.1 section 13.5.2): packed elements turned big-endian, values written out by
// hand from the standard's encoding (two's complement integers, IEEE 754 binary32 and binary64, most significant byte
// first; the pair types as their two members in order).
#include "mpi/Datatype.hpp"
#include "mpi/External32.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace mpisim::mpi;

namespace {

std::vector<uint8_t> external32_of(const Datatype& type, const void* source, size_t count)
{
  std::vector<std::byte> bytes(type.packed_size(count));
  type.pack(source, count, bytes.data());
  swap_external32(bytes.data(), count, type);
  std::vector<uint8_t> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(mpi_external32, IntegersAndFloatsMostSignificantByteFirst)
{
  const int32_t ints[2] = {0x01020304, -2};
  EXPECT_EQ(external32_of(*Datatype::predefined(Element::Int), ints, 2),
            (std::vector<uint8_t>{0x01, 0x02, 0x03, 0x04, 0xff, 0xff, 0xff, 0xfe}));
  const double half = -0.25; // sign 1, exponent 1021 (0x3fd), fraction 0: 0xbfd0000000000000
  EXPECT_EQ(external32_of(*Datatype::predefined(Element::Double), &half, 1),
            (std::vector<uint8_t>{0xbf, 0xd0, 0, 0, 0, 0, 0, 0}));
  const int16_t shorts[1] = {0x1234};
  EXPECT_EQ(external32_of(*Datatype::predefined(Element::Short), shorts, 1), (std::vector<uint8_t>{0x12, 0x34}));
}

// A padded struct {char, double at 8} packs to 9 bytes; each element is swapped on its own. MPI_SHORT_INT is a short
// then an int (6 bytes of data): two units, not one 6-byte number.
TEST(mpi_external32, StructsAndPairsSwapEachMember)
{
  DatatypePtr s =
      Datatype::structure({1, 1}, {0, 8}, {Datatype::predefined(Element::Char), Datatype::predefined(Element::Double)});
  struct {
    char c;
    double d;
  } value{'A', 1.5}; // 1.5 = 0x3ff8000000000000
  EXPECT_EQ(external32_of(*s, &value, 1), (std::vector<uint8_t>{0x41, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0}));
  struct {
    int16_t s;
    int32_t i;
  } pair{0x0102, 0x03040506};
  EXPECT_EQ(external32_of(*Datatype::predefined(Element::ShortInt), &pair, 1),
            (std::vector<uint8_t>{0x01, 0x02, 0x03, 0x04, 0x05, 0x06}));
}

TEST(mpi_external32, SwappingTwiceGivesTheNativeBytesBack)
{
  DatatypePtr v = Datatype::vector(2, 1, 2, Datatype::predefined(Element::Float));
  const float floats[3] = {0.5F, 9.0F, -3.0F};
  std::vector<std::byte> bytes(v->packed_size(1));
  v->pack(floats, 1, bytes.data());
  swap_external32(bytes.data(), 1, *v);
  EXPECT_EQ(std::to_integer<int>(bytes[0]), 0x3f); // 0.5 = 0x3f000000
  swap_external32(bytes.data(), 1, *v);
  float back[2];
  std::memcpy(back, bytes.data(), sizeof back);
  EXPECT_EQ(back[0], 0.5F);
  EXPECT_EQ(back[1], -3.0F);
}

// Table 13.2: long is 4 bytes in external32 (8 here), long double 16 (an 80-bit extended here).
TEST(mpi_external32, ElementsOfAnotherSizeAreNamed)
{
  EXPECT_FALSE(first_resized_in_external32(*Datatype::predefined(Element::Double)).has_value());
  DatatypePtr s =
      Datatype::structure({1, 1}, {0, 8}, {Datatype::predefined(Element::Int), Datatype::predefined(Element::Long)});
  EXPECT_EQ(first_resized_in_external32(*s), Element::Long);
  EXPECT_EQ(first_resized_in_external32(*Datatype::predefined(Element::LongDoubleInt)), Element::LongDoubleInt);
  EXPECT_FALSE(same_size_in_external32(Element::WChar));
  EXPECT_TRUE(same_size_in_external32(Element::LongLong));
}

} // namespace
