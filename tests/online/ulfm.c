/* ULFM: revoke, shrink, carry on with the survivors. Four ranks sum their world rank + 1 every iteration, a tenth of a
 * second apart; run with --fail 2@0.25s, rank 2 fails during the third pause: the fourth iteration's allreduce fails on
 * every survivor (a collective on a communicator holding a failed rank), each revokes and shrinks the communicator and
 * redoes the iteration with the three left: sums 10, 10, 10, then 7, 7. Without --fail: 10 five times. */
#include <mpi-ext.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static const char* class_name(int code)
{
  int error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  return error_class == MPIX_ERR_PROC_FAILED ? "MPIX_ERR_PROC_FAILED"
         : error_class == MPIX_ERR_REVOKED   ? "MPIX_ERR_REVOKED"
                                             : "another error";
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  for (int iteration = 0; iteration < 5;) {
    int value = me + 1, sum = 0, size = 0, rank = 0;
    const int rc = MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
    if (rc != MPI_SUCCESS) {
      printf("rank %d: iteration %d: %s at %.3f s\n", me, iteration, class_name(rc), MPI_Wtime());
      MPIX_Comm_revoke(comm);
      MPI_Comm survivors;
      MPIX_Comm_shrink(comm, &survivors);
      MPI_Comm_free(&comm);
      comm = survivors;
      continue; /* the same iteration again, among the survivors */
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
      printf("iteration %d: %d ranks, sum %d\n", iteration, size, sum);
    ++iteration;
    usleep(100000);
  }
  int flag = 1;
  MPIX_Comm_failure_ack(comm);
  MPIX_Comm_agree(comm, &flag);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    printf("agreed: %d\n", flag);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
