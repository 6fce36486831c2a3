/* One-sided communication beyond fences, with data checks (each line "what: ok" or "what: FAILED"):
 * passive target (a counter of fetch-and-adds under lock_all, read-modify-write under exclusive locks,
 * compare-and-swap, shared locks with flushes), PSCW (a ring, Win_test), request-based operations, a linked list in a
 * dynamic window, and with argument "shared" (every rank on one host) the neighbours of a shared-memory window. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void report(const char* what, int ok)
{
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s\n", what, all ? "ok" : "FAILED");
}

static void counter_under_lock_all(void)
{
  int* counter;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
  *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const int one = 1, rounds = 10;
  int seen[10];
  MPI_Win_lock_all(0, win);
  for (int i = 0; i < rounds; ++i) {
    MPI_Fetch_and_op(&one, &seen[i], MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Every value 0 .. size*rounds-1 was fetched exactly once. */
  int* all = malloc(sizeof(int) * (size_t)(size * rounds));
  MPI_Gather(seen, rounds, MPI_INT, all, rounds, MPI_INT, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    int* hits = calloc((size_t)(size * rounds), sizeof(int));
    for (int i = 0; i < size * rounds; ++i)
      ok = ok && all[i] >= 0 && all[i] < size * rounds && hits[all[i]]++ == 0;
    ok = ok && *counter == size * rounds;
    free(hits);
  }
  for (int i = 1; i < rounds; ++i)
    ok = ok && seen[i] > seen[i - 1];
  free(all);
  report("fetch_and_op counter under lock_all", ok);
  MPI_Win_free(&win);
}

