/* What the C library keeps per process, rank by rank: each rank seeds the generators with its rank, lets the others
 * run (a barrier), then draws; tokenizes its own string with strtok, one token per barrier; sets errno and its own
 * environment variable across barriers; reads its host name and process id. Rank 0 prints one line per rank; the
 * test compares them with the C library's sequences (a fresh process's default seed, srand(rank), ...), the
 * simulated host names, and checks the process ids are distinct. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define LINE 512

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char line[LINE];
  int at = snprintf(line, LINE, "rank %d:", rank);

  /* Unseeded, as a fresh process: the same sequence on every rank. */
  int first = rand();
  MPI_Barrier(MPI_COMM_WORLD);
  at += snprintf(line + at, LINE - at, " default %d %d", first, rand());

  srand(rank + 1);
  srandom(100 + rank);
  srand48(1000 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  int r1 = rand();
  MPI_Barrier(MPI_COMM_WORLD);
  int r2 = rand();
  long g = random();
  double d = drand48();
  at += snprintf(line + at, LINE - at, " rand %d %d random %ld drand48 %.17g", r1, r2, g, d);

  char text[64];
  snprintf(text, sizeof text, "r%d,a,b%d", rank, rank);
  char* token = strtok(text, ",");
  at += snprintf(line + at, LINE - at, " strtok");
  while (token) {
    at += snprintf(line + at, LINE - at, " %s", token);
    MPI_Barrier(MPI_COMM_WORLD);
    token = strtok(NULL, ",");
  }

  errno = 1000 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  at += snprintf(line + at, LINE - at, " errno %d", errno - 1000);

  char value[16];
  snprintf(value, sizeof value, "%d", rank);
  setenv("MPISIM_TEST_RANK", value, 1);
  if (rank % 2)
    unsetenv("HOME");
  MPI_Barrier(MPI_COMM_WORLD);
  const char* mine = getenv("MPISIM_TEST_RANK");
  at += snprintf(line + at, LINE - at, " env %s home %s", mine ? mine : "(none)", getenv("HOME") ? "set" : "unset");

  char host[256];
  struct utsname names;
  gethostname(host, sizeof host);
  uname(&names);
  char processor[MPI_MAX_PROCESSOR_NAME];
  int length;
  MPI_Get_processor_name(processor, &length);
  at += snprintf(line + at, LINE - at, " host %s same %d pid %ld", host,
                 strcmp(host, processor) == 0 && strcmp(names.nodename, processor) == 0, (long)getpid());

  char all[LINE * 64];
  MPI_Gather(line, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; ++r)
      printf("%s\n", all + r * LINE);
  MPI_Finalize();
  return 0;
}
