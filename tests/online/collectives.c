/* Every collective with checked results (blocking, non-blocking, in place, derived datatypes, user operation,
 * split communicators). Rank 0 prints one line per check; a failed check names the rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

static void check(int ok, const char* what)
{
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!ok)
    printf("rank %d: %s FAILED\n", rank, what);
  if (rank == 0)
    printf("%-28s %s\n", what, all_ok ? "ok" : "FAILED");
  failures += !all_ok;
}

static void max_abs(void* in, void* inout, int* len, MPI_Datatype* type)
{
  int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i)
    b[i] = abs(a[i]) > abs(b[i]) ? a[i] : b[i];
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = size;
  int* send = malloc(sizeof(int) * 4 * (n + 1) * (n + 1));
  int* recv = malloc(sizeof(int) * 4 * (n + 1) * (n + 1));
  int ok;

  MPI_Barrier(MPI_COMM_WORLD);

  int value = rank == 1 % size ? 42 : 0;
  MPI_Bcast(&value, 1, MPI_INT, 1 % size, MPI_COMM_WORLD);
  check(value == 42, "bcast");

  int sum = 0;
  MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  check(rank != 0 || sum == n * (n - 1) / 2, "reduce sum");

  double d = rank + 0.5, dmax = 0;
  MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  check(dmax == n - 0.5, "allreduce max");

  int inplace = rank + 1;
  MPI_Allreduce(MPI_IN_PLACE, &inplace, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  int factorial = 1;
  for (int i = 2; i <= n; ++i)
    factorial *= i;
  check(inplace == factorial, "allreduce in place");

  struct {
    double value;
    int index;
  } pair = {rank % 3, rank}, best;
  MPI_Allreduce(&pair, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  check(best.value == (n >= 3 ? 2 : n - 1) && best.index == (n >= 3 ? 2 : n - 1), "allreduce maxloc");

  MPI_Gather(&rank, 1, MPI_INT, recv, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; rank == 0 && i < n; ++i)
    ok &= recv[i] == i;
  check(ok, "gather");

  for (int i = 0; i < n; ++i)
    send[i] = 10 * i;
  MPI_Scatter(send, 1, MPI_INT, &value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  check(value == 10 * rank, "scatter");

  int pairs[2] = {rank, -rank};
  MPI_Allgather(pairs, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= recv[2 * i] == i && recv[2 * i + 1] == -i;
  check(ok, "allgather");

  int* counts = malloc(sizeof(int) * n);
  int* displs = malloc(sizeof(int) * n);
  int total = 0;
  for (int i = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = total;
    total += i + 1;
  }
  for (int i = 0; i <= rank; ++i)
    send[i] = 100 * rank + i;
  MPI_Allgatherv(send, rank + 1, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; r < n; ++r)
    for (int i = 0; i <= r; ++i)
      ok &= recv[displs[r] + i] == 100 * r + i;
  check(ok, "allgatherv");

  memset(recv, 0, sizeof(int) * total);
  MPI_Gatherv(send, rank + 1, MPI_INT, recv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; rank == 0 && r < n; ++r)
    for (int i = 0; i <= r; ++i)
      ok &= recv[displs[r] + i] == 100 * r + i;
  check(ok, "gatherv");

  for (int i = 0; i < total; ++i)
    send[i] = i;
  MPI_Scatterv(send, counts, displs, MPI_INT, recv, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i <= rank; ++i)
    ok &= recv[i] == displs[rank] + i;
  check(ok, "scatterv");

  for (int i = 0; i < n; ++i)
    send[i] = 1000 * rank + i;
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= recv[i] == 1000 * i + rank;
  check(ok, "alltoall");

  /* alltoallv: rank r sends j + 1 values to rank j */
  int *scounts = malloc(sizeof(int) * n), *sdispls = malloc(sizeof(int) * n);
  int *rcounts = malloc(sizeof(int) * n), *rdispls = malloc(sizeof(int) * n);
  int soff = 0, roff = 0;
  for (int j = 0; j < n; ++j) {
    scounts[j] = j + 1;
    sdispls[j] = soff;
    soff += j + 1;
    rcounts[j] = rank + 1;
    rdispls[j] = roff;
    roff += rank + 1;
  }
  for (int i = 0; i < soff; ++i)
    send[i] = 1000 * rank + i;
  MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= rank; ++i)
      ok &= recv[rdispls[j] + i] == 1000 * j + sdispls[rank] + i;
  check(ok, "alltoallv");

  for (int i = 0; i < 2 * n; ++i)
    send[i] = i + rank;
  MPI_Reduce_scatter_block(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(recv[0] == n * 2 * rank + n * (n - 1) / 2 && recv[1] == n * (2 * rank + 1) + n * (n - 1) / 2,
        "reduce_scatter_block");

  for (int i = 0; i < total; ++i)
    send[i] = i + rank;
  MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i <= rank; ++i)
    ok &= recv[i] == n * (displs[rank] + i) + n * (n - 1) / 2;
  check(ok, "reduce_scatter");

  int prefix = 0;
  MPI_Scan(&rank, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(prefix == rank * (rank + 1) / 2, "scan");
  prefix = -1;
  MPI_Exscan(&rank, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(rank == 0 || prefix == rank * (rank - 1) / 2, "exscan");

  /* In place, with inputs large enough (128 KiB: rendezvous, data read when the transfer ends) that a rank's sends are
     still under way when its first partial results come in: they must carry the input, not the partial result.
     Rank 0's buffer stays as it was under exscan. */
  enum { kPrefixCount = 32768 };
  static int prefixes[kPrefixCount];
  for (int i = 0; i < kPrefixCount; ++i)
    prefixes[i] = rank + i;
  MPI_Scan(MPI_IN_PLACE, prefixes, kPrefixCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < kPrefixCount; ++i)
    ok &= prefixes[i] == rank * (rank + 1) / 2 + (rank + 1) * i;
  check(ok, "scan in place");
  for (int i = 0; i < kPrefixCount; ++i)
    prefixes[i] = rank + i;
  MPI_Exscan(MPI_IN_PLACE, prefixes, kPrefixCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < kPrefixCount; ++i)
    ok &= prefixes[i] == (rank == 0 ? i : rank * (rank - 1) / 2 + rank * i);
  check(ok, "exscan in place");

  MPI_Op op;
  MPI_Op_create(max_abs, 1, &op);
  int signed_value = rank % 2 ? -rank : rank, largest = 0;
  MPI_Allreduce(&signed_value, &largest, 1, MPI_INT, op, MPI_COMM_WORLD);
  check(largest == ((n - 1) % 2 ? -(n - 1) : n - 1), "allreduce user op");
  MPI_Op_free(&op);

  /* Column 1 of a 4 x w matrix: vector type, broadcast from rank 0 into every rank's column 1. */
  const int w = n + 1;
  MPI_Datatype column;
  MPI_Type_vector(4, 1, w, MPI_INT, &column);
  MPI_Type_commit(&column);
  for (int i = 0; i < 4 * w; ++i)
    send[i] = rank == 0 ? i : -1;
  MPI_Bcast(&send[1], 1, column, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int row = 0; row < 4; ++row)
    ok &= send[row * w + 1] == row * w + 1 && (rank == 0 || send[row * w] == -1);
  check(ok, "bcast vector type");
  MPI_Type_free(&column);

  MPI_Request requests[2];
  int ib = rank == 0 ? 7 : 0, ia = rank, iasum = 0;
  MPI_Ibcast(&ib, 1, MPI_INT, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Iallreduce(&ia, &iasum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  check(ib == 7 && iasum == n * (n - 1) / 2, "ibcast + iallreduce");
  MPI_Ibarrier(MPI_COMM_WORLD, &requests[0]);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  check(1, "ibarrier");

  for (int i = 0; i <= rank; ++i)
    send[i] = 100 * rank + i;
  MPI_Iallgatherv(send, rank + 1, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD, &requests[0]);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  ok = 1;
  for (int r = 0; r < n; ++r)
    for (int i = 0; i <= r; ++i)
      ok &= recv[displs[r] + i] == 100 * r + i;
  check(ok, "iallgatherv");

  for (int i = 0; i < 2 * n; ++i)
    send[i] = i + rank;
  int block[2] = {0, 0};
  MPI_Ireduce_scatter_block(send, block, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
  int done = 0;
  while (!done)
    MPI_Test(&requests[0], &done, MPI_STATUS_IGNORE);
  check(block[0] == n * 2 * rank + n * (n - 1) / 2 && block[1] == n * (2 * rank + 1) + n * (n - 1) / 2,
        "ireduce_scatter_block");

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int half_rank, half_size, half_sum = 0;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  MPI_Allreduce(&rank, &half_sum, 1, MPI_INT, MPI_SUM, half);
  int expected_sum = 0, expected_size = 0, higher = 0;
  for (int r = rank % 2; r < n; r += 2) {
    expected_sum += r;
    ++expected_size;
    higher += r > rank;
  }
  check(half_size == expected_size && half_rank == higher && half_sum == expected_sum, "comm_split");
  MPI_Comm_free(&half);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int dup_rank;
  MPI_Comm_rank(dup, &dup_rank);
  int cmp;
  MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
  check(dup_rank == rank && cmp == MPI_CONGRUENT, "comm_dup");
  MPI_Comm_free(&dup);

  if (rank == 0)
    printf("%d failures\n", failures);
  free(send);
  free(recv);
  MPI_Finalize();
  return failures != 0;
}
