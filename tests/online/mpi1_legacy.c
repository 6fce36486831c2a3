/* The MPI-1 interface removed in MPI-3.0 that MPICH, Open MPI and SMPI keep: MPI_LB/MPI_UB markers, MPI_Type_struct,
 * MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_extent/lb/ub, MPI_Address, MPI_Errhandler_create/set/get,
 * MPI_Keyval_create/MPI_Attr_put/get with MPI_Dup_fn and MPI_Null_copy_fn (the MPI_DUP_FN and MPI_NULL_COPY_FN
 * macros under SMPI, which has no such functions), and duplications a copy callback refuses. Every value is computed by
 * hand from the MPI-1.1 rules (section 3.12.3: the lowest MPI_LB marker is the lower bound, the highest MPI_UB the
 * upper bound, and markers carry over into the types built from a type); a rank prints "ok" or "WRONG: what" per check.
 */
#include <mpi.h>

#include <stdio.h>

static int failures = 0;

static void check(int condition, int rank, const char* what)
{
  if (!condition) {
    ++failures;
    printf("rank %d: WRONG: %s\n", rank, what);
  }
}

static void bounds(MPI_Datatype type, MPI_Aint want_lb, MPI_Aint want_ub, int want_size, int rank, const char* what)
{
  MPI_Aint lb, ub, extent;
  int size;
  MPI_Type_lb(type, &lb);
  MPI_Type_ub(type, &ub);
  MPI_Type_extent(type, &extent);
  MPI_Type_size(type, &size);
  char message[200];
  snprintf(message, sizeof message, "%s: lb %ld ub %ld extent %ld size %d (want %ld %ld %ld %d)", what, (long)lb,
           (long)ub, (long)extent, size, (long)want_lb, (long)want_ub, (long)(want_ub - want_lb), want_size);
  check(lb == want_lb && ub == want_ub && extent == want_ub - want_lb && size == want_size, rank, message);
}

static void markers(int rank, int size)
{
  /* An int between an LB marker at -4 and a UB marker at 12: lb -4, ub 12. */
  int lengths[3] = {1, 1, 1};
  MPI_Aint displacements[3] = {-4, 0, 12};
  MPI_Datatype types[3] = {MPI_LB, MPI_INT, MPI_UB}, framed;
  MPI_Type_struct(3, lengths, displacements, types, &framed);
  bounds(framed, -4, 12, 4, rank, "int framed by MPI_LB at -4 and MPI_UB at 12");

  /* Two copies 16 bytes apart: markers at -4, 12 (lower) and 12, 28 (upper): lb -4, ub 28. */
  MPI_Datatype two;
  MPI_Type_contiguous(2, framed, &two);
  bounds(two, -4, 28, 8, rank, "two framed ints");

  /* The markers are sticky: a double at 100 next to the framed int does not move the upper bound. */
  int lengths2[2] = {1, 1};
  MPI_Aint displacements2[2] = {0, 100};
  MPI_Datatype types2[2] = {framed, MPI_DOUBLE}, outer;
  MPI_Type_create_struct(2, lengths2, displacements2, types2, &outer);
  bounds(outer, -4, 12, 12, rank, "a framed int and a double at 100");

  /* An upper marker alone: a char then MPI_UB at 8 spans 8 bytes, no alignment padding. */
  MPI_Aint displacements3[2] = {0, 8};
  MPI_Datatype types3[2] = {MPI_CHAR, MPI_UB}, padded;
  MPI_Type_struct(2, lengths2, displacements3, types3, &padded);
  bounds(padded, 0, 8, 1, rank, "a char and MPI_UB at 8");

  /* Sending three "an int every 8 bytes" elements takes ints 0, 2 and 4 of the buffer. */
  MPI_Type_commit(&padded);
  MPI_Datatype strided;
  MPI_Aint displacements4[2] = {0, 8};
  MPI_Datatype types4[2] = {MPI_INT, MPI_UB};
  MPI_Type_struct(2, lengths2, displacements4, types4, &strided);
  MPI_Type_commit(&strided);
  int out[6] = {10 * rank, -1, 10 * rank + 1, -1, 10 * rank + 2, -1}, in[3] = {-1, -1, -1};
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(out, 3, strided, right, 0, in, 3, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check(in[0] == 10 * left && in[1] == 10 * left + 1 && in[2] == 10 * left + 2, rank,
        "three elements of an int then MPI_UB at 8 are every other int");

  MPI_Type_free(&strided);
  MPI_Type_free(&padded);
  MPI_Type_free(&outer);
  MPI_Type_free(&two);
  MPI_Type_free(&framed);
}

static void old_constructors(int rank)
{
  /* Three ints 12 bytes apart: the last ends at 2 x 12 + 4. */
  MPI_Datatype hvector;
  MPI_Type_hvector(3, 1, 12, MPI_INT, &hvector);
  bounds(hvector, 0, 28, 12, rank, "MPI_Type_hvector(3, 1, 12 bytes, MPI_INT)");
  /* One int at 0, two at 16: from 0 to 24. */
  int lengths[2] = {1, 2};
  MPI_Aint displacements[2] = {0, 16};
  MPI_Datatype hindexed;
  MPI_Type_hindexed(2, lengths, displacements, MPI_INT, &hindexed);
  bounds(hindexed, 0, 24, 12, rank, "MPI_Type_hindexed({1, 2}, {0, 16}, MPI_INT)");
  MPI_Type_free(&hindexed);
  MPI_Type_free(&hvector);

  int array[4];
  MPI_Aint first, third;
  MPI_Address(&array[0], &first);
  MPI_Address(&array[2], &third);
  check(third - first == 2 * (MPI_Aint)sizeof(int), rank, "MPI_Address of two ints apart");
}

static int handler_calls = 0, handler_class = MPI_SUCCESS;

static void count_errors(MPI_Comm* comm, int* code, ...)
{
  (void)comm;
  ++handler_calls;
  MPI_Error_class(*code, &handler_class);
}

static void error_handlers(int rank, int size)
{
  MPI_Errhandler counting, current;
  MPI_Errhandler_create(count_errors, &counting);
  MPI_Errhandler_set(MPI_COMM_WORLD, counting);
  MPI_Errhandler_get(MPI_COMM_WORLD, &current);
  check(current == counting, rank, "MPI_Errhandler_get returns the handler MPI_Errhandler_set attached");
  int value = 0;
  MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* no rank `size` */
  check(handler_calls == 1 && handler_class == MPI_ERR_RANK, rank, "the handler hears of MPI_ERR_RANK once");
  MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&current);
  MPI_Errhandler_free(&counting);
}

