/* MPI_PROC_NULL as the target of every RMA call (MPI-3.1 section 11.3): each call succeeds under MPI_ERRORS_RETURN
 * and does nothing. Operations in a fence epoch and under lock_all, request-based operations (complete at the first
 * MPI_Test), and in mpisim a "passive-target epoch" to MPI_PROC_NULL (lock, flushes, unlock); afterwards no window,
 * origin buffer or result buffer has changed. Rank 0 prints one line per case ("what: ok" or "what: FAILED"). */
#include <mpi.h>
#include <stdio.h>

#define COUNT 4

static int rank;

static void report(const char* what, int ok)
{
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s\n", what, all ? "ok" : "FAILED");
}

/* Every element of `values` still holds `expected`. */
static int unchanged(const int* values, int expected)
{
  int same = 1;
  for (int i = 0; i < COUNT; ++i)
    same = same && values[i] == expected;
  return same;
}

/* Buffers the operations name: the origin's data, the buffer a get writes, a fetching operation's result. */
static int origin[COUNT], gotten[COUNT], result[COUNT];

/* The six operations to MPI_PROC_NULL: how many returned an error. */
static int operations_to_nobody(MPI_Win win)
{
  const int compare = 7;
  int errors = 0;
  errors += MPI_Put(origin, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, win) != MPI_SUCCESS;
  errors += MPI_Get(gotten, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, win) != MPI_SUCCESS;
  errors += MPI_Accumulate(origin, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, MPI_SUM, win) != MPI_SUCCESS;
  errors += MPI_Get_accumulate(origin, COUNT, MPI_INT, result, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT,
                               MPI_SUM, win) != MPI_SUCCESS;
  errors += MPI_Fetch_and_op(origin, result, MPI_INT, MPI_PROC_NULL, 0, MPI_SUM, win) != MPI_SUCCESS;
  errors += MPI_Compare_and_swap(origin, &compare, result, MPI_INT, MPI_PROC_NULL, 0, win) != MPI_SUCCESS;
  return errors;
}

/* The four request-based operations: how many returned an error or a request not complete at its first test. */
static int requests_to_nobody(MPI_Win win)
{
  MPI_Request requests[4];
  int errors = 0;
  errors += MPI_Rput(origin, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, win, &requests[0]) != MPI_SUCCESS;
  errors += MPI_Rget(gotten, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, win, &requests[1]) != MPI_SUCCESS;
  errors += MPI_Raccumulate(origin, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT, MPI_SUM, win, &requests[2]) !=
            MPI_SUCCESS;
  errors += MPI_Rget_accumulate(origin, COUNT, MPI_INT, result, COUNT, MPI_INT, MPI_PROC_NULL, 0, COUNT, MPI_INT,
                                MPI_SUM, win, &requests[3]) != MPI_SUCCESS;
  for (int i = 0; i < 4; ++i) {
    int done = 0;
    errors +=
        MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || !done || requests[i] != MPI_REQUEST_NULL;
  }
  return errors;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int memory[COUNT] = {0, 0, 0, 0};
  for (int i = 0; i < COUNT; ++i) {
    origin[i] = 1;
    gotten[i] = -1;
    result[i] = -2;
  }
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

  MPI_Win_fence(0, win);
  report("operations to MPI_PROC_NULL in a fence epoch", operations_to_nobody(win) == 0);
  MPI_Win_fence(0, win);

  MPI_Win_lock_all(0, win);
  report("operations to MPI_PROC_NULL under lock_all", operations_to_nobody(win) == 0);
  report("request-based operations to MPI_PROC_NULL complete at once", requests_to_nobody(win) == 0);
  MPI_Win_unlock_all(win);

#ifdef MPISIM /* Open MPI 4.1 says MPI_ERR_RANK for a lock or unlock of MPI_PROC_NULL, and crashes in its flush (osc   \
               * rdma); MPICH, SMPI and mpisim accept them and do nothing */
  int errors = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win) != MPI_SUCCESS;
  errors += operations_to_nobody(win);
  errors += requests_to_nobody(win);
  errors += MPI_Win_flush(MPI_PROC_NULL, win) != MPI_SUCCESS;
  errors += MPI_Win_flush_local(MPI_PROC_NULL, win) != MPI_SUCCESS;
  errors += MPI_Win_unlock(MPI_PROC_NULL, win) != MPI_SUCCESS;
  report("lock, operations, flushes and unlock of MPI_PROC_NULL", errors == 0);
  /* Inside a lock of the caller's own part: locking MPI_PROC_NULL takes nothing and conflicts with nothing. */
  errors = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win) != MPI_SUCCESS;
  errors += MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win) != MPI_SUCCESS;
  errors += MPI_Win_unlock(MPI_PROC_NULL, win) != MPI_SUCCESS;
  errors += MPI_Win_unlock(rank, win) != MPI_SUCCESS;
  report("MPI_PROC_NULL locked inside a lock of the caller's part", errors == 0);
#endif

  MPI_Win_fence(0, win);
  report("nothing moved",
         unchanged(memory, 0) && unchanged(origin, 1) && unchanged(gotten, -1) && unchanged(result, -2));
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
