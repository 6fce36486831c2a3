/* Intercommunicators (MPI-3.1 section 6.6): MPI_COMM_WORLD split into its even and odd ranks, joined by
 * MPI_Intercomm_create through MPI_COMM_WORLD; point-to-point calls between the groups (sends to each remote rank,
 * MPI_ANY_SOURCE receives naming the sender's rank in its group, Sendrecv, Probe, Isend/Irecv), a duplicate, a
 * split, a creation from a subgroup, comparisons, and merges in both orders.
 *   intercomm          lines the same under Open MPI (2 ranks or more)
 *   intercomm errors   the error class of calls mpisim refuses or MPI forbids, under MPI_ERRORS_RETURN */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* compared(int result)
{
  return result == MPI_IDENT       ? "ident"
         : result == MPI_CONGRUENT ? "congruent"
         : result == MPI_SIMILAR   ? "similar"
                                   : "unequal";
}

static void print_remote_group(int rank, MPI_Comm inter)
{
  MPI_Group remote, world;
  MPI_Comm_remote_group(inter, &remote);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0;
  MPI_Group_size(remote, &n);
  int in_remote[64], in_world[64];
  for (int i = 0; i < n; ++i)
    in_remote[i] = i;
  MPI_Group_translate_ranks(remote, n, in_remote, world, in_world);
  printf("rank %d: remote group (world ranks):", rank);
  for (int i = 0; i < n; ++i)
    printf(" %d", in_world[i]);
  printf("\n");
  MPI_Group_free(&remote);
  MPI_Group_free(&world);
}

/* Every rank sends its world rank to each remote rank (tag: its own local rank), then receives as many through
 * MPI_ANY_SOURCE: the sum of the values and of the sources tells that each came from the rank it names (the tag, its
 * sender's local rank, is the source the status gives). */
static void all_to_remote(int rank, MPI_Comm inter)
{
  int local = 0, remote_size = 0;
  MPI_Comm_rank(inter, &local);
  MPI_Comm_remote_size(inter, &remote_size);
  MPI_Request* sends = malloc(sizeof(MPI_Request) * remote_size);
  for (int r = 0; r < remote_size; ++r)
    MPI_Isend(&rank, 1, MPI_INT, r, local, inter, &sends[r]);
  long value_sum = 0, source_sum = 0, tag_matches = 0;
  for (int i = 0; i < remote_size; ++i) {
    int value = -1;
    MPI_Status status;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &status);
    value_sum += value;
    source_sum += status.MPI_SOURCE;
    tag_matches += status.MPI_TAG == status.MPI_SOURCE;
  }
  MPI_Waitall(remote_size, sends, MPI_STATUSES_IGNORE);
  free(sends);
  MPI_Barrier(MPI_COMM_WORLD); /* the wildcard receives must not take the messages that follow */
  printf("rank %d: %d messages, values sum %ld, sources sum %ld, tags naming their source %ld\n", rank, remote_size,
         value_sum, source_sum, tag_matches);
}

/* Local rank r and remote rank r (when there is one) swap values: Sendrecv, then a probe for the size of a second
 * message. */
