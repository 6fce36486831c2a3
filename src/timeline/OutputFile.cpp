#include "timeline/OutputFile.hpp"

#include "common/Errors.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace mpisim::timeline {

int64_t to_nanoseconds(double seconds)
{
  return std::llround(seconds * 1e9);
}

OutputFile::OutputFile(std::string path) : path_(std::move(path))
{
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr)
    throw InputError(path_, 0, std::string("cannot write the timeline: ") + std::strerror(errno));
  buffer_.reserve(kFlushAt + 4096);
}

OutputFile::~OutputFile()
{
  if (file_ != nullptr)
    std::fclose(file_);
}

void OutputFile::flush()
{
  if (file_ == nullptr || buffer_.empty())
    return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    failed_ = true;
  buffer_.clear();
}

void OutputFile::close()
{
  if (file_ == nullptr)
    return;
  flush();
  const int error = failed_ || std::ferror(file_) ? errno : 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed_ || not closed)
    throw InputError(path_, 0, std::string("cannot write the timeline: ") + std::strerror(error != 0 ? error : errno));
}

OutputFile& OutputFile::integer(int64_t value)
{
  char digits[24];
  return text(std::string_view(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr - digits));
}

OutputFile& OutputFile::number(double value)
{
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9.0e15)
    return integer(static_cast<int64_t>(value));
  if (not std::isfinite(value))
    return text("0"); // no such values come from a simulation; keep the file parseable anyway
  char digits[32];
  return text(std::string_view(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr - digits));
}

OutputFile& OutputFile::scaled(int64_t ns, int decimals)
{
  int64_t unit = 1;
  for (int i = 0; i < decimals; ++i)
    unit *= 10;
  if (ns < 0) {
    put('-');
    ns = -ns;
  }
  integer(ns / unit);
  put('.');
  char fraction[20];
  int64_t rest = ns % unit;
  for (int i = decimals - 1; i >= 0; --i) {
    fraction[i] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  }
  return text(std::string_view(fraction, static_cast<size_t>(decimals)));
}

OutputFile& OutputFile::json_string(std::string_view value)
{
  put('"');
  for (char c : value) {
    switch (c) {
    case '"': text("\\\""); break;
    case '\\': text("\\\\"); break;
    case '\n': text("\\n"); break;
    case '\t': text("\\t"); break;
    case '\r': text("\\r"); break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        static const char hex[] = "0123456789abcdef";
        text("\\u00").put(hex[(c >> 4) & 0xf]).put(hex[c & 0xf]);
      } else {
        put(c);
      }
    }
  }
  return put('"');
}

} // namespace mpisim::timeline
