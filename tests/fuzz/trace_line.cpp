// Fuzz target: one trace action line, `<rank> <action> <args...>`, through the tokenizer, the rank field and the
// action parser (replay/TraceLine.hpp, replay/ActionParser.hpp), in a trace of kWorldSize ranks. No file involved:
// the fastest way into every action's argument checks.
#include "FuzzInput.hpp"
#include "TraceActionCheck.hpp"
#include "replay/ActionParser.hpp"
#include "replay/TraceLine.hpp"

namespace {
constexpr int kWorldSize = 16;
const std::string kFile = "fuzz-line";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  std::string_view line = fuzz::input_text(data, size);
  line = line.substr(0, line.find('\n')); // as the line reader cuts it
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
  });
  return 0;
}
