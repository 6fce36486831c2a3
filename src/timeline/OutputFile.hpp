// A buffered text file for timeline writers: numbers formatted without locale or printf (std::to_chars), errors
// reported as InputError naming the file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace mpisim::timeline {

// Simulated dates in timeline files are whole nanoseconds: every writer rounds the same way, so a slice's end written
// as start + duration is exactly the end written elsewhere (flow events bound to it, the next slice's start).
int64_t to_nanoseconds(double seconds);

class OutputFile {
public:
  // Creates (truncates) the file; throws InputError(path, 0, reason) when it cannot.
  explicit OutputFile(std::string path);
  ~OutputFile(); // closes without reporting errors: call close() to hear about them
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }

  OutputFile& text(std::string_view text)
  {
    buffer_.append(text);
    if (buffer_.size() >= kFlushAt)
      flush();
    return *this;
  }
  OutputFile& put(char c)
  {
    buffer_.push_back(c);
    return *this;
  }
  OutputFile& integer(int64_t value);
  // Integral values as integers ("1000000", not "1e+06"), others in the shortest form that reads back exactly.
  OutputFile& number(double value);
  // `ns` divided by 10^decimals, with exactly `decimals` decimals (nanoseconds as microseconds: decimals = 3).
  OutputFile& scaled(int64_t ns, int decimals);
  // A JSON string literal, quotes included.
  OutputFile& json_string(std::string_view text);

  // Writes what is buffered and closes the file; throws InputError when the data could not be written.
  void close();

private:
  static constexpr size_t kFlushAt = 1 << 20;
  void flush();

  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  bool failed_ = false;
};

} // namespace mpisim::timeline
