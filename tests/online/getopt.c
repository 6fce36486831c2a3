/* Option parsing on every rank, as applications do at start-up: getopt_long with short and long options, required
 * and optional arguments, a cluster of flags, an abbreviated long option and non-options between the options
 * (permuted to the end), then getopt_long_only and plain getopt on other argument vectors. Each rank checks what it
 * parsed; a second pass (optind = 0 starts over) parses one option per MPI_Barrier, so that the ranks' scans
 * interleave. Rank 0 prints how many ranks parsed everything.
 *
 * Run with: -v --size 100 input1 -o out.txt --mode=fast input2 -abc --verb -x7 -- -notanoption */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;

static void expect(int condition, int rank, const char* what)
{
  if (!condition) {
    ++failures;
    printf("rank %d: %s\n", rank, what);
  }
}

struct parsed {
  int v, a, b, c, verbose_flag, size, x;
  const char* output;
  const char* mode;
};

static int verbose_flag = 0;

static void parse_long(int argc, char** argv, int rank, int interleave)
{
  static const struct option options[] = {{"size", required_argument, NULL, 's'},
                                          {"mode", required_argument, NULL, 'm'},
                                          {"verbose", no_argument, &verbose_flag, 1},
                                          {"output", required_argument, NULL, 'o'},
                                          {NULL, 0, NULL, 0}};
  struct parsed p = {0, 0, 0, 0, 0, 0, -1, NULL, NULL};
  int c, index = -1;
  verbose_flag = 0;
  while ((c = getopt_long(argc, argv, "vabco:x::", options, &index)) != -1) {
    switch (c) {
    case 'v': ++p.v; break;
    case 'a': ++p.a; break;
    case 'b': ++p.b; break;
    case 'c': ++p.c; break;
    case 's': p.size = atoi(optarg); break;
    case 'o': p.output = optarg; break;
    case 'm': p.mode = optarg; break;
    case 'x': p.x = optarg ? optarg[0] - '0' : 0; break;
    case 0: expect(strcmp(options[index].name, "verbose") == 0, rank, "flag option index"); break;
    default: expect(0, rank, "unexpected option"); break;
    }
    if (interleave)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  expect(p.v == 1 && p.a == 1 && p.b == 1 && p.c == 1, rank, "flags -v -abc");
  expect(verbose_flag == 1, rank, "--verb sets the flag");
  expect(p.size == 100, rank, "--size 100");
  expect(p.output && strcmp(p.output, "out.txt") == 0, rank, "-o out.txt");
  expect(p.mode && strcmp(p.mode, "fast") == 0, rank, "--mode=fast");
  expect(p.x == 7, rank, "-x7 (optional argument)");
  expect(argc - optind == 3, rank, "three non-options");
  if (argc - optind == 3) {
    expect(strcmp(argv[optind], "input1") == 0, rank, "non-option 1");
    expect(strcmp(argv[optind + 1], "input2") == 0, rank, "non-option 2");
    expect(strcmp(argv[optind + 2], "-notanoption") == 0, rank, "after --");
  }
}

/* getopt_long_only: single-dash long options, with a short option as fallback; the rank's own value in an option. */
static void parse_long_only(int rank, int interleave)
{
  static const struct option options[] = {
      {"size", required_argument, NULL, 's'}, {"nodes", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0}};
  char value[16];
  snprintf(value, sizeof value, "%d", rank);
  char* argv[] = {"prog", "-size", value, "file", "-nodes=4", "-q", NULL};
  int size = -1, nodes = -1, quiet = 0, c;
  optind = 0;
  while ((c = getopt_long_only(6, argv, "q", options, NULL)) != -1) {
    if (c == 's')
      size = atoi(optarg);
    else if (c == 'n')
      nodes = atoi(optarg);
    else if (c == 'q')
      ++quiet;
    else
      expect(0, rank, "getopt_long_only: unexpected option");
    if (interleave)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  expect(size == rank && nodes == 4 && quiet == 1, rank, "getopt_long_only values");
  expect(optind == 5 && strcmp(argv[5], "file") == 0, rank, "getopt_long_only: the non-option permuted last");
}

/* Plain getopt with '+' (stop at the first non-option) and a missing argument reported as ':'. */
static void parse_short(int rank, int interleave)
{
  char* argv[] = {"prog", "-n", "3", "-kj", "rest", "-k", NULL};
  int n = -1, k = 0, j = 0, c;
  optind = 0;
  while ((c = getopt(6, argv, "+:n:kj")) != -1) {
    if (c == 'n')
      n = atoi(optarg);
    else if (c == 'k')
      ++k;
    else if (c == 'j')
      ++j;
    else
      expect(0, rank, "getopt: unexpected option");
    if (interleave)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  expect(n == 3 && k == 1 && j == 1 && optind == 4, rank, "getopt '+': stops at the first non-option");
  char* missing[] = {"prog", "-n", NULL};
  optind = 0;
  opterr = 0;
  expect(getopt(2, missing, ":n:") == ':' && optopt == 'n', rank, "getopt ':': missing argument");
  opterr = 1;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* copy[32];
  for (int i = 0; i < argc && i < 31; ++i)
    copy[i] = argv[i];
  copy[argc < 31 ? argc : 31] = NULL;
  for (int interleave = 0; interleave <= 1; ++interleave) {
    optind = interleave ? 0 : optind;        /* the first pass starts as a fresh process does */
    for (int i = 0; i < argc && i < 31; ++i) /* the first pass permuted argv: start from the same order */
      argv[i] = copy[i];
    parse_long(argc, argv, rank, interleave);
    parse_long_only(rank, interleave);
    parse_short(rank, interleave);
  }
  int parsed_all = failures == 0, ranks_ok = 0;
  MPI_Reduce(&parsed_all, &ranks_ok, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d of %d ranks parsed every option\n", ranks_ok, size);
  MPI_Finalize();
  return 0;
}
