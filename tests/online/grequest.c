/* Generalized requests: MPI_Test sees one incomplete until MPI_Grequest_complete; MPI_Wait then fills the status
 * from the query callback and runs the free callback once; MPI_Cancel calls the cancel callback, told whether the
 * request is complete; a generalized request mixes with point-to-point requests in MPI_Waitall. With the argument
 * `never`, rank 0 waits for a generalized request nobody completes: a deadlock. */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

static int queries = 0, frees = 0, cancels = 0, cancel_saw_complete = -1;

static int query(void* extra_state, MPI_Status* status)
{
  queries++;
  MPI_Status_set_elements(status, MPI_INT, *(int*)extra_state);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}

static int release(void* extra_state)
{
  (void)extra_state;
  frees++;
  return MPI_SUCCESS;
}

static int cancel(void* extra_state, int complete)
{
  (void)extra_state;
  cancels++;
  cancel_saw_complete = complete;
  return MPI_SUCCESS;
}

int main(int argc, char** argv)
{
  int rank, size, flag, count, elements = 3;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Request request;
  MPI_Status status;
  if (argc > 1 && strcmp(argv[1], "never") == 0) {
    MPI_Grequest_start(query, release, cancel, &elements, &request);
    if (rank == 0)
      MPI_Wait(&request, &status);
    MPI_Finalize();
    return 0;
  }
  MPI_Grequest_start(query, release, cancel, &elements, &request);
  MPI_Test(&request, &flag, &status);
  printf("rank %d: before MPI_Grequest_complete, MPI_Test says %d\n", rank, flag);
  MPI_Cancel(&request);
  printf("rank %d: MPI_Cancel called the cancel function %d time(s), complete = %d\n", rank, cancels,
         cancel_saw_complete);
  MPI_Grequest_complete(request);
  MPI_Wait(&request, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  printf("rank %d: MPI_Wait: count %d from the query function, %d query, %d free, handle null: %d\n", rank, count,
         queries, frees, request == MPI_REQUEST_NULL);

  /* With a ring receive in MPI_Waitall. */
  int token = rank, got = -1;
  MPI_Request both[2];
  MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &both[0]);
  MPI_Grequest_start(query, release, cancel, &elements, &both[1]);
  MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Grequest_complete(both[1]);
  MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
  printf("rank %d: MPI_Waitall: got %d, %d queries, %d frees\n", rank, got, queries, frees);
  MPI_Finalize();
  return 0;
}
