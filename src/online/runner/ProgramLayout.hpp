// What the swap privatization needs to know about an application file before loading it: where its writable data
// lies, how large its thread-local block is, and whether it runs code of its own at load time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mpisim::online {

struct ProgramLayout {
  // The bytes of the loaded object the program can change, as addresses relative to its load base: its writable
  // sections (.data, .bss ...) without those only the loader writes (.got, .dynamic, .init_array ...); without
  // section headers, the writable segment less its RELRO part.
  uintptr_t data_start = 0;
  uintptr_t data_end = 0;
  size_t tls_size = 0;     // the thread-local block (.tdata + .tbss)
  size_t constructors = 0; // .init_array entries (1: the compiler's own frame_dummy)

  size_t private_bytes() const { return data_end - data_start + tls_size; }
  // Static constructors of the program's own (C++ globals, __attribute__((constructor))): they run once at load,
  // and what they allocate would then be shared by every rank.
  bool runs_own_constructors() const { return constructors > 1; }
};

// Reads the program's ELF headers; nullopt when the file is not a 64-bit ELF shared object (the loader will say
// why when it tries).
std::optional<ProgramLayout> read_program_layout(const std::string& path);

} // namespace mpisim::online
