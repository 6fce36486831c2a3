// --tag-output: every line the application writes on stdout or stderr is prefixed with its rank ("[3] ...").
//
// All ranks share one process and one stdout and stderr, but only one rank's code runs at a time and control changes
// hands only inside MPI calls. So both streams are redirected to anonymous files, and at each boundary (a rank
// entering an MPI call, a rank's main returning, the end of the run) what was written since the previous boundary is
// attributed to the rank that was running, and copied to the real stream line by line with the prefix. mpisim's own
// reports (summary, deadlock, abort, crash) are written after close(), on the real stderr, untagged.
#pragma once

#include <array>
#include <cstdio>
#include <map>
#include <string>

namespace mpisim::online {

class OutputTagger {
public:
  OutputTagger();  // redirects stdout and stderr
  ~OutputTagger(); // flushes every partial line and restores both streams
  OutputTagger(const OutputTagger&) = delete;
  OutputTagger& operator=(const OutputTagger&) = delete;

  // Everything written since the last boundary was written by `rank`.
  void boundary(int rank);
  // Writes what is left (partial lines end with a newline) and restores both streams (once; also at destruction).
  void close();

private:
  struct Stream {
    Stream(FILE* file, int fd) : file(file), fd(fd) {}
    FILE* file;
    int fd;
    int real = -1;    // the real stream, while redirected
    int capture = -1; // the anonymous file it is redirected to
    long long consumed = 0;
    std::map<int, std::string> partial; // by rank: the start of a line not ended yet
  };
  static void redirect(Stream& stream, const char* name);
  static void collect(Stream& stream, int rank);
  static void restore(Stream& stream);
  static void emit(const Stream& stream, int rank, const std::string& line);

  std::array<Stream, 2> streams_{Stream(stdout, 1), Stream(stderr, 2)};
  int last_rank_ = -1; // the rank output written after the last boundary belongs to, at close()
};

} // namespace mpisim::online
