/* Info objects and communicator hints, user error handlers, added error classes, codes and strings, MPI_Error_string
 * for every class, and the environment inquiries (thread level, MPI_Pcontrol, library version). Rank 0 prints what
 * does not depend on the MPI library; every rank checks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures = 0, rank = 0;

static void check(int condition, const char* what)
{
  if (!condition) {
    printf("rank %d: FAILED %s\n", rank, what);
    failures++;
  }
}

static int class_of(int code)
{
  int error_class = -1;
  MPI_Error_class(code, &error_class);
  return error_class;
}

static void info_objects(void)
{
  MPI_Info info, copy;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alpha", "1");
  MPI_Info_set(info, "beta", "two");
  MPI_Info_set(info, "gamma", "three");
  MPI_Info_set(info, "beta", "2"); /* replaces the value, keeps the key's place */
  int nkeys = 0, flag = 0, length = 0;
  MPI_Info_get_nkeys(info, &nkeys);
  char keys[3][MPI_MAX_INFO_KEY + 1];
  for (int n = 0; n < nkeys && n < 3; n++)
    MPI_Info_get_nthkey(info, n, keys[n]);
  char value[MPI_MAX_INFO_VAL + 1];
  MPI_Info_get(info, "beta", MPI_MAX_INFO_VAL, value, &flag);
  check(flag && strcmp(value, "2") == 0, "MPI_Info_get of a replaced value");
  MPI_Info_get_valuelen(info, "gamma", &length, &flag);
  check(flag && length == 5, "MPI_Info_get_valuelen");
  MPI_Info_get(info, "gamma", 3, value, &flag); /* truncated to 3 characters */
  check(flag && strcmp(value, "thr") == 0, "MPI_Info_get truncates to valuelen");
  MPI_Info_get(info, "delta", MPI_MAX_INFO_VAL, value, &flag);
  check(!flag, "MPI_Info_get of a missing key");
  if (rank == 0)
    printf("info: %d keys, in order %s %s %s; beta = 2\n", nkeys, keys[0], keys[1], keys[2]);

  MPI_Info_dup(info, &copy);
  MPI_Info_delete(info, "alpha");
  MPI_Info_get_nkeys(info, &nkeys);
  int copied = 0;
  MPI_Info_get_nkeys(copy, &copied);
  check(nkeys == 2 && copied == 3, "MPI_Info_dup is a copy");
  MPI_Info_get_nthkey(info, 0, keys[0]);
  check(strcmp(keys[0], "beta") == 0, "keys after a deletion");

  int error = MPI_Info_delete(info, "alpha");
  check(class_of(error) == MPI_ERR_INFO_NOKEY, "deleting a missing key is MPI_ERR_INFO_NOKEY");
  char long_key[MPI_MAX_INFO_KEY + 2];
  memset(long_key, 'k', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  error = MPI_Info_set(info, long_key, "1");
  check(class_of(error) == MPI_ERR_INFO_KEY, "a key longer than MPI_MAX_INFO_KEY is MPI_ERR_INFO_KEY");
  error = MPI_Info_get_nthkey(info, 5, keys[0]);
  check(error != MPI_SUCCESS, "MPI_Info_get_nthkey past the last key fails");
  if (rank == 0)
    printf("info errors: MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_KEY\n");

  MPI_Info_free(&info);
  MPI_Info_free(&copy);
  check(info == MPI_INFO_NULL && copy == MPI_INFO_NULL, "MPI_Info_free resets the handle");
  check(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys) == MPI_SUCCESS, "MPI_INFO_ENV is readable");

  /* Hints of a communicator: stored, and returned by MPI_Comm_get_info (libraries may drop unknown ones). */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Info hints, used;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "mpi_assert_no_any_tag", "true");
  check(MPI_Comm_set_info(comm, hints) == MPI_SUCCESS, "MPI_Comm_set_info");
  MPI_Info_free(&hints);
  check(MPI_Comm_get_info(comm, &used) == MPI_SUCCESS, "MPI_Comm_get_info");
#ifdef MPISIM
  MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, value, &flag);
  check(flag && strcmp(value, "true") == 0, "hints set on a communicator are returned");
