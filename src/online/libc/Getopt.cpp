// getopt, getopt_long and getopt_long_only with each rank's own position (docs/online.md, "The C library, rank by
// rank"): the GNU behaviour (argument permutation, '+' and '-' leading the option string or POSIXLY_CORRECT, ':' for
// quiet errors, abbreviated long options, `-W foo` for `--foo`, optind = 0 to start over), written again over a
// per-rank scan state, since glibc's own keeps its position in one hidden static. The variables the program reads
// (optind, optarg, opterr, optopt) are the C library's, swapped between ranks (runtime/LibcStates.hpp).
#include "online/libc/Caller.hpp"

#include <getopt.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace mpisim::online;

namespace {

using Order = GetoptScan::Order;

bool is_nonoption(const char* argument)
{
  return argument[0] != '-' || argument[1] == '\0';
}

struct Request {
  int argc;
  char** argv;
  const char* shorts; // the option string, without its leading '+' or '-'
  const option* longs;
  int* long_index;
  bool long_only;
  bool quiet; // ':' leads the option string: no messages, ':' for a missing argument
  bool report() const { return opterr != 0 && not quiet; }
  int missing_argument() const { return quiet ? ':' : '?'; }
};

class Scanner {
public:
  Scanner(GetoptScan& scan, const Request& request) : s_(scan), r_(request) {}

  int next();

private:
  int advance();
  void permute();
  int short_option();
  int long_option(const char* prefix);
  int found_long(const option& found, int index, const char* name_end, const char* prefix);

