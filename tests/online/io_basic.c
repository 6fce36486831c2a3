/* MPI-IO in an online run: explicit offsets, the individual and shared file pointers, an interleaved view written
 * and read collectively (two-phase I/O), ordered writes, non-blocking accesses, reading past the end, and the errors
 * the standard names. Every rank prints what it checked; the file left behind is compared with Open MPI's
 * (tests/python/test_io.py). Argument: the file's name (default io_basic.dat). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8

static const char* class_name(int code)
{
  int cls = 0;
  MPI_Error_class(code, &cls);
  switch (cls) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE";
  case MPI_ERR_ARG: return "MPI_ERR_ARG";
  case MPI_ERR_AMODE: return "MPI_ERR_AMODE";
  case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY";
  case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS";
  default: return "another class";
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* name = argc > 1 ? argv[1] : "io_basic.dat";
  MPI_File fh;
  MPI_Status status;
  int count;

  /* Errors: files return them (MPI_ERRORS_RETURN is the default handler of files). */
  int err = MPI_File_open(MPI_COMM_WORLD, "io_missing.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  if (rank == 0)
    printf("open of a missing file: %s\n", class_name(err));
  err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  if (rank == 0)
    printf("read-only creation: %s\n", class_name(err));

  /* Region 1: each rank's block at an explicit offset, read back by its neighbour. */
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  int block[N], back[N];
  for (int i = 0; i < N; ++i)
    block[i] = rank * 100 + i;
  MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), block, N, MPI_INT, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  const int next = (rank + 1) % size;
  MPI_File_read_at(fh, (MPI_Offset)next * N * sizeof(int), back, N, MPI_INT, &status);
  int ok = count == N;
  for (int i = 0; i < N; ++i)
    ok = ok && back[i] == next * 100 + i;
  printf("rank %d: block of rank %d read back: %s\n", rank, next, ok ? "ok" : "WRONG");
  MPI_Offset bytes;
  MPI_File_get_size(fh, &bytes);
  if (rank == 0)
    printf("size after region 1: %lld\n", (long long)bytes);

  /* Region 2: an interleaved view (one int of each rank in turn), written and read collectively. */
  const MPI_Offset region2 = (MPI_Offset)size * N * sizeof(int);
  MPI_Datatype one_in_turn;
  MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)(size * sizeof(int)), &one_in_turn);
  MPI_Type_commit(&one_in_turn);
  MPI_File_set_view(fh, region2 + rank * (MPI_Offset)sizeof(int), MPI_INT, one_in_turn, "native", MPI_INFO_NULL);
  for (int i = 0; i < N; ++i)
    block[i] = 1000 + rank + size * i;
  MPI_File_write_all(fh, block, N, MPI_INT, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  MPI_Offset position;
  MPI_File_get_position(fh, &position);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  memset(back, 0, sizeof back);
  MPI_File_read_all(fh, back, N, MPI_INT, &status);
  ok = count == N && position == N;
  for (int i = 0; i < N; ++i)
    ok = ok && back[i] == 1000 + rank + size * i;
  printf("rank %d: interleaved write_all and read_all: %s\n", rank, ok ? "ok" : "WRONG");
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  if (rank == 0) {
    int* all = malloc(sizeof(int) * N * size);
    MPI_File_read_at(fh, region2, all, N * size, MPI_INT, &status);
    ok = 1;
    for (int k = 0; k < N * size; ++k)
      ok = ok && all[k] == 1000 + k;
    printf("region 2 in file order: %s\n", ok ? "ok" : "WRONG");
    free(all);
  }

  /* Region 3: ordered writes through the shared pointer, rank r writing r + 1 ints. */
  const MPI_Offset region3 = region2 + (MPI_Offset)size * N * sizeof(int);
  MPI_File_set_view(fh, region3, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int mine[64];
  for (int i = 0; i <= rank; ++i)
    mine[i] = 5000 + rank;
  MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &status);
  MPI_Offset shared;
  MPI_File_get_position_shared(fh, &shared);
  if (rank == 0)
    printf("shared pointer after ordered writes: %lld\n", (long long)shared);

  /* Non-blocking accesses, then reads past the end. */
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  MPI_File_get_size(fh, &bytes);
  MPI_Barrier(MPI_COMM_WORLD); /* everyone has read the size before anyone writes past it */
  MPI_Request request;
  const int tail = 7000 + rank;
  MPI_File_iwrite_at(fh, bytes + rank * (MPI_Offset)sizeof(int), &tail, 1, MPI_INT, &request);
  MPI_Wait(&request, &status);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  int got = 0;
  MPI_File_iread_at(fh, bytes + next * (MPI_Offset)sizeof(int), &got, 1, MPI_INT, &request);
  MPI_Wait(&request, &status);
  printf("rank %d: non-blocking read of rank %d's int: %s\n", rank, next, got == 7000 + next ? "ok" : "WRONG");
  MPI_File_get_size(fh, &bytes);
  MPI_File_read_at(fh, bytes, back, N, MPI_INT, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  if (rank == 0)
    printf("read at the end: count %d; size %lld\n", count, (long long)bytes);

  /* A filetype that is not a whole number of etypes. */
  MPI_Datatype three_chars;
  MPI_Type_contiguous(3, MPI_CHAR, &three_chars);
  MPI_Type_commit(&three_chars);
  err = MPI_File_set_view(fh, 0, MPI_INT, three_chars, "native", MPI_INFO_NULL);
  if (rank == 0)
    printf("filetype of 3 bytes over an int etype: %s\n", class_name(err));
  MPI_File_close(&fh);

  /* Read-only: writing is refused. */
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  err = MPI_File_write_at(fh, 0, block, 1, MPI_INT, &status);
  if (rank == 0)
    printf("write to a read-only file: %s\n", class_name(err));
  MPI_File_close(&fh);
  MPI_Type_free(&one_in_turn);
  MPI_Type_free(&three_chars);
  MPI_Finalize();
  return 0;
}
