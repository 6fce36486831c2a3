/* The Fortran-named datatypes C programs use, and the Fortran handle and status conversions. Every check is of a value
 * the MPI standard fixes, computed here by hand; a rank prints "ok" or "WRONG: what" per check.
 *  - sizes: MPI_INTEGER and MPI_LOGICAL are 4 bytes (gfortran's default kinds), MPI_REAL 4, MPI_DOUBLE_PRECISION 8,
 *    MPI_COMPLEX 8, MPI_DOUBLE_COMPLEX 16, the pair types twice their value, MPI_INTEGERn n bytes, MPI_REALn n,
 *    MPI_COMPLEXn n; names as the standard spells them;
 *  - reductions over the groups of MPI-3.1 section 5.9.2: MPI_SUM on MPI_COMPLEX, MPI_PROD on MPI_DOUBLE_COMPLEX,
 *    MPI_MINLOC on MPI_2INTEGER, MPI_MAXLOC on MPI_2DOUBLE_PRECISION, MPI_LAND on MPI_LOGICAL, MPI_SUM on
 *    MPI_INTEGER8 and MPI_INTEGER16, MPI_MAX on MPI_REAL; MPI_SUM on MPI_LOGICAL is MPI_ERR_OP;
 *  - MPI_Type_match_size gives the sized Fortran types, MPI_Type_create_f90_* the kinds gfortran picks;
 *  - MPI_X_f2c(MPI_X_c2f(h)) == h for every handle kind, and a status survives MPI_Status_c2f then MPI_Status_f2c. */
#include <mpi.h>

#include <complex.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int condition, int rank, const char* what)
{
  if (!condition) {
    ++failures;
    printf("rank %d: WRONG: %s\n", rank, what);
  }
}

static void check_type(MPI_Datatype type, const char* name, int size, int rank)
{
  char got[MPI_MAX_OBJECT_NAME], what[200];
  int length, got_size;
  MPI_Type_get_name(type, got, &length);
  MPI_Type_size(type, &got_size);
  snprintf(what, sizeof what, "%s has %d bytes (got %s, %d)", name, size, got, got_size);
  check(strcmp(got, name) == 0 && got_size == size, rank, what);
}

static void sizes_and_names(int rank)
{
  check_type(MPI_CHARACTER, "MPI_CHARACTER", 1, rank);
  check_type(MPI_LOGICAL, "MPI_LOGICAL", 4, rank);
  check_type(MPI_INTEGER, "MPI_INTEGER", 4, rank);
  check_type(MPI_REAL, "MPI_REAL", 4, rank);
  check_type(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, rank);
  check_type(MPI_COMPLEX, "MPI_COMPLEX", 8, rank);
  check_type(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, rank);
  check_type(MPI_2INTEGER, "MPI_2INTEGER", 8, rank);
  check_type(MPI_2REAL, "MPI_2REAL", 8, rank);
  check_type(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, rank);
  check_type(MPI_INTEGER1, "MPI_INTEGER1", 1, rank);
  check_type(MPI_INTEGER2, "MPI_INTEGER2", 2, rank);
  check_type(MPI_INTEGER4, "MPI_INTEGER4", 4, rank);
  check_type(MPI_INTEGER8, "MPI_INTEGER8", 8, rank);
  check_type(MPI_INTEGER16, "MPI_INTEGER16", 16, rank);
  check_type(MPI_REAL4, "MPI_REAL4", 4, rank);
  check_type(MPI_REAL8, "MPI_REAL8", 8, rank);
  check_type(MPI_REAL16, "MPI_REAL16", 16, rank);
  check_type(MPI_COMPLEX8, "MPI_COMPLEX8", 8, rank);
  check_type(MPI_COMPLEX16, "MPI_COMPLEX16", 16, rank);
  check_type(MPI_COMPLEX32, "MPI_COMPLEX32", 32, rank);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(MPI_2DOUBLE_PRECISION, &lb, &extent);
  check(lb == 0 && extent == 16, rank, "MPI_2DOUBLE_PRECISION spans 16 bytes");
}

