#include "mpi/ReduceOp.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace mpisim::mpi {

namespace {

const char* operation_name(ReduceOperation operation)
{
  static const char* names[] = {"MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD", "MPI_LAND",
                                "MPI_LOR",    "MPI_LXOR",   "MPI_BAND",    "MPI_BOR",  "MPI_BXOR",
                                "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};
  return names[static_cast<size_t>(operation)];
}

[[noreturn]] void undefined(ReduceOperation operation, Element element)
{
  throw InputError(std::string(operation_name(operation)) + " is not defined for " + element_name(element));
}

template <typename T> constexpr bool is_complex = false;
template <typename T> constexpr bool is_complex<std::complex<T>> = true;

// Combines n packed values of type T: inout = in op inout.
template <typename T> void combine(ReduceOperation op, Element element, const std::byte* in, std::byte* inout, size_t n)
{
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, in + i * sizeof(T), sizeof(T));
    std::memcpy(&b, inout + i * sizeof(T), sizeof(T));
    T r{};
    if constexpr (is_complex<T>) {
      switch (op) {
      case ReduceOperation::Sum: r = a + b; break;
      case ReduceOperation::Prod: r = a * b; break;
      default: undefined(op, element);
      }
    } else if constexpr (std::is_floating_point_v<T>) {
      switch (op) {
      case ReduceOperation::Max: r = std::max(a, b); break;
      case ReduceOperation::Min: r = std::min(a, b); break;
      case ReduceOperation::Sum: r = a + b; break;
      case ReduceOperation::Prod: r = a * b; break;
      case ReduceOperation::LogicalAnd: r = (a != 0) && (b != 0); break;
      case ReduceOperation::LogicalOr: r = (a != 0) || (b != 0); break;
      case ReduceOperation::LogicalXor: r = (a != 0) != (b != 0); break;
      default: undefined(op, element);
      }
    } else {
      switch (op) {
      case ReduceOperation::Max: r = std::max(a, b); break;
      case ReduceOperation::Min: r = std::min(a, b); break;
      case ReduceOperation::Sum: r = static_cast<T>(a + b); break;
      case ReduceOperation::Prod: r = static_cast<T>(a * b); break;
      case ReduceOperation::LogicalAnd: r = (a != 0) && (b != 0); break;
      case ReduceOperation::LogicalOr: r = (a != 0) || (b != 0); break;
      case ReduceOperation::LogicalXor: r = (a != 0) != (b != 0); break;
      case ReduceOperation::BitwiseAnd: r = static_cast<T>(a & b); break;
      case ReduceOperation::BitwiseOr: r = static_cast<T>(a | b); break;
      case ReduceOperation::BitwiseXor: r = static_cast<T>(a ^ b); break;
      default: undefined(op, element);
      }
    }
    std::memcpy(inout + i * sizeof(T), &r, sizeof(T));
  }
}

// MAXLOC / MINLOC over packed (value, index) pairs: the better value wins; on equal values, the smaller index. The
// index is an int in C's pair types, of the value's type in Fortran's (MPI_2REAL ...).
template <typename Value, typename Index = int>
void combine_location(ReduceOperation op, Element element, const std::byte* in, std::byte* inout, size_t n)
{
  if (op != ReduceOperation::MaxLoc && op != ReduceOperation::MinLoc)
    undefined(op, element);
  constexpr size_t stride = sizeof(Value) + sizeof(Index);
  for (size_t i = 0; i < n; ++i) {
    Value a, b;
    Index ia, ib;
    std::memcpy(&a, in + i * stride, sizeof(Value));
    std::memcpy(&ia, in + i * stride + sizeof(Value), sizeof(Index));
    std::memcpy(&b, inout + i * stride, sizeof(Value));
    std::memcpy(&ib, inout + i * stride + sizeof(Value), sizeof(Index));
    bool take_in = op == ReduceOperation::MaxLoc ? a > b : a < b;
    if (a == b)
      take_in = ia < ib;
    if (take_in) {
      std::memcpy(inout + i * stride, &a, sizeof(Value));
      std::memcpy(inout + i * stride + sizeof(Value), &ia, sizeof(Index));
    }
  }
}

bool is_location_pair(Element element)
{
  switch (element) {
  case Element::FloatInt:
  case Element::DoubleInt:
  case Element::LongInt:
  case Element::TwoInt:
  case Element::ShortInt:
  case Element::LongDoubleInt:
  case Element::FortranTwoInteger:
  case Element::FortranTwoReal:
  case Element::FortranTwoDoublePrecision: return true;
  default: return false;
  }
}

bool is_logical_operation(ReduceOperation op)
{
  return op == ReduceOperation::LogicalAnd || op == ReduceOperation::LogicalOr || op == ReduceOperation::LogicalXor;
}

