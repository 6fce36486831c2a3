/* A failure in the middle of a transfer. Rank 1 sends 64 MiB to rank 0 at time 0 (rendezvous: the data takes tens of
 * milliseconds on any cluster:2); run with --fail 1@10ms: the data never arrives, and rank 0's receive fails at
 * 10 ms, the failure's date. Default (MPI_ERRORS_ARE_FATAL): the job aborts, exit status 4, the report naming rank 1,
 * 10 ms and rank 0. With the argument "return": MPI_ERRORS_RETURN, MPI_Recv returns MPIX_ERR_PROC_FAILED at 10 ms
 * and rank 0 goes on. */
#include <mpi-ext.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 64 << 20 };

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc > 1 && strcmp(argv[1], "return") == 0)
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char* data = calloc(kBytes, 1);
  if (me == 1) {
    MPI_Send(data, kBytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  } else if (me == 0) {
    const int rc = MPI_Recv(data, kBytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    printf("rank 0: MPI_Recv: %s at %.6f s\n", error_class == MPIX_ERR_PROC_FAILED ? "MPIX_ERR_PROC_FAILED" : "success",
           MPI_Wtime());
  }
  free(data);
  MPI_Finalize();
  return 0;
}
