/* The exact bits every reduction gives (MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan)
 * on data where the order of combination shows: doubles of very different magnitudes and signs summed (floating-point
 * addition is not associative), and a non-commutative user operation (2x2 matrix products). Rank 0 prints every
 * rank's results in hexadecimal floating point ("%a"): two runs print the same lines exactly when every element was
 * combined in the same order. Compared with smpirun for every algorithm SimGrid 3.32 offers (tests/python). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLong = 40 }; // elements of the long vectors: divisible by 5 and 8, ten 2x2 matrices
static int rank, size;

// Values spread over eight orders of magnitude, signs mixed, no short binary expansion: most sums depend on the
// order of the additions (for 8 ranks, 38 of 40 elements give several results over random orders).
static double value(int r, int i)
{
  const double magnitude = pow(10.0, (double)((r * 7 + i * 5) % 9 - 4));
  return ((r * 3 + i) % 2 ? -1.0 : 1.0) * magnitude * (1.0 + 0.1 * r + 0.01 * i) / 3.0;
}

// Matrices that do not commute, with entries of very different sizes.
static double matrix_value(int r, int i)
{
  return 1.0 + value(r, i) * 1e-3 + (i % 4 == 1 ? 0.5 * r : 0.0);
}

// inout = in x inout, 2x2 matrices stored row-major, 4 doubles each: `in` holds the lower ranks' part, as MPI
// requires of a non-commutative operation. A tail shorter than a matrix (an algorithm that splits the buffer
// anywhere) is combined as the first column of a matrix, which keeps the operation non-commutative.
static void matrix_product(void* in_, void* inout_, int* len, MPI_Datatype* type)
{
  (void)type;
  const double* in = in_;
  double* inout = inout_;
  int i = 0;
  for (; i + 4 <= *len; i += 4) {
    const double a = in[i], b = in[i + 1], c = in[i + 2], d = in[i + 3];
    const double e = inout[i], f = inout[i + 1], g = inout[i + 2], h = inout[i + 3];
    inout[i] = a * e + b * g;
    inout[i + 1] = a * f + b * h;
    inout[i + 2] = c * e + d * g;
    inout[i + 3] = c * f + d * h;
  }
  for (; i < *len; ++i)
    inout[i] = in[i] * inout[i] + in[i];
}

// The `count` doubles of every rank whose result is `defined`, printed by rank 0 after `label` (what a reduction
// leaves in the buffers of the other ranks is the implementation's business).
static void print_all(const char* label, const double* mine, int count, int defined)
{
  double* all = rank == 0 ? malloc(sizeof(double) * (size_t)(count * size)) : NULL;
  int flags[256];
  MPI_Gather(mine, count, MPI_DOUBLE, all, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(&defined, 1, MPI_INT, flags, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      if (!flags[r])
        continue;
      printf("%s rank %d:", label, r);
      for (int i = 0; i < count; ++i)
        printf(" %a", all[r * count + i]);
      printf("\n");
    }
    free(all);
  }
}

static void fill(double* data, int count, int matrices)
{
  for (int i = 0; i < count; ++i)
    data[i] = matrices ? matrix_value(rank, i) : value(rank, i);
}

static void reductions(const char* name, MPI_Op op, int matrices, int count)
{
  double send[kLong * 8], result[kLong * 8];
  char label[96];
  for (int root = 0; root < size; root += size / 2 + 1) {
    fill(send, count, matrices);
    memset(result, 0, sizeof result);
    MPI_Reduce(send, result, count, MPI_DOUBLE, op, root, MPI_COMM_WORLD);
    snprintf(label, sizeof label, "reduce %s n=%d root=%d", name, count, root);
    print_all(label, result, count, rank == root);
  }
  fill(send, count, matrices);
  memset(result, 0, sizeof result);
  MPI_Allreduce(send, result, count, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "allreduce %s n=%d", name, count);
  print_all(label, result, count, 1);

  fill(result, count, matrices);
  MPI_Allreduce(MPI_IN_PLACE, result, count, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "allreduce in place %s n=%d", name, count);
  print_all(label, result, count, 1);

  memset(result, 0, sizeof result);
  MPI_Scan(send, result, count, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "scan %s n=%d", name, count);
  print_all(label, result, count, 1);

  memset(result, 0, sizeof result);
  MPI_Exscan(send, result, count, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "exscan %s n=%d", name, count);
  print_all(label, result, count, rank != 0); // rank 0's result is undefined
}

static void reduce_scatters(const char* name, MPI_Op op, int matrices, int block)
{
  double send[kLong * 8], result[kLong * 8];
  char label[96];
  fill(send, block * size, matrices);
  memset(result, 0, sizeof result);
  MPI_Reduce_scatter_block(send, result, block, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "reduce_scatter_block %s block=%d", name, block);
  print_all(label, result, block, 1);

  int counts[64], total = 0; // irregular: rank r keeps block + r % 3 elements
  for (int r = 0; r < size; ++r)
    total += counts[r] = block + r % 3;
  fill(send, total, matrices);
  memset(result, 0, sizeof result);
  MPI_Reduce_scatter(send, result, counts, MPI_DOUBLE, op, MPI_COMM_WORLD);
  snprintf(label, sizeof label, "reduce_scatter %s block=%d", name, block);
  print_all(label, result, block + 2, 1);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  setvbuf(stdout, NULL, _IOLBF, 0); // lines printed before a failure of the simulator stay comparable
  const int with_matrices = !(argc > 1 && strcmp(argv[1], "commutative") == 0);
  MPI_Op product;
  MPI_Op_create(matrix_product, 0, &product);

  reductions("sum", MPI_SUM, 0, 3);
  reductions("sum", MPI_SUM, 0, kLong);
  reduce_scatters("sum", MPI_SUM, 0, 1);
  reduce_scatters("sum", MPI_SUM, 0, 4);
  if (with_matrices) {
    reductions("matrix", product, 1, 4);
    reductions("matrix", product, 1, kLong);
    reduce_scatters("matrix", product, 1, 4);
  }
  MPI_Op_free(&product);
  MPI_Finalize();
  return 0;
}
