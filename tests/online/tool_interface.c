/* The tool information interface (MPI-3.1 chapter 14), run with 2 ranks under --no-compute-time (so that the only
 * computation is smpi_execute_flops's) by tests/python/test_online.py, which checks every line against the options
 * it gave and the calls made here:
 *   rank 0 lists the control variables (name, type, value) and the categories, reads its performance variables
 *   around known calls (5 barriers; 5e8 flops; two receives posted before their sends; three messages arriving before
 *   their receives are posted), and checks the error classes of misuses. MPI_T is initialized before MPI_Init. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <string.h>

static const char* class_name(int error)
{
  if (error == MPI_SUCCESS)
    return "MPI_SUCCESS";
  static char name[MPI_MAX_ERROR_STRING];
  int length;
  MPI_Error_string(error, name, &length);
  char* colon = strchr(name, ':');
  if (colon != NULL)
    *colon = '\0';
  return name;
}

static void print_cvar(int index)
{
  char name[64], desc[256];
  int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope, count;
  MPI_Datatype datatype;
  MPI_T_enum enumtype;
  MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &datatype, &enumtype, desc, &desc_len, &bind, &scope);
  MPI_T_cvar_handle handle;
  MPI_T_cvar_handle_alloc(index, NULL, &handle, &count);
  if (datatype == MPI_CHAR) {
    char text[64];
    MPI_T_cvar_read(handle, text);
    printf("cvar %s = %s (count %d)\n", name, text, count);
  } else if (datatype == MPI_DOUBLE) {
    double value;
    MPI_T_cvar_read(handle, &value);
    printf("cvar %s = %g\n", name, value);
  } else {
    int value;
    MPI_T_cvar_read(handle, &value);
    if (enumtype != MPI_T_ENUM_NULL) {
      char item[32];
      int item_len = sizeof item, item_value, items;
      MPI_T_enum_get_info(enumtype, &items, NULL, NULL);
      for (int i = 0; i < items; ++i) {
        item_len = sizeof item;
        MPI_T_enum_get_item(enumtype, i, &item_value, item, &item_len);
        if (item_value == value)
          printf("cvar %s = %s (of %d)\n", name, item, items);
      }
    } else
      printf("cvar %s = %d\n", name, value);
  }
  MPI_T_cvar_handle_free(&handle);
}

static int pvar_index(const char* name, int var_class)
{
  int index = -1;
  MPI_T_pvar_get_index(name, var_class, &index);
  return index;
}

static double read_double(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
  double value;
  MPI_T_pvar_read(session, handle, &value);
  return value;
}

static unsigned read_unsigned(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
  unsigned value;
  MPI_T_pvar_read(session, handle, &value);
  return value;
}

static void statistics(int rank)
{
  MPI_T_pvar_session session;
  MPI_T_pvar_session_create(&session);
  MPI_T_pvar_handle calls, in_mpi, computing, posted, unexpected;
  int count;
  MPI_T_pvar_handle_alloc(session, pvar_index("mpisim_mpi_calls", MPI_T_PVAR_CLASS_COUNTER), NULL, &calls, &count);
  MPI_T_pvar_handle_alloc(session, pvar_index("mpisim_time_in_mpi", MPI_T_PVAR_CLASS_TIMER), NULL, &in_mpi, &count);
  MPI_T_pvar_handle_alloc(session, pvar_index("mpisim_time_computing", MPI_T_PVAR_CLASS_TIMER), NULL, &computing,
                          &count);
  MPI_T_pvar_handle_alloc(session, pvar_index("mpisim_posted_receives", MPI_T_PVAR_CLASS_LEVEL), NULL, &posted, &count);
  MPI_T_pvar_handle_alloc(session, pvar_index("mpisim_unexpected_messages", MPI_T_PVAR_CLASS_LEVEL), NULL, &unexpected,
                          &count);

  unsigned long long before, after;
  MPI_T_pvar_read(session, calls, &before);
  const double mpi_before = read_double(session, in_mpi);
  for (int i = 0; i < 5; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_T_pvar_read(session, calls, &after);
  const double start = MPI_Wtime(); /* one more call */
  smpi_execute_flops(5e8);
  const double computed = read_double(session, computing);
  printf("rank %d: calls %llu, in MPI %d, computing %.9f s, %.9f s of simulated time\n", rank, after - before,
         read_double(session, in_mpi) > mpi_before, computed, MPI_Wtime() - start);

  int values[5] = {0};
  MPI_Request requests[2];
  if (rank == 0) {
    MPI_Irecv(&values[0], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&values[1], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &requests[1]);
    printf("posted receives %u, unexpected %u\n", read_unsigned(session, posted), read_unsigned(session, unexpected));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MPI_Recv(&values[2], 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* after tags 3, 4, 5 */
    printf("posted receives %u, unexpected %u\n", read_unsigned(session, posted), read_unsigned(session, unexpected));
    for (int tag = 3; tag <= 5; ++tag)
      MPI_Recv(&values[3], 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("posted receives %u, unexpected %u\n", read_unsigned(session, posted), read_unsigned(session, unexpected));
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    for (int tag = 1; tag <= 5; ++tag)
      MPI_Send(&rank, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    MPI_Ssend(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
  MPI_T_pvar_session_free(&session);
}

static void misuses(void)
{
  MPI_T_pvar_session session, other;
  MPI_T_pvar_handle handle;
  MPI_T_cvar_handle cvar;
  int count, index = -1, value = 0;
  MPI_T_pvar_session_create(&session);
  MPI_T_pvar_session_create(&other);
  MPI_T_pvar_handle_alloc(session, 0, NULL, &handle, &count);
  MPI_T_cvar_handle_alloc(0, NULL, &cvar, &count);
  printf("cvar write: %s\n", class_name(MPI_T_cvar_write(cvar, "fluid")));
  printf("pvar start: %s\n", class_name(MPI_T_pvar_start(session, handle)));
  printf("pvar start, all handles: %s\n", class_name(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES)));
  printf("pvar reset: %s\n", class_name(MPI_T_pvar_reset(session, handle)));
  printf("pvar read through another session: %s\n", class_name(MPI_T_pvar_read(other, handle, &value)));
  printf("cvar info of index 99: %s\n",
         class_name(MPI_T_cvar_get_info(99, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)));
  printf("cvar index of an unknown name: %s\n", class_name(MPI_T_cvar_get_index("no_such_variable", &index)));
  printf("pvar index with the wrong class: %s\n",
         class_name(MPI_T_pvar_get_index("mpisim_mpi_calls", MPI_T_PVAR_CLASS_TIMER, &index)));
  printf("enum item 5: %s\n", class_name(MPI_T_enum_get_item(1, 5, &value, NULL, NULL)));
  char name[8];
  int name_len = 0;
  MPI_T_cvar_get_info(1, name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
  printf("length asked for: %d\n", name_len);
  name_len = sizeof name;
  MPI_T_cvar_get_info(1, name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
  printf("in %zu bytes: %s (%d)\n", sizeof name, name, name_len);
  MPI_T_pvar_session_free(&session);
  printf("session freed to null: %d\n", session == MPI_T_PVAR_SESSION_NULL);
  MPI_T_finalize();
  printf("read after the last finalize: %s\n", class_name(MPI_T_cvar_read(cvar, &value)));
  printf("finalize again: %s\n", class_name(MPI_T_finalize()));
}

int main(int argc, char** argv)
{
  int provided, num;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_T_cvar_get_num(&num);
    for (int i = 0; i < num; ++i)
      print_cvar(i);
    MPI_T_category_get_num(&num);
    for (int c = 0; c < num; ++c) {
      char name[64];
      int name_len = sizeof name, cvars, pvars, subcategories, indices[16];
      MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &cvars, &pvars, &subcategories);
      MPI_T_category_get_pvars(c, 16, indices);
      printf("category %s: %d control, %d performance variables, %d subcategories, first pvar %d\n", name, cvars, pvars,
             subcategories, pvars > 0 ? indices[0] : -1);
    }
  }
  statistics(rank);
  if (rank == 0)
    misuses();
  else
    MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
