#include "record/TraceFile.hpp"

#include <charconv>
#include <cmath>

namespace mpisim::record {

namespace {

// Placeholders inside deferred lines; never part of a real token.
constexpr char kSourceMark = '\x01';
constexpr char kTagMark = '\x02';
constexpr size_t kFileBuffer = 1 << 20;

void replace_all(std::string& text, char mark, std::string_view value)
{
  for (size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at + value.size()))
    text.replace(at, 1, value);
}

} // namespace

TraceFile::~TraceFile()
{
  if (file_ != nullptr)
    std::fclose(file_);
}

bool TraceFile::open(const std::string& path, int rank)
{
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr)
    return false;
  std::setvbuf(file_, nullptr, _IOFBF, kFileBuffer);
  prefix_ = std::to_string(rank) + " ";
  line_.reserve(256);
  return true;
}

int TraceFile::drop_unresolved()
{
  long long before = action_lines_;
  while (not waiting_.empty()) {
    if (waiting_.front().request == 0)
      flush_ready();
    else
      drop(waiting_.front().request, "its request never completed before MPI_Finalize");
  }
  return static_cast<int>(before - action_lines_);
}

void TraceFile::close()
{
  drop_unresolved();
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
}

TraceFile& TraceFile::begin(std::string_view action)
{
  line_.assign(prefix_);
  line_.append(action);
  return *this;
}

TraceFile& TraceFile::add(long long value)
{
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  line_.push_back(' ');
  line_.append(digits, end);
  return *this;
}

TraceFile& TraceFile::add(std::string_view token)
{
  line_.push_back(' ');
  line_.append(token);
  return *this;
}

TraceFile& TraceFile::add_flops(double flops)
{
  return add(static_cast<long long>(std::llround(flops)));
}

TraceFile& TraceFile::add_source_placeholder()
{
  line_.push_back(' ');
  line_.push_back(kSourceMark);
  return *this;
}

TraceFile& TraceFile::add_tag_placeholder()
{
  line_.push_back(' ');
  line_.push_back(kTagMark);
  return *this;
}

void TraceFile::end()
{
  ++actions_since_take_;
  ++action_lines_;
  emit(std::string(line_), 0);
}

void TraceFile::end_deferred(uint64_t request)
{
  ++actions_since_take_;
  ++action_lines_;
  emit(std::string(line_), request);
}

void TraceFile::comment(std::string_view text)
{
  emit("# " + std::string(text), 0);
}

void TraceFile::emit(std::string&& text, uint64_t request)
{
  if (waiting_.empty() && request == 0) {
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), file_);
    return;
  }
  waiting_.push_back({std::move(text), request});
  flush_ready();
}

void TraceFile::flush_ready()
{
  while (not waiting_.empty() && waiting_.front().request == 0) {
    std::string& text = waiting_.front().text;
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), file_);
    waiting_.pop_front();
  }
}

void TraceFile::resolve(uint64_t request, int source, int tag)
{
  std::string source_text = std::to_string(source);
  std::string tag_text = std::to_string(tag);
  for (Waiting& line : waiting_) {
    if (line.request != request)
      continue;
    replace_all(line.text, kSourceMark, source_text);
    replace_all(line.text, kTagMark, tag_text);
    line.request = 0;
  }
  flush_ready();
}

void TraceFile::drop(uint64_t request, std::string_view why)
{
  if (request == 0)
    return;
  for (Waiting& line : waiting_) {
    if (line.request != request)
      continue;
    std::string text = line.text;
    replace_all(text, kSourceMark, "ANY_SOURCE");
    replace_all(text, kTagMark, "ANY_TAG");
    line.text = "# dropped '" + text + "': " + std::string(why);
    line.request = 0;
    --action_lines_;
  }
  flush_ready();
}

int TraceFile::take_action_count()
{
  int count = actions_since_take_;
  actions_since_take_ = 0;
  return count;
}

} // namespace mpisim::record
