/* MPI-IO views in the "external32" data representation (MPI-3.1 section 13.5.2: every element big-endian), run with
 * 4 ranks (tests/python/test_io.py). The file datarep.dat holds, in order:
 *   region 1, bytes 0-95: 24 ints written collectively, interleaved two by two (rank r's ints k are 100 r + k);
 *   region 2, bytes 96-119: rank 0's two structs {int, double} (padded in memory, 12 bytes each in the file);
 *   region 3, bytes 120-143: rank 1's three doubles, written by MPI_File_iwrite_at;
 *   region 4, bytes 144-165: rank 2's three shorts, an MPI_2INT pair and a float.
 * Every rank reads its data back through the view and checks it; rank 0 prints the file's bytes read through a
 * native byte view. The lines printed and the file are the same under Open MPI.
 *   io_datarep errors   (1 rank) the error classes of what mpisim refuses, and "internal" (the native bytes) */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct Pair {
  int key;
  double value;
};

static MPI_Datatype pair_type(void)
{
  int lengths[2] = {1, 1};
  MPI_Aint displacements[2] = {offsetof(struct Pair, key), offsetof(struct Pair, value)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair;
  MPI_Type_create_struct(2, lengths, displacements, types, &pair);
  MPI_Type_commit(&pair);
  return pair;
}

static void report(int rank, const char* what, int ok)
{
  printf("rank %d: %s read back: %s\n", rank, what, ok ? "ok" : "WRONG");
}

static void interleaved_ints(MPI_File fh, int rank, int size)
{
  MPI_Datatype two, filetype;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_create_resized(two, 0, (MPI_Aint)(2 * size * sizeof(int)), &filetype);
  MPI_Type_commit(&filetype);
  MPI_File_set_view(fh, (MPI_Offset)(2 * rank * sizeof(int)), MPI_INT, filetype, "external32", MPI_INFO_NULL);
  int ints[6], back[6];
  for (int k = 0; k < 6; ++k)
    ints[k] = 100 * rank + k;
  MPI_File_write_at_all(fh, 0, ints, 6, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_read_at_all(fh, 0, back, 6, MPI_INT, MPI_STATUS_IGNORE);
  report(rank, "interleaved ints", memcmp(ints, back, sizeof ints) == 0);
  MPI_Type_free(&two);
  MPI_Type_free(&filetype);
}

static void own_regions(MPI_File fh, int rank)
{
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL);
  char datarep[MPI_MAX_DATAREP_STRING];
  MPI_Offset disp;
  MPI_Datatype etype, filetype;
  MPI_File_get_view(fh, &disp, &etype, &filetype, datarep);
  if (rank == 0) {
    printf("view datarep %s\n", datarep);
    MPI_Datatype pair = pair_type();
    struct Pair pairs[2] = {{7, 1.5}, {-2, -0.25}}, back[2];
    MPI_File_write_at(fh, 96, pairs, 2, pair, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 96, back, 2, pair, MPI_STATUS_IGNORE);
    report(rank, "structs", back[0].key == 7 && back[0].value == 1.5 && back[1].key == -2 && back[1].value == -0.25);
    MPI_Type_free(&pair);
  } else if (rank == 1) {
    double values[3] = {1.0, -2.5, 1e100}, back[3];
    MPI_Request request;
    MPI_File_iwrite_at(fh, 120, values, 3, MPI_DOUBLE, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_iread_at(fh, 120, back, 3, MPI_DOUBLE, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    report(rank, "doubles", memcmp(values, back, sizeof values) == 0);
  } else if (rank == 2) {
    short shorts[3] = {1, -1, 0x1234}, shorts_back[3];
    int pair[2] = {0x01020304, 5}, pair_back[2];
    float single = 0.5f, single_back;
    MPI_File_write_at(fh, 144, shorts, 3, MPI_SHORT, MPI_STATUS_IGNORE);
    MPI_File_write_at(fh, 150, pair, 1, MPI_2INT, MPI_STATUS_IGNORE);
    MPI_File_write_at(fh, 158, &single, 1, MPI_FLOAT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 144, shorts_back, 3, MPI_SHORT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 150, pair_back, 1, MPI_2INT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 158, &single_back, 1, MPI_FLOAT, MPI_STATUS_IGNORE);
    report(rank, "shorts, a pair and a float",
           memcmp(shorts, shorts_back, sizeof shorts) == 0 && memcmp(pair, pair_back, sizeof pair) == 0 &&
               single_back == 0.5f);
  }
}

static void print_file(MPI_File fh, int rank)
{
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  if (rank != 0)
    return;
  unsigned char bytes[162];
  MPI_Status status;
  MPI_File_read_at(fh, 0, bytes, (int)sizeof bytes, MPI_BYTE, &status);
  int count;
  MPI_Get_count(&status, MPI_BYTE, &count);
  for (int line = 0; line < count; line += 16) {
    printf("%03d:", line);
    for (int i = line; i < line + 16 && i < count; ++i)
      printf(" %02x", bytes[i]);
    printf("\n");
  }
}

static const char* class_name(int error)
{
  int error_class;
  MPI_Error_class(error, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
  case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP";
  default: return "another class";
  }
}

static void errors(MPI_File fh)
{
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  printf("set_view bogus: %s\n", class_name(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "bogus", MPI_INFO_NULL)));
  printf("external32 view of longs: %s\n",
         class_name(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL)));
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL);
  long along = 1;
  printf("write of a long through external32: %s\n",
         class_name(MPI_File_write_at(fh, 0, &along, 1, MPI_LONG, MPI_STATUS_IGNORE)));
  MPI_Aint extent;
  printf("external32 extent of a long: %s\n", class_name(MPI_File_get_type_extent(fh, MPI_LONG, &extent)));
  MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent);
  printf("external32 extent of a double: %ld\n", (long)extent);
  printf("internal view: %s\n", class_name(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL)));
  int one = 1;
  unsigned char first;
  MPI_File_write_at(fh, 0, &one, 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  MPI_File_read_at(fh, 0, &first, 1, MPI_BYTE, MPI_STATUS_IGNORE);
  printf("first byte of 1 written through internal: %d\n", first);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int check_errors = argc > 1 && strcmp(argv[1], "errors") == 0;
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, check_errors ? "datarep-errors.dat" : "datarep.dat", MPI_MODE_CREATE | MPI_MODE_RDWR,
                MPI_INFO_NULL, &fh);
  if (check_errors) {
    if (rank == 0)
      errors(fh);
  } else {
    interleaved_ints(fh, rank, size);
    own_regions(fh, rank);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    print_file(fh, rank);
  }
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
