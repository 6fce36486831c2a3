/* An IOR-like benchmark (our own program, after the access patterns the IOR benchmark made usual): every client
 * writes a block, transfer by transfer, to a shared file (client c's block at c * block) or to its own file, with
 * independent or collective calls; then reads it back and checks the bytes. Prints the bandwidth of each phase, from
 * MPI_Wtime around open ... close between barriers (the slowest client's time).
 *
 *   ior [-b block] [-t transfer] [-F] [-c] [-o name]     sizes in bytes, or with k/m/g (KiB, MiB, GiB)
 *     -F  one file per process (name.<rank>)   -c  collective calls (MPI_File_write_at_all / read_at_all)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long parse_size(const char* text)
{
  char* end;
  long long value = strtoll(text, &end, 10);
  switch (*end) {
  case 'k':
  case 'K': return value << 10;
  case 'm':
  case 'M': return value << 20;
  case 'g':
  case 'G': return value << 30;
  default: return value;
  }
}

static void describe_size(long long bytes, char* out, size_t size)
{
  if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
    snprintf(out, size, "%lld MiB", bytes >> 20);
  else if (bytes >= 1024 && bytes % 1024 == 0)
    snprintf(out, size, "%lld KiB", bytes >> 10);
  else
    snprintf(out, size, "%lld B", bytes);
}

/* The byte each client puts at position i of its block: its rank and the position, so a misplaced byte shows. */
static char pattern(int rank, long long i)
{
  return (char)((rank * 31 + i) % 251);
}

struct options {
  long long block, transfer;
  int file_per_process, collective;
  const char* name;
};

/* One phase (write or read): the slowest client's seconds from open to close; `errors` counts wrong bytes read. */
static double phase(const struct options* o, int rank, int writing, char* buffer, long long* errors)
{
  MPI_File fh;
  char path[512];
  MPI_Comm comm = o->file_per_process ? MPI_COMM_SELF : MPI_COMM_WORLD;
  if (o->file_per_process)
    snprintf(path, sizeof path, "%s.%d", o->name, rank);
  else
    snprintf(path, sizeof path, "%s", o->name);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_File_open(comm, path, writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  MPI_Offset base = o->file_per_process ? 0 : (MPI_Offset)rank * o->block;
  for (long long done = 0; done < o->block; done += o->transfer) {
    char* data = buffer + done;
    int count = (int)o->transfer;
    if (writing && o->collective)
      MPI_File_write_at_all(fh, base + done, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
    else if (writing)
      MPI_File_write_at(fh, base + done, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
    else if (o->collective)
      MPI_File_read_at_all(fh, base + done, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
    else
      MPI_File_read_at(fh, base + done, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
  }
  MPI_File_close(&fh);
  double mine = MPI_Wtime() - start, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!writing)
    for (long long i = 0; i < o->block; ++i)
      *errors += buffer[i] != pattern(rank, i);
  return slowest;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, clients;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &clients);
  struct options o = {1 << 20, 256 << 10, 0, 0, "ior.data"};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-b") && i + 1 < argc)
      o.block = parse_size(argv[++i]);
    else if (!strcmp(argv[i], "-t") && i + 1 < argc)
      o.transfer = parse_size(argv[++i]);
    else if (!strcmp(argv[i], "-F"))
      o.file_per_process = 1;
    else if (!strcmp(argv[i], "-c"))
      o.collective = 1;
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      o.name = argv[++i];
  }
  if (o.transfer <= 0 || o.block <= 0 || o.block % o.transfer != 0 || o.transfer > (1LL << 30)) {
    if (rank == 0)
      fprintf(stderr, "ior: the block must be a positive multiple of the transfer size (at most 1 GiB)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* buffer = malloc((size_t)o.block);
  for (long long i = 0; i < o.block; ++i)
    buffer[i] = pattern(rank, i);
  long long errors = 0, all_errors;
  double write_seconds = phase(&o, rank, 1, buffer, &errors);
  memset(buffer, 0, (size_t)o.block);
  double read_seconds = phase(&o, rank, 0, buffer, &errors);
  MPI_Reduce(&errors, &all_errors, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char block[32], transfer[32];
    describe_size(o.block, block, sizeof block);
    describe_size(o.transfer, transfer, sizeof transfer);
    double mib = (double)o.block * clients / (1 << 20);
    printf("ior: %d clients, block %s, transfer %s, %s, %s\n", clients, block, transfer,
           o.file_per_process ? "file per process" : "shared file", o.collective ? "collective" : "independent");
    printf("write %10.2f MiB/s %12.9f s\n", mib / write_seconds, write_seconds);
    printf("read  %10.2f MiB/s %12.9f s\n", mib / read_seconds, read_seconds);
    printf("check %lld wrong bytes\n", all_errors);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
