// The error classes of MPI-3.1 (include/mpi.h's values, in order), then ULFM's (include/mpi-ext.h): name and message
// (MPI_Error_string).
#pragma once

namespace mpisim::online {

struct ErrorClassText {
  const char* name;
  const char* message;
};

inline constexpr ErrorClassText kErrorClasses[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype"},
    {"MPI_ERR_TAG", "invalid tag argument"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_REQUEST", "invalid request"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid reduction operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument of some other kind"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated"},
    {"MPI_ERR_OTHER", "known error not in this list"},
    {"MPI_ERR_INTERN", "internal error"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_KEYVAL", "invalid keyval"},
    {"MPI_ERR_NO_MEM", "out of memory (MPI_Alloc_mem)"},
    {"MPI_ERR_BASE", "invalid base address (MPI_Free_mem)"},
    {"MPI_ERR_INFO_KEY", "info key longer than MPI_MAX_INFO_KEY"},
    {"MPI_ERR_INFO_VALUE", "info value longer than MPI_MAX_INFO_VAL"},
    {"MPI_ERR_INFO_NOKEY", "info key not defined (MPI_Info_delete)"},
    {"MPI_ERR_SPAWN", "error in spawning processes"},
    {"MPI_ERR_PORT", "invalid port name"},
    {"MPI_ERR_SERVICE", "invalid service name (MPI_Unpublish_name)"},
    {"MPI_ERR_NAME", "invalid service name (MPI_Lookup_name)"},
    {"MPI_ERR_WIN", "invalid window"},
    {"MPI_ERR_SIZE", "invalid size argument"},
    {"MPI_ERR_DISP", "invalid displacement argument"},
    {"MPI_ERR_INFO", "invalid info argument"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_ASSERT", "invalid assert argument"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {"MPI_ERR_RMA_RANGE", "target memory is outside the window"},
    {"MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {"MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {"MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_NOT_SAME",
     "collective argument not identical on all processes, or collective routines called in a different order"},
    {"MPI_ERR_AMODE", "error related to the amode passed to MPI_File_open"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {"MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_NO_SPACE", "not enough space"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    {"MPI_ERR_FILE_IN_USE", "file operation could not be completed: the file is in use"},
    {"MPI_ERR_DUP_DATAREP", "conversion functions already registered for this data representation"},
    {"MPI_ERR_CONVERSION", "an error occurred in a user-supplied data conversion function"},
    {"MPI_ERR_IO", "other I/O error"},
    // ULFM (include/mpi-ext.h)
    {"MPIX_ERR_PROC_FAILED", "a process involved in the operation has failed"},
    {"MPIX_ERR_PROC_FAILED_PENDING", "a process failed while a non-blocking any-source receive was pending"},
    {"MPIX_ERR_REVOKED", "the communicator has been revoked"},
};

} // namespace mpisim::online
