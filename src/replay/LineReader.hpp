// Streaming of a trace file's lines with a bounded buffer and no file descriptor held between reads: what lets a replay
// read thousands of per-rank files at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mpisim::replay {

// Reads a file line by line through a buffer refilled with pread() at a saved offset. The file is opened for each
// refill and closed right after, so no descriptor stays open between calls: thousands of readers can coexist under the
// default limit of open files. A final line without newline is returned like any other.
class ChunkedLineReader {
public:
  // `checked_regular`: the path was found to be a regular file when the trace set was opened (TraceIndex): its first
  // read does without the fstat() that would check it again and size the buffer (one system call less per rank file,
  // 16 384 in a replay of as many ranks).
  ChunkedLineReader(std::string path, size_t chunk_size, bool checked_regular = false)
      : path_(std::move(path)), chunk_size_(chunk_size), checked_regular_(checked_regular)
  {
  }

  // Bytes after every line's end that lie in the buffer and can be read: the tokenizers load 8 bytes at a time across a
  // line's end (split_buffered_line, parse_plain_action). The first is always '\n' (the line's own, or one written
  // after a last line without it), which ends the fast path's scans without a bounds check; the others are anything.
  static constexpr size_t kReadablePastLine = 8;

  // The next line without its '\n'; valid until the next call, with kReadablePastLine readable bytes after it (the
  // first '\n'). False at end of file.
  bool next_line(std::string_view& line)
  {
    for (;;) {
      const char* first = buffer_.data() + begin_;
      const size_t available = end_ - begin_;
      if (available > 0) {
        if (const auto* newline = static_cast<const char*>(std::memchr(first, '\n', available))) {
          line = std::string_view(first, static_cast<size_t>(newline - first));
          begin_ += line.size() + 1;
          ++line_number_;
          return true;
        }
      }
      if (at_end_of_file_) {
        if (available == 0) {
          std::vector<char>().swap(buffer_); // done with this file: give the memory back
          begin_ = end_ = 0;
          return false;
        }
        buffer_[end_] = '\n'; // in the bytes past the data, never read into
        line = std::string_view(first, available);
        begin_ = end_;
        ++line_number_;
        return true;
      }
      refill();
    }
  }

  uint32_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

private:
  void refill();
  bool first_read_unchecked();
  void make_room(uint64_t remaining_in_file);

  std::string path_;
  size_t chunk_size_;
  uint64_t file_offset_ = 0;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool at_end_of_file_ = false;
  bool checked_regular_;
  uint32_t line_number_ = 0;
};

} // namespace mpisim::replay
