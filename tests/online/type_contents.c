/* How datatypes remember their construction: MPI_Type_get_envelope and MPI_Type_get_contents for every combiner,
 * a type rebuilt from its contents moving the same data, MPI_Type_dup, names (MPI_Type_set/get_name), and the
 * MPI_Count inquiries. Rank 0 prints; every rank checks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, rank = 0;

static void check(int condition, const char* what)
{
  if (!condition) {
    printf("rank %d: FAILED %s\n", rank, what);
    failures++;
  }
}

static const char* combiner_name(int combiner)
{
  switch (combiner) {
  case MPI_COMBINER_NAMED: return "NAMED";
  case MPI_COMBINER_DUP: return "DUP";
  case MPI_COMBINER_CONTIGUOUS: return "CONTIGUOUS";
  case MPI_COMBINER_VECTOR: return "VECTOR";
  case MPI_COMBINER_HVECTOR: return "HVECTOR";
  case MPI_COMBINER_INDEXED: return "INDEXED";
  case MPI_COMBINER_HINDEXED: return "HINDEXED";
  case MPI_COMBINER_INDEXED_BLOCK: return "INDEXED_BLOCK";
  case MPI_COMBINER_HINDEXED_BLOCK: return "HINDEXED_BLOCK";
  case MPI_COMBINER_STRUCT: return "STRUCT";
  case MPI_COMBINER_SUBARRAY: return "SUBARRAY";
  case MPI_COMBINER_RESIZED: return "RESIZED";
  case MPI_COMBINER_DARRAY: return "DARRAY";
  default: return "OTHER";
  }
}

/* A type's name for printing: predefined types by name, derived ones by their own description. */
static void describe(MPI_Datatype type, char* out, int depth);

static void describe_contents(MPI_Datatype type, char* out, int depth)
{
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  int* ints = malloc((ni + 1) * sizeof(int));
  MPI_Aint* addrs = malloc((na + 1) * sizeof(MPI_Aint));
  MPI_Datatype* types = malloc((nd + 1) * sizeof(MPI_Datatype));
  MPI_Type_get_contents(type, ni, na, nd, ints, addrs, types);
  out += sprintf(out, "%s(ints", combiner_name(combiner));
  for (int i = 0; i < ni; i++)
    out += sprintf(out, " %d", ints[i]);
  out += sprintf(out, "; addresses");
  for (int i = 0; i < na; i++)
    out += sprintf(out, " %ld", (long)addrs[i]);
  out += sprintf(out, "; types");
  for (int i = 0; i < nd; i++) {
    *out++ = ' ';
    describe(types[i], out, depth + 1);
    out += strlen(out);
    int tni, tna, tnd, tcombiner;
    MPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tcombiner);
    if (tcombiner != MPI_COMBINER_NAMED)
      MPI_Type_free(&types[i]); /* derived types returned by get_contents are the caller's */
  }
  sprintf(out, ")");
  free(ints);
  free(addrs);
  free(types);
}

static void describe(MPI_Datatype type, char* out, int depth)
{
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  if (combiner == MPI_COMBINER_NAMED) {
    int length;
    MPI_Type_get_name(type, out, &length);
    return;
  }
  describe_contents(type, out, depth);
}

static void show(const char* label, MPI_Datatype type)
{
  char text[4096];
  describe(type, text, 0);
  MPI_Count size, lb, extent, true_lb, true_extent;
  MPI_Type_size_x(type, &size);
  MPI_Type_get_extent_x(type, &lb, &extent);
  MPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  if (rank == 0)
    printf("%s: %s size %lld lb %lld extent %lld true_lb %lld true_extent %lld\n", label, text, size, lb, extent,
           true_lb, true_extent);
}

