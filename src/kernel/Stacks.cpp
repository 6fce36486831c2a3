#include "kernel/Stacks.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <string>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace mpisim::kernel {

namespace {

size_t page_bytes()
{
  static const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

size_t whole_pages(size_t bytes)
{
  const size_t page = page_bytes();
  return (bytes + page - 1) / page * page;
}

long long read_number(const char* path)
{
  std::ifstream in(path);
  long long value = -1;
  return in >> value ? value : -1;
}

// "8 MiB", "1.2e+03 TiB": bytes in the largest binary unit below them.
std::string in_units(double bytes)
{
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && bytes >= 1024) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", bytes, kUnits[unit]);
  return text;
}

// The address space the process may map: 47-bit user space (x86-64, AArch64 by default), or less under RLIMIT_AS.
double address_space_bytes()
{
  double bytes = 128.0 * 1024 * 1024 * 1024 * 1024;
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  return bytes;
}

void check_address_space(long long actors, size_t stack_bytes, double mapped_per_actor)
{
  const double bytes = static_cast<double>(actors) * mapped_per_actor;
  const double available = address_space_bytes();
  if (bytes > available)
    throw InputError(std::to_string(actors) + " ranks with stacks of " + in_units(static_cast<double>(stack_bytes)) +
                     " need " + in_units(bytes) + " of address space, more than the process has (" +
                     in_units(available) + "): use a smaller stack size or fewer ranks");
}

} // namespace

long long mappings_in_use()
{
  std::ifstream maps("/proc/self/maps");
  long long lines = 0;
  for (std::string line; std::getline(maps, line);)
    ++lines;
  return lines;
}

size_t stack_guard_bytes()
{
  const size_t page = page_bytes();
  return std::max(page, size_t{64} * 1024) / page * page;
}

// --- GuardedStacks

GuardedStacks::GuardedStacks(size_t stack_bytes) : stack_bytes_(whole_pages(stack_bytes)) {}

void GuardedStacks::check_capacity(long long actors) const
{
  const long long needed = 2 * actors; // stack and guard
  const long long limit = read_number("/proc/sys/vm/max_map_count");
  const long long in_use = mappings_in_use();
  if (limit > 0 && needed + in_use > limit) {
    const long long suggested = (needed + in_use) * 5 / 4 / 65536 * 65536 + 65536;
    throw InputError(std::to_string(actors) + " ranks need " + std::to_string(needed) +
                     " memory mappings (a stack and its guard page each), more than vm.max_map_count allows (" +
                     std::to_string(limit) + ", " + std::to_string(in_use) + " in use): raise it, as root, with " +
                     "`sysctl -w vm.max_map_count=" + std::to_string(suggested) + "`, or simulate fewer ranks");
  }
  check_address_space(actors, stack_bytes_, static_cast<double>(stack_bytes_ + stack_guard_bytes()));
}

// Throws std::bad_alloc when the guard cannot be set, which happens when the process runs out of memory mappings:
// boost's protected_fixedsize_stack only asserts that in debug builds, so past the limit stacks silently lost their
// guard and an overflow would have overwritten the next rank's stack.
ActorStack GuardedStacks::allocate()
{
  const size_t guard = stack_guard_bytes();
  const size_t bytes = stack_bytes_ + guard;
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    throw std::bad_alloc();
  if (::mprotect(base, guard, PROT_NONE) != 0) {
    ::munmap(base, bytes);
    throw std::bad_alloc();
  }
  return {static_cast<char*>(base) + guard, stack_bytes_, nullptr};
}

void GuardedStacks::release(const ActorStack& stack) noexcept
{
  const size_t guard = stack_guard_bytes();
  ::munmap(static_cast<char*>(stack.bottom) - guard, stack.size + guard);
}

// --- StackArena

std::atomic<bool> StackArena::measuring_{false};
std::atomic<size_t> StackArena::deepest_use_{0};

namespace {

constexpr size_t kFirstReservationSlices = 256;

// The top of each slice holds two words that are not its actor's stack: the canary of the slice above (whose bottom
// is this slice's top) and, while the slice is free, the link to the next free one. Both lie in the page an actor
// touches first (its top page), so watching for overflow costs no page: a canary at the bottom of the actor's own
// slice would touch a page of its own in every slice.
constexpr size_t kSliceHeaderBytes = 2 * sizeof(uint64_t);

} // namespace

StackArena::StackArena(size_t slice_bytes) : slice_bytes_(whole_pages(std::max(slice_bytes, 2 * kSliceHeaderBytes))) {}

StackArena::~StackArena()
{
  for (const Reservation& reservation : reservations_)
    ::munmap(reservation.base, reservation.bytes);
}

void StackArena::check_capacity(long long actors) const
{
  // The reservations double: in the worst case half of the last one is unused.
  check_address_space(actors, slice_bytes_, 2.0 * static_cast<double>(slice_bytes_));
}

