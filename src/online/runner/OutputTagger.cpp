#include "online/runner/OutputTagger.hpp"

#include "common/Errors.hpp"

#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

namespace mpisim::online {

OutputTagger::OutputTagger()
{
  std::fflush(stdout);
  real_stdout_ = dup(STDOUT_FILENO);
  capture_ = memfd_create("mpisim-stdout", 0);
  if (real_stdout_ < 0 || capture_ < 0 || dup2(capture_, STDOUT_FILENO) < 0)
    throw InputError("--tag-output: cannot redirect stdout");
}

OutputTagger::~OutputTagger()
{
  close();
}

void OutputTagger::close()
{
  if (real_stdout_ < 0)
    return;
  std::fflush(stdout);
  for (auto& [rank, line] : partial_)
    if (not line.empty())
      emit(rank, line + "\n");
  dup2(real_stdout_, STDOUT_FILENO);
  ::close(real_stdout_);
  ::close(capture_);
  real_stdout_ = capture_ = -1;
}

void OutputTagger::boundary(int rank)
{
  std::fflush(stdout);
  char buffer[4096];
  for (;;) {
    const ssize_t got = pread(capture_, buffer, sizeof buffer, consumed_);
    if (got <= 0)
      break;
    consumed_ += got;
    std::string& line = partial_[rank];
    for (ssize_t i = 0; i < got; ++i) {
      line += buffer[i];
      if (buffer[i] == '\n') {
        emit(rank, line);
        line.clear();
      }
    }
  }
}

void OutputTagger::emit(int rank, const std::string& line)
{
  const std::string tagged = "[" + std::to_string(rank) + "] " + line;
  [[maybe_unused]] ssize_t written = write(real_stdout_, tagged.data(), tagged.size());
}

} // namespace mpisim::online
