/* mpisim's MPI extensions: User-Level Failure Mitigation (ULFM), as proposed to the MPI Forum and shipped by
 * Open MPI 5 and MPICH. Programs include it after mpi.h and test MPIX_ERR_PROC_FAILED (or OMPI_HAVE_MPI_EXT_FTMPI,
 * MPICH's MPIX_ERR_PROC_FAILED) to find it. What each function does and costs under mpisim: docs/failures.md. */
#ifndef MPISIM_MPI_EXT_H
#define MPISIM_MPI_EXT_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes, after the MPI-3.1 ones (below MPI_ERR_LASTCODE). */
#define MPIX_ERR_PROC_FAILED 58 /* a process the operation involves has failed */
#define MPIX_ERR_PROC_FAILED_PENDING                                                                                   \
  59                        /* a non-blocking MPI_ANY_SOURCE receive met a failure (not raised by mpisim)              \
                             */
#define MPIX_ERR_REVOKED 60 /* the communicator has been revoked */

#define OMPI_HAVE_MPI_EXT_FTMPI 1
#define MPISIM_HAVE_ULFM 1

/* Marks the communicator revoked at every member: their pending and later operations on it (but agree and shrink)
 * fail with MPIX_ERR_REVOKED. Local: returns at once. */
int MPIX_Comm_revoke(MPI_Comm comm);
int PMPIX_Comm_revoke(MPI_Comm comm);
/* The communicator of the surviving members, in their order; collective over the survivors, works on a revoked
 * communicator. */
int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm* newcomm);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm* newcomm);
/* Fault-tolerant agreement: *flag becomes the bitwise AND of the survivors' flags; returns MPIX_ERR_PROC_FAILED when
 * a member has failed whose failure the caller has not acknowledged. */
int MPIX_Comm_agree(MPI_Comm comm, int* flag);
int PMPIX_Comm_agree(MPI_Comm comm, int* flag);
/* Acknowledges the failures known now: MPI_ANY_SOURCE receives on comm no longer fail for them. */
int MPIX_Comm_failure_ack(MPI_Comm comm);
int PMPIX_Comm_failure_ack(MPI_Comm comm);
/* The group of the failed members acknowledged by the last MPIX_Comm_failure_ack. */
int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group* failedgrp);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group* failedgrp);
/* Whether the calling process knows comm to be revoked. */
int MPIX_Comm_is_revoked(MPI_Comm comm, int* flag);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int* flag);

#ifdef __cplusplus
}
#endif

#endif