static void exclusive_read_modify_write(void)
{
  int value = 0;
  MPI_Win win;
  MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  for (int i = 0; i < 5; ++i) { /* get, add, put: correct only if the locks exclude each other */
    int read = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Get(&read, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_flush(0, win);
    read += rank + 1;
    MPI_Put(&read, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  report("get and put under exclusive locks", rank != 0 || value == 5 * size * (size + 1) / 2);
  /* Shared locks: every rank reads every other's value. */
  value = 100 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  int ok = 1;
  for (int target = 0; target < size; ++target) {
    int read = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
    MPI_Get(&read, 1, MPI_INT, target, 0, 1, MPI_INT, win);
    MPI_Win_unlock(target, win);
    ok = ok && read == 100 + target;
  }
  report("gets under shared locks", ok);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
}

static void compare_and_swap_election(void)
{
  int owner = -1;
  MPI_Win win;
  MPI_Win_create(&owner, sizeof owner, sizeof owner, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  const int unset = -1;
  int previous = -2;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Compare_and_swap(&rank, &unset, &previous, MPI_INT, 0, 0, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  int winners = previous == -1, total = 0;
  MPI_Allreduce(&winners, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(&owner, 1, MPI_INT, 0, MPI_COMM_WORLD);
  report("compare_and_swap elects one rank", total == 1 && (previous == -1 ? owner == rank : previous == owner));
  MPI_Win_free(&win);
}

static void pscw_ring(void)
{
  int slot[2] = {-1, -1};
  MPI_Win win;
  MPI_Win_create(slot, sizeof slot, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, left_group, right_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Group_incl(world, 1, &left, &left_group);
  MPI_Group_incl(world, 1, &right, &right_group);
  for (int round = 0; round < 3; ++round) {
    MPI_Win_post(left_group, 0, win); /* my left neighbour puts into me */
    MPI_Win_start(right_group, 0, win);
    const int value[2] = {rank * 10 + round, -round};
    MPI_Put(value, 2, MPI_INT, right, 0, 2, MPI_INT, win);
    MPI_Win_complete(win);
    if (round == 2) {
      int flag = 0;
      while (!flag)
        MPI_Win_test(win, &flag);
    } else {
      MPI_Win_wait(win);
    }
    report(round == 2 ? "PSCW ring ended by MPI_Win_test" : "PSCW ring",
           slot[0] == left * 10 + round && slot[1] == -round);
  }
  MPI_Group_free(&left_group);
  MPI_Group_free(&right_group);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
}

static void request_based(void)
{
  double* memory;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &memory, &win);
  for (int i = 0; i < 4; ++i)
    memory[i] = rank + i / 10.0;
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size;
  double got[2] = {0, 0}, added = 1.5, old = 0;
  MPI_Request requests[3];
  MPI_Win_lock_all(0, win);
  MPI_Rget(got, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, win, &requests[0]);
  MPI_Waitall(1, requests, MPI_STATUSES_IGNORE);
  MPI_Rput(&added, 1, MPI_DOUBLE, right, 2, 1, MPI_DOUBLE, win, &requests[0]);
  MPI_Raccumulate(&added, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE, MPI_SUM, win, &requests[1]);
  MPI_Rget_accumulate(&added, 1, MPI_DOUBLE, &old, 1, MPI_DOUBLE, right, 1, 1, MPI_DOUBLE, MPI_PROD, win, &requests[2]);
  MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  report("Rget", got[0] == right && got[1] == right + 0.1);
  report("Rput, Raccumulate, Rget_accumulate",
         memory[2] == 1.5 && memory[3] == rank + 0.3 + 1.5 && memory[1] == (rank + 0.1) * 1.5 && old == right + 0.1);
  MPI_Win_free(&win);
}

struct node {
  int value;
  MPI_Aint next; /* address in the next owner's memory, 0 at the end */
  int next_rank;
};

static void dynamic_linked_list(void)
{
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  struct node* mine = malloc(sizeof *mine);
  mine->value = rank * rank;
  mine->next = 0;
  mine->next_rank = -1;
  MPI_Win_attach(win, mine, sizeof *mine);
  MPI_Aint address;
  MPI_Get_address(mine, &address);
  MPI_Aint* addresses = malloc(sizeof(MPI_Aint) * (size_t)size);
  MPI_Allgather(&address, 1, MPI_AINT, addresses, 1, MPI_AINT, MPI_COMM_WORLD);
  /* Each rank links the node of rank-1 to its own: a list 0 -> 1 -> ... -> size-1. */
  MPI_Win_lock_all(0, win);
  if (rank > 0) {
    struct node link = {0, address, rank};
    MPI_Put(&link.next, 1, MPI_AINT, rank - 1, addresses[rank - 1] + (MPI_Aint)offsetof(struct node, next), 1, MPI_AINT,
            win);
    MPI_Put(&link.next_rank, 1, MPI_INT, rank - 1, addresses[rank - 1] + (MPI_Aint)offsetof(struct node, next_rank), 1,
            MPI_INT, win);
    MPI_Win_flush(rank - 1, win);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) { /* walk the list remotely */
    MPI_Win_lock_all(0, win);
    struct node at = *mine;
    int count = 1, sum = at.value;
    while (at.next_rank >= 0) {
      const int owner = at.next_rank;
      MPI_Get(&at, (int)sizeof at, MPI_BYTE, owner, at.next, (int)sizeof at, MPI_BYTE, win);
      MPI_Win_flush(owner, win);
      ++count;
      sum += at.value;
    }
    MPI_Win_unlock_all(win);
    ok = count == size && sum == (size - 1) * size * (2 * size - 1) / 6;
  }
  report("linked list in a dynamic window", ok);
  MPI_Win_detach(win, mine);
  MPI_Win_free(&win);
  free(mine);
  free(addresses);
}

static void shared_neighbours(void)
{
  int* mine;
  MPI_Win win;
  MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
  mine[0] = rank;
  mine[1] = rank * 2;
  MPI_Win_sync(win);
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size;
  MPI_Aint bytes;
  int unit;
  int* theirs;
  MPI_Win_shared_query(win, right, &bytes, &unit, &theirs);
  int ok = bytes == 2 * sizeof(int) && unit == sizeof(int) && theirs[0] == right && theirs[1] == right * 2;
  int* first;
  MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &first);
  ok = ok && first[2 * right] == right; /* the parts are contiguous in rank order */
  report("shared window neighbours", ok);
  int flavor_ok = 0, model_ok = 0, *flavor, *model, flag;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  flavor_ok = flag && *flavor == MPI_WIN_FLAVOR_SHARED;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  model_ok = flag && *model == MPI_WIN_UNIFIED;
  report("shared window flavor and unified model", flavor_ok && model_ok);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "shared") == 0) {
    shared_neighbours();
  } else {
    counter_under_lock_all();
    exclusive_read_modify_write();
    compare_and_swap_election();
    pscw_ring();
    request_based();
    dynamic_linked_list();
  }
  MPI_Finalize();
  return 0;
}