#endif
  MPI_Info_free(&used);

  /* MPI_Comm_dup_with_info: a duplicate with the given hints only. */
  MPI_Comm with_info;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "mpi_assert_allow_overtaking", "true");
  check(MPI_Comm_dup_with_info(comm, hints, &with_info) == MPI_SUCCESS, "MPI_Comm_dup_with_info");
  MPI_Info_free(&hints);
  int result;
  MPI_Comm_compare(comm, with_info, &result);
  check(result == MPI_CONGRUENT, "MPI_Comm_dup_with_info gives a congruent communicator");
#ifdef MPISIM
  MPI_Comm_get_info(with_info, &used);
  MPI_Info_get(used, "mpi_assert_allow_overtaking", MPI_MAX_INFO_VAL, value, &flag);
  check(flag && strcmp(value, "true") == 0, "MPI_Comm_dup_with_info sets the given hints");
  MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, value, &flag);
  check(!flag, "MPI_Comm_dup_with_info does not take the old communicator's hints");
  MPI_Info_free(&used);
#endif
  MPI_Comm_free(&with_info);
  MPI_Comm_free(&comm);
}

static int handler_calls = 0, handler_code = 0, handler_on_world = 0;

static void record_error(MPI_Comm* comm, int* code, ...)
{
  handler_calls++;
  handler_code = *code;
  int result;
  MPI_Comm_compare(*comm, MPI_COMM_WORLD, &result);
  handler_on_world = result == MPI_IDENT;
}

static void error_handlers_and_codes(void)
{
  int my_class, my_code, size;
  MPI_Add_error_class(&my_class);
  MPI_Add_error_code(my_class, &my_code);
  MPI_Add_error_string(my_code, "the simulated disk is full");
  check(my_class > MPI_ERR_LASTCODE && my_code > MPI_ERR_LASTCODE && my_code != my_class, "added codes");
  check(class_of(my_code) == my_class, "class of an added code");
  int* last_used = NULL;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last_used, &found);
  check(found && *last_used >= my_code, "MPI_LASTUSEDCODE covers the added code");
#ifdef MPISIM /* Open MPI 4.1 says MPI_ERR_UNKNOWN for the class of an added class */
  check(class_of(my_class) == my_class, "class of an added class");
