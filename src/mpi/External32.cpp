#include "mpi/External32.hpp"

#include <algorithm>
#include <array>

namespace mpisim::mpi {

namespace {

// The bytes of one element swapped as a unit: complex halves, and the value then the int of pair types. Unused
// units are 0.
std::array<size_t, 2> swap_units(Element element)
{
  switch (element) {
  case Element::FloatComplex:
  case Element::CxxFloatComplex:
  case Element::FortranComplex:
  case Element::Complex8:
  case Element::FortranTwoInteger:
  case Element::FortranTwoReal: return {4, 4};
  case Element::DoubleComplex:
  case Element::CxxDoubleComplex:
  case Element::FortranDoubleComplex:
  case Element::Complex16:
  case Element::FortranTwoDoublePrecision: return {8, 8};
  case Element::FloatInt:
  case Element::DoubleInt:
  case Element::TwoInt:
  case Element::ShortInt: return {element_size(element) - sizeof(int), sizeof(int)};
  default: return {element_size(element), 0};
  }
}

} // namespace

bool same_size_in_external32(Element element)
{
  switch (element) {
  case Element::Long:
  case Element::UnsignedLong:
  case Element::WChar:
  case Element::LongDouble:
  case Element::LongDoubleComplex:
  case Element::CxxLongDoubleComplex:
  case Element::LongInt:
  case Element::LongDoubleInt:
  case Element::Real16:
  case Element::Complex32: return false;
  default: return true;
  }
}

std::optional<Element> first_resized_in_external32(const Datatype& type)
{
  for (const Datatype::Run& run : type.signature())
    if (not same_size_in_external32(run.element))
      return run.element;
  return std::nullopt;
}

std::optional<std::string> external32_refusal(const Datatype& type)
{
  const std::optional<Element> resized = first_resized_in_external32(type);
  if (not resized)
    return std::nullopt;
  return std::string(element_name(*resized)) +
         " has another size in external32 than on this machine: not supported by mpisim";
}

void swap_external32(std::byte* data, size_t count, const Datatype& type)
{
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    for (size_t i = 0; i < count; ++i)
      for (const Datatype::Run& run : type.signature()) {
        const std::array<size_t, 2> units = swap_units(run.element);
        for (size_t k = 0; k < run.count; ++k)
          for (size_t unit : units) {
            std::reverse(data, data + unit);
            data += unit;
          }
      }
}

} // namespace mpisim::mpi
