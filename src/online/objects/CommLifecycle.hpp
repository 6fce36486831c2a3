// What a communicator carries besides its group, from creation to MPI_Comm_free: error handler, attributes, name and
// topology (MPI_Comm_dup copies some of them; MPI_Comm_free drops them all).
#pragma once

#include <mpi.h>

namespace mpisim::online {

// MPI_Comm_dup/idup: the error handler, the attributes whose copy callbacks keep them, and the topology. Returns a
// copy callback's error.
int inherit_on_dup(MPI_Comm from, MPI_Comm to);
// MPI_Comm_create, MPI_Comm_split ...: a new communicator inherits its parent's error handler (MPI-3.1 section 8.3).
void inherit_errhandler(MPI_Comm parent, MPI_Comm child);
// MPI_Comm_free: runs the delete callbacks of the calling rank's attributes, forgets its name and topology. Returns a
// delete callback's error.
int release_on_free(MPI_Comm comm);

} // namespace mpisim::online
