#include "mpi/Datatype.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>

namespace mpisim::mpi {

namespace {

template <typename Value> struct ValueInt {
  Value value;
  int index;
};

struct ElementInfo {
  const char* name;
  size_t size;   // packed bytes (pair types: value + int, no padding)
  size_t extent; // bytes in memory (the C struct for pair types)
  size_t alignment;
  std::vector<Datatype::Block> blocks; // the C layout of one element
};

template <typename T> ElementInfo scalar(const char* name)
{
  return {name, sizeof(T), sizeof(T), alignof(T), {{0, sizeof(T)}}};
}

template <typename Value> ElementInfo pair(const char* name)
{
  using Pair = ValueInt<Value>;
  return {name,
          sizeof(Value) + sizeof(int),
          sizeof(Pair),
          alignof(Pair),
          {{0, sizeof(Value)}, {static_cast<std::ptrdiff_t>(offsetof(Pair, index)), sizeof(int)}}};
}

// Fortran's pair types (MPI_2INTEGER, MPI_2REAL ...): two values of one type, the index being the second.
template <typename Value> ElementInfo twin(const char* name)
{
  return {name, 2 * sizeof(Value), 2 * sizeof(Value), alignof(Value), {{0, 2 * sizeof(Value)}}};
}

const std::vector<ElementInfo>& elements()
{
  static const std::vector<ElementInfo> table = {
      scalar<char>("MPI_CHAR"),
      scalar<signed char>("MPI_SIGNED_CHAR"),
      scalar<unsigned char>("MPI_UNSIGNED_CHAR"),
      scalar<unsigned char>("MPI_BYTE"),
      scalar<short>("MPI_SHORT"),
      scalar<unsigned short>("MPI_UNSIGNED_SHORT"),
      scalar<int>("MPI_INT"),
      scalar<unsigned>("MPI_UNSIGNED"),
      scalar<long>("MPI_LONG"),
      scalar<unsigned long>("MPI_UNSIGNED_LONG"),
      scalar<long long>("MPI_LONG_LONG"),
      scalar<unsigned long long>("MPI_UNSIGNED_LONG_LONG"),
      scalar<float>("MPI_FLOAT"),
      scalar<double>("MPI_DOUBLE"),
      scalar<long double>("MPI_LONG_DOUBLE"),
      scalar<int8_t>("MPI_INT8_T"),
      scalar<int16_t>("MPI_INT16_T"),
      scalar<int32_t>("MPI_INT32_T"),
      scalar<int64_t>("MPI_INT64_T"),
      scalar<uint8_t>("MPI_UINT8_T"),
      scalar<uint16_t>("MPI_UINT16_T"),
      scalar<uint32_t>("MPI_UINT32_T"),
      scalar<uint64_t>("MPI_UINT64_T"),
      scalar<bool>("MPI_C_BOOL"),
      scalar<wchar_t>("MPI_WCHAR"),
      scalar<std::complex<float>>("MPI_C_FLOAT_COMPLEX"),
      scalar<std::complex<double>>("MPI_C_DOUBLE_COMPLEX"),
      scalar<std::ptrdiff_t>("MPI_AINT"),
      scalar<long long>("MPI_OFFSET"),
      scalar<long long>("MPI_COUNT"),
      pair<float>("MPI_FLOAT_INT"),
      pair<double>("MPI_DOUBLE_INT"),
      pair<long>("MPI_LONG_INT"),
      pair<int>("MPI_2INT"),
      pair<short>("MPI_SHORT_INT"),
      pair<long double>("MPI_LONG_DOUBLE_INT"),
      scalar<unsigned char>("MPI_PACKED"),
      scalar<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX"),
      scalar<bool>("MPI_CXX_BOOL"),
      scalar<std::complex<float>>("MPI_CXX_FLOAT_COMPLEX"),
      scalar<std::complex<double>>("MPI_CXX_DOUBLE_COMPLEX"),
      scalar<std::complex<long double>>("MPI_CXX_LONG_DOUBLE_COMPLEX"),
      scalar<char>("MPI_CHARACTER"),
      scalar<int>("MPI_LOGICAL"),
      scalar<int>("MPI_INTEGER"),
      scalar<float>("MPI_REAL"),
      scalar<double>("MPI_DOUBLE_PRECISION"),
      scalar<std::complex<float>>("MPI_COMPLEX"),
      scalar<std::complex<double>>("MPI_DOUBLE_COMPLEX"),
      twin<int>("MPI_2INTEGER"),
      twin<float>("MPI_2REAL"),
      twin<double>("MPI_2DOUBLE_PRECISION"),
      scalar<int8_t>("MPI_INTEGER1"),
      scalar<int16_t>("MPI_INTEGER2"),
      scalar<int32_t>("MPI_INTEGER4"),
      scalar<int64_t>("MPI_INTEGER8"),
      scalar<Integer16Value>("MPI_INTEGER16"),
      scalar<float>("MPI_REAL4"),
      scalar<double>("MPI_REAL8"),
      scalar<long double>("MPI_REAL16"),
      scalar<std::complex<float>>("MPI_COMPLEX8"),
      scalar<std::complex<double>>("MPI_COMPLEX16"),
      scalar<std::complex<long double>>("MPI_COMPLEX32"),
  };
  return table;
}

const ElementInfo& info(Element element)
{
  return elements()[static_cast<size_t>(element)];
}

void require(bool condition, const std::string& message)
{
  if (not condition)
    throw InputError(message);
}

void require_old(const DatatypePtr& old, const char* constructor)
{
  require(old != nullptr, std::string(constructor) + ": the old datatype is MPI_DATATYPE_NULL");
}

} // namespace

size_t element_size(Element element)
{
  return info(element).size;
}
const char* element_name(Element element)
{
  return info(element).name;
}

DatatypePtr Datatype::predefined(Element element)
{
  static const std::vector<DatatypePtr> types = [] {
    std::vector<DatatypePtr> all;
    for (size_t i = 0; i < elements().size(); ++i) {
      const ElementInfo& e = elements()[i];
      auto type = std::shared_ptr<Datatype>(new Datatype());
      type->name_ = e.name;
      type->size_ = e.size;
      type->lb_ = 0;
      type->ub_ = static_cast<std::ptrdiff_t>(e.extent);
      type->predefined_ = true;
      type->blocks_ = e.blocks;
      type->signature_ = {{static_cast<Element>(i), 1}};
      type->finish();
      all.push_back(type);
    }
    return all;
  }();
  return types[static_cast<size_t>(element)];
}

DatatypePtr Datatype::lower_bound_marker()
{
  static const DatatypePtr marker = [] {
    auto type = std::shared_ptr<Datatype>(new Datatype());
    type->name_ = "MPI_LB";
    type->predefined_ = true;
    type->lb_from_ = Bound::Marker;
    type->ub_from_ = Bound::Absent;
    type->finish();
    return type;
  }();
  return marker;
}

DatatypePtr Datatype::upper_bound_marker()
{
  static const DatatypePtr marker = [] {
    auto type = std::shared_ptr<Datatype>(new Datatype());
    type->name_ = "MPI_UB";
    type->predefined_ = true;
    type->lb_from_ = Bound::Absent;
    type->ub_from_ = Bound::Marker;
    type->finish();
    return type;
  }();
  return marker;
}

namespace {
// The extreme bound of each origin seen so far while assembling a type.
struct BoundCandidates {
  std::optional<std::ptrdiff_t> data, marker;
};
} // namespace

std::shared_ptr<Datatype> Datatype::assemble(const std::vector<std::ptrdiff_t>& displacements,
                                             const std::vector<size_t>& lengths, const std::vector<DatatypePtr>& types,
                                             std::string name)
{
  auto type = std::shared_ptr<Datatype>(new Datatype());
  type->name_ = std::move(name);
  BoundCandidates lower, upper;
  const auto take = [](BoundCandidates& candidates, Bound from, std::ptrdiff_t value, auto better) {
    std::optional<std::ptrdiff_t>& slot = from == Bound::Marker ? candidates.marker : candidates.data;
    if (from != Bound::Absent)
      slot = slot ? better(*slot, value) : value;
  };
  const auto min = [](std::ptrdiff_t a, std::ptrdiff_t b) { return std::min(a, b); };
  const auto max = [](std::ptrdiff_t a, std::ptrdiff_t b) { return std::max(a, b); };
  size_t alignment = 1;
  for (size_t k = 0; k < displacements.size(); ++k) {
    const Datatype& old = *types[k];
    if (lengths[k] == 0)
      continue;
    for (size_t copy = 0; copy < lengths[k]; ++copy) {
      const std::ptrdiff_t base = displacements[k] + static_cast<std::ptrdiff_t>(copy) * old.extent();
      for (const Block& block : old.blocks_) {
        Block shifted{base + block.offset, block.length};
        if (not type->blocks_.empty() &&
            type->blocks_.back().offset + static_cast<std::ptrdiff_t>(type->blocks_.back().length) == shifted.offset)
          type->blocks_.back().length += shifted.length;
        else if (shifted.length > 0)
          type->blocks_.push_back(shifted);
      }
      for (const Run& run : old.signature_) {
        if (not type->signature_.empty() && type->signature_.back().element == run.element)
          type->signature_.back().count += run.count;
        else
          type->signature_.push_back(run);
      }
    }
    // The copies run from the first to the last by steps of the old extent, which may be negative (then the last
    // copy holds the lower bound and the first one the upper bound).
    const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(lengths[k] - 1) * old.extent();
    const std::ptrdiff_t first = displacements[k] + old.lb_ + std::min<std::ptrdiff_t>(span, 0);
    const std::ptrdiff_t last = displacements[k] + old.ub_ + std::max<std::ptrdiff_t>(span, 0);
    take(lower, old.lb_from_, first, min);
    take(upper, old.ub_from_, last, max);
    for (const Run& run : old.signature_)
      alignment = std::max(alignment, info(run.element).alignment);
    type->size_ += lengths[k] * old.size_;
  }
  // A marker wins over the data. A type holding only an upper bound marker has no lower bound of its own and takes
  // the upper one (extent 0), and conversely; a type of no elements has its bounds at 0, from its (empty) data.
  const bool empty = not(lower.data || lower.marker || upper.data || upper.marker);
  const auto settle = [empty](const BoundCandidates& candidates, Bound& from) {
    from = candidates.marker ? Bound::Marker : (candidates.data || empty) ? Bound::Data : Bound::Absent;
    return candidates.marker ? candidates.marker : candidates.data;
  };
  const std::optional<std::ptrdiff_t> lb = settle(lower, type->lb_from_), ub = settle(upper, type->ub_from_);
  type->lb_ = lb.value_or(ub.value_or(0));
  type->ub_ = ub.value_or(type->lb_);
  // Struct types are padded to the alignment of their widest member, as C compilers and MPI libraries do, unless
  // a bound was set explicitly.
  const bool any_marker = type->lb_from_ == Bound::Marker || type->ub_from_ == Bound::Marker;
  if (lb && ub && displacements.size() > 1 && not any_marker) {
    const auto align = static_cast<std::ptrdiff_t>(alignment);
    std::ptrdiff_t extent = type->ub_ - type->lb_;
    type->ub_ = type->lb_ + (extent + align - 1) / align * align;
  }
  type->finish();
  return type;
}

void Datatype::finish()
{
  if (blocks_.empty()) {
    true_lb_ = true_ub_ = 0;
  } else {
    true_lb_ = std::numeric_limits<std::ptrdiff_t>::max();
    true_ub_ = std::numeric_limits<std::ptrdiff_t>::min();
    for (const Block& block : blocks_) {
      true_lb_ = std::min(true_lb_, block.offset);
      true_ub_ = std::max(true_ub_, block.offset + static_cast<std::ptrdiff_t>(block.length));
    }
  }
  contiguous_ = size_ == 0 || (blocks_.size() == 1 && blocks_[0].offset == 0 && lb_ == 0 &&
                               static_cast<std::ptrdiff_t>(blocks_[0].length) == extent());
}

bool Datatype::homogeneous(Element& element) const
{
  if (signature_.empty())
    return false;
  element = signature_.front().element;
  return std::all_of(signature_.begin(), signature_.end(), [&](const Run& run) { return run.element == element; });
}

DatatypePtr Datatype::contiguous(int count, const DatatypePtr& old)
{
  require_old(old, "MPI_Type_contiguous");
  require(count >= 0, "MPI_Type_contiguous: negative count " + std::to_string(count));
  return recorded(assemble({0}, {static_cast<size_t>(count)}, {old}, "contiguous(" + old->name_ + ")"),
                  {Combiner::Contiguous, {count}, {}, {old}});
}

DatatypePtr Datatype::hvector(int count, int blocklength, std::ptrdiff_t stride_bytes, const DatatypePtr& old)
{
  require_old(old, "MPI_Type_create_hvector");
  require(count >= 0 && blocklength >= 0, "MPI_Type_(h)vector: negative count or block length (" +
                                              std::to_string(count) + ", " + std::to_string(blocklength) + ")");
  std::vector<std::ptrdiff_t> displacements(count);
  for (int i = 0; i < count; ++i)
    displacements[i] = i * stride_bytes;
  return recorded(assemble(displacements, std::vector<size_t>(count, blocklength), std::vector<DatatypePtr>(count, old),
                           "vector(" + old->name_ + ")"),
                  {Combiner::Hvector, {count, blocklength}, {stride_bytes}, {old}});
}

DatatypePtr Datatype::vector(int count, int blocklength, int stride, const DatatypePtr& old)
{
  require_old(old, "MPI_Type_vector");
  return recorded(hvector(count, blocklength, static_cast<std::ptrdiff_t>(stride) * old->extent(), old),
                  {Combiner::Vector, {count, blocklength, stride}, {}, {old}});
}

DatatypePtr Datatype::hindexed(const std::vector<int>& blocklengths,
                               const std::vector<std::ptrdiff_t>& displacements_bytes, const DatatypePtr& old)
{
  require_old(old, "MPI_Type_create_hindexed");
  require(blocklengths.size() == displacements_bytes.size(), "MPI_Type_(h)indexed: lengths and displacements differ");
  std::vector<size_t> lengths;
  for (int length : blocklengths) {
    require(length >= 0, "MPI_Type_(h)indexed: negative block length " + std::to_string(length));
    lengths.push_back(static_cast<size_t>(length));
  }
  std::vector<int> integers{static_cast<int>(blocklengths.size())};
  integers.insert(integers.end(), blocklengths.begin(), blocklengths.end());
  return recorded(assemble(displacements_bytes, lengths, std::vector<DatatypePtr>(lengths.size(), old),
                           "indexed(" + old->name_ + ")"),
                  {Combiner::Hindexed, integers, displacements_bytes, {old}});
}

DatatypePtr Datatype::indexed(const std::vector<int>& blocklengths, const std::vector<int>& displacements,
                              const DatatypePtr& old)
{
  require_old(old, "MPI_Type_indexed");
  std::vector<std::ptrdiff_t> bytes;
  bytes.reserve(displacements.size());
  for (int displacement : displacements)
    bytes.push_back(static_cast<std::ptrdiff_t>(displacement) * old->extent());
  std::vector<int> integers{static_cast<int>(blocklengths.size())};
  integers.insert(integers.end(), blocklengths.begin(), blocklengths.end());
  integers.insert(integers.end(), displacements.begin(), displacements.end());
  return recorded(hindexed(blocklengths, bytes, old), {Combiner::Indexed, integers, {}, {old}});
}

DatatypePtr Datatype::indexed_block(int blocklength, const std::vector<int>& displacements, const DatatypePtr& old)
{
  std::vector<int> integers{static_cast<int>(displacements.size()), blocklength};
  integers.insert(integers.end(), displacements.begin(), displacements.end());
  return recorded(indexed(std::vector<int>(displacements.size(), blocklength), displacements, old),
                  {Combiner::IndexedBlock, integers, {}, {old}});
}

DatatypePtr Datatype::hindexed_block(int blocklength, const std::vector<std::ptrdiff_t>& displacements_bytes,
                                     const DatatypePtr& old)
{
  return recorded(hindexed(std::vector<int>(displacements_bytes.size(), blocklength), displacements_bytes, old),
                  {Combiner::HindexedBlock,
                   {static_cast<int>(displacements_bytes.size()), blocklength},
                   displacements_bytes,
                   {old}});
}

DatatypePtr Datatype::structure(const std::vector<int>& blocklengths,
                                const std::vector<std::ptrdiff_t>& displacements_bytes,
                                const std::vector<DatatypePtr>& types)
{
  require(blocklengths.size() == displacements_bytes.size() && blocklengths.size() == types.size(),
          "MPI_Type_create_struct: the three arrays have different lengths");
  std::vector<size_t> lengths;
  for (size_t i = 0; i < blocklengths.size(); ++i) {
    require(types[i] != nullptr, "MPI_Type_create_struct: type " + std::to_string(i) + " is MPI_DATATYPE_NULL");
    require(blocklengths[i] >= 0, "MPI_Type_create_struct: negative block length " + std::to_string(blocklengths[i]));
    lengths.push_back(static_cast<size_t>(blocklengths[i]));
  }
  std::vector<int> integers{static_cast<int>(blocklengths.size())};
  integers.insert(integers.end(), blocklengths.begin(), blocklengths.end());
  return recorded(assemble(displacements_bytes, lengths, types, "struct"),
                  {Combiner::Struct, integers, displacements_bytes, types});
}

DatatypePtr Datatype::resized(const DatatypePtr& old, std::ptrdiff_t lb, std::ptrdiff_t extent)
{
  require_old(old, "MPI_Type_create_resized");
  auto type = std::shared_ptr<Datatype>(new Datatype(*old));
  type->name_ = "resized(" + old->name_ + ")";
  type->predefined_ = false;
  type->lb_ = lb;
  type->ub_ = lb + extent;
  type->lb_from_ = type->ub_from_ = Bound::Marker;
  type->finish();
  return recorded(type, {Combiner::Resized, {}, {lb, extent}, {old}});
}

DatatypePtr Datatype::subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                               const std::vector<int>& starts, Order order, const DatatypePtr& old)
{
  require_old(old, "MPI_Type_create_subarray");
  const size_t dims = sizes.size();
  require(dims > 0 && subsizes.size() == dims && starts.size() == dims,
          "MPI_Type_create_subarray: sizes, subsizes and starts must have the same, positive length");
  for (size_t d = 0; d < dims; ++d)
    require(sizes[d] > 0 && subsizes[d] >= 0 && starts[d] >= 0 && starts[d] + subsizes[d] <= sizes[d],
            "MPI_Type_create_subarray: dimension " + std::to_string(d) + " has size " + std::to_string(sizes[d]) +
                ", subsize " + std::to_string(subsizes[d]) + ", start " + std::to_string(starts[d]));
  // Work in C order (last dimension fastest); Fortran order is the same with the dimensions reversed.
  std::vector<int> size = sizes, sub = subsizes, start = starts;
  if (order == Order::Fortran) {
    std::reverse(size.begin(), size.end());
    std::reverse(sub.begin(), sub.end());
    std::reverse(start.begin(), start.end());
  }
  std::vector<std::ptrdiff_t> stride(dims, 1); // in elements
  for (size_t d = dims - 1; d > 0; --d)
    stride[d - 1] = stride[d] * size[d];
  // One row of sub[last] contiguous elements per index of the outer dimensions.
  std::vector<std::ptrdiff_t> rows;
  std::vector<int> index(dims, 0);
  const bool empty = std::any_of(sub.begin(), sub.end(), [](int s) { return s == 0; });
  while (not empty) {
    std::ptrdiff_t element = 0;
    for (size_t d = 0; d < dims; ++d)
      element += (start[d] + (d + 1 == dims ? 0 : index[d])) * stride[d];
    rows.push_back(element * old->extent());
    size_t d = dims - 1;
    while (d > 0) { // odometer over the outer dimensions
      --d;
      if (++index[d] < sub[d])
        break;
      index[d] = 0;
      if (d == 0) {
        d = dims; // wrapped around: done
        break;
      }
    }
    if (dims == 1 || d == dims)
      break;
  }
  DatatypePtr rows_type = hindexed_block(sub[dims - 1], rows, old);
  const std::ptrdiff_t total = std::accumulate(size.begin(), size.end(), std::ptrdiff_t{1}, std::multiplies<>());
  std::vector<int> integers{static_cast<int>(dims)};
  integers.insert(integers.end(), sizes.begin(), sizes.end());
  integers.insert(integers.end(), subsizes.begin(), subsizes.end());
  integers.insert(integers.end(), starts.begin(), starts.end());
  integers.push_back(order == Order::C ? 0 : 1);
  return recorded(resized(rows_type, 0, total * old->extent()), {Combiner::Subarray, integers, {}, {old}});
}

