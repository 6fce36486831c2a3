/* MPI_Pack/Unpack/Pack_size through a ring of MPI_PACKED messages, their overflow errors, external32 (big-endian
 * bytes), addresses (MPI_Get_address, MPI_Aint_add/diff), MPI_Alloc_mem/Free_mem and MPI_Type_match_size. Prints
 * the same lines under any MPI library. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int condition, int rank, const char* what)
{
  if (!condition) {
    printf("rank %d: FAILED %s\n", rank, what);
    failures++;
  }
}

struct particle {
  int id;
  double position[3];
  char tag;
};

static void ring_of_packed_messages(int rank, int size)
{
  int ints[5];
  double value = 0.5 + rank;
  int matrix[4][4];
  for (int i = 0; i < 5; i++)
    ints[i] = 100 * rank + i;
  for (int i = 0; i < 16; i++)
    matrix[i / 4][i % 4] = 1000 * rank + i;
  MPI_Datatype column;
  MPI_Type_vector(4, 1, 4, MPI_INT, &column);
  MPI_Type_commit(&column);

  int bytes_ints, bytes_double, bytes_column;
  MPI_Pack_size(5, MPI_INT, MPI_COMM_WORLD, &bytes_ints);
  MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &bytes_double);
  MPI_Pack_size(1, column, MPI_COMM_WORLD, &bytes_column);
  if (rank == 0)
    printf("pack sizes: 5 ints %d, 1 double %d, 1 column %d\n", bytes_ints, bytes_double, bytes_column);
  char buffer[256];
  int position = 0;
  MPI_Pack(ints, 5, MPI_INT, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
  MPI_Pack(&value, 1, MPI_DOUBLE, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
  MPI_Pack(&matrix[0][2], 1, column, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
  check(position == bytes_ints + bytes_double + bytes_column, rank, "position after packing");

  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  char received[256];
  MPI_Status status;
  MPI_Sendrecv(buffer, position, MPI_PACKED, next, 7, received, sizeof received, MPI_PACKED, previous, 7,
               MPI_COMM_WORLD, &status);
  int count;
  MPI_Get_count(&status, MPI_PACKED, &count);
  check(count == position, rank, "packed message size");

  int got_ints[5], got_column[4][4];
  double got_value;
  memset(got_column, 0, sizeof got_column);
  position = 0;
  MPI_Unpack(received, count, &position, got_ints, 5, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(received, count, &position, &got_value, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Unpack(received, count, &position, &got_column[0][1], 1, column, MPI_COMM_WORLD);
  check(position == count, rank, "position after unpacking");
  int ok = got_value == 0.5 + previous;
  for (int i = 0; i < 5; i++)
    ok = ok && got_ints[i] == 100 * previous + i;
  for (int row = 0; row < 4; row++)
    ok = ok && got_column[row][1] == 1000 * previous + 4 * row + 2 && got_column[row][0] == 0;
  printf("rank %d unpacked from rank %d: %s (ints %d..%d, double %.1f, column %d %d %d %d)\n", rank, previous,
         ok ? "ok" : "WRONG", got_ints[0], got_ints[4], got_value, got_column[0][1], got_column[1][1], got_column[2][1],
         got_column[3][1]);
  check(ok, rank, "unpacked values");
  MPI_Type_free(&column);
}

static void overflows(int rank)
{
  int values[4] = {1, 2, 3, 4};
  char small[8];
  int position = 0;
  int error = MPI_Pack(values, 4, MPI_INT, small, sizeof small, &position, MPI_COMM_WORLD);
  int error_class = -1;
  MPI_Error_class(error, &error_class);
  check(error_class == MPI_ERR_TRUNCATE, rank, "MPI_Pack past the end is MPI_ERR_TRUNCATE");
  check(position == 0, rank, "a failed MPI_Pack leaves the position");
  position = 4;
  error = MPI_Unpack(small, sizeof small, &position, values, 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Error_class(error, &error_class);
  check(error_class == MPI_ERR_TRUNCATE, rank, "MPI_Unpack past the end is MPI_ERR_TRUNCATE");
  error = MPI_Pack(values, -1, MPI_INT, small, sizeof small, &position, MPI_COMM_WORLD);
  MPI_Error_class(error, &error_class);
  check(error_class == MPI_ERR_COUNT, rank, "negative count is MPI_ERR_COUNT");
  if (rank == 0)
    printf("overflows: MPI_Pack and MPI_Unpack past the end return MPI_ERR_TRUNCATE\n");
}

static void external32(int rank)
{
  int integer = 0x01020304;
  double real = 1.0;
  short halves[2] = {0x0506, -2};
  char buffer[64];
  MPI_Aint position = 0, size = 0;
  MPI_Pack_external_size("external32", 1, MPI_DOUBLE, &size);
  check(size == 8, rank, "external32 size of a double");
  MPI_Pack_external("external32", &integer, 1, MPI_INT, buffer, sizeof buffer, &position);
  MPI_Pack_external("external32", &real, 1, MPI_DOUBLE, buffer, sizeof buffer, &position);
  MPI_Pack_external("external32", halves, 2, MPI_SHORT, buffer, sizeof buffer, &position);
  if (rank == 0) {
    printf("external32 (%ld bytes):", (long)position);
    for (MPI_Aint i = 0; i < position; i++)
      printf(" %02x", (unsigned char)buffer[i]);
    printf("\n");
  }
  int integer_back = 0;
  double real_back = 0;
  short halves_back[2] = {0, 0};
  MPI_Aint in = 0;
  MPI_Unpack_external("external32", buffer, position, &in, &integer_back, 1, MPI_INT);
  MPI_Unpack_external("external32", buffer, position, &in, &real_back, 1, MPI_DOUBLE);
  MPI_Unpack_external("external32", buffer, position, &in, halves_back, 2, MPI_SHORT);
  check(in == position && integer_back == integer && real_back == real && halves_back[0] == halves[0] &&
            halves_back[1] == halves[1],
        rank, "external32 round trip");
}

static void addresses_and_memory(int rank)
{
  struct particle p[2];
  MPI_Aint base, id, position, second;
  MPI_Get_address(&p[0], &base);
  MPI_Get_address(&p[0].id, &id);
  MPI_Get_address(&p[0].position[1], &position);
  MPI_Get_address(&p[1], &second);
  check(MPI_Aint_diff(position, base) == (MPI_Aint)(offsetof(struct particle, position) + sizeof(double)), rank,
        "MPI_Aint_diff");
  check(MPI_Aint_add(base, (MPI_Aint)sizeof(struct particle)) == second, rank, "MPI_Aint_add");
  check(MPI_Aint_diff(id, base) == 0, rank, "address of the first member");

  double* memory = NULL;
  check(MPI_Alloc_mem(100 * sizeof(double), MPI_INFO_NULL, &memory) == MPI_SUCCESS && memory != NULL, rank,
        "MPI_Alloc_mem");
  for (int i = 0; i < 100; i++)
    memory[i] = i;
  check(memory[99] == 99, rank, "allocated memory is usable");
  check(MPI_Free_mem(memory) == MPI_SUCCESS, rank, "MPI_Free_mem");

  MPI_Datatype matched;
  int size;
  MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &matched);
  MPI_Type_size(matched, &size);
  check(size == 4, rank, "integer type of 4 bytes");
  MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &matched);
  MPI_Type_size(matched, &size);
  check(size == 8, rank, "real type of 8 bytes");
  MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &matched);
  MPI_Type_size(matched, &size);
  check(size == 16, rank, "complex type of 16 bytes");
  int error = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &matched), error_class = -1;
  MPI_Error_class(error, &error_class);
  check(error_class == MPI_ERR_ARG, rank, "no integer type of 3 bytes");
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  ring_of_packed_messages(rank, size);
  overflows(rank);
  external32(rank);
  addresses_and_memory(rank);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return 0;
}
