// dlopen privatization: one private copy of the application per rank, so each rank's globals, statics and
// thread-locals are its own at addresses of their own (SMPI's smpi/privatization:dlopen).
//
// glibc's dlopen returns the same handle for the same file (it compares device and inode), so each rank loads a
// copy of the file under a different name. A copy is removed once loaded: the mapping stays, and nothing is left
// behind if the run crashes. Costs a file copy's pages and a link map per rank.
#pragma once

#include "online/runner/PrivatizedProgram.hpp"

#include <string>
#include <vector>

namespace mpisim::online {

class ProgramCopies final : public PrivatizedProgram {
public:
  // Throws UnsupportedMpiCall when the program calls an MPI function mpisim lacks, InputError when it cannot be
  // loaded otherwise or has no main.
  ProgramCopies(const std::string& program, int ranks, const std::string& tmpdir);
  // The copies stay loaded: their atexit handlers and static destructors may still run at process exit.

  ProgramMain main_of(int rank) const override { return mains_[rank]; }
  void* handle_of(int rank) const override { return handles_[rank]; }
  const char* name() const override { return "dlopen"; }

private:
  std::vector<ProgramMain> mains_;
  std::vector<void*> handles_;
};

} // namespace mpisim::online
