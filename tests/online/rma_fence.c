/* One-sided communication with fence synchronization: puts, gets and accumulates in rings and all-to-all patterns,
 * derived datatypes at the origin and the target, windows from MPI_Win_create and MPI_Win_allocate and their
 * predefined attributes, names, groups, user attributes. Every check is agreed on by all ranks (an allreduce of the
 * failures); rank 0 prints one line per check, the same under a real MPI. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures;

static void report(const char* what, int ok)
{
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s\n", what, all_ok ? "ok" : "FAILED");
  failures += !all_ok;
}

#define SLOTS 64
static int memory[SLOTS];

static void reset(int value)
{
  for (int i = 0; i < SLOTS; ++i)
    memory[i] = value;
}

static void put_ring(MPI_Win win)
{
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int value = rank * 10 + 1;
  reset(-1);
  MPI_Win_fence(0, win);
  MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  report("put ring", memory[0] == left * 10 + 1 && memory[1] == -1);
}

static void put_all_to_all(MPI_Win win)
{
  int values[SLOTS];
  reset(-1);
  MPI_Win_fence(0, win);
  for (int target = 0; target < size; ++target) {
    values[target] = rank * 100 + target;
    MPI_Put(&values[target], 1, MPI_INT, target, rank, 1, MPI_INT, win);
  }
  MPI_Win_fence(0, win);
  int ok = 1;
  for (int origin = 0; origin < size; ++origin)
    ok = ok && memory[origin] == origin * 100 + rank;
  report("put all-to-all", ok && memory[size] == -1);
}

static void get_ring_and_all_to_all(MPI_Win win)
{
  const int right = (rank + 1) % size;
  int got[SLOTS], from_right[2] = {-1, -1};
  for (int i = 0; i < SLOTS; ++i)
    memory[i] = rank * 1000 + i;
  MPI_Win_fence(0, win);
  MPI_Get(from_right, 2, MPI_INT, right, 3, 2, MPI_INT, win);
  for (int target = 0; target < size; ++target)
    MPI_Get(&got[target], 1, MPI_INT, target, rank, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  report("get ring", from_right[0] == right * 1000 + 3 && from_right[1] == right * 1000 + 4);
  int ok = 1;
  for (int target = 0; target < size; ++target)
    ok = ok && got[target] == target * 1000 + rank;
  report("get all-to-all", ok);
}

static void accumulate_all_to_all(MPI_Win win)
{
  int one[2] = {rank + 1, 2 * (rank + 1)};
  reset(0);
  memory[5] = 1;
  MPI_Win_fence(0, win);
  for (int target = 0; target < size; ++target) {
    MPI_Accumulate(one, 2, MPI_INT, target, 0, 2, MPI_INT, MPI_SUM, win);
    MPI_Accumulate(&one[0], 1, MPI_INT, target, 2, 1, MPI_INT, MPI_MAX, win);
    MPI_Accumulate(&one[0], 1, MPI_INT, target, 3, 1, MPI_INT, MPI_MIN, win);
    MPI_Accumulate(&one[0], 1, MPI_INT, target, 5, 1, MPI_INT, MPI_PROD, win);
  }
  MPI_Win_fence(0, win);
  const int sum = size * (size + 1) / 2;
  int factorial = 1;
  for (int i = 2; i <= size; ++i)
    factorial *= i;
  report("accumulate sum", memory[0] == sum && memory[1] == 2 * sum);
  report("accumulate max, min, prod", memory[2] == size && memory[3] == 0 && memory[5] == factorial);
}

/* Accumulates from one origin to one location are applied in the order issued. */
static void accumulate_order(MPI_Win win)
{
  const int right = (rank + 1) % size;
  int five = 5, one = 1;
  reset(0);
  MPI_Win_fence(0, win);
  MPI_Accumulate(&five, 1, MPI_INT, right, rank, 1, MPI_INT, MPI_REPLACE, win);
  MPI_Accumulate(&one, 1, MPI_INT, right, rank, 1, MPI_INT, MPI_SUM, win);
  MPI_Accumulate(&five, 1, MPI_INT, right, rank, 1, MPI_INT, MPI_PROD, win);
  MPI_Win_fence(0, win);
  const int left = (rank + size - 1) % size;
  report("accumulate replace, sum, prod in order", memory[left] == 30);
}