// Fortran's INTEGERs and REALs are not in the standard's logical group (MPI-3.1 section 5.9.2). mpisim accepts the
// logical operations on C's floating types, as MPICH does (its test suite checks it), but not on Fortran's.
template <typename T>
void combine_fortran_number(ReduceOperation op, Element element, const std::byte* in, std::byte* inout, size_t n)
{
  if (is_logical_operation(op))
    undefined(op, element);
  combine<T>(op, element, in, inout, n);
}

void combine_run(ReduceOperation op, Element element, const std::byte* in, std::byte* inout, size_t n)
{
  if (op == ReduceOperation::Replace) {
    std::memcpy(inout, in, n * element_size(element));
    return;
  }
  if (op == ReduceOperation::NoOp)
    return;
  if (not is_location_pair(element) && (op == ReduceOperation::MaxLoc || op == ReduceOperation::MinLoc))
    undefined(op, element);
  switch (element) {
  case Element::Char: combine<char>(op, element, in, inout, n); break;
  case Element::SignedChar: combine<signed char>(op, element, in, inout, n); break;
  case Element::UnsignedChar: combine<unsigned char>(op, element, in, inout, n); break;
  case Element::Byte:
    if (op != ReduceOperation::BitwiseAnd && op != ReduceOperation::BitwiseOr && op != ReduceOperation::BitwiseXor)
      undefined(op, element);
    combine<unsigned char>(op, element, in, inout, n);
    break;
  case Element::Short: combine<short>(op, element, in, inout, n); break;
  case Element::UnsignedShort: combine<unsigned short>(op, element, in, inout, n); break;
  case Element::Int: combine<int>(op, element, in, inout, n); break;
  case Element::Unsigned: combine<unsigned>(op, element, in, inout, n); break;
  case Element::Long: combine<long>(op, element, in, inout, n); break;
  case Element::UnsignedLong: combine<unsigned long>(op, element, in, inout, n); break;
  case Element::LongLong:
  case Element::Offset:
  case Element::Count: combine<long long>(op, element, in, inout, n); break;
  case Element::UnsignedLongLong: combine<unsigned long long>(op, element, in, inout, n); break;
  case Element::Float: combine<float>(op, element, in, inout, n); break;
  case Element::Double: combine<double>(op, element, in, inout, n); break;
  case Element::LongDouble: combine<long double>(op, element, in, inout, n); break;
  case Element::Int8: combine<int8_t>(op, element, in, inout, n); break;
  case Element::Int16: combine<int16_t>(op, element, in, inout, n); break;
  case Element::Int32: combine<int32_t>(op, element, in, inout, n); break;
  case Element::Int64: combine<int64_t>(op, element, in, inout, n); break;
  case Element::UInt8: combine<uint8_t>(op, element, in, inout, n); break;
  case Element::UInt16: combine<uint16_t>(op, element, in, inout, n); break;
  case Element::UInt32: combine<uint32_t>(op, element, in, inout, n); break;
  case Element::UInt64: combine<uint64_t>(op, element, in, inout, n); break;
  case Element::CBool:
  case Element::CxxBool:
    if (not is_logical_operation(op))
      undefined(op, element);
    combine<bool>(op, element, in, inout, n);
    break;
  case Element::FortranLogical:
    if (not is_logical_operation(op))
      undefined(op, element);
    combine<int>(op, element, in, inout, n);
    break;
  case Element::FortranCharacter: undefined(op, element);
  case Element::FortranInteger:
  case Element::Integer4: combine_fortran_number<int32_t>(op, element, in, inout, n); break;
  case Element::Integer1: combine_fortran_number<int8_t>(op, element, in, inout, n); break;
  case Element::Integer2: combine_fortran_number<int16_t>(op, element, in, inout, n); break;
  case Element::Integer8: combine_fortran_number<int64_t>(op, element, in, inout, n); break;
  case Element::Integer16: combine_fortran_number<Integer16Value>(op, element, in, inout, n); break;
  case Element::FortranReal:
  case Element::Real4: combine_fortran_number<float>(op, element, in, inout, n); break;
  case Element::FortranDoublePrecision:
  case Element::Real8: combine_fortran_number<double>(op, element, in, inout, n); break;
  case Element::Real16: combine_fortran_number<long double>(op, element, in, inout, n); break;
  case Element::FortranComplex:
  case Element::Complex8: combine<std::complex<float>>(op, element, in, inout, n); break;
  case Element::FortranDoubleComplex:
  case Element::Complex16: combine<std::complex<double>>(op, element, in, inout, n); break;
  case Element::Complex32: combine<std::complex<long double>>(op, element, in, inout, n); break;
  case Element::FortranTwoInteger: combine_location<int, int>(op, element, in, inout, n); break;
  case Element::FortranTwoReal: combine_location<float, float>(op, element, in, inout, n); break;
  case Element::FortranTwoDoublePrecision: combine_location<double, double>(op, element, in, inout, n); break;
  case Element::WChar: combine<wchar_t>(op, element, in, inout, n); break;
  case Element::FloatComplex:
  case Element::CxxFloatComplex: combine<std::complex<float>>(op, element, in, inout, n); break;
  case Element::DoubleComplex:
  case Element::CxxDoubleComplex: combine<std::complex<double>>(op, element, in, inout, n); break;
  case Element::LongDoubleComplex:
  case Element::CxxLongDoubleComplex: combine<std::complex<long double>>(op, element, in, inout, n); break;
  case Element::Aint: combine<std::ptrdiff_t>(op, element, in, inout, n); break;
  case Element::FloatInt: combine_location<float>(op, element, in, inout, n); break;
  case Element::DoubleInt: combine_location<double>(op, element, in, inout, n); break;
  case Element::LongInt: combine_location<long>(op, element, in, inout, n); break;
  case Element::TwoInt: combine_location<int>(op, element, in, inout, n); break;
  case Element::ShortInt: combine_location<short>(op, element, in, inout, n); break;
  case Element::LongDoubleInt: combine_location<long double>(op, element, in, inout, n); break;
  case Element::Packed: undefined(op, element);
  }
}

} // namespace