static int refuse_copy(MPI_Comm comm, int keyval, void* extra_state, void* in, void* out, int* flag)
{
  (void)comm, (void)keyval, (void)extra_state, (void)in, (void)out;
  *flag = 1;
  return MPI_ERR_OTHER;
}

/* A copy callback that fails makes the duplication fail: its error comes back and no duplicate is made
 * (MPI_COMM_NULL, MPI_DATATYPE_NULL), as MPICH does (its attr/attrerr, attrerrcomm, attrerrtype). */
static void failed_copies(int rank)
{
  static int payload = 7;
  int keyval, type_keyval;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Keyval_create(refuse_copy, MPI_NULL_DELETE_FN, &keyval, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, keyval, &payload);
  MPI_Comm dup = MPI_COMM_WORLD;
  const int error = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  check(error == MPI_ERR_OTHER && dup == MPI_COMM_NULL, rank, "a failed copy callback fails MPI_Comm_dup");
  MPI_Attr_delete(MPI_COMM_WORLD, keyval);
  MPI_Keyval_free(&keyval);

  MPI_Datatype pair, copy = MPI_INT;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_keyval(refuse_copy, MPI_TYPE_NULL_DELETE_FN, &type_keyval, NULL);
  MPI_Type_set_attr(pair, type_keyval, &payload);
  const int type_error = MPI_Type_dup(pair, &copy);
  check(type_error == MPI_ERR_OTHER && copy == MPI_DATATYPE_NULL, rank, "a failed copy callback fails MPI_Type_dup");
  MPI_Type_delete_attr(pair, type_keyval);
  MPI_Type_free_keyval(&type_keyval);
  MPI_Type_free(&pair);
}

static void attributes(int rank)
{
  static int payload = 42;
  int copied, not_copied, flag = 0;
#ifdef MPISIM /* the callbacks as functions, which SMPI lacks */
  MPI_Keyval_create(MPI_Dup_fn, MPI_Null_delete_fn, &copied, NULL);
  MPI_Keyval_create(MPI_Null_copy_fn, MPI_Null_delete_fn, &not_copied, NULL);
#else
  MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &copied, NULL);
  MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &not_copied, NULL);
#endif
  MPI_Attr_put(MPI_COMM_WORLD, copied, &payload);
  MPI_Attr_put(MPI_COMM_WORLD, not_copied, &payload);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int* value = NULL;
  MPI_Attr_get(dup, copied, &value, &flag);
  check(flag && value == &payload, rank, "MPI_Dup_fn copies the attribute into the duplicate");
  MPI_Attr_get(dup, not_copied, &value, &flag);
  check(!flag, rank, "MPI_Null_copy_fn leaves the duplicate without the attribute");
  MPI_Attr_delete(MPI_COMM_WORLD, copied);
  MPI_Attr_get(MPI_COMM_WORLD, copied, &value, &flag);
  check(!flag, rank, "MPI_Attr_delete removes the attribute");
  MPI_Comm_free(&dup);
  MPI_Attr_delete(MPI_COMM_WORLD, not_copied);
  MPI_Keyval_free(&copied);
  MPI_Keyval_free(&not_copied);
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  markers(rank, size);
  old_constructors(rank);
  error_handlers(rank, size);
  attributes(rank);
  failed_copies(rank);
  printf("rank %d: %s\n", rank, failures == 0 ? "ok" : "failed");
  MPI_Finalize();
  return 0;
}