/* A strided target type and a contiguous derived origin type. */
static void derived_types(MPI_Win win)
{
  MPI_Datatype strided, pair;
  MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  MPI_Type_contiguous(3, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int values[3] = {rank, rank + 1, rank + 2}, back[3] = {-1, -1, -1};
  reset(-1);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  MPI_Put(values, 1, pair, right, 10, 1, strided, win);
  MPI_Accumulate(values, 3, MPI_INT, right, 20, 1, strided, MPI_SUM, win);
  MPI_Win_fence(0, win);
  report("put through a vector target type",
         memory[10] == left && memory[11] == -1 && memory[12] == left + 1 && memory[14] == left + 2);
  report("accumulate through a vector target type", memory[20] == left - 1 && memory[24] == left + 1);
  MPI_Get(back, 3, MPI_INT, right, 10, 1, strided, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  report("get through a vector target type", back[0] == rank && back[1] == rank + 1 && back[2] == rank + 2);
  MPI_Type_free(&strided);
  MPI_Type_free(&pair);
}

/* Origin buffers given as MPI_BOTTOM and a datatype of absolute addresses. */
static void bottom(MPI_Win win)
{
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int sent = rank + 500, received = -1, blocklength = 1;
  MPI_Aint address;
  MPI_Datatype at_sent, at_received;
  MPI_Get_address(&sent, &address);
  MPI_Type_create_hindexed(1, &blocklength, &address, MPI_INT, &at_sent);
  MPI_Get_address(&received, &address);
  MPI_Type_create_hindexed(1, &blocklength, &address, MPI_INT, &at_received);
  MPI_Type_commit(&at_sent);
  MPI_Type_commit(&at_received);
  reset(-1);
  MPI_Win_fence(0, win);
  MPI_Put(MPI_BOTTOM, 1, at_sent, right, 30, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(MPI_BOTTOM, 1, at_received, right, 30, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  report("put and get with MPI_BOTTOM", memory[30] == left + 500 && received == rank + 500);
  MPI_Type_free(&at_sent);
  MPI_Type_free(&at_received);
}

static void doubles_and_proc_null(void)
{
  double* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 4; ++i)
    base[i] = 0.5;
  const double third = 1.0 / 3.0;
  MPI_Win_fence(0, win);
  for (int target = 0; target < size; ++target)
    MPI_Accumulate(&third, 1, MPI_DOUBLE, target, 1, 1, MPI_DOUBLE, MPI_SUM, win);
  MPI_Put(&third, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  report("accumulate doubles in an allocated window",
         base[1] > 0.5 + size * third - 1e-12 && base[1] < 0.5 + size * third + 1e-12 && base[0] == 0.5);
  void* attribute = NULL;
  int flag = 0, ok = 1;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &attribute, &flag);
  ok = ok && flag && attribute == base;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &attribute, &flag);
  ok = ok && flag && *(MPI_Aint*)attribute == 4 * sizeof(double);
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attribute, &flag);
  ok = ok && flag && *(int*)attribute == sizeof(double);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attribute, &flag);
  ok = ok && flag && *(int*)attribute == MPI_WIN_FLAVOR_ALLOCATE;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &attribute, &flag);
  ok = ok && flag && (*(int*)attribute == MPI_WIN_SEPARATE || *(int*)attribute == MPI_WIN_UNIFIED);
  report("attributes of an allocated window", ok);
  MPI_Win_free(&win);
  report("MPI_Win_free sets MPI_WIN_NULL", win == MPI_WIN_NULL);
}

static int deletions;
static int count_deletion(MPI_Win win, int keyval, void* value, void* extra)
{
  (void)win, (void)keyval, (void)extra;
  deletions += *(int*)value;
  return MPI_SUCCESS;
}

static void names_groups_attributes(MPI_Win win)
{
  char name[MPI_MAX_OBJECT_NAME];
  int length = -1, flag = 0, result = -1;
  MPI_Win_set_name(win, "rma window");
  MPI_Win_get_name(win, name, &length);
  report("window name", strcmp(name, "rma window") == 0 && length == 10);

  MPI_Group window_group, world_group;
  MPI_Win_get_group(win, &window_group);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_compare(window_group, world_group, &result);
  report("window group is the communicator's", result == MPI_IDENT);
  MPI_Group_free(&window_group);
  MPI_Group_free(&world_group);

  void* attribute = NULL;
  int ok = 1;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &attribute, &flag);
  ok = ok && flag && attribute == memory;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &attribute, &flag);
  ok = ok && flag && *(MPI_Aint*)attribute == sizeof memory;
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attribute, &flag);
  ok = ok && flag && *(int*)attribute == sizeof(int);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attribute, &flag);
  ok = ok && flag && *(int*)attribute == MPI_WIN_FLAVOR_CREATE;
  report("attributes of a created window", ok);

  int keyval, one = 1, two = 2, *stored = NULL;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_deletion, &keyval, NULL);
  MPI_Win_set_attr(win, keyval, &one);
  MPI_Win_set_attr(win, keyval, &two); /* deletes the first value */
  MPI_Win_get_attr(win, keyval, &stored, &flag);
  report("user attribute replaced", flag && stored == &two && deletions == 1);
  MPI_Win_delete_attr(win, keyval);
  MPI_Win_get_attr(win, keyval, &stored, &flag);
  report("user attribute deleted", !flag && deletions == 3);
  MPI_Win_set_attr(win, keyval, &one);
  MPI_Win_free_keyval(&keyval); /* still attached: lives until the window is freed */
  report("keyval freed", keyval == MPI_KEYVAL_INVALID);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  put_ring(win);
  put_all_to_all(win);
  get_ring_and_all_to_all(win);
  accumulate_all_to_all(win);
  accumulate_order(win);
  bottom(win);
  derived_types(win);
  names_groups_attributes(win);
  MPI_Win_free(&win);
  report("attribute deleted when its window is freed", deletions == 4);
  doubles_and_proc_null();
  if (rank == 0)
    printf(failures ? "FAILED\n" : "PASSED\n");
  MPI_Finalize();
  return 0;
}
