/* SMPI_SHARED_MALLOC / SMPI_SHARED_FREE / SMPI_SHARED_CALL: one buffer per call site for all ranks, reference
 * counted; one call of a shared function for all ranks. Under smpirun, run with smpi/shared-malloc:local (SMPI's
 * default, global, folds every shared buffer onto the same pages). Lines starting with "mpisim:" are checks only mpisim
 * makes (SMPI maps the shared pages at a different address in each rank). With the argument `grow`, rank r asks for
 * (r + 1) x 16 bytes at one call site: rank 1 asks for more than the block shared there (an error). */
#include <mpi.h>
#include <smpi/smpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1024 };

static int failures = 0;

static void expect(int rank, int ok, const char* what)
{
  failures += !ok;
  printf("rank %d: %s%s\n", rank, what, ok ? "" : ": WRONG");
}

/* One call site for every allocation of the test. */
static int* allocate(void)
{
  return (int*)SMPI_SHARED_MALLOC(N * sizeof(int));
}

static void* make_table(int n, int* calls)
{
  ++*calls;
  double* table = (double*)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    table[i] = 0.5 * i;
  return table;
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (argc > 1 && strcmp(argv[1], "grow") == 0) {
    void* block = NULL;
    for (int turn = 0; turn < size; ++turn) {
      if (turn == rank)
        block = SMPI_SHARED_MALLOC((rank + 1) * 16);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    SMPI_SHARED_FREE(block);
  }

  int* shared = allocate();
#ifdef MPISIM_SHARED_MALLOC
  long long mine = (long long)(size_t)shared, first = mine;
  MPI_Bcast(&first, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  int same = mine == first, all_same = 0;
  MPI_Reduce(&same, &all_same, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("mpisim: %s\n", all_same == size ? "the same address on every rank" : "DIFFERENT ADDRESSES");
  failures += rank == 0 && all_same != size;
#endif
  if (rank == 0)
    for (int i = 0; i < N; ++i)
      shared[i] = 7 * i;
  MPI_Barrier(MPI_COMM_WORLD);
  int seen = 1;
  for (int i = 0; i < N; ++i)
    seen &= shared[i] == 7 * i;
  expect(rank, seen, "sees rank 0's writes");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1)
    shared[5] = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  expect(rank, shared[5] == -1, "sees the last rank's write");
  MPI_Barrier(MPI_COMM_WORLD);

  /* Rank 0 frees and allocates again while the others hold the buffer: it gets the same contents back. */
  if (rank == 0 && size > 1) {
    SMPI_SHARED_FREE(shared);
    shared = allocate();
  }
  expect(rank, shared[3] == 21, "still holds the contents after rank 0 freed and allocated again");
  MPI_Barrier(MPI_COMM_WORLD);
  SMPI_SHARED_FREE(shared);
  MPI_Barrier(MPI_COMM_WORLD);

  /* Every rank has freed it: the next allocation at the site is a new buffer. */
  shared = allocate();
  int zero = 1;
  for (int i = 0; i < N; ++i)
    zero &= shared[i] == 0;
  expect(rank, zero, "gets a new zeroed buffer once every rank freed the old one");
  MPI_Barrier(MPI_COMM_WORLD);
  SMPI_SHARED_FREE(shared);

  int calls = 0, all_calls = 0;
  double* table = (double*)SMPI_SHARED_CALL(make_table, "table of 16", 16, &calls);
  expect(rank, table[10] == 5.0, "reads the shared table");
  MPI_Reduce(&calls, &all_calls, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("SMPI_SHARED_CALL: the function ran %d time(s) over all ranks\n", all_calls);

  /* A pointer that is not shared is given to free(). */
  SMPI_SHARED_FREE(malloc(16));

  int all_failures = 0;
  MPI_Reduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d failures\n", all_failures);
  MPI_Finalize();
  return 0;
}
