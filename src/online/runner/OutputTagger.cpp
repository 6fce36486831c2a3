#include "online/runner/OutputTagger.hpp"

#include "common/Errors.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace mpisim::online {

OutputTagger::OutputTagger()
{
  for (Stream& stream : streams_)
    redirect(stream, stream.fd == 1 ? "stdout" : "stderr");
}

OutputTagger::~OutputTagger()
{
  close();
}

void OutputTagger::redirect(Stream& stream, const char* name)
{
  std::fflush(stream.file);
  stream.real = dup(stream.fd);
  stream.capture = memfd_create(name, 0);
  if (stream.real < 0 || stream.capture < 0 || dup2(stream.capture, stream.fd) < 0)
    throw InputError(std::string("--tag-output: cannot redirect ") + name);
}

void OutputTagger::close()
{
  if (streams_[0].real < 0)
    return;
  if (last_rank_ >= 0)
    boundary(last_rank_); // what the last running rank wrote after its last boundary (exit(), a crash, an abort)
  for (Stream& stream : streams_)
    restore(stream);
}

void OutputTagger::restore(Stream& stream)
{
  for (auto& [rank, line] : stream.partial)
    if (not line.empty())
      emit(stream, rank, line + "\n");
  dup2(stream.real, stream.fd);
  ::close(stream.real);
  ::close(stream.capture);
  stream.real = stream.capture = -1;
}

void OutputTagger::boundary(int rank)
{
  last_rank_ = rank;
  for (Stream& stream : streams_)
    collect(stream, rank);
}

void OutputTagger::collect(Stream& stream, int rank)
{
  if (stream.real < 0)
    return;
  std::fflush(stream.file);
  char buffer[4096];
  for (;;) {
    const ssize_t got = pread(stream.capture, buffer, sizeof buffer, stream.consumed);
    if (got <= 0)
      break;
    stream.consumed += got;
    std::string& line = stream.partial[rank];
    for (ssize_t i = 0; i < got; ++i) {
      line += buffer[i];
      if (buffer[i] == '\n') {
        emit(stream, rank, line);
        line.clear();
      }
    }
  }
}

void OutputTagger::emit(const Stream& stream, int rank, const std::string& line)
{
  const std::string tagged = "[" + std::to_string(rank) + "] " + line;
  [[maybe_unused]] ssize_t written = write(stream.real, tagged.data(), tagged.size());
}

} // namespace mpisim::online