// A reservation starts with a page that holds the canary of its first slice, then its slices.
void StackArena::reserve_more()
{
  const size_t slices = reservations_.empty() ? kFirstReservationSlices : 2 * reservations_.back().slices;
  const size_t bytes = page_bytes() + slices * slice_bytes_;
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    throw std::bad_alloc();
  reservations_.push_back({static_cast<char*>(base), bytes, slices});
  next_ = static_cast<char*>(base) + page_bytes();
  end_ = static_cast<char*>(base) + bytes;
}

ActorStack StackArena::allocate()
{
  char* bottom = nullptr;
  if (free_ != nullptr) {
    bottom = free_;
    std::memcpy(&free_, next_free_link(bottom), sizeof free_);
  } else {
    if (next_ == end_)
      reserve_more();
    bottom = next_;
    next_ += slice_bytes_;
  }
  auto* canary = reinterpret_cast<uint64_t*>(bottom) - 1; // the top word of the slice (or page) under this one
  *canary = kStackCanary;
  return {bottom, stack_bytes(), canary};
}

void StackArena::release(const ActorStack& stack) noexcept
{
  if (measuring_.load()) {
    const auto* word = static_cast<const uint64_t*>(stack.bottom);
    const auto* top = word + stack.size / sizeof(uint64_t);
    while (word < top && *word == 0)
      ++word;
    const auto used = static_cast<size_t>(top - word) * sizeof(uint64_t);
    size_t deepest = deepest_use_.load();
    while (used > deepest && not deepest_use_.compare_exchange_weak(deepest, used)) {
    }
  }
  auto* bottom = static_cast<char*>(stack.bottom);
  std::memcpy(next_free_link(bottom), &free_, sizeof free_);
  free_ = bottom;
}

size_t StackArena::stack_bytes() const
{
  return slice_bytes_ - kSliceHeaderBytes;
}

char* StackArena::next_free_link(char* bottom) const
{
  return bottom + slice_bytes_ - kSliceHeaderBytes;
}

namespace {

constexpr size_t kWordBytes = sizeof(uint64_t);

uint64_t word_at(const std::byte* frames, size_t word)
{
  uint64_t value = 0;
  std::memcpy(&value, frames + word * kWordBytes, kWordBytes);
  return value;
}

size_t bitmap_words(size_t words)
{
  return (words + 63) / 64;
}

// The XORs among `differing` ones (after the bitmap of `map_words` in `found`) that need 64 bits.
size_t wide_xors(const uint64_t* found, size_t map_words, size_t differing)
{
  const uint64_t* xors = found + map_words;
  size_t wide = 0;
  for (size_t k = 0; k < differing; ++k)
    wide += xors[k] > UINT32_MAX;
  return wide;
}

// What a copy keeps of `differing` words given `found`, the bitmap of the differing words (`map_words`) then their XORs
// with the reference, `wide` of which need 64 bits: the bitmap, the bitmap of the wide XORs, those, then the others in
// 32 bits, packed (another rank's pointer to an object of the same kind, its counters and dates differ in their low
// bits).
size_t differences_words(size_t map_words, size_t differing, size_t wide)
{
  return map_words + bitmap_words(differing) + wide + (differing - wide + 1) / 2;
}

void encode_differences(const uint64_t* found, size_t map_words, size_t differing, size_t wide, uint64_t* out)
{
  const uint64_t* xors = found + map_words;
  std::copy_n(found, map_words, out);
  uint64_t* wide_map = out + map_words;
  std::fill_n(wide_map, bitmap_words(differing), uint64_t{0});
  uint64_t* wide_out = wide_map + bitmap_words(differing);
  auto* narrow_out = reinterpret_cast<std::byte*>(wide_out + wide);
  for (size_t k = 0; k < differing; ++k) {
    if (xors[k] > UINT32_MAX) {
      wide_map[k / 64] |= uint64_t{1} << (k % 64);
      *wide_out++ = xors[k];
    } else {
      const auto low = static_cast<uint32_t>(xors[k]);
      std::memcpy(narrow_out, &low, sizeof low);
      narrow_out += sizeof low;
    }
  }
}

} // namespace

bool FrameCopy::save_plain(SharedStack& stack, const std::byte* frames, size_t bytes)
{
  const size_t words = (bytes + kWordBytes - 1) / kWordBytes;
  if (words > capacity_) {
    const size_t granted = stack.plain_bytes_granted_ + words * kWordBytes;
    if (granted > stack.plain_copy_budget_)
      return false;
    stack.plain_bytes_granted_ = granted;
    differences_ = std::make_unique_for_overwrite<uint64_t[]>(words);
    capacity_ = static_cast<uint32_t>(words);
  }
  std::memcpy(differences_.get(), frames, bytes);
  reference_.reset();
  bytes_ = static_cast<uint32_t>(bytes);
  differing_ = 0;
  plain_ = true;
  return true;
}