static void reductions(int rank, int size)
{
  /* Rank r contributes (r + 1) + i: the sum is n(n+1)/2 + n i; the product of (r + 1) + i over small n is exact. */
  float complex mine = (rank + 1) + 1.0f * I, sum;
  MPI_Allreduce(&mine, &sum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
  check(crealf(sum) == size * (size + 1) / 2 && cimagf(sum) == size, rank, "MPI_SUM on MPI_COMPLEX");
  double complex dmine = (rank + 1) + 1.0 * I, product, want = 1;
  MPI_Allreduce(&dmine, &product, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    want *= (r + 1) + 1.0 * I;
  check(product == want, rank, "MPI_PROD on MPI_DOUBLE_COMPLEX");

  /* MINLOC on (value, index) pairs of Fortran integers: values 10 - r % 3 ... the smallest is 8, first at rank 2. */
  int pair[2] = {10 - rank % 3, rank}, lowest[2];
  MPI_Allreduce(pair, lowest, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD);
  const int want_value = size >= 3 ? 8 : 10 - (size - 1), want_index = size >= 3 ? 2 : size - 1;
  check(lowest[0] == want_value && lowest[1] == want_index, rank, "MPI_MINLOC on MPI_2INTEGER");
  /* MAXLOC on double pairs, the index a double too: every rank has value 1.5; the smallest index wins the tie. */
  double dpair[2] = {1.5, (double)(size - rank)}, highest[2];
  MPI_Allreduce(dpair, highest, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD);
  check(highest[0] == 1.5 && highest[1] == 1.0, rank, "MPI_MAXLOC on MPI_2DOUBLE_PRECISION");

  int logical = rank != 1, all; /* false on rank 1 only */
  MPI_Allreduce(&logical, &all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
  check(all == (size == 1), rank, "MPI_LAND on MPI_LOGICAL");

  long long big = 1LL << 40, big_sum;
  MPI_Allreduce(&big, &big_sum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD);
  check(big_sum == (long long)size << 40, rank, "MPI_SUM on MPI_INTEGER8");
  __int128 huge = (__int128)1 << 100, huge_sum;
  MPI_Allreduce(&huge, &huge_sum, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
  check(huge_sum == (__int128)size << 100, rank, "MPI_SUM on MPI_INTEGER16");
  float real = (float)rank / 4, real_max;
  MPI_Allreduce(&real, &real_max, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD);
  check(real_max == (float)(size - 1) / 4, rank, "MPI_MAX on MPI_REAL");

  /* Logical values have no sum (the logical group has MPI_LAND, MPI_LOR, MPI_LXOR only). */
  int error = MPI_Allreduce(&logical, &all, 1, MPI_LOGICAL, MPI_SUM, MPI_COMM_WORLD), error_class = MPI_SUCCESS;
  MPI_Error_class(error, &error_class);
  check(error_class == MPI_ERR_OP, rank, "MPI_SUM on MPI_LOGICAL is MPI_ERR_OP");
}

static void matched_sizes(int rank)
{
  MPI_Datatype type;
  MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &type);
  check(type == MPI_INTEGER8, rank, "MPI_Type_match_size(integer, 8) is MPI_INTEGER8");
  MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &type);
  check(type == MPI_REAL4, rank, "MPI_Type_match_size(real, 4) is MPI_REAL4");
  MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &type);
  check(type == MPI_COMPLEX16, rank, "MPI_Type_match_size(complex, 16) is MPI_COMPLEX16");
}

/* The kinds gfortran picks for a precision and range (docs/online.md, "Fortran"); MPI_COMM_WORLD returns errors. */
static int error_class_of(int error)
{
  int error_class = MPI_SUCCESS;
  MPI_Error_class(error, &error_class);
  return error_class;
}

static void parameterized_kinds(int rank)
{
  MPI_Datatype type, again;
  int size = 0, integers = -1, addresses = -1, datatypes = -1, combiner = -1, contents[2] = {0, 0};
  MPI_Type_create_f90_real(16, MPI_UNDEFINED, &type); /* KIND=10, x87 extended: MPI_REAL16 here */
  MPI_Type_size(type, &size);
  check(size == 16, rank, "MPI_Type_create_f90_real(16, undefined) has 16 bytes");
  MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner);
  check(integers == 2 && addresses == 0 && datatypes == 0 && combiner == MPI_COMBINER_F90_REAL, rank,
        "f90 real envelope");
  MPI_Type_get_contents(type, 2, 0, 0, contents, NULL, NULL);
  check(contents[0] == 16 && contents[1] == MPI_UNDEFINED, rank, "f90 real contents are the arguments as given");
  MPI_Type_create_f90_real(16, MPI_UNDEFINED, &again);
  check(again == type, rank, "the same arguments give the same handle");
  check(error_class_of(MPI_Type_free(&type)) == MPI_ERR_TYPE, rank, "an f90 type cannot be freed");
  MPI_Type_create_f90_complex(6, 37, &type);
  check(type != MPI_DATATYPE_NULL && MPI_Type_size(type, &size) == MPI_SUCCESS && size == 8, rank,
        "complex(6, 37) is 8 bytes");
  MPI_Type_create_f90_integer(10, &type);
  check(MPI_Type_size(type, &size) == MPI_SUCCESS && size == 8, rank, "integer(10) is 8 bytes");
  check(error_class_of(MPI_Type_create_f90_real(25, 100, &type)) == MPI_ERR_ARG, rank,
        "KIND=16 (IEEE quadruple) refused");
  check(error_class_of(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &type)) == MPI_ERR_ARG, rank,
        "p and r both undefined refused");
  check(error_class_of(MPI_Type_create_f90_complex(-3, 10, &type)) == MPI_ERR_ARG, rank, "negative p refused");
  check(error_class_of(MPI_Type_create_f90_integer(39, &type)) == MPI_ERR_ARG, rank, "39 digits refused");
}