/* Rebuilds a type from its contents (one level) and checks that both move the same bytes. */
static MPI_Datatype rebuild(MPI_Datatype type)
{
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  int ints[64];
  MPI_Aint addrs[64];
  MPI_Datatype types[64], result = MPI_DATATYPE_NULL;
  MPI_Type_get_contents(type, ni, na, nd, ints, addrs, types);
  switch (combiner) {
  case MPI_COMBINER_VECTOR: MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &result); break;
  case MPI_COMBINER_INDEXED: MPI_Type_indexed(ints[0], ints + 1, ints + 1 + ints[0], types[0], &result); break;
  case MPI_COMBINER_STRUCT: MPI_Type_create_struct(ints[0], ints + 1, addrs, types, &result); break;
  case MPI_COMBINER_HINDEXED_BLOCK: MPI_Type_create_hindexed_block(ints[0], ints[1], addrs, types[0], &result); break;
  case MPI_COMBINER_SUBARRAY:
    MPI_Type_create_subarray(ints[0], ints + 1, ints + 1 + ints[0], ints + 1 + 2 * ints[0], ints[1 + 3 * ints[0]],
                             types[0], &result);
    break;
  default: break;
  }
  for (int i = 0; i < nd; i++) {
    int tni, tna, tnd, tcombiner;
    MPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tcombiner);
    if (tcombiner != MPI_COMBINER_NAMED)
      MPI_Type_free(&types[i]);
  }
  MPI_Type_commit(&result);
  return result;
}

static void same_data(MPI_Datatype a, MPI_Datatype b, const char* what)
{
  int source[256], packed_a[256], packed_b[256];
  for (int i = 0; i < 256; i++)
    source[i] = i;
  int size_a, size_b, position_a = 0, position_b = 0;
  MPI_Pack_size(1, a, MPI_COMM_WORLD, &size_a);
  MPI_Pack_size(1, b, MPI_COMM_WORLD, &size_b);
  MPI_Pack(source, 1, a, packed_a, sizeof packed_a, &position_a, MPI_COMM_WORLD);
  MPI_Pack(source, 1, b, packed_b, sizeof packed_b, &position_b, MPI_COMM_WORLD);
  check(size_a == size_b && position_a == position_b && memcmp(packed_a, packed_b, position_a) == 0, what);
}

/* The elements of a 6 x 8 array of ints (values 0..47) that each process of a 2 x 2 grid owns: block rows, cyclic(3)
 * columns, in C then Fortran order. */
static void darrays(void)
{
  int gsizes[2] = {6, 8}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 3}, psizes[2] = {2, 2}, array[48], packed[48];
  for (int i = 0; i < 48; i++)
    array[i] = i;
  for (int order = 0; order < 2; order++)
    for (int process = 0; process < 4; process++) {
      MPI_Datatype darray;
      MPI_Type_create_darray(4, process, 2, gsizes, distribs, dargs, psizes, order ? MPI_ORDER_FORTRAN : MPI_ORDER_C,
                             MPI_INT, &darray);
      MPI_Type_commit(&darray);
      int size, position = 0, ni, na, nd, combiner;
      MPI_Aint lb, extent;
      MPI_Type_size(darray, &size);
      MPI_Type_get_extent(darray, &lb, &extent);
      MPI_Type_get_envelope(darray, &ni, &na, &nd, &combiner);
      check(combiner == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && na == 0 && nd == 1, "envelope of a darray");
      MPI_Pack(array, 1, darray, packed, sizeof packed, &position, MPI_COMM_WORLD);
      if (rank == 0) {
        printf("darray %s process %d: lb %ld extent %ld, elements", order ? "Fortran" : "C", process, (long)lb,
               (long)extent);
        for (int i = 0; i < size / (int)sizeof(int); i++)
          printf(" %d", packed[i]);
        printf("\n");
      }
      MPI_Type_free(&darray);
    }
}