#endif
  char text[MPI_MAX_ERROR_STRING];
  int length;
  MPI_Error_string(my_code, text, &length);
  check(strcmp(text, "the simulated disk is full") == 0 && length == (int)strlen(text), "string of an added code");

  MPI_Errhandler handler, current;
  MPI_Comm_create_errhandler(record_error, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current);
  check(current == handler, "MPI_Comm_get_errhandler returns the handler set");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int error = MPI_Send(&size, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* no rank `size` */
  check(handler_calls == 1 && handler_on_world && class_of(handler_code) == MPI_ERR_RANK, "handler called");
  check(error == handler_code, "the call returns the code the handler saw");
  check(MPI_Comm_call_errhandler(MPI_COMM_WORLD, my_code) == MPI_SUCCESS, "MPI_Comm_call_errhandler");
  check(handler_calls == 2 && handler_code == my_code, "MPI_Comm_call_errhandler calls the handler with the code");
  MPI_Errhandler_free(&current);
  MPI_Errhandler_free(&handler);
  check(handler == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free resets the handle");
  MPI_Send(&size, 1, MPI_INT, -5, 0, MPI_COMM_WORLD); /* the communicator still uses the freed handler */
  check(handler_calls == 3, "a freed handler stays attached");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0)
    printf("error handler: called with MPI_ERR_RANK on MPI_COMM_WORLD, then with an added code; %d calls\n",
           handler_calls);

  /* Every class has a message. */
  const int classes[] = {MPI_SUCCESS,
                         MPI_ERR_BUFFER,
                         MPI_ERR_COUNT,
                         MPI_ERR_TYPE,
                         MPI_ERR_TAG,
                         MPI_ERR_COMM,
                         MPI_ERR_RANK,
                         MPI_ERR_REQUEST,
                         MPI_ERR_ROOT,
                         MPI_ERR_GROUP,
                         MPI_ERR_OP,
                         MPI_ERR_TOPOLOGY,
                         MPI_ERR_DIMS,
                         MPI_ERR_ARG,
                         MPI_ERR_UNKNOWN,
                         MPI_ERR_TRUNCATE,
                         MPI_ERR_OTHER,
                         MPI_ERR_INTERN,
                         MPI_ERR_IN_STATUS,
                         MPI_ERR_PENDING,
                         MPI_ERR_KEYVAL,
                         MPI_ERR_NO_MEM,
                         MPI_ERR_BASE,
                         MPI_ERR_INFO_KEY,
                         MPI_ERR_INFO_VALUE,
                         MPI_ERR_INFO_NOKEY,
                         MPI_ERR_SPAWN,
                         MPI_ERR_PORT,
                         MPI_ERR_SERVICE,
                         MPI_ERR_NAME,
                         MPI_ERR_WIN,
                         MPI_ERR_SIZE,
                         MPI_ERR_DISP,
                         MPI_ERR_INFO,
                         MPI_ERR_LOCKTYPE,
                         MPI_ERR_ASSERT,
                         MPI_ERR_RMA_CONFLICT,
                         MPI_ERR_RMA_SYNC,
                         MPI_ERR_RMA_RANGE,
                         MPI_ERR_RMA_ATTACH,
                         MPI_ERR_RMA_SHARED,
                         MPI_ERR_RMA_FLAVOR,
                         MPI_ERR_FILE,
                         MPI_ERR_NOT_SAME,
                         MPI_ERR_AMODE,
                         MPI_ERR_UNSUPPORTED_DATAREP,
                         MPI_ERR_UNSUPPORTED_OPERATION,
                         MPI_ERR_NO_SUCH_FILE,
                         MPI_ERR_FILE_EXISTS,
                         MPI_ERR_BAD_FILE,
                         MPI_ERR_ACCESS,
                         MPI_ERR_NO_SPACE,
                         MPI_ERR_QUOTA,
                         MPI_ERR_READ_ONLY,
                         MPI_ERR_FILE_IN_USE,
                         MPI_ERR_DUP_DATAREP,
                         MPI_ERR_CONVERSION,
                         MPI_ERR_IO};
  const int count = sizeof classes / sizeof classes[0];
  int described = 0;
  for (int i = 0; i < count; i++) {
    text[0] = '\0';
    length = 0;
    if (MPI_Error_string(classes[i], text, &length) == MPI_SUCCESS && length > 0 && length == (int)strlen(text))
      described++;
  }
  check(described == count, "every class has a message");
#ifdef MPISIM
  MPI_Error_string(MPI_ERR_TRUNCATE, text, &length);
  check(strcmp(text, "MPI_ERR_TRUNCATE: message truncated") == 0, "the message names the class");
#endif
  if (rank == 0)
    printf("error strings: %d of %d classes described\n", described, count);
}

static void environment(int provided)
{
  int queried = -1, main_thread = 0, length = 0;
  MPI_Query_thread(&queried);
  MPI_Is_thread_main(&main_thread);
  check(queried == provided && main_thread, "MPI_Query_thread and MPI_Is_thread_main");
  check(provided >= MPI_THREAD_FUNNELED, "MPI_THREAD_FUNNELED requested, at least that provided");
  check(MPI_Pcontrol(1) == MPI_SUCCESS && MPI_Pcontrol(0) == MPI_SUCCESS, "MPI_Pcontrol");
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  MPI_Get_library_version(version, &length);
  check(length > 0 && version[0] != '\0', "MPI_Get_library_version");
#ifdef MPISIM /* Open MPI 4.1 counts the terminating zero */
  check(length == (int)strlen(version), "MPI_Get_library_version's length");
#endif
  if (rank == 0)
    printf("environment: thread level queried as provided, main thread, MPI_Pcontrol accepted\n");
}

int main(int argc, char** argv)
{
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  info_objects();
  error_handlers_and_codes();
  environment(provided);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return 0;
}
