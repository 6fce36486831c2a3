/* MPI_Alltoallw and MPI_Ialltoallw with a different datatype per peer (ints, a strided vector, a resized pair of
 * shorts), MPI_IN_PLACE, then MPI_Reduce_local and MPI_Op_commutative. Every rank checks; the lines printed do not
 * depend on the MPI library. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, rank = 0, size = 1;

static void check(int condition, const char* what)
{
  if (!condition) {
    printf("rank %d: FAILED %s\n", rank, what);
    failures++;
  }
}

/* What rank `from` sends to rank `to`: to + 1 ints. */
static int value(int from, int to, int i)
{
  return 1000 * from + 10 * to + i;
}

/* Rank r sends peer j the ints value(r, j, 0..j) from a contiguous array; receives from peer j into a strided
 * column (every other int) when j is odd, contiguously when even. */
static void exchange(int nonblocking)
{
  int* counts = malloc(size * sizeof(int));
  int* sdispls = malloc(size * sizeof(int));
  int* rdispls = malloc(size * sizeof(int));
  int* recvcounts = malloc(size * sizeof(int));
  MPI_Datatype* sendtypes = malloc(size * sizeof(MPI_Datatype));
  MPI_Datatype* recvtypes = malloc(size * sizeof(MPI_Datatype));
  int total = 0;
  for (int j = 0; j < size; j++)
    total += j + 1;
  int* send = malloc(total * sizeof(int));
  int* recv = malloc(2 * size * (size + 1) * sizeof(int));
  memset(recv, 0xff, 2 * size * (size + 1) * sizeof(int));
  MPI_Datatype* strided = malloc(size * sizeof(MPI_Datatype));
  int offset = 0, roffset = 0;
  for (int j = 0; j < size; j++) {
    counts[j] = j + 1;
    sdispls[j] = offset * (int)sizeof(int);
    for (int i = 0; i <= j; i++)
      send[offset + i] = value(rank, j, i);
    offset += j + 1;
    sendtypes[j] = MPI_INT;
    rdispls[j] = roffset * (int)sizeof(int);
    if (j % 2) { /* one vector of rank + 1 ints, every other int */
      MPI_Type_vector(rank + 1, 1, 2, MPI_INT, &strided[j]);
      MPI_Type_commit(&strided[j]);
      recvtypes[j] = strided[j];
      recvcounts[j] = 1;
    } else {
      strided[j] = MPI_DATATYPE_NULL;
      recvtypes[j] = MPI_INT;
      recvcounts[j] = rank + 1;
    }
    roffset += 2 * (rank + 1);
  }
  if (nonblocking) {
    MPI_Request request;
    MPI_Ialltoallw(send, counts, sdispls, sendtypes, recv, recvcounts, rdispls, recvtypes, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Alltoallw(send, counts, sdispls, sendtypes, recv, recvcounts, rdispls, recvtypes, MPI_COMM_WORLD);
  }
  int ok = 1;
  for (int j = 0; j < size; j++) {
    const int* block = recv + rdispls[j] / (int)sizeof(int);
    for (int i = 0; i <= rank; i++) {
      const int got = j % 2 ? block[2 * i] : block[i];
      ok = ok && got == value(j, rank, i);
    }
    if (j % 2)
      ok = ok && block[1] == -1; /* the holes of the vector are untouched */
    if (strided[j] != MPI_DATATYPE_NULL)
      MPI_Type_free(&strided[j]);
  }
  printf("rank %d %s: %s (first from the last rank %d)\n", rank, nonblocking ? "ialltoallw" : "alltoallw",
         ok ? "ok" : "WRONG", recv[rdispls[size - 1] / (int)sizeof(int)]);
  check(ok, nonblocking ? "ialltoallw" : "alltoallw");
  free(counts), free(sdispls), free(rdispls), free(recvcounts), free(sendtypes), free(recvtypes), free(send);
  free(recv), free(strided);
}

/* In place: every rank exchanges one pair (value, rank) with every peer as a resized struct of two shorts. */
static void in_place(void)
{
  short* data = malloc(4 * size * sizeof(short));
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  MPI_Datatype* types = malloc(size * sizeof(MPI_Datatype));
  MPI_Datatype pair, spaced;
  MPI_Type_contiguous(2, MPI_SHORT, &pair);
  MPI_Type_create_resized(pair, 0, 4 * sizeof(short), &spaced);
  MPI_Type_commit(&spaced);
  for (int j = 0; j < size; j++) {
    data[4 * j] = (short)(100 * rank + j);
    data[4 * j + 1] = (short)rank;
    data[4 * j + 2] = data[4 * j + 3] = -7;
    counts[j] = 1;
    displs[j] = 4 * j * (int)sizeof(short);
    types[j] = spaced;
  }
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, data, counts, displs, types, MPI_COMM_WORLD);
  int ok = 1;
  for (int j = 0; j < size; j++)
    ok = ok && data[4 * j] == 100 * j + rank && data[4 * j + 1] == j && data[4 * j + 2] == -7;
  printf("rank %d alltoallw in place: %s\n", rank, ok ? "ok" : "WRONG");
  check(ok, "alltoallw in place");
  MPI_Type_free(&pair);
  MPI_Type_free(&spaced);
  free(data), free(counts), free(displs), free(types);
}

/* A non-commutative operation: 2x2 matrix product, inout = in x inout. */
static void matrix_product(void* in, void* inout, int* len, MPI_Datatype* type)
{
  const int* a = in;
  int* b = inout;
  for (int k = 0; k < *len; k++, a += 4, b += 4) {
    int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}

static void local_reductions(void)
{
  int in[4] = {1, 2, 3, 4}, inout[4] = {10, 20, 30, 40};
  MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_SUM);
  check(inout[0] == 11 && inout[3] == 44, "MPI_Reduce_local with MPI_SUM");
  MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_MAX);
  check(inout[0] == 11 && inout[3] == 44, "MPI_Reduce_local with MPI_MAX");

  MPI_Op product;
  MPI_Op_create(matrix_product, 0, &product);
  MPI_Datatype matrix;
  MPI_Type_contiguous(4, MPI_INT, &matrix);
  MPI_Type_commit(&matrix);
  int a[4] = {1, 1, 0, 1}, b[4] = {1, 0, 1, 1};
  MPI_Reduce_local(a, b, 1, matrix, product); /* b = a x b */
  check(b[0] == 2 && b[1] == 1 && b[2] == 1 && b[3] == 1, "MPI_Reduce_local with a user operation");

  int commutative_sum = -1, commutative_product = -1;
  MPI_Op_commutative(MPI_SUM, &commutative_sum);
  MPI_Op_commutative(product, &commutative_product);
  check(commutative_sum == 1 && commutative_product == 0, "MPI_Op_commutative");
  if (rank == 0)
    printf("reduce_local: sum %d %d %d %d, product %d %d %d %d; commutative: MPI_SUM %d, product %d\n", inout[0],
           inout[1], inout[2], inout[3], b[0], b[1], b[2], b[3], commutative_sum, commutative_product);
  MPI_Op_free(&product);
  MPI_Type_free(&matrix);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  exchange(0);
  exchange(1);
  in_place();
  local_reductions();
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return 0;
}
