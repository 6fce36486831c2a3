/* Argument errors of one-sided communication under MPI_ERRORS_RETURN: each call returns the error class the standard
 * names, through the window's error handler (MPI_ERRORS_ARE_FATAL by default); a user handler sees the window and the
 * code. Rank 0 prints one line per case. */
#include <mpi.h>
#include <stdio.h>

static int rank, size, failures, handled_code = -1;
static MPI_Win handled_window = MPI_WIN_NULL;

static const char* name(int error)
{
  int error_class = error;
  MPI_Error_class(error, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_RANK: return "MPI_ERR_RANK";
  case MPI_ERR_DISP: return "MPI_ERR_DISP";
  case MPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC";
  case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE";
  case MPI_ERR_OP: return "MPI_ERR_OP";
  case MPI_ERR_ASSERT: return "MPI_ERR_ASSERT";
  case MPI_ERR_SIZE: return "MPI_ERR_SIZE";
  case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL";
  case MPI_ERR_WIN: return "MPI_ERR_WIN";
  case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
  case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
  case MPI_ERR_ARG: return "MPI_ERR_ARG";
  default: return "another class";
  }
}

static void expect(const char* what, int error, int expected)
{
  int error_class = error;
  MPI_Error_class(error, &error_class);
  if (rank == 0)
    printf("%s: %s\n", what, name(error));
  failures += error_class != expected;
}

static void user_op(void* in, void* inout, int* count, MPI_Datatype* type)
{
  (void)in, (void)inout, (void)count, (void)type;
}

static void handler(MPI_Win* win, int* code, ...)
{
  handled_window = *win;
  handled_code = *code;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int memory[4] = {0, 0, 0, 0}, value = 1;
  MPI_Win win, bad;
  MPI_Errhandler errhandler;

  expect("MPI_Win_create with a negative size", MPI_Win_create(memory, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bad),
         MPI_ERR_SIZE);
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_get_errhandler(win, &errhandler);
  if (rank == 0)
    printf("default window error handler is MPI_ERRORS_ARE_FATAL: %s\n",
           errhandler == MPI_ERRORS_ARE_FATAL ? "yes" : "no");
  failures += errhandler != MPI_ERRORS_ARE_FATAL;
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

  expect("MPI_Put before the first fence", MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  MPI_Win_fence(0, win);
  expect("MPI_Put to rank size", MPI_Put(&value, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  expect("MPI_Get from rank -5", MPI_Get(&value, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  expect("MPI_Put with a negative count", MPI_Put(&value, -1, MPI_INT, 0, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
  expect("MPI_Put with a negative displacement", MPI_Put(&value, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP);
  expect("MPI_Put beyond the target's window", MPI_Put(&value, 1, MPI_INT, 0, 4, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
  MPI_Op op;
  MPI_Op_create(user_op, 1, &op);
  expect("MPI_Accumulate with a user operation", MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win),
         MPI_ERR_OP);
  MPI_Op_free(&op);
  expect("MPI_Win_fence with an unknown assert", MPI_Win_fence(12345, win), MPI_ERR_ASSERT);
#ifdef MPISIM /* Open MPI 4.1 says MPI_ERR_OTHER; MPICH, as mpisim for communicators, MPI_ERR_KEYVAL */
  expect("MPI_Win_set_attr on MPI_WIN_BASE", MPI_Win_set_attr(win, MPI_WIN_BASE, &value), MPI_ERR_KEYVAL);
#endif
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  expect("MPI_Put after a fence with MPI_MODE_NOSUCCEED", MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win),
         MPI_ERR_RMA_SYNC);

  MPI_Win_create_errhandler(handler, &errhandler);
  MPI_Win_set_errhandler(win, errhandler);
  MPI_Errhandler_free(&errhandler);
  MPI_Win_call_errhandler(win, MPI_ERR_RMA_CONFLICT);
  if (rank == 0)
    printf("user handler called with the window and the code: %s\n",
           handled_window == win && handled_code == MPI_ERR_RMA_CONFLICT ? "yes" : "no");
  failures += handled_window != win || handled_code != MPI_ERR_RMA_CONFLICT;
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_free(&win);
  if (rank == 0)
    printf(failures ? "FAILED\n" : "PASSED\n");
  MPI_Finalize();
  return 0;
}
