/* Derived datatypes on the wire: a subarray (the interior of a 2-D block) sent to the next rank, a resized struct
 * column, an hvector, and MPI_Sendrecv_replace around the ring. Rank 0 prints the checks. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define N 6

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;

  int grid[N][N], got[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      grid[i][j] = 1000 * rank + 10 * i + j;
      got[i][j] = -1;
    }
  int sizes[2] = {N, N}, subsizes[2] = {N - 2, N - 2}, starts[2] = {1, 1};
  MPI_Datatype interior;
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &interior);
  MPI_Type_commit(&interior);
  MPI_Sendrecv(grid, 1, interior, next, 0, got, 1, interior, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int ok = 1;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const int inside = i > 0 && i < N - 1 && j > 0 && j < N - 1;
      ok &= got[i][j] == (inside ? 1000 * previous + 10 * i + j : -1);
    }
  int size_bytes;
  MPI_Aint lb, extent, true_lb, true_extent;
  MPI_Type_size(interior, &size_bytes);
  MPI_Type_get_extent(interior, &lb, &extent);
  MPI_Type_get_true_extent(interior, &true_lb, &true_extent);
  int all_ok;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("subarray: %s, size %d, extent %ld, true lb %ld, true extent %ld\n", all_ok ? "ok" : "FAILED", size_bytes,
           (long)extent, (long)true_lb, (long)true_extent);
  MPI_Type_free(&interior);

  struct particle {
    double position[3];
    int id;
  } particles[4], received[4];
  int lengths[2] = {3, 1};
  MPI_Aint displacements[2] = {offsetof(struct particle, position), offsetof(struct particle, id)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, one, particle_type;
  MPI_Type_create_struct(2, lengths, displacements, types, &one);
  MPI_Type_create_resized(one, 0, sizeof(struct particle), &particle_type);
  MPI_Type_commit(&particle_type);
  for (int i = 0; i < 4; ++i) {
    particles[i].position[0] = rank + i;
    particles[i].position[1] = particles[i].position[2] = -i;
    particles[i].id = 100 * rank + i;
  }
  MPI_Sendrecv(particles, 4, particle_type, next, 1, received, 4, particle_type, previous, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= received[i].id == 100 * previous + i && received[i].position[0] == previous + i;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("resized struct: %s\n", all_ok ? "ok" : "FAILED");

  /* Every other double of 8, as an hvector; then Sendrecv_replace passes a token around the ring. */
  double values[8], gathered[4 * 64];
  for (int i = 0; i < 8; ++i)
    values[i] = rank * 10 + i;
  MPI_Datatype every_other;
  MPI_Type_create_hvector(4, 1, 2 * sizeof(double), MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  if (size <= 64)
    MPI_Gather(values, 1, every_other, gathered, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; rank == 0 && r < size && size <= 64; ++r)
    for (int i = 0; i < 4; ++i)
      ok &= gathered[4 * r + i] == r * 10 + 2 * i;
  MPI_Type_free(&every_other);
  int token = rank;
  MPI_Status status;
  MPI_Sendrecv_replace(&token, 1, MPI_INT, next, 2, previous, 2, MPI_COMM_WORLD, &status);
  ok &= token == previous && status.MPI_SOURCE == previous;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("hvector gather, sendrecv_replace: %s\n", all_ok ? "ok" : "FAILED");
  MPI_Finalize();
  return 0;
}
