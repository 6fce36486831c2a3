// Loading the application, a shared object built by `mpisim cc`, and the errors that can stop it.
#pragma once

#include <stdexcept>
#include <string>

namespace mpisim::online {

using ProgramMain = int (*)(int, char**);

// The program needs an MPI function the library does not define (built before `mpisim cc` linked with
// --no-undefined, or against another mpi.h): what() is the whole report.
class UnsupportedMpiCall : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// What to say when a per-rank resource cannot be mapped: each rank's stack (and with dlopen privatization each
// copy's segments) are memory mappings, so large runs meet Linux's limit on mappings before memory runs out.
std::string mapping_limit_hint();

// dlopen()s `file` (the program itself, or the copy loaded for `rank` of `ranks`); throws UnsupportedMpiCall when the
// program calls an MPI function mpisim lacks, InputError naming `program` when it cannot be loaded otherwise.
void* load_program_file(const std::string& file, const std::string& program, int rank, int ranks);
// The program's main; throws InputError when it has none.
ProgramMain program_main(void* handle, const std::string& program);

} // namespace mpisim::online
