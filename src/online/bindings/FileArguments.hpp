// Argument resolution of the MPI-IO families (api_files.cpp, api_file_access.cpp): an MPI_File handle to the file and
// the calling rank's part of it, and errors raised through the file's handler (MPI_ERRORS_RETURN unless set: MPI-3.1
// section 13.7).
#pragma once

#include "online/bindings/Arguments.hpp"
#include "online/objects/Files.hpp"

namespace mpisim::online {

struct FileContext {
  OpenFile* file = nullptr;
  FileMember* member = nullptr;
  int local_rank = -1;
};

// MPI_SUCCESS and `out` filled, or MPI_ERR_FILE raised through MPI_FILE_NULL's handler (a handle that is not one of
// the calling rank's open files has no handler of its own).
int resolve_file(Runtime& runtime, MPI_File fh, const char* call, FileContext& out);
// Raises `error_class` through the calling rank's handler of `fh`, or MPI_FILE_NULL's when `fh` is not one of its
// open files.
int raise_file_error(Runtime& runtime, MPI_File fh, int error_class, const char* call, const std::string& what);

} // namespace mpisim::online

// Argument checks of file calls: `return` the error raised through the file's handler, naming the calling function.
#define MPISIM_FILE_CHECK(runtime, condition, fh, error_class, what)                                                   \
  do {                                                                                                                 \
    if (not(condition))                                                                                                \
      return ::mpisim::online::raise_file_error(runtime, fh, error_class, __func__ + 1, what);                         \
  } while (0)
