/* MPI_Cart_sub keeping no dimension: a zero-dimensional grid has one process, so rank 0 gets a communicator
 * congruent to MPI_COMM_SELF and every other rank MPI_COMM_NULL (MPICH and SMPI; Open MPI gives every rank one). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {0, 0}, keep[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid, sub;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, keep, &sub);
  if (sub == MPI_COMM_NULL) {
    printf("rank %d: MPI_COMM_NULL\n", rank);
  } else {
    int result, sub_size, topology, ndims;
    MPI_Comm_compare(MPI_COMM_SELF, sub, &result);
    MPI_Comm_size(sub, &sub_size);
    MPI_Topo_test(sub, &topology);
    MPI_Cartdim_get(sub, &ndims);
    printf("rank %d: %d rank(s), %s MPI_COMM_SELF, Cartesian %d, %d dimensions\n", rank, sub_size,
           result == MPI_CONGRUENT ? "congruent to" : "not congruent to", topology == MPI_CART, ndims);
    MPI_Comm_free(&sub);
  }
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
