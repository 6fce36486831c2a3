/* The predefined types added after MPI_PACKED: long double complex and the C++ types. Sizes, names, and a reduction
 * of long double complex values (sum and product), checked against the values computed here. Same output under
 * Open MPI. */
#include <mpi.h>

#include <complex.h>
#include <stdio.h>

static void print_type(MPI_Datatype type, int rank)
{
  char name[MPI_MAX_OBJECT_NAME];
  int length, size;
  MPI_Type_get_name(type, name, &length);
  MPI_Type_size(type, &size);
  if (rank == 0)
    printf("%s: %d bytes\n", name, size);
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  print_type(MPI_C_LONG_DOUBLE_COMPLEX, rank);
  print_type(MPI_CXX_BOOL, rank);
  print_type(MPI_CXX_FLOAT_COMPLEX, rank);
  print_type(MPI_CXX_DOUBLE_COMPLEX, rank);
  print_type(MPI_CXX_LONG_DOUBLE_COMPLEX, rank);

  long double complex mine = (rank + 1) + 1.0L * I, sum, product;
  MPI_Allreduce(&mine, &sum, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &product, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
  long double complex want_sum = 0, want_product = 1;
  for (int r = 0; r < size; ++r) {
    want_sum += (r + 1) + 1.0L * I;
    want_product *= (r + 1) + 1.0L * I;
  }
  int ok = sum == want_sum && product == want_product; /* small Gaussian integers: exact */
  printf("rank %d: long double complex sum and product %s\n", rank, ok ? "right" : "WRONG");
  MPI_Finalize();
  return 0;
}
