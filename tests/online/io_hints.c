/* The data sieving hints at open (docs/specifications/data-sieving.md): a valid value is kept, a wrong one ignored
 * (the default stays), and MPI_File_get_info reports the values in effect. Rank 0 prints them. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_ds_read", "disable");
  MPI_Info_set(info, "romio_ds_write", "sometimes");
  MPI_Info_set(info, "ind_wr_buffer_size", "1048576");
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "hints.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_Info_free(&info);
  MPI_File_get_info(fh, &info);
  const char* keys[] = {"romio_ds_read", "romio_ds_write", "ind_rd_buffer_size", "ind_wr_buffer_size"};
  for (int k = 0; k < 4; ++k) {
    char value[MPI_MAX_INFO_VAL + 1];
    int found = 0;
    MPI_Info_get(info, keys[k], MPI_MAX_INFO_VAL, value, &found);
    if (rank == 0)
      printf("%s = %s\n", keys[k], found ? value : "(none)");
  }
  MPI_Info_free(&info);
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