DatatypePtr Datatype::duplicate(const DatatypePtr& old)
{
  require_old(old, "MPI_Type_dup");
  auto type = std::shared_ptr<Datatype>(new Datatype(*old));
  type->predefined_ = false;
  return recorded(type, {Combiner::Dup, {}, {}, {old}});
}

DatatypePtr Datatype::with_recipe(const DatatypePtr& built, Recipe recipe)
{
  auto type = std::shared_ptr<Datatype>(new Datatype(*built));
  type->predefined_ = false;
  return recorded(type, std::move(recipe));
}

DatatypePtr Datatype::parameterized(const DatatypePtr& matching, Combiner combiner, std::vector<int> parameters)
{
  require_old(matching, "MPI_Type_create_f90");
  auto type = std::shared_ptr<Datatype>(new Datatype(*matching));
  type->predefined_ = true; // MPI-3.1 17.1.9: it cannot be freed, and reductions take it as the sized type
  return recorded(type, {combiner, std::move(parameters), {}, {}});
}

DatatypePtr Datatype::recorded(const DatatypePtr& fresh, Recipe recipe)
{
  // Every constructor builds a new object (never returns `old` itself), created non-const and not yet handed out:
  // setting its recipe here is its last step of construction.
  std::const_pointer_cast<Datatype>(fresh)->recipe_ = std::move(recipe);
  return fresh;
}

void Datatype::pack(const void* source, size_t count, std::byte* out) const
{
  const auto* base = static_cast<const std::byte*>(source);
  if (contiguous_) {
    std::memcpy(out, base, count * size_);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const std::byte* element = base + static_cast<std::ptrdiff_t>(i) * extent();
    for (const Block& block : blocks_) {
      std::memcpy(out, element + block.offset, block.length);
      out += block.length;
    }
  }
}

void Datatype::unpack(const std::byte* in, size_t count, void* destination) const
{
  auto* base = static_cast<std::byte*>(destination);
  if (contiguous_) {
    std::memcpy(base, in, count * size_);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    std::byte* element = base + static_cast<std::ptrdiff_t>(i) * extent();
    for (const Block& block : blocks_) {
      std::memcpy(element + block.offset, in, block.length);
      in += block.length;
    }
  }
}

} // namespace mpisim::mpi
