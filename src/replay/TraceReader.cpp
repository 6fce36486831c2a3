// Reader of SimGrid TI trace sets: the public face over the pieces that do each job (file discovery: TraceIndex,
// line streaming: LineReader, tokenizing: TraceLine, argument parsing: ActionParser, counts to bytes: ActionSizes,
// datatype sizes: TiDatatypes, per-rank sources and the shared-trace demultiplexer: RankSources).
#include "replay/TraceReader.hpp"

#include "replay/RankSources.hpp"
#include "replay/TraceIndex.hpp"

#include <stdexcept>

namespace mpisim::replay {

// ---------------------------------------------------------------------------------------------------- RankStream

RankStream::RankStream(int rank, std::unique_ptr<detail::RankSource> source) : rank_(rank), source_(std::move(source))
{
}
RankStream::RankStream(RankStream&&) noexcept = default;
RankStream& RankStream::operator=(RankStream&&) noexcept = default;
RankStream::~RankStream() = default;

bool RankStream::next(TraceAction& out)
{
  return source_->next(out);
}

// ------------------------------------------------------------------------------------------------------ TraceSet

namespace detail {

struct TraceSetState {
  TraceFiles found;
  std::vector<bool> stream_taken;
  std::shared_ptr<SharedTraceDemux> demux; // created with the first stream of a shared trace
  TraceSet::SourceFactory source;          // formats other than TI: where each rank's actions come from
  std::vector<std::vector<int>> communicators;
};

} // namespace detail

TraceSet::TraceSet(std::shared_ptr<detail::TraceSetState> state) : state_(std::move(state))
{
  state_->stream_taken.assign(static_cast<size_t>(state_->found.world_size), false);
}

TraceSet TraceSet::open(const std::string& path, int np)
{
  auto state = std::make_shared<detail::TraceSetState>();
  state->found = find_trace_files(path, np);
  return TraceSet(std::move(state));
}

TraceSet TraceSet::from_sources(int world_size, std::string file, SourceFactory source,
                                std::vector<std::vector<int>> communicators)
{
  auto state = std::make_shared<detail::TraceSetState>();
  state->found.layout = Layout::SharedFile;
  state->found.world_size = world_size;
  state->found.files = {std::move(file)};
  state->source = std::move(source);
  state->communicators = std::move(communicators);
  return TraceSet(std::move(state));
}

int TraceSet::size() const
{
  return state_->found.world_size;
}

const std::vector<std::vector<int>>& TraceSet::communicators() const
{
  return state_->communicators;
}

TraceSet::Layout TraceSet::layout() const
{
  return state_->found.layout;
}

const std::string& TraceSet::trace_file(int rank) const
{
  const TraceFiles& found = state_->found;
  if (rank < 0 || rank >= found.world_size)
    throw std::out_of_range("rank " + std::to_string(rank) + " is not in this trace set");
  return found.layout == Layout::SharedFile ? found.files.front() : found.files[static_cast<size_t>(rank)];
}

RankStream TraceSet::stream(int rank)
{
  const TraceFiles& found = state_->found;
  if (rank < 0 || rank >= found.world_size)
    throw std::out_of_range("rank " + std::to_string(rank) + " is not in this trace set of " +
                            std::to_string(found.world_size) + " ranks");
  if (state_->stream_taken[static_cast<size_t>(rank)])
    throw std::logic_error("the stream of rank " + std::to_string(rank) + " was already taken");
  state_->stream_taken[static_cast<size_t>(rank)] = true;

  if (state_->source)
    return RankStream(rank, state_->source(rank));
  if (found.layout == Layout::PerRankFiles)
    return RankStream(
        rank, rank_file_source(found.files[static_cast<size_t>(rank)], found.chunk_size, rank, found.world_size));
  if (not state_->demux)
    state_->demux = shared_trace_demux(found.files.front(), found.chunk_size, found.world_size);
  return RankStream(rank, shared_rank_source(state_->demux, rank));
}

} // namespace mpisim::replay
