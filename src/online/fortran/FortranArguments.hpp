// What the generated Fortran wrappers (fortran_bindings.py) and the hand-written ones (api_fortran_special.cpp) share:
// the sentinels a Fortran program passes by address (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ...) turned into
// the C API's, statuses converted between MPI_STATUS_SIZE integers and MPI_Status, blank-padded strings with their
// hidden lengths turned into C strings and back, and the ierror argument.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace mpisim::online::fortran {

// Fortran's MPI_STATUS_SIZE (mpif.h): MPI_F_STATUS_SIZE integers, MPI_SOURCE, MPI_TAG, MPI_ERROR at 1, 2, 3.
inline constexpr int kStatusSize = MPI_F_STATUS_SIZE;

// The sentinels of mpif.h, in the order of the common block /MPISIM_SENTINELS/ (integers, 4 bytes each).
enum class Sentinel { Bottom, InPlace, StatusIgnore, StatusesIgnore, Unweighted, WeightsEmpty };

// Whether `address` is the calling rank's own copy of the sentinel (the common block lives in the program: one per
// rank under dlopen privatization, found through the runner once per rank).
bool is_sentinel(const void* address, Sentinel sentinel);

// A choice buffer: MPI_BOTTOM and MPI_IN_PLACE become the C API's, any other address is itself.
void* buffer(const void* address);
// An integer array that may be MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY (distributed graph weights).
int* weights(const int* address);

// A status argument: the C status the call fills, written back to the MPI_STATUS_SIZE integers on destruction
// (nothing when the program passed MPI_STATUS_IGNORE).
class StatusOut {
public:
  explicit StatusOut(MPI_Fint* status);
  ~StatusOut();
  StatusOut(const StatusOut&) = delete;
  StatusOut& operator=(const StatusOut&) = delete;
  MPI_Status* c() { return fortran_ != nullptr ? &status_ : MPI_STATUS_IGNORE; }

private:
  MPI_Fint* fortran_;
  MPI_Status status_{};
};

// A status the call reads (MPI_Get_count) or reads and updates (MPI_Status_set_elements).
class StatusInOut {
public:
  explicit StatusInOut(MPI_Fint* status);
  ~StatusInOut();
  StatusInOut(const StatusInOut&) = delete;
  StatusInOut& operator=(const StatusInOut&) = delete;
  MPI_Status* c() { return &status_; }

private:
  MPI_Fint* fortran_;
  MPI_Status status_{};
};

// An array of statuses (MPI_Waitall, MPI_Waitsome ...): `count` C statuses, of which the first `written()` go back
// to the program's array of `count` x MPI_STATUS_SIZE integers (none for MPI_STATUSES_IGNORE).
class StatusesOut {
public:
  StatusesOut(MPI_Fint* statuses, int count);
  MPI_Status* c() { return fortran_ != nullptr ? statuses_.data() : MPI_STATUSES_IGNORE; }
  void write_back(int written);

private:
  MPI_Fint* fortran_;
  std::vector<MPI_Status> statuses_;
};

// A Fortran string argument (blank-padded, `length` characters) as a C string: trailing blanks dropped.
std::string string_in(const char* text, size_t length);
// An info key or value from Fortran: leading blanks dropped as well (MPI-3.1 section 9: " key " is "key").
std::string info_string_in(const char* text, size_t length);

// A string the call writes: a C buffer of at least `minimum` bytes, copied back blank-padded to `length`
// characters on write_back() (truncated when longer).
class StringOut {
public:
  StringOut(char* text, size_t length, size_t minimum);
  char* c() { return buffer_.data(); }
  // The C string blank-padded to the Fortran length, or truncated to it.
  void write_back();

private:
  char* fortran_;
  size_t length_;
  std::vector<char> buffer_;
};

// Fortran indices count from 1 (MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome); MPI_UNDEFINED stays.
void indices_to_fortran(int* indices, int count);

inline void set_ierror(MPI_Fint* ierror, int result)
{
  if (ierror != nullptr)
    *ierror = result;
}

} // namespace mpisim::online::fortran

// The names Fortran compilers emit for routine `stem` besides pmpi_<stem>_, the implementation: the weak mpi_<stem>_
// (gfortran's) a profiling library may override, the double-underscore (g77, -fsecond-underscore) and upper-case
// forms.
// NOLINTNEXTLINE(bugprone-macro-parentheses): `from` is the name being declared
#define MPISIM_FORTRAN_ALIAS(from, to) extern "C" __attribute__((weak, alias(#to))) decltype(to) from;
#define MPISIM_FORTRAN_NAMES(stem, STEM)                                                                               \
  MPISIM_FORTRAN_ALIAS(mpi_##stem##_, pmpi_##stem##_)                                                                  \
  MPISIM_FORTRAN_ALIAS(mpi_##stem##__, pmpi_##stem##_)                                                                 \
  MPISIM_FORTRAN_ALIAS(pmpi_##stem##__, pmpi_##stem##_)                                                                \
  MPISIM_FORTRAN_ALIAS(MPI_##STEM, pmpi_##stem##_)                                                                     \
  MPISIM_FORTRAN_ALIAS(MPI_##STEM##_, pmpi_##stem##_)                                                                  \
  MPISIM_FORTRAN_ALIAS(PMPI_##STEM, pmpi_##stem##_)                                                                    \
  MPISIM_FORTRAN_ALIAS(PMPI_##STEM##_, pmpi_##stem##_)