void FrameCopy::save(SharedStack& stack, const std::byte* frames, size_t bytes)
{
  if (save_plain(stack, frames, bytes))
    return;
  plain_ = false;
  bytes_ = static_cast<uint32_t>(bytes);
  differing_ = 0;
  if (bytes % kWordBytes != 0) { // kept whole, as a reference of its own
    auto own = std::make_shared_for_overwrite<uint64_t[]>((bytes + kWordBytes - 1) / kWordBytes);
    std::memcpy(own.get(), frames, bytes);
    reference_ = std::move(own);
    ++stack.references_made_;
    return;
  }
  const size_t words = bytes / kWordBytes;
  const size_t map_words = bitmap_words(words);
  const size_t most_differing = words / 2;
  SharedStack::References& references = stack.references(bytes);
  std::vector<uint64_t>& scratch = stack.scratch_;
  if (scratch.size() < map_words + most_differing)
    scratch.resize(map_words + most_differing);
  for (const std::shared_ptr<const uint64_t[]>& reference : references) {
    if (not reference)
      break;
    const uint64_t* base = reference.get();
    std::fill_n(scratch.begin(), map_words, uint64_t{0});
    size_t kept = map_words;
    size_t word = 0;
    for (; word < words; ++word) {
      const uint64_t value = word_at(frames, word);
      if (value == base[word])
        continue;
      if (kept - map_words == most_differing)
        break; // too different from this one
      scratch[word / 64] |= uint64_t{1} << (word % 64);
      scratch[kept++] = value ^ base[word];
    }
    if (word < words)
      continue;
    reference_ = reference;
    differing_ = static_cast<uint32_t>(kept - map_words);
    stack.words_differing_ += differing_;
    if (differing_ == 0)
      return;
    const size_t wide = wide_xors(scratch.data(), map_words, differing_);
    const size_t needed = differences_words(map_words, differing_, wide);
    if (needed > capacity_) {
      differences_ = std::make_unique_for_overwrite<uint64_t[]>(needed);
      capacity_ = static_cast<uint32_t>(needed);
    }
    encode_differences(scratch.data(), map_words, differing_, wide, differences_.get());
    return;
  }
  // The depth's first copy, or one too different from its references: the newest reference, the oldest one goes
  // (the copies made against it keep it).
  auto own = std::make_shared_for_overwrite<uint64_t[]>(words);
  std::memcpy(own.get(), frames, bytes);
  std::move_backward(references.begin(), references.end() - 1, references.end());
  references.front() = own;
  reference_ = std::move(own);
  ++stack.references_made_;
}

void FrameCopy::restore(std::byte* frames) const
{
  if (plain_) {
    std::memcpy(frames, differences_.get(), bytes_);
    return;
  }
  std::memcpy(frames, reference_.get(), bytes_);
  if (differing_ == 0)
    return;
  const size_t map_words = bitmap_words(bytes_ / kWordBytes);
  const uint64_t* wide_map = differences_.get() + map_words;
  const size_t wide_map_words = bitmap_words(differing_);
  size_t wide = 0;
  for (size_t map = 0; map < wide_map_words; ++map)
    wide += static_cast<size_t>(std::popcount(wide_map[map]));
  const uint64_t* wide_xor = wide_map + wide_map_words;
  const auto* narrow_xor = reinterpret_cast<const std::byte*>(wide_xor + wide);
  size_t k = 0;
  for (size_t map = 0; map < map_words; ++map)
    for (uint64_t bits = differences_[map]; bits != 0; bits &= bits - 1, ++k) {
      std::byte* word = frames + (map * 64 + static_cast<size_t>(std::countr_zero(bits))) * kWordBytes;
      uint64_t xor_with_reference = 0;
      if ((wide_map[k / 64] >> (k % 64)) & 1) {
        xor_with_reference = *wide_xor++;
      } else {
        uint32_t low = 0;
        std::memcpy(&low, narrow_xor, sizeof low);
        narrow_xor += sizeof low;
        xor_with_reference = low;
      }
      uint64_t value = 0;
      std::memcpy(&value, word, kWordBytes);
      value ^= xor_with_reference;
      std::memcpy(word, &value, kWordBytes);
    }
}

void FrameCopy::clear()
{
  reference_.reset();
  differences_.reset();
  capacity_ = differing_ = bytes_ = 0;
  plain_ = false;
}

SharedStack::References& SharedStack::references(size_t bytes)
{
  return references_[static_cast<uint32_t>(bytes / kWordBytes)];
}

SharedStack::SharedStack(size_t stack_bytes, size_t plain_copy_budget)
    : guarded_(stack_bytes), stack_(guarded_.allocate()), plain_copy_budget_(plain_copy_budget)
{
}

SharedStack::~SharedStack()
{
  guarded_.release(stack_);
}

} // namespace mpisim::kernel
