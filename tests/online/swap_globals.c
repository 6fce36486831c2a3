/* Ranks' globals at the same addresses (swap privatization): messages between global buffers, delivered while
 * other ranks' values are in place; a non-blocking collective whose user operation updates a global; a thread-local.
 * Prints the same lines under every privatization mode. */
#include <mpi.h>
#include <stdio.h>

#define BIG 20000 /* 160 kB: a rendezvous message */
static double big_out[BIG], big_in[BIG];
static int small_out[4], small_in[4];
static int contribution[2], total[2];
static int op_calls;
static __thread int thread_mark;

static void counted_sum(void* in, void* inout, int* len, MPI_Datatype* type)
{
  (void)type;
  ++op_calls;
  for (int i = 0; i < *len; ++i)
    ((int*)inout)[i] += ((int*)in)[i];
}

static int ring_errors(int left)
{
  int errors = 0;
  for (int i = 0; i < BIG; ++i)
    errors += big_in[i] != left * 1e6 + i;
  for (int i = 0; i < 4; ++i)
    errors += small_in[i] != left * 10 + i;
  return errors;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  thread_mark = 1000 + rank;
  for (int i = 0; i < BIG; ++i)
    big_out[i] = rank * 1e6 + i;
  for (int i = 0; i < 4; ++i)
    small_out[i] = rank * 10 + i;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  /* Receives posted everywhere before any send: the messages land while the engine or another rank runs. */
  MPI_Request requests[2];
  MPI_Irecv(big_in, BIG, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(small_in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(small_out, 4, MPI_INT, right, 1, MPI_COMM_WORLD);
  MPI_Ssend(big_out, BIG, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  int errors = ring_errors(left);

  /* A non-blocking collective runs as an actor of its own, on behalf of its rank: its operation counts in the
   * rank's own global. */
  MPI_Op op;
  MPI_Op_create(counted_sum, 1, &op);
  contribution[0] = rank;
  contribution[1] = 1;
  MPI_Request request;
  MPI_Iallreduce(contribution, total, 2, MPI_INT, op, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  errors += total[0] != size * (size - 1) / 2 || total[1] != size;
  errors += thread_mark != 1000 + rank;
  int all_calls = 0, all_errors = 0;
  MPI_Reduce(&op_calls, &all_calls, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  printf("rank %d: %d errors, %d operation calls, thread mark %d\n", rank, errors, op_calls, thread_mark);
  if (rank == 0)
    printf("%d operation calls in all: %s\n", all_calls, all_errors == 0 ? "PASSED" : "FAILED");
  MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
