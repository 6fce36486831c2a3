/* getopt, getopt_long and getopt_long_only on argument vectors covering GNU getopt's rules: permutation, "--",
 * '+' and '-' leading the option string, ':' for quiet errors, optional and required arguments, abbreviations
 * (unique, ambiguous, exact), "-W foo", flags, invalid options and their messages. It prints each call's result and
 * the final argument order: built by `mpisim cc` and run on one rank, it must print what the C library's getopt
 * prints when the same file is built by plain gcc (no MPI call in it). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int flag = 0;
static const struct option longs[] = {{"size", required_argument, NULL, 's'}, {"mode", optional_argument, NULL, 'm'},
                                      {"verbose", no_argument, &flag, 7},     {"verify", no_argument, NULL, 'V'},
                                      {"same1", no_argument, NULL, 'z'},      {"same2", no_argument, NULL, 'z'},
                                      {"x", no_argument, NULL, 'X'},          {NULL, 0, NULL, 0}};

enum kind { SHORT, LONG, LONG_ONLY };

static void run(enum kind kind, const char* shorts, const char* const* words)
{
  char* argv[32];
  int argc = 0;
  for (; words[argc]; ++argc)
    argv[argc] = (char*)words[argc];
  argv[argc] = NULL;
  printf("%s \"%s\":", kind == SHORT ? "getopt" : kind == LONG ? "getopt_long" : "getopt_long_only", shorts);
  for (int i = 1; i < argc; ++i)
    printf(" %s", argv[i]);
  printf("\n");
  fflush(stdout);
  optind = 0;
  flag = 0;
  for (int c, index = -1;; index = -1) {
    if (kind == SHORT)
      c = getopt(argc, argv, shorts);
    else if (kind == LONG)
      c = getopt_long(argc, argv, shorts, longs, &index);
    else
      c = getopt_long_only(argc, argv, shorts, longs, &index);
    fflush(stderr);
    printf("  -> %d '%c' optind %d optarg %s optopt %d index %d flag %d\n", c, c > 32 && c < 127 ? c : '.', optind,
           optarg ? optarg : "(null)", optopt, index, flag);
    fflush(stdout);
    if (c == -1)
      break;
  }
  printf("  argv:");
  for (int i = 1; i < argc; ++i)
    printf(" %s", argv[i]);
  printf("\n");
}

int main(void)
{
  run(SHORT, "ab:c::", (const char*[]){"p", "-a", "x", "-bval", "y", "-b", "v2", "-cz", "-c", "z", NULL});
  run(SHORT, "+ab:", (const char*[]){"p", "-a", "x", "-b", "v", NULL});
  run(SHORT, "-ab:", (const char*[]){"p", "x", "-a", "y", "-b", "v", "z", NULL});
  run(SHORT, "ab:", (const char*[]){"p", "-q", "-b", NULL});
  run(SHORT, ":ab:", (const char*[]){"p", "-q", "-b", NULL});
  run(SHORT, "ab", (const char*[]){"p", "x", "--", "-a", "y", NULL});
  run(SHORT, "ab", (const char*[]){"p", "-a", "-", "-b", "--", NULL});
  run(SHORT, "abW;", (const char*[]){"p", "-ab", "-:", "-;", NULL});
  run(LONG, "ab:W;",
      (const char*[]){"p", "--size", "10", "in", "--mode=m", "--mode", "--verbose", "-a", "out", "--siz=3", "-W",
                      "size=4", "-Wverify", NULL});
  run(LONG, "a", (const char*[]){"p", "--ver", "--verb", "--sa", "--s", "--size", NULL});
  run(LONG, "a", (const char*[]){"p", "--verify=1", "--nosuch", "--nosuch=2", "--x", "--", "--size", NULL});
  run(LONG, ":a", (const char*[]){"p", "--size", NULL});
  run(LONG_ONLY, "ax", (const char*[]){"p", "-size", "5", "-x", "-a", "-ax", "-verb", "-v", "--mode", "f", NULL});
  run(LONG_ONLY, "ab", (const char*[]){"p", "-same", "-s=1", "-q", "-ab", "-m", NULL});
  return 0;
}
