#include "record/Timeline.hpp"

#include <charconv>

namespace mpisim::record {

namespace {
constexpr size_t kFileBuffer = 1 << 20;
}

Timeline::~Timeline()
{
  if (file_ != nullptr)
    std::fclose(file_);
}

bool Timeline::open(const std::string& path, int rank)
{
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr)
    return false;
  std::setvbuf(file_, nullptr, _IOFBF, kFileBuffer);
  rank_text_ = std::to_string(rank);
  line_.reserve(256);
  // The first event names the rank's track; every later event starts with a comma, so a file cut short by a crash
  // still holds whole events, one per line.
  std::fprintf(file_,
               "{\"traceEvents\":[\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
               "\"args\":{\"name\":\"rank %d\"}}\n",
               rank, rank);
  return true;
}

namespace {

void append_integer(std::string& out, long long value)
{
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr);
}

// Nanoseconds as microseconds with three decimals.
void append_microseconds(std::string& out, long long ns)
{
  if (ns < 0) {
    out.push_back('-');
    ns = -ns;
  }
  append_integer(out, ns / 1000);
  long long fraction = ns % 1000;
  out.push_back('.');
  out.push_back(static_cast<char>('0' + fraction / 100));
  out.push_back(static_cast<char>('0' + fraction / 10 % 10));
  out.push_back(static_cast<char>('0' + fraction % 10));
}

} // namespace

void Timeline::event(std::string_view name, long long start_ns, long long duration_ns, const CallArgs& args,
                     int actions)
{
  if (file_ == nullptr)
    return;
  line_.assign(",{\"name\":\"");
  line_.append(name);
  line_.append("\",\"ph\":\"X\",\"pid\":0,\"tid\":");
  line_.append(rank_text_);
  line_.append(",\"ts\":");
  append_microseconds(line_, start_ns);
  line_.append(",\"dur\":");
  append_microseconds(line_, duration_ns);
  line_.append(",\"args\":{");
  if (args.peer != CallArgs::kUnset) {
    line_.append("\"peer\":");
    append_integer(line_, args.peer);
    line_.push_back(',');
  }
  if (args.bytes != CallArgs::kUnset) {
    line_.append("\"bytes\":");
    append_integer(line_, args.bytes);
    line_.push_back(',');
  }
  if (args.has_tag) {
    line_.append("\"tag\":");
    append_integer(line_, args.tag);
    line_.push_back(',');
  }
  if (not args.comm.empty()) {
    line_.append("\"comm\":\"");
    line_.append(args.comm); // communicator ids need no escaping: [a-z0-9.@]
    line_.append("\",");
  }
  line_.append("\"actions\":");
  append_integer(line_, actions);
  line_.append("}}\n");
  std::fwrite(line_.data(), 1, line_.size(), file_);
}

void Timeline::close(const std::string& other_data)
{
  if (file_ == nullptr)
    return;
  std::fprintf(file_, "],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":%s}\n", other_data.c_str());
  std::fclose(file_);
  file_ = nullptr;
}

} // namespace mpisim::record
