/* stride: the same data written to a shared file two ways, for `mpisim compare` to tell them apart.
 *
 *   stride [-s STEPS] [-b BYTES] [-r RECORD] [-d DIR]
 *
 * Each of P ranks writes STEPS times BYTES bytes (default 8 x 1 MiB) with independent MPI_File_write_at calls:
 *   1. contiguous.bin: rank p's step k is one contiguous range, at (k P + p) BYTES;
 *   2. strided.bin: through a file view whose filetype (MPI_Type_vector) gives rank p every P-th RECORD-byte record
 *      (default 64 bytes), at (j P + p) RECORD for its j-th record: a column of a row-major matrix, say. Each call
 *      still writes BYTES contiguous bytes of the program's buffer, now scattered over BYTES / RECORD records.
 * Both files are deleted first. Then every rank reads both files back the same ways and checks its data. Rank 0 prints
 * each phase's bandwidth: all the ranks' bytes over the slowest rank's time in its MPI_File_write_at / read_at calls.
 * The program moves the same bytes in both phases; how the MPI library issues the second one is what differs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long long parse_size(const char* text)
{
  char* end = NULL;
  long long value = strtoll(text, &end, 10);
  if (*end == 'k' || *end == 'K')
    value <<= 10;
  else if (*end == 'm' || *end == 'M')
    value <<= 20;
  return value;
}

static void fill(char* buffer, long long bytes, int rank, int step)
{
  for (long long i = 0; i < bytes; ++i)
    buffer[i] = (char)('a' + (rank * 7 + step * 3 + i) % 26);
}

/* Wrong bytes of rank `rank`'s step `step` in `buffer`. */
static long long wrong(const char* buffer, long long bytes, int rank, int step)
{
  long long bad = 0;
  for (long long i = 0; i < bytes; ++i)
    bad += buffer[i] != (char)('a' + (rank * 7 + step * 3 + i) % 26);
  return bad;
}

/* One phase: every rank opens `path`, sets the view (none: the whole file as bytes), writes or reads its STEPS
 * blocks (a read checks them, counting wrong bytes into *bad), closes. Returns the slowest rank's time in its
 * accesses (from a barrier after the open to its last access: open and close are not the file system's transfer). */
static double phase(const char* path, int write, MPI_Datatype filetype, MPI_Offset displacement, MPI_Offset step_stride,
                    int steps, long long bytes, int rank, char* buffer, long long* bad)
{
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, path, write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, MPI_INFO_NULL,
                &file);
  if (filetype != MPI_DATATYPE_NULL)
    MPI_File_set_view(file, displacement, MPI_BYTE, filetype, "native", MPI_INFO_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  double busy = 0;
  for (int k = 0; k < steps; ++k) {
    const MPI_Offset offset = filetype == MPI_DATATYPE_NULL ? displacement + k * step_stride : k * bytes;
    if (write)
      fill(buffer, bytes, rank, k);
    else
      memset(buffer, 0, (size_t)bytes);
    const double start = MPI_Wtime();
    if (write)
      MPI_File_write_at(file, offset, buffer, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    else
      MPI_File_read_at(file, offset, buffer, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    busy += MPI_Wtime() - start;
    if (!write)
      *bad += wrong(buffer, bytes, rank, k);
  }
  MPI_File_close(&file);
  double slowest = 0;
  MPI_Reduce(&busy, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = 8;
  long long bytes = 1 << 20, record = 64;
  const char* dir = ".";
  int option;
  while ((option = getopt(argc, argv, "s:b:r:d:")) != -1) {
    switch (option) {
    case 's': steps = atoi(optarg); break;
    case 'b': bytes = parse_size(optarg); break;
    case 'r': record = parse_size(optarg); break;
    case 'd': dir = optarg; break;
    default:
      if (rank == 0)
        fprintf(stderr, "usage: stride [-s STEPS] [-b BYTES] [-r RECORD] [-d DIR]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (steps < 1 || record < 1 || bytes < record || bytes % record != 0 || bytes > (1 << 30)) {
    if (rank == 0)
      fprintf(stderr, "stride: BYTES must be a multiple of RECORD, at most 1 GiB; STEPS >= 1\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* buffer = malloc((size_t)bytes);
  char contiguous[4096], strided[4096];
  snprintf(contiguous, sizeof contiguous, "%s/contiguous.bin", dir);
  snprintf(strided, sizeof strided, "%s/strided.bin", dir);

  /* Rank p's records: every P-th RECORD bytes from byte p RECORD (the extent is resized to P records so that the
   * view tiles the file without gaps). */
  MPI_Datatype column, filetype;
  MPI_Type_vector(1, (int)record, (int)(record * size), MPI_BYTE, &column);
  MPI_Type_create_resized(column, 0, record * size, &filetype);
  MPI_Type_commit(&filetype);
  MPI_Type_free(&column);

  /* New files each run: writing over the pages of an earlier run's file is faster than allocating them. */
  if (rank == 0) {
    MPI_File_delete(contiguous, MPI_INFO_NULL);
    MPI_File_delete(strided, MPI_INFO_NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* Rank p's blocks: contiguous, step k at (k P + p) BYTES; strided, through the view. */
  const MPI_Offset own = rank * bytes, all = (MPI_Offset)size * bytes;
  long long bad = 0, total = 0;
  double seconds[4];
  seconds[0] = phase(contiguous, 1, MPI_DATATYPE_NULL, own, all, steps, bytes, rank, buffer, &bad);
  seconds[1] = phase(strided, 1, filetype, rank * record, 0, steps, bytes, rank, buffer, &bad);
  seconds[2] = phase(contiguous, 0, MPI_DATATYPE_NULL, own, all, steps, bytes, rank, buffer, &bad);
  seconds[3] = phase(strided, 0, filetype, rank * record, 0, steps, bytes, rank, buffer, &bad);
  MPI_Reduce(&bad, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    const char* names[4] = {"write contiguous", "write strided", "read contiguous", "read strided"};
    const double mib = (double)steps * bytes * size / (1 << 20);
    printf("stride: %d ranks, %d steps of %lld bytes each, records of %lld bytes\n", size, steps, bytes, record);
    for (int i = 0; i < 4; ++i)
      printf("%-17s %10.1f MiB/s  %.6f s\n", names[i], mib / seconds[i], seconds[i]);
    printf("check %lld wrong bytes\n", total);
  }
  MPI_Type_free(&filetype);
  free(buffer);
  MPI_Finalize();
  return 0;
}
