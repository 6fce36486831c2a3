/* MPICH's attr/keyval_double_free_win, rewritten: a window attribute's delete callback frees its keyval, which the
 * program then frees twice more (through the handle and a copy of it). A keyval freed while attributes still use
 * it lives on until the last one is deleted (MPI-3.1 section 6.7.2), so every call succeeds. Open MPI 4.1 raises
 * MPI_ERR_OTHER at the second free; MPICH passes. */
#include <mpi.h>
#include <stdio.h>

static int free_own_keyval(MPI_Win win, int keyval, void* value, void* extra)
{
  (void)win, (void)value, (void)extra;
  return MPI_Win_free_keyval(&keyval);
}

int main(int argc, char** argv)
{
  int rank, data[2][1], errors[4];
  MPI_Win windows[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int i = 0; i < 2; ++i)
    MPI_Win_create(data[i], sizeof data[i], 1, MPI_INFO_NULL, MPI_COMM_WORLD, &windows[i]);
  int keyval = MPI_KEYVAL_INVALID, keyval_copy;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, free_own_keyval, &keyval, NULL);
  keyval_copy = keyval;
  MPI_Win_set_attr(windows[0], keyval, NULL);
  MPI_Win_set_attr(windows[1], keyval, NULL);
  errors[0] = MPI_Win_free(&windows[0]);         /* first free, in the callback */
  errors[1] = MPI_Win_free_keyval(&keyval);      /* second */
  errors[2] = MPI_Win_free_keyval(&keyval_copy); /* third */
  errors[3] = MPI_Win_free(&windows[1]);         /* fourth, in the callback */
  int failed = 0;
  for (int i = 0; i < 4; ++i)
    failed += errors[i] != MPI_SUCCESS;
  /* Once the last attribute is gone, the keyval is gone too. */
  int gone = MPI_Win_free_keyval(&keyval_copy) == MPI_ERR_KEYVAL;
  printf("rank %d: keyval freed in its delete callback, then twice more: %s\n", rank, failed ? "FAILED" : "ok");
  printf("rank %d: keyval unknown after its last attribute: %s\n", rank, gone ? "ok" : "FAILED");
  if (rank == 0)
    printf(failed || !gone ? "FAILED\n" : "PASSED\n");
  MPI_Finalize();
  return 0;
}
