/* Groups and communicator creation: set operations, translations, comparisons, MPI_Comm_create (one group and
 * disjoint groups), MPI_Comm_create_group, names. Every rank checks its results and prints what it found; the lines
 * are the same under any MPI (the run is compared with Open MPI's). With the argument "errors", rank 0 prints the
 * error classes of invalid calls; with "hosts", each rank prints the size of its MPI_COMM_TYPE_SHARED communicator. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define EXPECT(condition)                                                                                              \
  do {                                                                                                                 \
    if (!(condition)) {                                                                                                \
      printf("rank %d: FAILED line %d: %s\n", rank, __LINE__, #condition);                                             \
      ++failures;                                                                                                      \
    }                                                                                                                  \
  } while (0)

static const char* comparison(int result)
{
  return result == MPI_IDENT       ? "ident"
         : result == MPI_CONGRUENT ? "congruent"
         : result == MPI_SIMILAR   ? "similar"
                                   : "unequal";
}

static int rank, size;

#ifdef MPISIM /* invalid handles are integers here (pointers in Open MPI) */
static const char* class_name(int code)
{
  int error_class;
  MPI_Error_class(code, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_GROUP: return "MPI_ERR_GROUP";
  case MPI_ERR_RANK: return "MPI_ERR_RANK";
  case MPI_ERR_ARG: return "MPI_ERR_ARG";
  case MPI_ERR_COMM: return "MPI_ERR_COMM";
  case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
  default: return "another class";
  }
}

