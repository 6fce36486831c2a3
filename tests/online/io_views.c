/* File views built from MPI_Type_create_subarray and MPI_Type_create_darray: a 2-D array of GRID x GRID ints
 * (argument, default 8) split in blocks over a 2 x 2 process grid (4 ranks), each rank writing its block collectively
 * through its view, then reading it back independently through the same view; rank 0 checks the whole array in file
 * order. The file (views.dat) is compared with Open MPI's. With a second argument "independent", the subarray write is
 * independent instead of collective (same data, other timing); "naive" is independent without data sieving
 * (romio_ds_write disabled: one access per row); a third argument "time" prints rank 0's write time; a
 * fourth is the cb_buffer_size hint given at the open (small values make two-phase I/O work in several cycles). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_whole(MPI_File fh, MPI_Offset disp, int grid)
{
  int* all = malloc(sizeof(int) * grid * grid);
  MPI_File_read_at(fh, disp, all, grid * grid, MPI_INT, MPI_STATUS_IGNORE);
  int ok = 1;
  for (int k = 0; k < grid * grid; ++k)
    ok = ok && all[k] == k;
  free(all);
  return ok;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int grid = argc > 1 ? atoi(argv[1]) : 8;
  const int naive = argc > 2 && strcmp(argv[2], "naive") == 0;
  const int independent = naive || (argc > 2 && strcmp(argv[2], "independent") == 0);
  const int half = grid / 2;
  const int row = rank / 2, col = rank % 2;
  int* tile = malloc(sizeof(int) * half * half);
  int* back = malloc(sizeof(int) * half * half);
  for (int i = 0; i < half; ++i)
    for (int j = 0; j < half; ++j)
      tile[i * half + j] = (row * half + i) * grid + col * half + j;

  MPI_Info info;
  MPI_Info_create(&info);
  if (argc > 4)
    MPI_Info_set(info, "cb_buffer_size", argv[4]);
  if (naive)
    MPI_Info_set(info, "romio_ds_write", "disable");
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "views.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_Info_free(&info);

  /* Subarray view: the array at displacement 0. */
  int sizes[2] = {grid, grid}, subsizes[2] = {half, half}, starts[2] = {row * half, col * half};
  MPI_Datatype sub;
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  MPI_Type_commit(&sub);
  MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
  const double start = MPI_Wtime();
  if (independent)
    MPI_File_write(fh, tile, half * half, MPI_INT, MPI_STATUS_IGNORE);
  else
    MPI_File_write_all(fh, tile, half * half, MPI_INT, MPI_STATUS_IGNORE);
  const double took = MPI_Wtime() - start;
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_read_at(fh, 0, back, half * half, MPI_INT, MPI_STATUS_IGNORE);
  printf("rank %d: subarray tile read back: %s\n", rank,
         memcmp(tile, back, sizeof(int) * half * half) ? "WRONG" : "ok");
  if (argc > 3 && strcmp(argv[3], "time") == 0 && rank == 0)
    printf("write took %.9f s\n", took);

  /* Darray view (block, block over a 2 x 2 grid): the same tiles, a second copy after the first array. */
  const MPI_Offset second = (MPI_Offset)grid * grid * sizeof(int);
  int gsizes[2] = {grid, grid}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
  int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 2};
  MPI_Datatype dist;
  MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &dist);
  MPI_Type_commit(&dist);
  MPI_File_set_view(fh, second, MPI_INT, dist, "native", MPI_INFO_NULL);
  MPI_File_write_all(fh, tile, half * half, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  memset(back, 0, sizeof(int) * half * half);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_File_read_all(fh, back, half * half, MPI_INT, MPI_STATUS_IGNORE);
  printf("rank %d: darray tile read back: %s\n", rank, memcmp(tile, back, sizeof(int) * half * half) ? "WRONG" : "ok");

  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  if (rank == 0)
    printf("arrays in file order: %s %s\n", check_whole(fh, 0, grid) ? "ok" : "WRONG",
           check_whole(fh, second, grid) ? "ok" : "WRONG");
  MPI_File_close(&fh);
  MPI_Type_free(&sub);
  MPI_Type_free(&dist);
  free(tile);
  free(back);
  MPI_Finalize();
  return 0;
}
