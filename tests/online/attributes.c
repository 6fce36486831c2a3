/* Attribute caching: predefined attributes of MPI_COMM_WORLD, user keyvals whose copy callbacks run on
 * MPI_Comm_dup and delete callbacks on replacement, deletion, MPI_Comm_free, MPI_Type_free and (MPI_COMM_SELF)
 * MPI_Finalize; the MPI-1 names (MPI_Keyval_create, MPI_Attr_put ...). The lines are the same under any MPI. With
 * the argument "errors", rank 0 prints the error classes of invalid calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures = 0;
#define EXPECT(condition)                                                                                              \
  do {                                                                                                                 \
    if (!(condition)) {                                                                                                \
      printf("rank %d: FAILED line %d: %s\n", rank, __LINE__, #condition);                                             \
      ++failures;                                                                                                      \
    }                                                                                                                  \
  } while (0)

static int copies = 0, deletions = 0, last_deleted = -1;

/* Copies into a new int one larger (so the test sees the callback ran), counting. */
static int copy_incremented(MPI_Comm old, int keyval, void* extra, void* in, void* out, int* flag)
{
  (void)old, (void)keyval;
  int* copy = malloc(sizeof *copy);
  *copy = *(int*)in + *(int*)extra;
  *(void**)out = copy;
  *flag = 1;
  ++copies;
  return MPI_SUCCESS;
}

static int delete_counted(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)extra;
  last_deleted = *(int*)value;
  ++deletions;
  return MPI_SUCCESS;
}

static int delete_allocated(MPI_Comm comm, int keyval, void* value, void* extra)
{
  delete_counted(comm, keyval, value, extra);
  free(value);
  return MPI_SUCCESS;
}

static int refuse_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  return MPI_ERR_OTHER;
}

static int at_finalize(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)extra;
  printf("rank %d: MPI_COMM_SELF attribute %d deleted by MPI_Finalize\n", rank, *(int*)value);
  return MPI_SUCCESS;
}

static int type_deleted = 0;
static int delete_type_attribute(MPI_Datatype type, int keyval, void* value, void* extra)
{
  (void)type, (void)keyval, (void)extra;
  type_deleted = *(int*)value;
  return MPI_SUCCESS;
}

static void predefined(void)
{
  int* value;
  int flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
  printf("rank %d: MPI_TAG_UB %s, at least 32767: %s\n", rank, flag ? "set" : "unset", *value >= 32767 ? "yes" : "no");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag);
  printf("rank %d: MPI_HOST %s, MPI_PROC_NULL: %s\n", rank, flag ? "set" : "unset",
         *value == MPI_PROC_NULL ? "yes" : "no");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag);
  printf("rank %d: MPI_IO %s\n", rank, flag ? "set" : "unset");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag);
  printf("rank %d: MPI_WTIME_IS_GLOBAL %s\n", rank, flag ? "set" : "unset");
#ifdef MPISIM /* one simulated clock; the universe is the simulated world */
  EXPECT(*value == 1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag);
  EXPECT(flag && *value == size);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag);
  EXPECT(*value == MPI_ANY_SOURCE);
#endif
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag);
  printf("rank %d: MPI_APPNUM %s, value %d\n", rank, flag ? "set" : "unset", flag ? *value : -1);
}

static void user_keyvals(void)
{
  static int base = 10, step = 1, plain = 42, replaced = 43;
  int copied_key, shared_key, local_key, refusing_key;
  MPI_Comm_create_keyval(copy_incremented, delete_allocated, &copied_key, &step);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_counted, &shared_key, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &local_key, NULL);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, refuse_delete, &refusing_key, NULL);

  MPI_Comm first, second;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  int* allocated = malloc(sizeof *allocated);
  *allocated = base + rank;
  MPI_Comm_set_attr(first, copied_key, allocated);
  MPI_Comm_set_attr(first, shared_key, &plain);
  MPI_Comm_set_attr(first, local_key, &plain);
  MPI_Comm_dup(first, &second);
  EXPECT(copies == 1);

  int *value, flag;
  MPI_Comm_get_attr(second, copied_key, &value, &flag);
  printf("rank %d: copied attribute %d (was %d)\n", rank, flag ? *value : -1, base + rank);
  MPI_Comm_get_attr(second, shared_key, &value, &flag);
  EXPECT(flag && value == &plain); /* MPI_COMM_DUP_FN copies the pointer */
  MPI_Comm_get_attr(second, local_key, &value, &flag);
  EXPECT(!flag); /* MPI_COMM_NULL_COPY_FN: not copied */

  MPI_Comm_set_attr(second, shared_key, &replaced); /* the old value's delete callback runs */
  EXPECT(deletions == 1 && last_deleted == plain);
  MPI_Comm_delete_attr(second, shared_key);
  EXPECT(deletions == 2 && last_deleted == replaced);
  MPI_Comm_get_attr(second, shared_key, &value, &flag);
  EXPECT(!flag);

  /* A freed keyval's attributes still get their delete callback when their communicator goes. */
  MPI_Comm_free_keyval(&copied_key);
  EXPECT(copied_key == MPI_KEYVAL_INVALID);
  MPI_Comm_free(&second);
  EXPECT(deletions == 3 && last_deleted == base + rank + step);
  MPI_Comm_free(&first);
  printf("rank %d: %d copies, %d deletions\n", rank, copies, deletions);

  /* A delete callback that fails keeps the attribute. */
  MPI_Comm third;
  MPI_Comm_dup(MPI_COMM_WORLD, &third);
  MPI_Comm_set_errhandler(third, MPI_ERRORS_RETURN);
  MPI_Comm_set_attr(third, refusing_key, &plain);
  EXPECT(MPI_Comm_delete_attr(third, refusing_key) != MPI_SUCCESS);
  MPI_Comm_get_attr(third, refusing_key, &value, &flag);
  EXPECT(flag && value == &plain);
  MPI_Comm_free_keyval(&shared_key);
  MPI_Comm_free_keyval(&local_key);
}

