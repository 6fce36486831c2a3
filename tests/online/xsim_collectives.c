/* Online run under --model xsim (tests/python/test_xsim.py): an alltoall of 64 Ki ints per pair (rendezvous sizes,
   whose payload must outlive the sender's release at its last byte sent), an allreduce, a ring of sendrecv_replace and
   of synchronous sends; rank 0 prints what it computed, which must not depend on the model. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = 1 << 16;
  int* a = malloc(sizeof(int) * n * size);
  int* b = malloc(sizeof(int) * n * size);
  for (int i = 0; i < n * size; i++)
    a[i] = rank * 1000000 + i;
  MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
  long sum = 0, total = 0;
  for (int i = 0; i < n * size; i++)
    sum += b[i] % 7;
  MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int token = rank;
  MPI_Sendrecv_replace(&token, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  MPI_Request r;
  MPI_Issend(&token, 1, MPI_INT, (rank + 1) % size, 1, MPI_COMM_WORLD, &r);
  int got;
  MPI_Recv(&got, 1, MPI_INT, (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rank == 0)
    printf("total %ld token %d got %d\n", total, token, got);
  MPI_Finalize();
  return 0;
}
