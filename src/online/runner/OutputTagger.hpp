// --tag-output: every line the application writes on stdout is prefixed with its rank ("[3] ...").
//
// All ranks share one process and one stdout, but only one rank's code runs at a time and control changes hands only
// inside MPI calls. So stdout is redirected to an anonymous file, and at each boundary (a rank entering an MPI call,
// a rank's main returning, the end of the run) what was written since the previous boundary is attributed to the rank
// that was running, and copied to the real stdout line by line with the prefix.
#pragma once

#include <map>
#include <string>

namespace mpisim::online {

class OutputTagger {
public:
  OutputTagger(); // redirects stdout
  ~OutputTagger(); // flushes every partial line and restores stdout
  OutputTagger(const OutputTagger&) = delete;
  OutputTagger& operator=(const OutputTagger&) = delete;

  // Everything written since the last boundary was written by `rank`.
  void boundary(int rank);
  // Writes every partial line and restores stdout (once; also at destruction).
  void close();

private:
  void emit(int rank, const std::string& line);

  int real_stdout_ = -1;
  int capture_ = -1;
  long long consumed_ = 0;
  std::map<int, std::string> partial_; // by rank: the start of a line not ended yet
};

} // namespace mpisim::online