std::shared_ptr<const ReduceOp> ReduceOp::predefined(ReduceOperation operation)
{
  static const std::vector<std::shared_ptr<const ReduceOp>> ops = [] {
    std::vector<std::shared_ptr<const ReduceOp>> all;
    for (size_t i = 0; i <= static_cast<size_t>(ReduceOperation::NoOp); ++i) {
      auto op = std::shared_ptr<ReduceOp>(new ReduceOp());
      op->operation_ = static_cast<ReduceOperation>(i);
      op->name_ = operation_name(op->operation_);
      op->predefined_ = true;
      op->commutative_ = true;
      all.push_back(op);
    }
    return all;
  }();
  return ops[static_cast<size_t>(operation)];
}

std::shared_ptr<const ReduceOp> ReduceOp::user(UserFunction function, bool commutative, std::string name)
{
  auto op = std::shared_ptr<ReduceOp>(new ReduceOp());
  op->user_ = std::move(function);
  op->commutative_ = commutative;
  op->name_ = std::move(name);
  return op;
}

std::string ReduceOp::undefined_for(const Datatype& type) const
{
  if (not predefined_)
    return {};
  // Combining one element of each kind the signature holds raises what a whole reduction would.
  alignas(std::max_align_t) std::byte in[64] = {}, inout[64] = {};
  for (const Datatype::Run& run : type.signature()) {
    try {
      combine_run(operation_, run.element, in, inout, 1);
    } catch (const InputError& error) {
      return error.what();
    }
  }
  return {};
}

void ReduceOp::apply_packed(const std::byte* in, std::byte* inout, size_t count, const Datatype& type) const
{
  for (size_t i = 0; i < count; ++i)
    for (const Datatype::Run& run : type.signature()) {
      combine_run(operation_, run.element, in, inout, run.count);
      const size_t bytes = run.count * element_size(run.element);
      in += bytes;
      inout += bytes;
    }
}

void ReduceOp::apply(const void* in, void* inout, size_t count, const Datatype& type) const
{
  if (count == 0)
    return;
  if (not predefined_) {
    user_(in, inout, static_cast<int>(count), type);
    return;
  }
  if (type.is_contiguous()) {
    apply_packed(static_cast<const std::byte*>(in), static_cast<std::byte*>(inout), count, type);
    return;
  }
  std::vector<std::byte> a(type.packed_size(count)), b(type.packed_size(count));
  type.pack(in, count, a.data());
  type.pack(inout, count, b.data());
  apply_packed(a.data(), b.data(), count, type);
  type.unpack(b.data(), count, inout);
}

void ReduceOp::apply_to_packed(const std::byte* in, std::byte* inout, size_t count, const Datatype& type) const
{
  if (count == 0)
    return;
  if (predefined_) {
    apply_packed(in, inout, count, type);
    return;
  }
  if (type.is_contiguous()) {
    user_(in, inout, static_cast<int>(count), type);
    return;
  }
  // A user function indexes its buffers with the datatype's layout: give it unpacked copies.
  // The elements start true_lb bytes from the buffer address.
  const auto span = static_cast<size_t>(type.true_extent() + static_cast<std::ptrdiff_t>(count - 1) * type.extent());
  std::vector<std::byte> a(span), b(span);
  std::byte* a_base = a.data() - type.true_lb();
  std::byte* b_base = b.data() - type.true_lb();
  type.unpack(in, count, a_base);
  type.unpack(inout, count, b_base);
  user_(a_base, b_base, static_cast<int>(count), type);
  type.pack(b_base, count, inout);
}

} // namespace mpisim::mpi