static void pairs(int rank, MPI_Comm inter)
{
  int local = 0, remote_size = 0;
  MPI_Comm_rank(inter, &local);
  MPI_Comm_remote_size(inter, &remote_size);
  if (local >= remote_size) {
    printf("rank %d: no partner\n", rank);
    return;
  }
  int mine = 1000 + rank, theirs = -1;
  MPI_Status status;
  MPI_Sendrecv(&mine, 1, MPI_INT, local, 5, &theirs, 1, MPI_INT, local, 5, inter, &status);
  double payload[8] = {0};
  MPI_Request request;
  MPI_Isend(payload, 1 + rank % 8, MPI_DOUBLE, local, 6, inter, &request);
  MPI_Probe(local, 6, inter, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_DOUBLE, &count);
  double received[8];
  MPI_Recv(received, count, MPI_DOUBLE, local, 6, inter, MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  printf("rank %d: partner sent %d, then %d doubles from source %d\n", rank, theirs, count, status.MPI_SOURCE);
}

/* The intercommunicator split by the parity of the local rank, keys reversing the order: each part swaps a value
 * between its local rank 0 and remote rank 0. */
static void split(int rank, MPI_Comm inter)
{
  int local = 0, size = 0;
  MPI_Comm_rank(inter, &local);
  MPI_Comm_size(inter, &size);
  MPI_Comm part;
  MPI_Comm_split(inter, local % 2, size - local, &part);
  if (part == MPI_COMM_NULL) {
    printf("rank %d: split: no part\n", rank);
    return;
  }
  int flag = 0, part_rank = 0, part_size = 0, remote_size = 0, theirs = -1;
  MPI_Comm_test_inter(part, &flag);
  MPI_Comm_rank(part, &part_rank);
  MPI_Comm_size(part, &part_size);
  MPI_Comm_remote_size(part, &remote_size);
  if (part_rank == 0)
    MPI_Sendrecv(&rank, 1, MPI_INT, 0, 8, &theirs, 1, MPI_INT, 0, 8, part, MPI_STATUS_IGNORE);
  printf("rank %d: split: inter %d, rank %d of %d, remote size %d, got %d\n", rank, flag, part_rank, part_size,
         remote_size, theirs);
  MPI_Comm_free(&part);
}

/* MPI_Comm_create with each group's first member only: an intercommunicator between the two leaders. */
static void leaders_only(int rank, MPI_Comm inter)
{
  MPI_Group local, first;
  MPI_Comm_group(inter, &local);
  const int zero = 0;
  MPI_Group_incl(local, 1, &zero, &first);
  MPI_Comm leaders;
  MPI_Comm_create(inter, first, &leaders);
  if (leaders == MPI_COMM_NULL) {
    printf("rank %d: create: not a leader\n", rank);
  } else {
    int remote_size = 0, theirs = -1;
    MPI_Comm_remote_size(leaders, &remote_size);
    MPI_Sendrecv(&rank, 1, MPI_INT, 0, 9, &theirs, 1, MPI_INT, 0, 9, leaders, MPI_STATUS_IGNORE);
    printf("rank %d: create: remote size %d, the other leader is %d\n", rank, remote_size, theirs);
    MPI_Comm_free(&leaders);
  }
  MPI_Group_free(&first);
  MPI_Group_free(&local);
}

static void merged(int rank, MPI_Comm inter, int high, const char* label)
{
  MPI_Comm intra;
  MPI_Intercomm_merge(inter, high, &intra);
  int r = 0, n = 0, flag = 1, sum = 0;
  MPI_Comm_rank(intra, &r);
  MPI_Comm_size(intra, &n);
  MPI_Comm_test_inter(intra, &flag);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, intra);
  printf("rank %d: merged %s: rank %d of %d, inter %d, sum of world ranks %d\n", rank, label, r, n, flag, sum);
  MPI_Comm_free(&intra);
}

static void errors(int rank, MPI_Comm inter, MPI_Comm half)
{
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (rank != 0)
    return;
  char name[MPI_MAX_ERROR_STRING];
  int length = 0, n = 0, value = 0, remote_size = 0, error_class = 0;
  MPI_Comm_remote_size(inter, &remote_size);
#define SHOW(label, call)                                                                                              \
  do {                                                                                                                 \
    MPI_Error_class(call, &error_class);                                                                               \
    MPI_Error_string(error_class, name, &length);                                                                      \
    name[strcspn(name, ":")] = '\0'; /* the class's name, without mpisim's explanation */                              \
    printf("%s: %s\n", label, name);                                                                                   \
  } while (0)
  SHOW("remote size of an intracommunicator", MPI_Comm_remote_size(MPI_COMM_WORLD, &n));
  SHOW("merge of an intracommunicator", MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &half));
  SHOW("send to remote rank remote size", MPI_Send(&value, 1, MPI_INT, remote_size, 0, inter));
  SHOW("bcast on an intercommunicator", MPI_Bcast(&value, 1, MPI_INT, MPI_ROOT, inter));
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  SHOW("comm_create_group on an intercommunicator", MPI_Comm_create_group(inter, world_group, 0, &half));
  MPI_Group_free(&world_group);
  int dims[1] = {1}, periods[1] = {0};
  MPI_Comm cart;
  SHOW("cart_create on an intercommunicator", MPI_Cart_create(inter, 1, dims, periods, 0, &cart));
  MPI_Comm self_inter;
  SHOW("intercomm_create with a local leader out of range",
       MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 1, 0, &self_inter));
  SHOW("intercomm_create with itself as remote leader",
       MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 0, 0, &self_inter));
#undef SHOW
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int color = rank % 2;
  MPI_Comm half, inter, dup;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    errors(rank, inter, half);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
  }
  int flag = 0, local = 0, local_size = 0, remote_size = 0, half_flag = 1;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_test_inter(half, &half_flag);
  MPI_Comm_rank(inter, &local);
  MPI_Comm_size(inter, &local_size);
  MPI_Comm_remote_size(inter, &remote_size);
  printf("rank %d: inter %d (half %d), rank %d of %d, remote size %d\n", rank, flag, half_flag, local, local_size,
         remote_size);
  print_remote_group(rank, inter);
  all_to_remote(rank, inter);
  pairs(rank, inter);
  MPI_Comm_dup(inter, &dup);
  int result = 0;
  MPI_Comm_compare(inter, dup, &result);
  printf("rank %d: dup %s,", rank, compared(result));
  MPI_Comm_compare(inter, inter, &result);
  printf(" itself %s,", compared(result));
  MPI_Comm_compare(inter, MPI_COMM_WORLD, &result);
  printf(" world %s\n", compared(result));
  all_to_remote(rank, dup);
  split(rank, dup);
  leaders_only(rank, dup);
  merged(rank, dup, color, "evens first");
  merged(rank, inter, 1 - color, "odds first");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
