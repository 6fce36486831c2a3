// How each rank gets its own globals, statics and thread-locals (`mpisim run --privatization`, docs/online.md).
//
// dlopen  one copy of the program loaded per rank (ProgramCopies): any program, a few pages per rank.
// swap    the program loaded once; its writable data and thread-local block are saved and restored whenever the
//         engine passes control to another rank (SwappedProgram): a rank costs the size of its data, not pages.
// auto    swap when the program's private data is small and it runs no constructors of its own, else dlopen.
#pragma once

#include "online/runner/ProgramLoading.hpp"

#include "kernel/MemoryContexts.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mpisim::online {

enum class Privatization { Auto, Dlopen, Swap };
std::optional<Privatization> privatization_named(std::string_view name);

class PrivatizedProgram {
public:
  virtual ~PrivatizedProgram() = default;
  virtual ProgramMain main_of(int rank) const = 0;
  // The per-rank memory the engine must switch between ranks (kernel/MemoryContexts.hpp); null when each rank's
  // memory has addresses of its own.
  virtual kernel::MemoryContexts* memory_contexts() { return nullptr; }
  virtual const char* name() const = 0; // "dlopen", "swap"
};

// Above this many private bytes per rank, auto prefers dlopen: swap copies them twice at every switch of rank.
inline constexpr size_t kAutoSwapLimit = 16 * 1024;

// Loads `program` for `ranks` ranks. Throws InputError (unloadable program, swap asked for a program it cannot
// serve) or UnsupportedMpiCall.
std::unique_ptr<PrivatizedProgram> load_privatized_program(const std::string& program, int ranks,
                                                           const std::string& tmpdir, Privatization mode);

} // namespace mpisim::online