static void conversions(int rank, int size)
{
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  check(MPI_Comm_f2c(MPI_Comm_c2f(dup)) == dup, rank, "communicator round trip");
  MPI_Fint fortran_world = MPI_Comm_c2f(MPI_COMM_WORLD);
  int rank_again;
  MPI_Comm_rank(MPI_Comm_f2c(fortran_world), &rank_again);
  check(rank_again == rank, rank, "MPI_COMM_WORLD through its Fortran handle");
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INTEGER, &pair);
  check(MPI_Type_f2c(MPI_Type_c2f(pair)) == pair, rank, "datatype round trip");
  MPI_Group group;
  MPI_Comm_group(dup, &group);
  check(MPI_Group_f2c(MPI_Group_c2f(group)) == group, rank, "group round trip");
  check(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM, rank, "operation round trip");
  MPI_Info info;
  MPI_Info_create(&info);
  check(MPI_Info_f2c(MPI_Info_c2f(info)) == info, rank, "info round trip");
  check(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN, rank,
        "error handler round trip");
  check(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC, rank, "message round trip");
  check(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL, rank, "window round trip");

  /* A received message's status, through a Fortran status and back: same source, tag and count. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[3] = {rank, rank, rank}, in[3];
  MPI_Request request;
  MPI_Irecv(in, 3, MPI_INTEGER, left, 7, MPI_COMM_WORLD, &request);
  check(MPI_Request_f2c(MPI_Request_c2f(request)) == request, rank, "request round trip");
  MPI_Send(out, 3, MPI_INTEGER, right, 7, MPI_COMM_WORLD);
  MPI_Status status, back;
  MPI_Wait(&request, &status);
  MPI_Fint fortran_status[MPI_F_STATUS_SIZE];
  MPI_Status_c2f(&status, fortran_status);
  check(fortran_status[MPI_F_SOURCE] == left && fortran_status[MPI_F_TAG] == 7, rank,
        "a Fortran status holds the source and tag");
  MPI_Status_f2c(fortran_status, &back);
  int count;
  MPI_Get_count(&back, MPI_INTEGER, &count);
  check(back.MPI_SOURCE == left && back.MPI_TAG == 7 && count == 3, rank, "status round trip keeps the count");

  MPI_Info_free(&info);
  MPI_Group_free(&group);
  MPI_Type_free(&pair);
  MPI_Comm_free(&dup);
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  sizes_and_names(rank);
  reductions(rank, size);
  matched_sizes(rank);
  parameterized_kinds(rank);
  conversions(rank, size);
  printf("rank %d: %s\n", rank, failures == 0 ? "ok" : "failed");
  MPI_Finalize();
  return 0;
}
