// Language interoperability (MPI-3.1 section 17.2.4): MPI_Comm_f2c/c2f and the pair of every other handle kind,
// MPI_Status_f2c/c2f.
//
// Handles are integers for C as they are for Fortran, so a handle converts to itself: the Fortran bindings pass the
// integers they are given to the C ones. A Fortran status is MPI_F_STATUS_SIZE integers (include/mpi.h): the three
// public fields, then the private ones of MPI_Status (the received byte count in two halves, the cancelled flag).
#include "online/bindings/Arguments.hpp"

#include <cstdint>

using namespace mpisim::online;

namespace {
constexpr int kBytesLow = 3, kBytesHigh = 4, kCancelled = 5;
static_assert(MPI_F_STATUS_SIZE == kCancelled + 1);
} // namespace

// MPI_<Kind>_f2c and MPI_<Kind>_c2f of one handle kind, with their MPI_ aliases.
#define MPISIM_HANDLE_CONVERSIONS(Kind, Handle)                                                                        \
  extern "C" Handle PMPI_##Kind##_f2c(MPI_Fint handle)                                                                 \
  {                                                                                                                    \
    return handle;                                                                                                     \
  }                                                                                                                    \
  extern "C" MPI_Fint PMPI_##Kind##_c2f(Handle handle)                                                                 \
  {                                                                                                                    \
    return handle;                                                                                                     \
  }                                                                                                                    \
  MPISIM_ALIAS(Kind##_f2c)                                                                                             \
  MPISIM_ALIAS(Kind##_c2f)

MPISIM_HANDLE_CONVERSIONS(Comm, MPI_Comm)
MPISIM_HANDLE_CONVERSIONS(Type, MPI_Datatype)
MPISIM_HANDLE_CONVERSIONS(Group, MPI_Group)
MPISIM_HANDLE_CONVERSIONS(Request, MPI_Request)
MPISIM_HANDLE_CONVERSIONS(Op, MPI_Op)
MPISIM_HANDLE_CONVERSIONS(Info, MPI_Info)
MPISIM_HANDLE_CONVERSIONS(Win, MPI_Win)
MPISIM_HANDLE_CONVERSIONS(Errhandler, MPI_Errhandler)
MPISIM_HANDLE_CONVERSIONS(Message, MPI_Message)
MPISIM_HANDLE_CONVERSIONS(File, MPI_File)

extern "C" int PMPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status)
{
  Runtime& runtime = Runtime::get();
  // MPI_F_STATUS_IGNORE and MPI_STATUS_IGNORE are not statuses to convert (MPI-3.1 17.2.5).
  MPISIM_CHECK(runtime, f_status != MPI_F_STATUS_IGNORE && c_status != MPI_STATUS_IGNORE, MPI_COMM_WORLD, MPI_ERR_ARG,
               "a status to convert cannot be MPI_F_STATUS_IGNORE or MPI_STATUS_IGNORE");
  c_status->MPI_SOURCE = f_status[MPI_F_SOURCE];
  c_status->MPI_TAG = f_status[MPI_F_TAG];
  c_status->MPI_ERROR = f_status[MPI_F_ERROR];
  const auto low = static_cast<uint32_t>(f_status[kBytesLow]), high = static_cast<uint32_t>(f_status[kBytesHigh]);
  c_status->mpisim_bytes = static_cast<long long>((static_cast<uint64_t>(high) << 32) | low);
  c_status->mpisim_cancelled = f_status[kCancelled];
  return MPI_SUCCESS;
}

extern "C" int PMPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, c_status != MPI_STATUS_IGNORE && f_status != MPI_F_STATUS_IGNORE, MPI_COMM_WORLD, MPI_ERR_ARG,
               "a status to convert cannot be MPI_STATUS_IGNORE or MPI_F_STATUS_IGNORE");
  f_status[MPI_F_SOURCE] = c_status->MPI_SOURCE;
  f_status[MPI_F_TAG] = c_status->MPI_TAG;
  f_status[MPI_F_ERROR] = c_status->MPI_ERROR;
  const auto bytes = static_cast<uint64_t>(c_status->mpisim_bytes);
  f_status[kBytesLow] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes));
  f_status[kBytesHigh] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes >> 32));
  f_status[kCancelled] = c_status->mpisim_cancelled;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Status_f2c)
MPISIM_ALIAS(Status_c2f)
