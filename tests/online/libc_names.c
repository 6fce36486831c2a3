/* A program's own globals and functions win over same-named symbols of the C library, as in an executable: `err`,
 * `dup` and `send` are libc functions used here as variable names (MPICH's test suite has a global `int err`), and
 * `random` is the program's own function. Each rank writes its values, lets the others run (a barrier), checks them;
 * rank 0 prints the gathered lines. */
#include <mpi.h>
#include <stdio.h>

int err = 0;
int dup = 0;
double send = 0.0;

long random(void)
{
  return 42; /* the program's own, not libc's */
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i <= rank; ++i)
    ++err;
  dup = 10 * rank;
  send = rank + 0.5;
  MPI_Barrier(MPI_COMM_WORLD);
  int mine[4] = {err, dup, (int)(2 * send), (int)random()};
  int all[4 * 64];
  MPI_Gather(mine, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; ++r)
      printf("rank %d: err %d, dup %d, 2*send %d, random() %d\n", r, all[4 * r], all[4 * r + 1], all[4 * r + 2],
             all[4 * r + 3]);
  MPI_Finalize();
  return 0;
}
