/* The completion calls on arrays: every rank receives one message from each other rank and completes them with
 * MPI_Waitsome, MPI_Testsome, MPI_Testany and MPI_Waitany (null handles mixed in); all-null arrays give
 * MPI_UNDEFINED; MPI_Request_get_status does not free the request; a truncated receive makes MPI_Waitall,
 * MPI_Testall and MPI_Waitsome return MPI_ERR_IN_STATUS with each status's MPI_ERROR saying which request failed
 * (under MPI_ERRORS_RETURN). Rank 0 prints the checks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WAITSOME, TESTSOME, TESTANY, WAITANY, METHODS };
static const char* names[METHODS] = {"MPI_Waitsome", "MPI_Testsome", "MPI_Testany", "MPI_Waitany"};

static int all(int ok)
{
  int every = 0;
  MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return every;
}

/* Receives one int from every other rank (tag = method), completing them with `method`; the array has a null
 * handle at each end. */
static int exchange(int rank, int size, int method)
{
  const int n = size + 1;
  MPI_Request* requests = malloc(n * sizeof(MPI_Request));
  int* values = malloc(n * sizeof(int));
  int* indices = malloc(n * sizeof(int));
  MPI_Status* statuses = malloc(n * sizeof(MPI_Status));
  requests[0] = requests[n - 1] = MPI_REQUEST_NULL;
  for (int peer = 0, i = 1; peer < size; ++peer, ++i) {
    values[i] = -1;
    if (peer == rank)
      requests[i] = MPI_REQUEST_NULL;
    else
      MPI_Irecv(&values[i], 1, MPI_INT, peer, method, MPI_COMM_WORLD, &requests[i]);
  }
  for (int peer = 0; peer < size; ++peer)
    if (peer != rank) {
      int value = 100 * rank + peer;
      MPI_Send(&value, 1, MPI_INT, peer, method, MPI_COMM_WORLD);
    }
  int completed = 0, ok = 1;
  while (completed < size - 1) {
    int outcount = 0, index, flag;
    MPI_Status status;
    if (method == WAITSOME || method == TESTSOME) {
      if (method == WAITSOME)
        MPI_Waitsome(n, requests, &outcount, indices, statuses);
      else
        MPI_Testsome(n, requests, &outcount, indices, statuses);
      for (int k = 0; k < outcount; ++k) {
        const int peer = indices[k] - 1;
        ok &=
            requests[indices[k]] == MPI_REQUEST_NULL && statuses[k].MPI_SOURCE == peer && statuses[k].MPI_TAG == method;
      }
      completed += outcount;
    } else {
      if (method == TESTANY)
        MPI_Testany(n, requests, &index, &flag, &status);
      else {
        MPI_Waitany(n, requests, &index, &status);
        flag = 1;
      }
      if (flag) {
        ok &= index != MPI_UNDEFINED && requests[index] == MPI_REQUEST_NULL && status.MPI_SOURCE == index - 1;
        ++completed;
      }
    }
  }
  for (int peer = 0; peer < size; ++peer)
    if (peer != rank)
      ok &= values[peer + 1] == 100 * peer + rank;
  /* Everything is null now. */
  int outcount = 0, index = 0, flag = 0;
  MPI_Waitsome(n, requests, &outcount, indices, MPI_STATUSES_IGNORE);
  ok &= outcount == MPI_UNDEFINED;
  MPI_Testsome(n, requests, &outcount, indices, MPI_STATUSES_IGNORE);
  ok &= outcount == MPI_UNDEFINED;
  MPI_Testany(n, requests, &index, &flag, MPI_STATUS_IGNORE);
  ok &= index == MPI_UNDEFINED && flag == 1;
  MPI_Waitany(n, requests, &index, MPI_STATUS_IGNORE);
  ok &= index == MPI_UNDEFINED;
  free(requests);
  free(values);
  free(indices);
  free(statuses);
  return ok;
}

static int get_status(int rank, int size)
{
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int value = rank, got = -1, flag = 0, ok = 1;
  MPI_Request request;
  MPI_Status status;
  MPI_Irecv(&got, 1, MPI_INT, previous, 30, MPI_COMM_WORLD, &request);
  MPI_Send(&value, 1, MPI_INT, next, 30, MPI_COMM_WORLD);
  while (!flag)
    MPI_Request_get_status(request, &flag, &status);
  ok &= request != MPI_REQUEST_NULL && status.MPI_SOURCE == previous && got == previous;
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  return ok && request == MPI_REQUEST_NULL;
}

/* Rank r sends 4 ints to r + 1, which receives them with a 2-int request and a correct one. */
static int in_status(int rank, int size, int method)
{
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int four[4] = {1, 2, 3, 4}, two[2] = {0, 0}, one = 0, ok = 1;
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Irecv(two, 2, MPI_INT, previous, 40, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(&one, 1, MPI_INT, previous, 41, MPI_COMM_WORLD, &requests[1]);
  MPI_Send(four, 4, MPI_INT, next, 40, MPI_COMM_WORLD);
  MPI_Send(four, 1, MPI_INT, next, 41, MPI_COMM_WORLD);
  int error = MPI_SUCCESS;
  if (method == 0) {
    error = MPI_Waitall(2, requests, statuses);
    /* The standard lets MPI_Waitall return before the correct request completes, its status then saying
     * MPI_ERR_PENDING (Open MPI does so under load): that request is still active and is completed here. */
    if (error == MPI_ERR_IN_STATUS && statuses[1].MPI_ERROR == MPI_ERR_PENDING) {
      MPI_Wait(&requests[1], &statuses[1]);
      statuses[1].MPI_ERROR = MPI_SUCCESS;
    }
  } else if (method == 1) {
    int flag = 0;
    while (!flag) {
      error = MPI_Testall(2, requests, &flag, statuses);
      ok &= flag || error == MPI_SUCCESS;
    }
  } else {
    int indices[2], outcount, done = 0;
    MPI_Status some[2];
    while (done < 2) {
      int e = MPI_Waitsome(2, requests, &outcount, indices, some);
      if (e != MPI_SUCCESS)
        error = e;
      for (int k = 0; k < outcount; ++k)
        statuses[indices[k]] = some[k];
      done += outcount;
    }
  }
  int error_class;
  MPI_Error_class(error, &error_class);
  return ok && error_class == MPI_ERR_IN_STATUS && statuses[0].MPI_ERROR == MPI_ERR_TRUNCATE &&
         statuses[1].MPI_ERROR == MPI_SUCCESS && two[0] == 1 && two[1] == 2 && one == 1;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int method = 0; method < METHODS; ++method) {
    const int ok = all(exchange(rank, size, method));
    if (rank == 0)
      printf("%s completes one message from each of the %d other ranks: %s\n", names[method], size - 1,
             ok ? "ok" : "FAILED");
  }
  int ok = all(get_status(rank, size));
  if (rank == 0)
    printf("MPI_Request_get_status leaves the request allocated: %s\n", ok ? "ok" : "FAILED");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const char* calls[3] = {"MPI_Waitall", "MPI_Testall", "MPI_Waitsome"};
  for (int method = 0; method < 3; ++method) {
    ok = all(in_status(rank, size, method));
    if (rank == 0)
      printf("%s returns MPI_ERR_IN_STATUS for a truncated receive: %s\n", calls[method], ok ? "ok" : "FAILED");
  }
  MPI_Finalize();
  return 0;
}
