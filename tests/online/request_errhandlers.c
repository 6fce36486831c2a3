/* A completion call raises a request's failure through the error handler of the object the request belongs to
 * (MPI-3.1 section 8.3), not MPI_COMM_WORLD's. MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL; a duplicate of it and a
 * window get MPI_ERRORS_RETURN. Rank 1 sends two 2-int messages on the duplicate, rank 0 receives each into 1 int:
 * MPI_Wait returns MPI_ERR_TRUNCATE, MPI_Waitall MPI_ERR_IN_STATUS with the status's MPI_ERROR MPI_ERR_TRUNCATE.
 * Rank 0's MPI_Rput of 2 ints into rank 1's 1-int window returns MPI_ERR_RMA_RANGE. 2 ranks; rank 0 prints. */
#include <mpi.h>
#include <stdio.h>

static const char* name(int error)
{
  int error_class = error;
  MPI_Error_class(error, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
  case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
  case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE";
  default: return "another class";
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, two[2] = {1, 2}, one = 0, target = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm returning;
  MPI_Comm_dup(MPI_COMM_WORLD, &returning);
  MPI_Comm_set_errhandler(returning, MPI_ERRORS_RETURN);
  if (rank == 1) {
    MPI_Send(two, 2, MPI_INT, 0, 0, returning);
    MPI_Send(two, 2, MPI_INT, 0, 1, returning);
  } else if (rank == 0) {
    MPI_Request request;
    MPI_Irecv(&one, 1, MPI_INT, 1, 0, returning, &request);
    printf("MPI_Wait on a truncated receive: %s\n", name(MPI_Wait(&request, MPI_STATUS_IGNORE)));
    MPI_Status status;
    MPI_Irecv(&one, 1, MPI_INT, 1, 1, returning, &request);
    const int all = MPI_Waitall(1, &request, &status);
    printf("MPI_Waitall on a truncated receive: %s, MPI_ERROR %s\n", name(all), name(status.MPI_ERROR));
  }
  MPI_Win win;
  MPI_Win_create(&target, sizeof target, sizeof target, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_lock_all(0, win);
  if (rank == 0) {
    MPI_Request request = MPI_REQUEST_NULL;
    const int put = MPI_Rput(two, 2, MPI_INT, 1, 0, 2, MPI_INT, win, &request);
    printf("MPI_Rput outside the window: %s\n", name(put));
    if (put == MPI_SUCCESS)
      MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Comm_free(&returning);
  MPI_Finalize();
  return 0;
}
