// The application loaded so that each rank has its own globals, by one of the modes of online/Privatization.hpp.
#pragma once

#include "online/options/Privatization.hpp"
#include "online/runner/ProgramLoading.hpp"

#include "kernel/MemoryContexts.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mpisim::online {

class PrivatizedProgram {
public:
  virtual ~PrivatizedProgram() = default;
  virtual ProgramMain main_of(int rank) const = 0;
  // The dlopen handle of the rank's copy (dlsym finds the rank's own globals through it).
  virtual void* handle_of(int rank) const = 0;
  // The per-rank memory the engine must switch between ranks (kernel/MemoryContexts.hpp); null when each rank's
  // memory has addresses of its own.
  virtual kernel::MemoryContexts* memory_contexts() { return nullptr; }
  virtual const char* name() const = 0; // "dlopen", "swap"
};

// Above this many private bytes per rank, auto prefers dlopen: swap copies them twice at every switch of rank.
inline constexpr size_t kAutoSwapLimit = size_t{16} * 1024;

// Loads `program` for `ranks` ranks. Throws InputError (unloadable program, swap asked for a program it cannot
// serve) or UnsupportedMpiCall.
std::unique_ptr<PrivatizedProgram> load_privatized_program(const std::string& program, int ranks,
                                                           const std::string& tmpdir, Privatization mode);

} // namespace mpisim::online
