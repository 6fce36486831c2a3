#include "online/Api.hpp"

#include <cstdio>
#include <unistd.h>

namespace mpisim::online {

const char* error_class_name(int error_class)
{
  static const char* const names[] = {
      "MPI_SUCCESS",     "MPI_ERR_BUFFER", "MPI_ERR_COUNT",    "MPI_ERR_TYPE",  "MPI_ERR_TAG",     "MPI_ERR_COMM",
      "MPI_ERR_RANK",    "MPI_ERR_REQUEST", "MPI_ERR_ROOT",    "MPI_ERR_GROUP", "MPI_ERR_OP",      "MPI_ERR_TOPOLOGY",
      "MPI_ERR_DIMS",    "MPI_ERR_ARG",    "MPI_ERR_UNKNOWN",  "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN",
      "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING"};
  if (error_class >= 0 && error_class < static_cast<int>(sizeof names / sizeof names[0]))
    return names[error_class];
  // The other classes of MPI-3.1 section 8.4, from MPI_ERR_ACCESS (20) on, in mpi.h's order.
  static const char* const more_names[] = {
      "MPI_ERR_ACCESS",       "MPI_ERR_AMODE",        "MPI_ERR_ASSERT",        "MPI_ERR_BAD_FILE",
      "MPI_ERR_BASE",         "MPI_ERR_CONVERSION",   "MPI_ERR_DISP",          "MPI_ERR_DUP_DATAREP",
      "MPI_ERR_FILE_EXISTS",  "MPI_ERR_FILE_IN_USE",  "MPI_ERR_FILE",          "MPI_ERR_INFO_KEY",
      "MPI_ERR_INFO_NOKEY",   "MPI_ERR_INFO_VALUE",   "MPI_ERR_INFO",          "MPI_ERR_IO",
      "MPI_ERR_KEYVAL",       "MPI_ERR_LOCKTYPE",     "MPI_ERR_NAME",          "MPI_ERR_NO_MEM",
      "MPI_ERR_NOT_SAME",     "MPI_ERR_NO_SPACE",     "MPI_ERR_NO_SUCH_FILE",  "MPI_ERR_PORT",
      "MPI_ERR_QUOTA",        "MPI_ERR_READ_ONLY",    "MPI_ERR_RMA_ATTACH",    "MPI_ERR_RMA_CONFLICT",
      "MPI_ERR_RMA_RANGE",    "MPI_ERR_RMA_SHARED",   "MPI_ERR_RMA_SYNC",      "MPI_ERR_RMA_FLAVOR",
      "MPI_ERR_SERVICE",      "MPI_ERR_SIZE",         "MPI_ERR_SPAWN",         "MPI_ERR_UNSUPPORTED_DATAREP",
      "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_WIN"};
  const int more = error_class - MPI_ERR_ACCESS;
  if (more >= 0 && more < static_cast<int>(sizeof more_names / sizeof more_names[0]))
    return more_names[more];
  return "MPI_ERR_UNKNOWN";
}

int raise_error(int comm, int error_class, const char* call, const std::string& what)
{
  Runtime& runtime = Runtime::get();
  if (runtime.comm_entry(comm) == nullptr)
    comm = MPI_COMM_WORLD;
  if (runtime.errhandler(comm) == MPI_ERRORS_RETURN)
    return error_class;
  char date[64];
  std::snprintf(date, sizeof date, "%.9f", runtime.now());
  terminate_run("mpisim: rank " + std::to_string(runtime.current_rank()) + ": " + call + ": " +
                    error_class_name(error_class) + ": " + what + " (simulated time " + date + " s)",
                1);
}

void terminate_run(const std::string& report, int status)
{
  if (Runtime::active())
    Runtime::get().output_boundary(Runtime::get().running_rank());
  std::fflush(nullptr);
  std::string line = report + "\n";
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line.data(), line.size());
  _exit(status);
}

} // namespace mpisim::online

// Errors -------------------------------------------------------------------------------------------------------------

extern "C" int PMPI_Error_class(int errorcode, int* errorclass)
{
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen)
{
  *resultlen = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", mpisim::online::error_class_name(errorcode));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
  mpisim::online::CommEntry* entry = mpisim::online::Runtime::get().comm_entry(comm);
  MPISIM_CHECK(entry != nullptr, MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  MPISIM_CHECK(errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN, comm, MPI_ERR_ARG,
               "unknown error handler " + std::to_string(errhandler));
  mpisim::online::Runtime::get().set_errhandler(comm, errhandler);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler)
{
  mpisim::online::CommEntry* entry = mpisim::online::Runtime::get().comm_entry(comm);
  MPISIM_CHECK(entry != nullptr, MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  *errhandler = mpisim::online::Runtime::get().errhandler(comm);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Error_class)
MPISIM_ALIAS(Error_string)
MPISIM_ALIAS(Comm_set_errhandler)
MPISIM_ALIAS(Comm_get_errhandler)
