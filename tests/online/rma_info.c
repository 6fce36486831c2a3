/* The hints of a window (MPI_Win_get_info, MPI_Win_set_info; MPI-3.1 sections 11.2.1 and 11.2.7): those MPI defines,
 * with the values in effect: MPI's defaults, then the ones given at creation and set since. Keys MPI does not define
 * and invalid values are ignored. Rank 0 prints each window's hints on one line, in the order MPI_Info_get_nthkey
 * gives them; every rank checks its own and prints "hints agree on every rank: ok" or "FAILED". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, mismatches;
static char first_line[1024];

/* "what: key=value key=value ..." of the hints `win` has now, printed by rank 0; every rank's line must be rank 0's. */
static void show(const char* what, MPI_Win win)
{
  MPI_Info info;
  MPI_Win_get_info(win, &info);
  int keys = 0;
  MPI_Info_get_nkeys(info, &keys);
  char line[1024];
  int length = snprintf(line, sizeof line, "%s:", what);
  for (int i = 0; i < keys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[256];
    int flag = 0;
    MPI_Info_get_nthkey(info, i, key);
    MPI_Info_get(info, key, (int)sizeof value - 1, value, &flag);
    length += snprintf(line + length, sizeof line - (size_t)length, " %s=%s", key, value);
  }
  MPI_Info_free(&info);
  if (rank == 0) {
    printf("%s\n", line);
    strcpy(first_line, line);
  }
  MPI_Bcast(first_line, (int)sizeof first_line, MPI_CHAR, 0, MPI_COMM_WORLD);
  mismatches += strcmp(line, first_line) != 0;
}

/* An info object of `pairs` key/value pairs (a NULL key ends them). */
static MPI_Info info_of(const char* const* pairs)
{
  MPI_Info info;
  MPI_Info_create(&info);
  for (; pairs[0] != NULL; pairs += 2)
    MPI_Info_set(info, pairs[0], pairs[1]);
  return info;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int memory[2];
  MPI_Win win;

  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  show("created without hints", win);
  MPI_Win_free(&win);

  const char* given[] = {"no_locks", "true", "favourite_colour", "blue", "accumulate_ops", "same_op", "same_size",
                         "yes",      NULL};
  MPI_Info info = info_of(given);
  int* base;
  MPI_Win_allocate(sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &base, &win);
  MPI_Info_free(&info);
  show("allocated with no_locks=true, favourite_colour=blue, accumulate_ops=same_op, same_size=yes", win);

  const char* set[] = {"no_locks", "false", "accumulate_ordering", "none", "same_disp_unit", "true", NULL};
  info = info_of(set);
  MPI_Win_set_info(win, info);
  MPI_Info_free(&info);
  show("set no_locks=false, accumulate_ordering=none, same_disp_unit=true", win);

  const char* invalid[] = {"accumulate_ordering", "rar,wrong", "accumulate_ops", "any_op", NULL};
  info = info_of(invalid);
  MPI_Win_set_info(win, info);
  MPI_Info_free(&info);
  const char* ordering[] = {"accumulate_ordering", "war,raw", NULL};
  info = info_of(ordering);
  MPI_Win_set_info(win, info);
  MPI_Info_free(&info);
  show("set accumulate_ordering=rar,wrong, accumulate_ops=any_op, then accumulate_ordering=war,raw", win);

  /* The info object MPI_Win_get_info returns is the caller's: changing it leaves the window's hints alone. */
  MPI_Win_get_info(win, &info);
  MPI_Info_set(info, "no_locks", "true");
  MPI_Info_free(&info);
  show("after changing a returned info object", win);

  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(MPI_Win_set_info(win, MPI_INFO_NULL), &error_class);
  if (rank == 0)
    printf("MPI_Win_set_info with MPI_INFO_NULL: %s\n", error_class == MPI_ERR_INFO ? "MPI_ERR_INFO" : "another class");
  mismatches += error_class != MPI_ERR_INFO;
  MPI_Win_free(&win);

  /* A shared window (of the ranks on this rank's host) also has alloc_shared_noncontig. */
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  const char* noncontig[] = {"alloc_shared_noncontig", "true", NULL};
  info = info_of(noncontig);
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), info, host, &base, &win);
  MPI_Info_free(&info);
  show("shared, allocated with alloc_shared_noncontig=true", win);
  MPI_Win_free(&win);
  MPI_Comm_free(&host);

  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  show("dynamic", win);
  MPI_Win_free(&win);

  int all = 0;
  MPI_Allreduce(&mismatches, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("hints agree on every rank: %s\n", all == 0 ? "ok" : "FAILED");
  MPI_Finalize();
  return 0;
}