  GetoptScan& s_;
  const Request& r_;
};

// Moves the non-options skipped so far, [first_nonoption, last_nonoption), behind the options that followed them,
// [last_nonoption, optind), each block keeping its order.
void Scanner::permute()
{
  std::rotate(r_.argv + s_.first_nonoption, r_.argv + s_.last_nonoption, r_.argv + optind);
  s_.first_nonoption += optind - s_.last_nonoption;
  s_.last_nonoption = optind;
}

// Starts on the next argument: skips (and remembers) non-options when permuting, stops at "--" and at the end.
// Returns 0 when an option starts, else what getopt returns.
int Scanner::advance()
{
  s_.last_nonoption = std::min(s_.last_nonoption, optind);
  s_.first_nonoption = std::min(s_.first_nonoption, optind);
  if (s_.order == Order::Permute) {
    if (s_.first_nonoption != s_.last_nonoption && s_.last_nonoption != optind)
      permute();
    else if (s_.last_nonoption != optind)
      s_.first_nonoption = optind;
    while (optind < r_.argc && is_nonoption(r_.argv[optind]))
      ++optind;
    s_.last_nonoption = optind;
  }
  if (optind != r_.argc && std::strcmp(r_.argv[optind], "--") == 0) {
    ++optind;
    if (s_.first_nonoption != s_.last_nonoption && s_.last_nonoption != optind)
      permute();
    else if (s_.first_nonoption == s_.last_nonoption)
      s_.first_nonoption = optind;
    s_.last_nonoption = r_.argc;
    optind = r_.argc;
  }
  if (optind == r_.argc) {
    if (s_.first_nonoption != s_.last_nonoption) // the non-options are where optind points
      optind = s_.first_nonoption;
    return -1;
  }
  if (is_nonoption(r_.argv[optind])) {
    if (s_.order == Order::RequireOrder)
      return -1;
    optarg = r_.argv[optind++];
    return 1;
  }
  return 0;
}

int Scanner::next()
{
  if (s_.next == nullptr || *s_.next == '\0') {
    if (const int outcome = advance(); outcome != 0)
      return outcome;
    const char* argument = r_.argv[optind];
    if (r_.longs != nullptr && argument[1] == '-') {
      s_.next = r_.argv[optind] + 2;
      return long_option("--");
    }
    if (r_.longs != nullptr && r_.long_only &&
        (argument[2] != '\0' || std::strchr(r_.shorts, argument[1]) == nullptr)) {
      s_.next = r_.argv[optind] + 1;
      if (const int outcome = long_option("-"); outcome != -1)
        return outcome;
      // not a long option, but a valid short one: read as short options below
    }
    s_.next = r_.argv[optind] + 1;
  }
  return short_option();
}

int Scanner::short_option()
{
  const char c = *s_.next++;
  const char* spec = std::strchr(r_.shorts, c);
  if (*s_.next == '\0')
    ++optind;
  if (spec == nullptr || c == ':' || c == ';') {
    if (r_.report())
      std::fprintf(stderr, "%s: invalid option -- '%c'\n", r_.argv[0], c);
    optopt = c; // NOLINT(bugprone-signed-char-misuse): as glibc, a char
    return '?';
  }
  if (spec[0] == 'W' && spec[1] == ';' && r_.longs != nullptr) { // -W foo is --foo
    // The long option's name is the rest of this argument, else the next argument.
    if (*s_.next == '\0' && optind == r_.argc) {
      if (r_.report())
        std::fprintf(stderr, "%s: option requires an argument -- '%c'\n", r_.argv[0], c);
      optopt = c; // NOLINT(bugprone-signed-char-misuse): as glibc, a char
      return r_.missing_argument();
    }
    if (*s_.next == '\0')
      s_.next = r_.argv[optind];
    const Request plain{r_.argc, r_.argv, r_.shorts, r_.longs, r_.long_index, false, r_.quiet};
    return Scanner(s_, plain).long_option("-W ");
  }
  if (spec[1] != ':')
    return c;
  if (spec[2] == ':') { // optional argument: only attached (-ovalue)
    if (*s_.next != '\0') {
      optarg = s_.next;
      ++optind;
    } else {
      optarg = nullptr;
    }
  } else if (*s_.next != '\0') {
    optarg = s_.next;
    ++optind;
  } else if (optind == r_.argc) {
    if (r_.report())
      std::fprintf(stderr, "%s: option requires an argument -- '%c'\n", r_.argv[0], c);
    optopt = c; // NOLINT(bugprone-signed-char-misuse): as glibc, a char
    s_.next = nullptr;
    return r_.missing_argument();
  } else {
    optarg = r_.argv[optind++];
  }
  s_.next = nullptr;
  return c;
}

// The long option at s_.next (after `prefix`): an exact name, else an unambiguous abbreviation. Returns -1 when
// getopt_long_only should read the argument as short options instead.
int Scanner::long_option(const char* prefix)
{
  const char* name = s_.next;
  const char* name_end = name;
  while (*name_end != '\0' && *name_end != '=')
    ++name_end;
  const auto length = static_cast<size_t>(name_end - name);
  for (int i = 0; r_.longs[i].name != nullptr; ++i)
    if (std::strncmp(r_.longs[i].name, name, length) == 0 && std::strlen(r_.longs[i].name) == length)
      return found_long(r_.longs[i], i, name_end, prefix);
  // Abbreviations: ambiguous when two candidates differ (getopt_long_only: when there are two at all).
  int first = -1;
  std::vector<int> candidates;
  bool ambiguous = false;
  for (int i = 0; r_.longs[i].name != nullptr; ++i) {
    if (std::strncmp(r_.longs[i].name, name, length) != 0)
      continue;
    if (first < 0) {
      first = i;
      candidates.push_back(i);
      continue;
    }
    const option& a = r_.longs[first];
    const option& b = r_.longs[i];
    if (r_.long_only || a.has_arg != b.has_arg || a.flag != b.flag || a.val != b.val) {
      ambiguous = true;
      candidates.push_back(i);
    }
  }
  if (ambiguous) {
    if (r_.report()) {
      std::fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", r_.argv[0], prefix, name);
      for (int i : candidates)
        std::fprintf(stderr, " '%s%s'", prefix, r_.longs[i].name);
      std::fprintf(stderr, "\n");
    }
    s_.next += std::strlen(s_.next);
    ++optind;
    optopt = 0;
    return '?';
  }
  if (first >= 0)
    return found_long(r_.longs[first], first, name_end, prefix);
  if (not r_.long_only || r_.argv[optind][1] == '-' || std::strchr(r_.shorts, *s_.next) == nullptr) {
    if (r_.report())
      std::fprintf(stderr, "%s: unrecognized option '%s%s'\n", r_.argv[0], prefix, s_.next);
    s_.next = nullptr;
    ++optind;
    optopt = 0;
    return '?';
  }
  return -1;
}

int Scanner::found_long(const option& found, int index, const char* name_end, const char* prefix)
{
  ++optind;
  s_.next = nullptr;
  if (*name_end == '=') {
    if (found.has_arg == no_argument) {
      if (r_.report())
        std::fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", r_.argv[0], prefix, found.name);
      optopt = found.val;
      return '?';
    }
    optarg = const_cast<char*>(name_end + 1);
  } else if (found.has_arg == required_argument) {
    if (optind >= r_.argc) {
      if (r_.report())
        std::fprintf(stderr, "%s: option '%s%s' requires an argument\n", r_.argv[0], prefix, found.name);
      optopt = found.val;
      return r_.missing_argument();
    }
    optarg = r_.argv[optind++];
  }
  if (r_.long_index != nullptr)
    *r_.long_index = index;
  if (found.flag != nullptr) {
    *found.flag = found.val;
    return 0;
  }
  return found.val;
}

int scan(int argc, char* const* argv, const char* shorts, const option* longs, int* long_index, bool long_only,
         bool posix)
{
  if (argc < 1)
    return -1;
  GetoptScan& scan = caller_libc().getopt;
  optarg = nullptr;
  Order order = Order::Permute;
  if (*shorts == '-' || *shorts == '+')
    order = *shorts++ == '-' ? Order::ReturnInOrder : Order::RequireOrder;
  else if (posix || std::getenv("POSIXLY_CORRECT") != nullptr)
    order = Order::RequireOrder;
  if (optind == 0 || not scan.initialized) {
    if (optind == 0)
      optind = 1;
    scan = GetoptScan{true, nullptr, optind, optind, order, scan.option_character};
  }
  // optopt is the scan's own after every call, whatever the program stored in it (as in glibc).
  optopt = scan.option_character;
  const bool quiet = *shorts == ':';
  const Request request{argc, const_cast<char**>(argv), shorts, longs, long_index, long_only, quiet};
  const int outcome = Scanner(scan, request).next();
  scan.option_character = optopt;
  return outcome;
}

} // namespace

extern "C" int getopt(int argc, char* const* argv, const char* shorts) noexcept
{
  return scan(argc, argv, shorts, nullptr, nullptr, false, false);
}

// What <unistd.h> calls getopt under _POSIX_C_SOURCE without _GNU_SOURCE: no permutation. The name is glibc's.
// NOLINTNEXTLINE(bugprone-reserved-identifier)
extern "C" int __posix_getopt(int argc, char* const* argv, const char* shorts) noexcept
{
  return scan(argc, argv, shorts, nullptr, nullptr, false, true);
}

extern "C" int getopt_long(int argc, char* const* argv, const char* shorts, const option* longs,
                           int* long_index) noexcept
{
  return scan(argc, argv, shorts, longs, long_index, false, false);
}

extern "C" int getopt_long_only(int argc, char* const* argv, const char* shorts, const option* longs,
                                int* long_index) noexcept
{
  return scan(argc, argv, shorts, longs, long_index, true, false);
}
