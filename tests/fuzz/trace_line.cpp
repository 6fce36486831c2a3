// Fuzz target: one trace action line, `<rank> <action> <args...>`, through the tokenizer, the rank field and the
// action parser (replay/TraceLine.hpp, replay/ActionParser.hpp), in a trace of kWorldSize ranks. No file involved:
// the fastest way into every action's argument checks. The fast path of the rank files (PlainRankField,
// parse_plain_action) reads the line too, as the line reader hands it over ('\n' and 7 more bytes after it, here taken
// from the input): a line it takes must give the general parse's action, field for field.
#include "FuzzInput.hpp"
#include "TraceActionCheck.hpp"
#include "replay/ActionParser.hpp"
#include "replay/TraceLine.hpp"

#include <cstring>
#include <optional>

namespace {
constexpr int kWorldSize = 16;
const std::string kFile = "fuzz-line";

// The fast path's action for `line` as rank `rank`'s, or nothing when it leaves the line to the general parse.
std::optional<mpisim::replay::TraceAction> plain_action(std::string_view line, std::string_view after_line, int rank)
{
  using namespace mpisim::replay;
  std::string buffered(line);
  buffered += '\n';
  buffered += after_line.substr(0, 7);
  buffered.resize(line.size() + 8, 'x');
  std::string_view rest(buffered.data(), line.size());
  TraceAction action;
  if (not PlainRankField(rank).skip(rest) || not parse_plain_action(rest, rank, kWorldSize, kDatatypeByte, 1, action))
    return std::nullopt;
  return action;
}

void check_same(const mpisim::replay::TraceAction& plain, const mpisim::replay::TraceAction& general)
{
  if (std::memcmp(&plain.amount, &general.amount, sizeof(double)) != 0 || plain.amount2 != general.amount2 ||
      plain.src != general.src || plain.dst != general.dst || plain.tag != general.tag || plain.root != general.root ||
      plain.line != general.line || plain.kind != general.kind || plain.datatype1 != general.datatype1 ||
      plain.datatype2 != general.datatype2 || plain.details || general.details)
    mpisim::fuzz::finding("the fast path's action differs from the general parse's");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  const std::string_view input = fuzz::input_text(data, size);
  const std::string_view line = input.substr(0, input.find('\n')); // as the line reader cuts it
  const std::string_view after_line = input.substr(std::min(input.size(), line.size() + 1));
  int plain_rank = 0; // the rank whose fast path takes the line, if any
  std::optional<replay::TraceAction> plain = plain_action(line, after_line, plain_rank);
  while (not plain && ++plain_rank < kWorldSize)
    plain = plain_action(line, after_line, plain_rank);
  bool same_as_plain = false;
  fuzz::read_input([&] {
    std::vector<std::string_view>& tokens = replay::scratch_tokens();
    if (not replay::split_line(line, tokens))
      return;
    const replay::LineSite site{kFile, 1};
    const int rank = replay::parse_rank_field(tokens[0], site);
    if (rank >= kWorldSize)
      return; // the caller's check (per-rank file or shared trace), with its own message
    int8_t default_datatype = replay::kDatatypeByte;
    replay::TraceAction action;
    replay::parse_action(tokens, rank, kWorldSize, default_datatype, site, action);
    fuzz::check_action(action, kWorldSize);
    if (plain) {
      if (rank != plain_rank)
        fuzz::finding("the fast path took the line as another rank's");
      check_same(*plain, action);
      same_as_plain = true;
    }
  });
  if (plain && not same_as_plain)
    fuzz::finding("the fast path took a line the general parse skips or refuses");
  return 0;
}
