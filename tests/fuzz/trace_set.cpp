// Fuzz target: a trace set as `mpisim replay TRACE` opens it (replay/TraceReader.hpp). The input holds up to
// kMostFiles files separated by lines "%%": the first is TRACE (an index, or a trace file itself), the others are
// written next to it as r0, r1, ... so that an index can name them. Every rank's stream is then read to its end, one
// action at a time in turn, as the replayer pulls them (which exercises the shared trace's per-rank queues).
#include "FuzzInput.hpp"
#include "TraceActionCheck.hpp"
#include "replay/TraceReader.hpp"

namespace {

constexpr size_t kMostFiles = 17;
// Beyond this many ranks (a shared trace naming rank 1000000 is valid), only rank 0 is read: the reader's cost per
// rank is what a replay of that size pays too, and reading each would only make the run slow.
constexpr int kMostRanksRead = 64;

void read_every_stream(mpisim::replay::TraceSet& set)
{
  using mpisim::replay::RankStream;
  const int ranks = set.size() <= kMostRanksRead ? set.size() : 1;
  std::vector<RankStream> streams;
  for (int rank = 0; rank < ranks; ++rank)
    streams.push_back(set.stream(rank));
  std::vector<bool> done(streams.size(), false);
  mpisim::replay::TraceAction action;
  for (size_t left = streams.size(); left > 0;)
    for (size_t rank = 0; rank < streams.size(); ++rank) {
      if (done[rank])
        continue;
      if (streams[rank].next(action))
        mpisim::fuzz::check_action(action, set.size());
      else {
        done[rank] = true;
        --left;
      }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  const std::vector<std::string_view> files = fuzz::split_files(fuzz::input_text(data, size));
  if (files.size() > kMostFiles)
    return 0;
  const std::string trace = fuzz::write_scratch_file("trace", files[0]);
  for (size_t i = 1; i < kMostFiles; ++i) { // the files of a previous input must not be found by this one
    const std::string name = "r" + std::to_string(i - 1);
    if (i < files.size())
      fuzz::write_scratch_file(name, files[i]);
    else
      fuzz::remove_scratch_file(name);
  }
  fuzz::read_input([&] {
    replay::TraceSet set = replay::TraceSet::open(trace);
    read_every_stream(set);
  });
  return 0;
}
