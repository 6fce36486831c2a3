/* Non-blocking and split collective MPI-IO overlapping computation (docs/specifications/two-phase-io.md,
 * "Non-blocking and split collectives"). 4 ranks each write N ints interleaved with the others' (int i of rank r at
 * int position 4 i + r, value 4 i + r: the file holds 0, 1, 2, ... in order), through a view, so that two-phase I/O
 * aggregates them. Rank 0 prints each phase's simulated time, from a barrier before the call to the end of its wait:
 *   blocking write_all T then, on the same file, iwrite_all, computing F x T (F = 0.5 and 2) and MPI_Wait; the
 *   blocking write_all alone (nb_blocking.dat); two iwrite_all of half
 *   the data each outstanding together; read_all_begin / computing / read_all_end; iread_all; write_at of a
 *   contiguous block and iwrite_at overlapping F x its time.
 * Every rank checks the data it reads back. Each write goes to a file of its own (nb_*.dat), all identical. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>

#define N 65536
#define MEMBERS 4

static int rank;
static int values[N];
static MPI_Datatype filetype;

static MPI_File open_view(const char* name, int amode)
{
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name, amode, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, (MPI_Offset)(sizeof(int) * rank), MPI_INT, filetype, "native", MPI_INFO_NULL);
  return fh;
}

static double since(double start)
{
  double elapsed = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return elapsed;
}

static void report(const char* phase, double elapsed, double compute)
{
  if (rank == 0)
    printf("%s: elapsed %.9f compute %.9f\n", phase, elapsed, compute);
}

static void check(const char* phase, const int* got)
{
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += got[i] != MEMBERS * i + rank;
  printf("rank %d: %s data: %s\n", rank, phase, bad == 0 ? "ok" : "WRONG");
}

/* On one file: the blocking write_all's time T, then the same write again by iwrite_all, `factor` x T of
 * computation, and the wait (the same file: the same servers, so the same I/O time). */
static void overlapped_write_all(const char* name, const char* phase, double factor)
{
  MPI_File fh = open_view(name, MPI_MODE_CREATE | MPI_MODE_WRONLY);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_File_write_all(fh, values, N, MPI_INT, MPI_STATUS_IGNORE);
  const double blocking = since(start);
  report("write_all", blocking, 0);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_Request request;
  MPI_Status status;
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_File_iwrite_all(fh, values, N, MPI_INT, &request);
  mpisim_execute_benched(factor * blocking);
  MPI_Wait(&request, &status);
  report(phase, since(start), factor * blocking);
  int count;
  MPI_Get_count(&status, MPI_INT, &count);
  if (count != N)
    printf("rank %d: iwrite_all count %d\n", rank, count);
  MPI_File_close(&fh);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype one;
  MPI_Type_vector(1, 1, MEMBERS, MPI_INT, &one);
  MPI_Type_create_resized(one, 0, (MPI_Aint)(MEMBERS * sizeof(int)), &filetype);
  MPI_Type_commit(&filetype);
  MPI_Type_free(&one);
  for (int i = 0; i < N; ++i)
    values[i] = MEMBERS * i + rank;

  overlapped_write_all("nb_short.dat", "iwrite_all, shorter compute", 0.5);
  overlapped_write_all("nb_long.dat", "iwrite_all, longer compute", 2);

  /* The blocking call alone (the reference file, read back below). */
  MPI_File fh = open_view("nb_blocking.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY);
  MPI_File_write_all(fh, values, N, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);

  /* Two collectives outstanding on one file: the first half of the data, then the second (individual pointer). */
  fh = open_view("nb_two.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY);
  MPI_Request two[2];
  MPI_File_iwrite_all(fh, values, N / 2, MPI_INT, &two[0]);
  MPI_File_iwrite_all(fh, values + N / 2, N / 2, MPI_INT, &two[1]);
  MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
  MPI_File_close(&fh);

  /* Split collective read overlapping computation. */
  int* got = calloc(N, sizeof(int));
  fh = open_view("nb_blocking.dat", MPI_MODE_RDONLY);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_File_read_all(fh, got, N, MPI_INT, MPI_STATUS_IGNORE);
  const double read_time = since(start);
  report("read_all", read_time, 0);
  check("read_all", got);
  for (int i = 0; i < N; ++i)
    got[i] = -1;
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_File_read_all_begin(fh, got, N, MPI_INT);
  mpisim_execute_benched(0.5 * read_time);
  MPI_Status status;
  MPI_File_read_all_end(fh, got, &status);
  report("read_all_begin/end, shorter compute", since(start), 0.5 * read_time);
  check("read_all_begin/end", got);
  int count;
  MPI_Get_count(&status, MPI_INT, &count);
  printf("rank %d: read_all_end count %d\n", rank, count);
  for (int i = 0; i < N; ++i)
    got[i] = -1;
  MPI_Request request;
  MPI_File_iread_at_all(fh, 0, got, N, MPI_INT, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  check("iread_at_all", got);
  /* Errors found at the call are the call's (the file's handler: MPI_ERRORS_RETURN): no request is made. */
  request = MPI_REQUEST_NULL;
  int error = MPI_File_iwrite_all(fh, values, N, MPI_INT, &request);
  int error_class;
  MPI_Error_class(error, &error_class);
  printf("rank %d: iwrite_all on a read-only file: %s, %s\n", rank,
         error_class == MPI_ERR_READ_ONLY ? "MPI_ERR_READ_ONLY" : "another error",
         request == MPI_REQUEST_NULL ? "no request" : "a request");
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_File_read_all_begin(fh, got, N, MPI_INT);
  error = MPI_File_read_all_begin(fh, got, N, MPI_INT);
  MPI_Error_class(error, &error_class);
  printf("rank %d: a second split collective begun: %s\n", rank,
         error_class == MPI_ERR_OTHER ? "MPI_ERR_OTHER" : "another error");
  MPI_File_read_all_end(fh, got, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);

  /* Independent: each rank its contiguous block, blocking then overlapping computation. */
  MPI_File_open(MPI_COMM_WORLD, "nb_independent.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  const MPI_Offset block = (MPI_Offset)rank * N * (MPI_Offset)sizeof(int);
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_File_write_at(fh, block, values, N, MPI_INT, MPI_STATUS_IGNORE);
  const double independent = since(start);
  report("write_at", independent, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  MPI_File_iwrite_at(fh, block, values, N, MPI_INT, &request);
  mpisim_execute_benched(2 * independent);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  report("iwrite_at, longer compute", since(start), 2 * independent);
  MPI_File_close(&fh);

  free(got);
  MPI_Type_free(&filetype);
  MPI_Finalize();
  return 0;
}
