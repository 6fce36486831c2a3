/* File management and inquiries of MPI-IO, each printed by rank 0 with the value the standard defines (the same lines
 * under Open MPI): access mode, group, preallocate and set_size, a view's byte offsets and its description, type
 * extents, individual pointer seeks (SEEK_END through a view with holes), atomicity, the shared pointer after
 * write_shared, delete, MPI_MODE_EXCL, MPI_MODE_DELETE_ON_CLOSE, a user error handler, f2c/c2f. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int handler_calls = 0;
static int handler_code = 0;

static void count_errors(MPI_File* file, int* code, ...)
{
  (void)file;
  ++handler_calls;
  MPI_Error_class(*code, &handler_code);
}

static int error_class(int code)
{
  int cls;
  MPI_Error_class(code, &cls);
  return cls;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "manage.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);

  int amode, same;
  MPI_File_get_amode(fh, &amode);
  MPI_Group group, world;
  MPI_File_get_group(fh, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_compare(group, world, &same);
  if (rank == 0)
    printf("amode is CREATE|RDWR: %d; group identical to the world's: %d\n", amode == (MPI_MODE_CREATE | MPI_MODE_RDWR),
           same == MPI_IDENT);
  MPI_Group_free(&group);
  MPI_Group_free(&world);

  MPI_Offset bytes;
  MPI_File_preallocate(fh, 1000);
  MPI_File_get_size(fh, &bytes);
  if (rank == 0)
    printf("after preallocate(1000): %lld\n", (long long)bytes);
  MPI_File_set_size(fh, 100);
  MPI_File_get_size(fh, &bytes);
  if (rank == 0)
    printf("after set_size(100): %lld\n", (long long)bytes);

  /* A view of one int in three, from byte 8. */
  MPI_Datatype one_in_three;
  MPI_Type_create_resized(MPI_INT, 0, 12, &one_in_three);
  MPI_Type_commit(&one_in_three);
  MPI_File_set_view(fh, 8, MPI_INT, one_in_three, "native", MPI_INFO_NULL);
  MPI_Offset offset, disp;
  MPI_File_get_byte_offset(fh, 2, &offset);
  MPI_Datatype etype, filetype;
  char datarep[MPI_MAX_DATAREP_STRING];
  MPI_File_get_view(fh, &disp, &etype, &filetype, datarep);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(filetype, &lb, &extent);
  MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent);
  MPI_Aint filetype_extent;
  MPI_Type_get_extent(filetype, &lb, &filetype_extent);
  if (rank == 0)
    printf("byte offset of etype 2: %lld; view: disp %lld, etype is MPI_INT %d, filetype extent %ld, %s; "
           "extent of MPI_DOUBLE in the file: %ld\n",
           (long long)offset, (long long)disp, etype == MPI_INT, (long)filetype_extent, datarep, (long)extent);
  if (filetype != MPI_INT)
    MPI_Type_free(&filetype);

  MPI_Offset position;
  MPI_File_seek(fh, 3, MPI_SEEK_SET);
  MPI_File_seek(fh, -1, MPI_SEEK_CUR);
  MPI_File_get_position(fh, &position);
  if (rank == 0)
    printf("position after seek(3, SET), seek(-1, CUR): %lld\n", (long long)position);
  MPI_File_seek(fh, 0, MPI_SEEK_END);
  MPI_File_get_position(fh, &position);
  if (rank == 0)
    printf("position at the end of the 100-byte file through the view: %lld\n", (long long)position);

  int flag;
  MPI_File_set_atomicity(fh, 1);
  MPI_File_get_atomicity(fh, &flag);
  if (rank == 0)
    printf("atomicity: %d\n", flag);

  /* The shared pointer: one int each. */
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  MPI_File_write_shared(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_get_position_shared(fh, &position);
  if (rank == 0)
    printf("shared pointer after one write_shared per rank: %lld\n", (long long)(position == size));

  /* A user error handler on the file: reading past nothing is fine, a negative offset is an error. */
  MPI_Errhandler counting;
  MPI_File_create_errhandler(count_errors, &counting);
  MPI_File_set_errhandler(fh, counting);
  int value;
  const int err = MPI_File_read_at(fh, -1, &value, 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Errhandler got;
  MPI_File_get_errhandler(fh, &got);
  if (rank == 0)
    printf("negative offset: handler called %d time(s) with MPI_ERR_ARG %d, returned MPI_ERR_ARG %d; handler kept %d\n",
           handler_calls, handler_code == MPI_ERR_ARG, error_class(err) == MPI_ERR_ARG, got == counting);
  MPI_Errhandler_free(&got);
  MPI_Errhandler_free(&counting);
  const MPI_Fint fortran = MPI_File_c2f(fh);
  if (rank == 0)
    printf("f2c(c2f(fh)) is fh: %d\n", MPI_File_f2c(fortran) == fh);
  MPI_File_close(&fh);
  if (rank == 0)
    printf("closed handle is MPI_FILE_NULL: %d\n", fh == MPI_FILE_NULL);

  int e =
      MPI_File_open(MPI_COMM_WORLD, "manage.dat", MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (rank == 0)
    printf("EXCL on an existing file: MPI_ERR_FILE_EXISTS %d\n", error_class(e) == MPI_ERR_FILE_EXISTS);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    e = MPI_File_delete("manage.dat", MPI_INFO_NULL);
    printf("delete: %d; ", e == MPI_SUCCESS);
    e = MPI_File_delete("manage.dat", MPI_INFO_NULL);
    printf("delete again: MPI_ERR_NO_SUCH_FILE %d\n", error_class(e) == MPI_ERR_NO_SUCH_FILE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_open(MPI_COMM_WORLD, "scratch.dat", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  MPI_File_close(&fh);
  e = MPI_File_open(MPI_COMM_WORLD, "scratch.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  if (rank == 0)
    printf("DELETE_ON_CLOSE file gone after close: %d\n", error_class(e) == MPI_ERR_NO_SUCH_FILE);
  MPI_Type_free(&one_in_three);
  MPI_Finalize();
  return 0;
}