struct item {
  int key;
  double weight;
  char flag;
};

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Datatype contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, structure, subarray,
      resized, dup, nested;
  int lengths[3] = {2, 1, 3}, displs[3] = {0, 5, 9};
  MPI_Aint byte_displs[3] = {0, 24, 40};
  MPI_Type_contiguous(3, MPI_INT, &contiguous);
  MPI_Type_vector(3, 2, 5, MPI_INT, &vector);
  MPI_Type_create_hvector(2, 1, 16, MPI_DOUBLE, &hvector);
  MPI_Type_indexed(3, lengths, displs, MPI_INT, &indexed);
  MPI_Type_create_hindexed(3, lengths, byte_displs, MPI_SHORT, &hindexed);
  MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &indexed_block);
  MPI_Type_create_hindexed_block(3, 2, byte_displs, MPI_INT, &hindexed_block);
  int item_lengths[3] = {1, 1, 1};
  MPI_Aint item_displs[3] = {offsetof(struct item, key), offsetof(struct item, weight), offsetof(struct item, flag)};
  MPI_Datatype item_types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(3, item_lengths, item_displs, item_types, &structure);
  int sizes[2] = {6, 8}, subsizes[2] = {2, 3}, starts[2] = {1, 4};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &subarray);
  MPI_Type_create_resized(vector, -4, 64, &resized);
  MPI_Type_dup(indexed, &dup);
  MPI_Type_contiguous(2, vector, &nested);

  MPI_Datatype built[] = {contiguous,     vector,    hvector,  indexed, hindexed, indexed_block,
                          hindexed_block, structure, subarray, resized, dup,      nested};
  for (size_t i = 0; i < sizeof built / sizeof built[0]; i++)
    MPI_Type_commit(&built[i]);
  show("MPI_INT", MPI_INT);
  show("contiguous", contiguous);
  show("vector", vector);
  show("hvector", hvector);
  show("indexed", indexed);
  show("hindexed", hindexed);
  show("indexed_block", indexed_block);
  show("hindexed_block", hindexed_block);
  show("struct", structure);
  show("subarray", subarray);
  show("resized", resized);
  show("dup", dup);
  show("nested", nested);

  MPI_Datatype rebuilt[5] = {rebuild(vector), rebuild(indexed), rebuild(structure), rebuild(hindexed_block),
                             rebuild(subarray)};
  same_data(vector, rebuilt[0], "vector rebuilt from its contents");
  same_data(indexed, rebuilt[1], "indexed rebuilt from its contents");
  same_data(hindexed_block, rebuilt[3], "hindexed_block rebuilt from its contents");
  same_data(subarray, rebuilt[4], "subarray rebuilt from its contents");
  same_data(dup, indexed, "dup moves the data of its original");
  MPI_Aint lb, extent, rebuilt_lb, rebuilt_extent;
  MPI_Type_get_extent(structure, &lb, &extent);
  MPI_Type_get_extent(rebuilt[2], &rebuilt_lb, &rebuilt_extent);
  check(lb == rebuilt_lb && extent == rebuilt_extent, "struct rebuilt from its contents has the same extent");

  darrays();

  /* Names: predefined types are named after their handle; set names are returned. */
  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Type_get_name(MPI_DOUBLE, name, &length);
  check(strcmp(name, "MPI_DOUBLE") == 0 && length == 10, "name of MPI_DOUBLE");
  MPI_Type_set_name(structure, "struct item");
  MPI_Type_get_name(structure, name, &length);
  check(strcmp(name, "struct item") == 0 && length == 11, "name set on a derived type");
  if (rank == 0)
    printf("names: MPI_DOUBLE and \"%s\"\n", name);

  /* Errors (erroneous calls; the class is the implementation's: mpisim says MPI_ERR_ARG, Open MPI 4.1 its
   * MPI_ERR_INTERN): contents of a predefined type, arrays smaller than the envelope says. */
  int ints[4];
  MPI_Aint addrs[4];
  MPI_Datatype types[4];
  int named = MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, addrs, types);
  int small = MPI_Type_get_contents(vector, 1, 0, 1, ints, addrs, types);
  check(named != MPI_SUCCESS && small != MPI_SUCCESS, "erroneous MPI_Type_get_contents calls fail");
#ifdef MPISIM
  check(named == MPI_ERR_ARG && small == MPI_ERR_ARG, "erroneous MPI_Type_get_contents calls are MPI_ERR_ARG");
#endif

  MPI_Datatype all[] = {contiguous,     vector,     hvector,    indexed,    hindexed,  indexed_block,
                        hindexed_block, structure,  subarray,   resized,    dup,       nested,
                        rebuilt[0],     rebuilt[1], rebuilt[2], rebuilt[3], rebuilt[4]};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    MPI_Type_free(&all[i]);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return 0;
}
