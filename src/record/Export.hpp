// The MPI entry points the library interposes: C linkage, visible (everything else in the library is hidden), and
// calling the PMPI_ names, which only the MPI standard defines, so the same source builds against Open MPI and MPICH.
#pragma once

#include <mpi.h>

#define MPISIM_EXPORT extern "C" __attribute__((visibility("default")))

namespace mpisim::record {

// A status to hand to PMPI when the application passed MPI_STATUS_IGNORE: wildcard receives need theirs.
class StatusSlot {
public:
  explicit StatusSlot(MPI_Status* given) : use_(given == MPI_STATUS_IGNORE ? &local_ : given) {}
  StatusSlot(const StatusSlot&) = delete;
  StatusSlot& operator=(const StatusSlot&) = delete;
  MPI_Status* get() { return use_; }
  const MPI_Status& operator*() const { return *use_; }

private:
  MPI_Status local_{};
  MPI_Status* use_;
};

} // namespace mpisim::record