static void errors(void)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Group world, out = MPI_GROUP_NULL, bad = 12345;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0, twice[2] = {0, 0}, outside = size;
  if (rank == 0) {
    printf("group size of an invalid group: %s\n", class_name(MPI_Group_size(bad, &n)));
    printf("free of an invalid group: %s\n", class_name(MPI_Group_free(&bad)));
    printf("incl of rank %d: %s\n", size, class_name(MPI_Group_incl(world, 1, &outside, &out)));
    printf("incl of a rank twice: %s\n", class_name(MPI_Group_incl(world, 2, twice, &out)));
    int ranges[1][3] = {{0, size - 1, 0}};
    printf("range with stride 0: %s\n", class_name(MPI_Group_range_incl(world, 1, ranges, &out)));
    MPI_Comm self_world = MPI_COMM_NULL;
    printf("comm_create of a group outside the communicator: %s\n",
           class_name(size > 1 ? MPI_Comm_create(MPI_COMM_SELF, world, &self_world) : MPI_ERR_GROUP));
    MPI_Comm inter;
    printf("intercomm_create with itself as remote leader: %s\n",
           class_name(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 0, 0, &inter)));
    printf("comm_remote_size: %s\n", class_name(MPI_Comm_remote_size(MPI_COMM_WORLD, &n)));
    MPI_Comm split;
    printf("comm_split_type of an unknown type: %s\n",
           class_name(MPI_Comm_split_type(MPI_COMM_SELF, 12345, 0, MPI_INFO_NULL, &split)));
  }
  MPI_Group_free(&world);
}
#else
static void errors(void) {}
#endif

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
  if (argc > 1 && strcmp(argv[1], "hosts") == 0) {
    MPI_Comm node;
    MPI_Comm result;
    int node_size, node_rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &result);
    printf("rank %d: node communicator of %d ranks, rank %d there%s\n", rank, node_size, node_rank,
           result == MPI_COMM_NULL ? "" : " (MPI_UNDEFINED gave a communicator)");
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
  }

  MPI_Comm parent = MPI_COMM_WORLD;
  MPI_Comm_get_parent(&parent); /* started by the launcher, not spawned */
  EXPECT(parent == MPI_COMM_NULL);

  MPI_Group world, evens, odds, evens_by_range, reversed, all, none, rest;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n, r, result;
  MPI_Group_size(world, &n);
  MPI_Group_rank(world, &r);
  EXPECT(n == size && r == rank);

  int even_ranks[64], odd_ranks[64], backwards[64], n_even = 0, n_odd = 0;
  for (int i = 0; i < size; ++i)
    i % 2 ? (odd_ranks[n_odd++] = i) : (even_ranks[n_even++] = i);
  for (int i = 0; i < n_even; ++i)
    backwards[i] = even_ranks[n_even - 1 - i];
  MPI_Group_incl(world, n_even, even_ranks, &evens);
  MPI_Group_excl(world, n_even, even_ranks, &odds);
  int ranges[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, ranges, &evens_by_range);
  MPI_Group_incl(world, n_even, backwards, &reversed);
  MPI_Group_union(evens, odds, &all);
  MPI_Group_intersection(evens, odds, &none);
  MPI_Group_difference(world, evens, &rest);

  int in_evens, in_odds, in_all, size_none;
  MPI_Group_rank(evens, &in_evens);
  MPI_Group_rank(odds, &in_odds);
  MPI_Group_rank(all, &in_all);
  MPI_Group_size(none, &size_none);
  printf("rank %d: rank %d among evens, %d among odds, %d in evens+odds; %d in evens^odds\n", rank,
         in_evens == MPI_UNDEFINED ? -1 : in_evens, in_odds == MPI_UNDEFINED ? -1 : in_odds, in_all, size_none);
  MPI_Group_compare(evens, evens_by_range, &result);
  printf("rank %d: evens vs range (0,%d,2): %s\n", rank, size - 1, comparison(result));
  MPI_Group_compare(evens, reversed, &result);
  printf("rank %d: evens vs reversed evens: %s\n", rank, comparison(result));
  MPI_Group_compare(world, all, &result);
  printf("rank %d: world vs evens+odds: %s\n", rank, comparison(result));
  MPI_Group_compare(odds, rest, &result);
  printf("rank %d: odds vs world-evens: %s\n", rank, comparison(result));
  MPI_Group_compare(none, MPI_GROUP_EMPTY, &result);
  printf("rank %d: evens^odds vs MPI_GROUP_EMPTY: %s\n", rank, comparison(result));

  /* World ranks 0..size-1, then MPI_PROC_NULL, seen in the reversed evens. */
  int from[65], to[65];
  for (int i = 0; i < size; ++i)
    from[i] = i;
  from[size] = MPI_PROC_NULL;
  MPI_Group_translate_ranks(world, size + 1, from, reversed, to);
  for (int i = 0; i <= size; ++i) {
    int expected = i == size ? MPI_PROC_NULL : i % 2 ? MPI_UNDEFINED : n_even - 1 - i / 2;
    EXPECT(to[i] == expected);
  }
  MPI_Group empty_size_check = MPI_GROUP_EMPTY;
  MPI_Group_size(empty_size_check, &n);
  MPI_Group_rank(empty_size_check, &r);
  EXPECT(n == 0 && r == MPI_UNDEFINED);

  /* One group: the evens get a communicator, the odds MPI_COMM_NULL. */
  MPI_Comm even_comm, parity_comm, reversed_comm = MPI_COMM_NULL;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &even_comm);
  if (rank % 2 == 0) {
    int sum = 0, comm_rank;
    MPI_Comm_rank(even_comm, &comm_rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, even_comm);
    printf("rank %d: rank %d in the evens' communicator, sum of world ranks %d\n", rank, comm_rank, sum);
    MPI_Comm_free(&even_comm);
  } else {
    EXPECT(even_comm == MPI_COMM_NULL);
  }
  /* Disjoint groups (MPI-2.2): each rank passes its own parity's group. */
  MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &parity_comm);
  int parity_size, parity_sum = 0;
  MPI_Comm_size(parity_comm, &parity_size);
  MPI_Allreduce(&rank, &parity_sum, 1, MPI_INT, MPI_SUM, parity_comm);
  printf("rank %d: parity communicator of %d ranks, sum %d\n", rank, parity_size, parity_sum);
  MPI_Comm_compare(parity_comm, MPI_COMM_WORLD, &result);
  EXPECT(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
  /* Only the evens take part in MPI_Comm_create_group, with the order reversed. */
  if (rank % 2 == 0) {
    int comm_rank;
    MPI_Comm_create_group(MPI_COMM_WORLD, reversed, 7, &reversed_comm);
    MPI_Comm_rank(reversed_comm, &comm_rank);
    printf("rank %d: rank %d in the reversed evens' communicator\n", rank, comm_rank);
    MPI_Comm_free(&reversed_comm);
  }

  /* Names belong to each process's view. */
  char name[MPI_MAX_OBJECT_NAME];
  int length, inter = 1;
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &length);
  printf("rank %d: MPI_COMM_WORLD is named \"%s\"\n", rank, name);
  MPI_Comm_get_name(MPI_COMM_SELF, name, &length);
  printf("rank %d: MPI_COMM_SELF is named \"%s\"\n", rank, name);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
#ifdef MPISIM /* Open MPI names duplicates itself; MPICH and mpisim leave them unnamed */
  MPI_Comm_get_name(dup, name, &length);
  EXPECT(length == 0 && name[0] == 0);
#endif
  char mine[32];
  snprintf(mine, sizeof mine, "dup of rank %d", rank);
  MPI_Comm_set_name(dup, mine);
  MPI_Barrier(dup);
  MPI_Comm_get_name(dup, name, &length);
  printf("rank %d: its duplicate is named \"%s\" (%d characters)\n", rank, name, length);
  MPI_Comm_test_inter(dup, &inter);
  EXPECT(inter == 0);
  MPI_Comm idup;
  MPI_Request request;
  int idup_sum = 0;
  MPI_Comm_idup(dup, &idup, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Comm_compare(idup, MPI_COMM_WORLD, &result);
  MPI_Allreduce(&rank, &idup_sum, 1, MPI_INT, MPI_SUM, idup);
  EXPECT(result == MPI_CONGRUENT && idup_sum == size * (size - 1) / 2);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&parity_comm);

  MPI_Group* groups[] = {&world, &evens, &odds, &evens_by_range, &reversed, &all, &none, &rest};
  for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; ++i) {
    MPI_Group_free(groups[i]);
    EXPECT(*groups[i] == MPI_GROUP_NULL);
  }
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("groups: %d failures\n", total);
  MPI_Finalize();
  return 0;
}
