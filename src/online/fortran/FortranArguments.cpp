#include "online/fortran/FortranArguments.hpp"

#include "online/runtime/Runtime.hpp"

#include <algorithm>
#include <cstring>

namespace mpisim::online::fortran {

namespace {

// The common block of mpif.h holding the sentinels (gfortran's name for /MPISIM_SENTINELS/), and where each is in it.
constexpr const char* kSentinelBlock = "mpisim_sentinels_";
constexpr size_t sentinel_offset(Sentinel sentinel)
{
  switch (sentinel) {
  case Sentinel::Bottom: return 0;
  case Sentinel::InPlace: return 1;
  case Sentinel::StatusIgnore: return 2;
  case Sentinel::StatusesIgnore: return 2 + kStatusSize;
  case Sentinel::Unweighted: return 2 + 2 * kStatusSize;
  case Sentinel::WeightsEmpty: return 3 + 2 * kStatusSize;
  }
  return 0;
}

// The calling rank's sentinel block, looked up once per rank (null: the program has none, it is not Fortran).
const MPI_Fint* sentinel_block()
{
  struct Lookup {
    const Runtime* runtime = nullptr;
    std::vector<const MPI_Fint*> blocks;
    std::vector<bool> known;
  };
  static Lookup lookup;
  if (not Runtime::active())
    return nullptr;
  const Runtime& runtime = Runtime::get();
  const int rank = runtime.current_rank();
  if (rank < 0)
    return nullptr;
  if (lookup.runtime != &runtime) {
    lookup = Lookup{&runtime, {}, {}};
  }
  const auto index = static_cast<size_t>(rank);
  if (index >= lookup.known.size()) {
    lookup.blocks.resize(index + 1, nullptr);
    lookup.known.resize(index + 1, false);
  }
  if (not lookup.known[index]) {
    lookup.blocks[index] = static_cast<const MPI_Fint*>(runtime.program_symbol(rank, kSentinelBlock));
    lookup.known[index] = true;
  }
  return lookup.blocks[index];
}

void status_to_fortran(const MPI_Status& c_status, MPI_Fint* f_status)
{
  PMPI_Status_c2f(&c_status, f_status);
}

// Which of `first`, `second` the address is: 1 or 2; 0 when neither. The calling rank's block is looked up once for
// both (each lookup asks the engine which rank runs).
int which_sentinel(const void* address, Sentinel first, Sentinel second)
{
  if (address == nullptr)
    return 0;
  const MPI_Fint* block = sentinel_block();
  if (block == nullptr)
    return 0;
  if (address == block + sentinel_offset(first))
    return 1;
  return address == block + sentinel_offset(second) ? 2 : 0;
}

} // namespace

bool is_sentinel(const void* address, Sentinel sentinel)
{
  return which_sentinel(address, sentinel, sentinel) != 0;
}

void* buffer(const void* address)
{
  switch (which_sentinel(address, Sentinel::Bottom, Sentinel::InPlace)) {
  case 1: return MPI_BOTTOM;
  case 2: return MPI_IN_PLACE;
  default: return const_cast<void*>(address);
  }
}

int* weights(const int* address)
{
  switch (which_sentinel(address, Sentinel::Unweighted, Sentinel::WeightsEmpty)) {
  case 1: return MPI_UNWEIGHTED;
  case 2: return MPI_WEIGHTS_EMPTY;
  default: return const_cast<int*>(address);
  }
}

StatusOut::StatusOut(MPI_Fint* status)
    : fortran_(which_sentinel(status, Sentinel::StatusIgnore, Sentinel::StatusesIgnore) != 0 ? nullptr : status)
{
}

StatusOut::~StatusOut()
{
  if (fortran_ != nullptr)
    status_to_fortran(status_, fortran_);
}

StatusInOut::StatusInOut(MPI_Fint* status) : fortran_(status)
{
  PMPI_Status_f2c(status, &status_);
}

StatusInOut::~StatusInOut()
{
  status_to_fortran(status_, fortran_);
}

StatusesOut::StatusesOut(MPI_Fint* statuses, int count)
    : fortran_(is_sentinel(statuses, Sentinel::StatusesIgnore) ? nullptr : statuses),
      statuses_(fortran_ != nullptr ? static_cast<size_t>(std::max(count, 0)) : 0)
{
}

void StatusesOut::write_back(int written)
{
  if (fortran_ == nullptr)
    return;
  written = std::clamp(written, 0, static_cast<int>(statuses_.size()));
  for (int i = 0; i < written; ++i)
    status_to_fortran(statuses_[static_cast<size_t>(i)], fortran_ + static_cast<ptrdiff_t>(i) * kStatusSize);
}

std::string string_in(const char* text, size_t length)
{
  while (length > 0 && text[length - 1] == ' ')
    --length;
  return std::string(text, length);
}

std::string info_string_in(const char* text, size_t length)
{
  size_t first = 0;
  while (first < length && text[first] == ' ')
    ++first;
  return string_in(text + first, length - first);
}

StringOut::StringOut(char* text, size_t length, size_t minimum)
    : fortran_(text), length_(length), buffer_(std::max(length, minimum) + 1, '\0')
{
}

void StringOut::write_back()
{
  const size_t written = std::min(std::strlen(buffer_.data()), length_);
  std::memcpy(fortran_, buffer_.data(), written);
  std::memset(fortran_ + written, ' ', length_ - written);
}

void indices_to_fortran(int* indices, int count)
{
  for (int i = 0; i < count; ++i)
    if (indices[i] != MPI_UNDEFINED)
      ++indices[i];
}

} // namespace mpisim::online::fortran
