#include "replay/LineReader.hpp"

#include "common/Errors.hpp"
#include "common/InputFiles.hpp"

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mpisim::replay {

// One open, fstat, pread and close per chunk (a replay of 16 384 ranks reads as many files, most in one chunk): no
// stat() of the path first, and no further read to find the end when the chunk reached the size fstat() gave.
void ChunkedLineReader::refill()
{
  if (file_offset_ == 0 && checked_regular_ && first_read_unchecked())
    return;
  // Non-blocking: a FIFO named as a trace opens without waiting for a writer, and is refused below as before.
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int open_error = errno;
    if (file_offset_ == 0)
      require_regular_file(path_, "trace"); // a socket: refused as not a regular file rather than unopenable
    throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(open_error));
  }
  struct stat status {};
  const bool sized = ::fstat(fd, &status) == 0;
  if (file_offset_ == 0 && sized && not S_ISREG(status.st_mode)) {
    ::close(fd);
    // Its message names what the file is; the second throw only if the path changed meanwhile.
    require_regular_file(path_, "trace");
    throw InputError(path_, 0, "not a regular file: the trace must be a file");
  }
  const uint64_t size = sized ? static_cast<uint64_t>(status.st_size) : 0;
  make_room(size > file_offset_ ? size - file_offset_ : 0);
  ssize_t got;
  do
    got =
        ::pread(fd, buffer_.data() + end_, buffer_.size() - kReadablePastLine - end_, static_cast<off_t>(file_offset_));
  while (got < 0 && errno == EINTR);
  const int read_error = errno;
  ::close(fd);
  if (got < 0)
    throw InputError(path_, 0, std::string("cannot read: ") + std::strerror(read_error));
  end_ += static_cast<size_t>(got);
  file_offset_ += static_cast<uint64_t>(got);
  // The end: nothing more to read, or all the file had when fstat() looked (what is appended later is not read).
  if (got == 0 || (sized && file_offset_ >= size))
    at_end_of_file_ = true;
}

// The first read of a file checked regular when the trace set was opened: a chunk read into a scratch buffer, and
// kept in a buffer of the size read (a small rank file costs its bytes, as when fstat() sized it). A read shorter than
// the chunk is the end of the file. False when the file cannot be opened or read (it changed since): refill() then
// looks at it as usual and reports what it has become.
bool ChunkedLineReader::first_read_unchecked()
{
  checked_regular_ = false; // once
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return false;
  static thread_local std::vector<char> scratch;
  if (scratch.size() < chunk_size_)
    scratch.resize(chunk_size_);
  ssize_t got;
  do
    got = ::pread(fd, scratch.data(), chunk_size_, 0);
  while (got < 0 && errno == EINTR);
  ::close(fd);
  if (got < 0)
    return false;
  const auto size = static_cast<size_t>(got);
  buffer_.resize(size + kReadablePastLine);
  std::copy_n(scratch.begin(), size, buffer_.begin());
  begin_ = 0;
  end_ = size;
  file_offset_ = size;
  at_end_of_file_ = size < chunk_size_;
  return true;
}

// Moves the unread tail (an incomplete line) to the front, then sizes the buffer: allocated on first use no larger
// than what is left of the file (small rank files of a large job cost little), doubled when one line fills it, and
// given back once a long line (a v-collective on many ranks) has been consumed. Its last kReadablePastLine bytes are
// never read into.
void ChunkedLineReader::make_room(uint64_t remaining_in_file)
{
  const size_t pending = end_ - begin_;
  if (pending > 0 && begin_ > 0)
    std::memmove(buffer_.data(), buffer_.data() + begin_, pending);
  begin_ = 0;
  end_ = pending;
  const size_t wanted =
      static_cast<size_t>(std::min<uint64_t>(chunk_size_, pending + remaining_in_file + 1)) + kReadablePastLine;
  if (buffer_.size() < wanted) {
    buffer_.resize(wanted);
  } else if (pending + kReadablePastLine == buffer_.size()) {
    buffer_.resize(2 * buffer_.size());
  } else if (buffer_.size() > 2 * chunk_size_ + kReadablePastLine && pending <= chunk_size_ / 2) {
    std::vector<char> smaller(chunk_size_ + kReadablePastLine);
    std::copy_n(buffer_.begin(), pending, smaller.begin());
    buffer_.swap(smaller);
  }
}

} // namespace mpisim::replay
