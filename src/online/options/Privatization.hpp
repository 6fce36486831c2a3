// How each rank gets its own globals, statics and thread-locals (`mpisim run --privatization`, docs/online.md).
//
// dlopen  one copy of the program loaded per rank (ProgramCopies): any program, a few pages per rank.
// swap    the program loaded once; its writable data and thread-local block are saved and restored whenever the
//         engine passes control to another rank (SwappedProgram): a rank costs the size of its data, not pages.
// auto    swap when the program's private data is small and it runs no constructors of its own, else dlopen.
#pragma once

namespace mpisim::online {

enum class Privatization { Auto, Dlopen, Swap }; // in the order of --privatization's choices

} // namespace mpisim::online
