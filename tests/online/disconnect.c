/* MPI_Comm_disconnect (MPI-3.1 section 10.5.4): it completes, inside, what the rank still has pending on the
 * communicator (the requests stay valid and are found complete afterwards), leaves alone what is pending on other
 * communicators, frees the communicator and sets the handle to MPI_COMM_NULL.
 *   disconnect          lines the same under Open MPI (any number of ranks)
 *   disconnect timing   each rank's duration of a disconnect waiting for a 1 MB receive, then of a plain 1 MB receive
 *   disconnect errors   the error class of misuses, under MPI_ERRORS_RETURN */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pending_then_disconnect(int rank, int size)
{
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int sent = 10 * rank + 1, received = -1, later = -1;
  MPI_Request requests[3];
  MPI_Irecv(&later, 1, MPI_INT, previous, 9, MPI_COMM_WORLD, &requests[2]); /* matched after the disconnect */
  MPI_Irecv(&received, 1, MPI_INT, previous, 3, dup, &requests[0]);
  MPI_Isend(&sent, 1, MPI_INT, next, 3, dup, &requests[1]);
  MPI_Comm_disconnect(&dup);
  printf("rank %d: disconnect gives MPI_COMM_NULL: %d\n", rank, dup == MPI_COMM_NULL);
  int later_value = 100 + rank;
  MPI_Send(&later_value, 1, MPI_INT, next, 9, MPI_COMM_WORLD);
  MPI_Status statuses[3];
  MPI_Waitall(3, requests, statuses);
  printf("rank %d: received %d from rank %d on the disconnected communicator, %d on MPI_COMM_WORLD\n", rank, received,
         statuses[0].MPI_SOURCE, later);

  MPI_Comm split;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &split);
  int split_rank;
  MPI_Comm_rank(split, &split_rank);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, split);
  MPI_Comm_disconnect(&split);
  printf("rank %d: rank %d of its half, whose ranks add up to %d, disconnected: %d\n", rank, split_rank, sum,
         split == MPI_COMM_NULL);
}

/* Rank 1's disconnect waits for the 1 MB message of rank 0 it has not received yet: it lasts as long as a plain
 * receive of the same message. */
static void timing(int rank)
{
  enum { kBytes = 1 << 20 };
  char* buffer = calloc(kBytes, 1);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  if (rank == 0)
    MPI_Isend(buffer, kBytes, MPI_CHAR, 1, 0, dup, &request);
  else if (rank == 1)
    MPI_Irecv(buffer, kBytes, MPI_CHAR, 0, 0, dup, &request);
  MPI_Comm_disconnect(&dup);
  const double in_disconnect = MPI_Wtime() - start;
  int flag = 0;
  MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  if (rank == 0)
    MPI_Send(buffer, kBytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buffer, kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const double plain = MPI_Wtime() - start;
  printf("rank %d: disconnect %.9f s, complete after it %d, plain transfer %.9f s\n", rank, in_disconnect, flag, plain);
  free(buffer);
}

static void errors(void)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF, null = MPI_COMM_NULL;
  char name[MPI_MAX_ERROR_STRING];
  int length, error_class;
  const struct {
    const char* what;
    MPI_Comm* comm;
  } cases[] = {{"disconnect of MPI_COMM_WORLD", &world},
               {"disconnect of MPI_COMM_SELF", &self},
               {"disconnect of MPI_COMM_NULL", &null}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    MPI_Error_class(MPI_Comm_disconnect(cases[i].comm), &error_class);
    MPI_Error_string(error_class, name, &length);
    printf("%s: %s\n", cases[i].what, strncmp(name, "MPI_ERR_COMM", 12) == 0 ? "MPI_ERR_COMM" : name);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "timing") == 0)
    timing(rank);
  else if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    if (rank == 0)
      errors();
  } else
    pending_then_disconnect(rank, size);
  MPI_Finalize();
  return 0;
}