static void mpi1_names(void)
{
  static int value = 7;
  int key, *found, flag;
  MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &key, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, key, &value);
  MPI_Attr_get(MPI_COMM_WORLD, key, &found, &flag);
  EXPECT(flag && *found == 7);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Attr_get(dup, key, &found, &flag);
  EXPECT(flag && found == &value);
  MPI_Attr_delete(MPI_COMM_WORLD, key);
  MPI_Attr_get(MPI_COMM_WORLD, key, &found, &flag);
  EXPECT(!flag);
  MPI_Comm_free(&dup);
  MPI_Keyval_free(&key);
  EXPECT(key == MPI_KEYVAL_INVALID);
  printf("rank %d: MPI-1 attribute calls done\n", rank);
}

static void datatype_attributes(void)
{
  static int value = 99;
  int key, *found, flag;
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, delete_type_attribute, &key, NULL);
  MPI_Type_set_attr(pair, key, &value);
  MPI_Type_get_attr(pair, key, &found, &flag);
  EXPECT(flag && *found == 99);
  MPI_Type_get_attr(MPI_INT, key, &found, &flag);
  EXPECT(!flag);
  MPI_Datatype copy, int_copy;
  MPI_Type_dup(pair, &copy); /* MPI_TYPE_DUP_FN: the duplicate holds the same pointer */
  MPI_Type_get_attr(copy, key, &found, &flag);
  EXPECT(flag && found == &value);
  MPI_Type_free(&pair);
  type_deleted = 0;
  MPI_Type_dup(MPI_INT, &int_copy); /* a duplicate of a predefined type can be freed */
  int int_size;
  MPI_Type_size(int_copy, &int_size);
  EXPECT(int_size == sizeof(int));
  MPI_Type_free(&int_copy);
  MPI_Type_free(&copy);
  printf("rank %d: datatype attribute %d deleted with its type\n", rank, type_deleted);
  MPI_Type_free_keyval(&key);
}

static const char* class_name(int code)
{
  int error_class;
  MPI_Error_class(code, &error_class);
  return error_class == MPI_ERR_KEYVAL ? "MPI_ERR_KEYVAL"
         : error_class == MPI_SUCCESS  ? "MPI_SUCCESS"
                                       : "another class";
}

static void errors(void)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int key, freed, type_key, *found, flag, dummy = 0, predefined_key = MPI_TAG_UB;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &freed, NULL);
  int freed_value = freed;
  MPI_Comm_free_keyval(&freed);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_key, NULL);
  if (rank == 0) {
    printf("set MPI_TAG_UB: %s\n", class_name(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &dummy)));
    printf("free MPI_TAG_UB: %s\n", class_name(MPI_Comm_free_keyval(&predefined_key)));
    printf("get with a freed keyval: %s\n", class_name(MPI_Comm_get_attr(MPI_COMM_WORLD, freed_value, &found, &flag)));
    printf("datatype keyval on a communicator: %s\n", class_name(MPI_Comm_set_attr(MPI_COMM_WORLD, type_key, &dummy)));
    printf("communicator keyval on a datatype: %s\n", class_name(MPI_Type_set_attr(MPI_INT, key, &dummy)));
  }
  MPI_Comm_free_keyval(&key);
  MPI_Type_free_keyval(&type_key);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    errors();
    MPI_Finalize();
    return 0;
  }
  predefined();
  user_keyvals();
  mpi1_names();
  datatype_attributes();
  static int self_value;
  int self_key;
  self_value = 100 + rank;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self_key, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, self_key, &self_value);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("attributes: %d failures\n", total);
  MPI_Finalize();
  return 0;
}
