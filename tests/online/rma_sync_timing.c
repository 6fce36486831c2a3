/* Durations of passive-target and PSCW epochs, as MPI_Wtime sees them on rank 0, each after a barrier: every rank
 * moves N bytes (argv[1]) to or from its right neighbour under an exclusive lock (put), a shared lock (get), lock_all
 * (put), and in a PSCW ring (put; ended by MPI_Win_wait: SMPI 3.32 has no MPI_Win_test). No target is locked by two
 * ranks at once, where SMPI's lock differs from mpisim's. For comparing simulated times with smpirun's
 * (docs/online.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double since(double start)
{
  return MPI_Wtime() - start;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = (argc > 1 ? atoi(argv[1]) : 8) / (int)sizeof(double);
  double* origin = calloc((size_t)count + 1, sizeof(double));
  double* memory = calloc((size_t)count + 1, sizeof(double));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win win;
  MPI_Win_create(memory, (MPI_Aint)(count * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
  MPI_Put(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_unlock(right, win);
  const double lock_put = since(start);

  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  MPI_Get(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_unlock(right, win);
  const double lock_get = since(start);

  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_Win_lock_all(0, win);
  MPI_Put(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_unlock_all(win);
  const double lock_all_put = since(start);

  MPI_Group world, left_group, right_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &left, &left_group);
  MPI_Group_incl(world, 1, &right, &right_group);
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_Win_post(left_group, 0, win);
  MPI_Win_start(right_group, 0, win);
  MPI_Put(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  const double pscw_put = since(start);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("lock put %.9f lock get %.9f lock_all put %.9f pscw put %.9f\n", lock_put, lock_get, lock_all_put, pscw_put);
  MPI_Group_free(&left_group);
  MPI_Group_free(&right_group);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(origin);
  free(memory);
  MPI_Finalize();
  return 0;
}
