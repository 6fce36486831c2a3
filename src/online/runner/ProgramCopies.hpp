// Private copies of the application, one per rank: each rank's globals, statics and thread-locals are its own.
//
// glibc's dlopen returns the same handle for the same file (it compares device and inode), so each rank loads a
// copy of the file under a different name, as SMPI's dlopen privatization does. A copy is removed once loaded: the
// mapping stays, and nothing is left behind if the run crashes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace mpisim::online {

using ProgramMain = int (*)(int, char**);

// What to say when a per-rank resource cannot be mapped: each copy maps its segments and each rank's stack two
// more areas, so large runs meet Linux's limit on memory mappings per process before its memory is used up.
std::string mapping_limit_hint();
// The program needs an MPI function the library does not define (built before `mpisim cc` linked with
// --no-undefined, or against another mpi.h): what() is the whole report.
class UnsupportedMpiCall : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class ProgramCopies {
public:
  // Throws UnsupportedMpiCall when the program calls an MPI function mpisim lacks, InputError when it cannot be
  // loaded otherwise or has no main.
  ProgramCopies(const std::string& program, int ranks, const std::string& tmpdir);
  ~ProgramCopies();
  ProgramCopies(const ProgramCopies&) = delete;
  ProgramCopies& operator=(const ProgramCopies&) = delete;

  ProgramMain main_of(int rank) const { return mains_[rank]; }

private:
  std::vector<void*> handles_;
  std::vector<ProgramMain> mains_;
};

} // namespace mpisim::online
