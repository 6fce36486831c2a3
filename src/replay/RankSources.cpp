#include "replay/RankSources.hpp"

#include "common/Errors.hpp"
#include "replay/ActionParser.hpp"
#include "replay/LineReader.hpp"
#include "replay/TraceLine.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

namespace mpisim::replay {

namespace {

// The actions of one rank from its own file; every line must carry that rank.
class RankFileSource final : public detail::RankSource {
public:
  RankFileSource(std::string path, size_t chunk_size, int rank, int world_size)
      : reader_(std::move(path), chunk_size, /*checked_regular=*/true), rank_(rank), rank_field_(rank),
        world_size_(world_size)
  {
  }

  bool next(TraceAction& out) override
  {
    std::string_view line;
    while (reader_.next_line(line)) {
      if (parse_plain_line(line, out) || parse_general_line(line, out))
        return true;
    }
    return false;
  }

private:
  // Most lines, read in one pass (parse_plain_action); false for any other, left to parse_general_line.
  bool parse_plain_line(std::string_view line, TraceAction& out) const
  {
    return rank_field_.skip(line) &&
           parse_plain_action(line, rank_, world_size_, default_datatype_, reader_.line_number(), out);
  }

  // Any line: its tokens, then the checks of every field; false for a blank line or a comment.
  bool parse_general_line(std::string_view line, TraceAction& out)
  {
    std::vector<std::string_view>& tokens = scratch_tokens();
    if (not split_buffered_line(line, tokens))
      return false;
    const LineSite site{reader_.path(), reader_.line_number()};
    const int line_rank = parse_rank_field(tokens[0], site);
    if (line_rank != rank_)
      throw InputError(site.file, site.line,
                       "rank field " + in_quotes(tokens[0]) + " but this file holds the trace of rank " +
                           std::to_string(rank_));
    parse_action(tokens, rank_, world_size_, default_datatype_, site, out);
    return true;
  }

  ChunkedLineReader reader_;
  int rank_;
  PlainRankField rank_field_;
  int world_size_;
  int8_t default_datatype_ = kDatatypeByte;
};

} // namespace

// Reads a shared trace once, in order, and deals its actions to per-rank queues, parsed as soon as read (so errors come
// in file order and each rank's default datatype follows its own `init`). A queue is made when its rank gets an action
// to hold and given back when emptied: a trace naming rank 3 000 000 costs a pointer per rank, and a rank with two
// actions waiting costs them and a small vector, not a deque (about 600 bytes even when empty).
class SharedTraceDemux {
public:
  SharedTraceDemux(std::string path, size_t chunk_size, int world_size)
      : reader_(std::move(path), chunk_size), world_size_(world_size), pending_(static_cast<size_t>(world_size)),
        default_datatypes_(static_cast<size_t>(world_size), kDatatypeByte)
  {
  }

  bool next(int rank, TraceAction& out)
  {
    if (std::unique_ptr<PendingActions>& mine = pending_[static_cast<size_t>(rank)]) {
      out = std::move(mine->actions[mine->next++]);
      const size_t left = mine->actions.size() - mine->next;
      if (left == 0) {
        mine.reset();
      } else if (mine->next >= 64 && 2 * mine->next >= mine->actions.size()) { // a long backlog: drop what was read
        mine->actions.erase(mine->actions.begin(), mine->actions.begin() + static_cast<ptrdiff_t>(mine->next));
        mine->next = 0;
      } else if (4 * left <= mine->actions.capacity() && mine->actions.capacity() >= 8) {
        mine->compact(); // a rank waiting at its last actions keeps only them, not the vector grown for more
      }
      return true;
    }
    std::vector<std::string_view>& tokens = scratch_tokens();
    std::string_view line;
    while (reader_.next_line(line)) {
      if (not split_buffered_line(line, tokens))
        continue;
      const LineSite site{reader_.path(), reader_.line_number()};
      const int line_rank = parse_rank_field(tokens[0], site);
      if (line_rank >= world_size_)
        throw InputError(site.file, site.line,
                         "rank field " + in_quotes(tokens[0]) + " is out of range [0, " + std::to_string(world_size_) +
                             ")");
      const auto slot = static_cast<size_t>(line_rank);
      if (line_rank == rank) {
        parse_action(tokens, line_rank, world_size_, default_datatypes_[slot], site, out);
        return true;
      }
      TraceAction action;
      parse_action(tokens, line_rank, world_size_, default_datatypes_[slot], site, action);
      std::unique_ptr<PendingActions>& queue = pending_[slot];
      if (not queue)
        queue = std::make_unique<PendingActions>();
      queue->actions.push_back(std::move(action));
    }
    return false;
  }

private:
  // A rank's actions read ahead, oldest first from `next`.
  struct PendingActions {
    std::vector<TraceAction> actions;
    size_t next = 0;

    // The unread actions moved to a vector of their size (halving or more: amortized constant per action).
    void compact()
    {
      std::vector<TraceAction> unread;
      unread.reserve(actions.size() - next);
      std::move(actions.begin() + static_cast<ptrdiff_t>(next), actions.end(), std::back_inserter(unread));
      actions = std::move(unread);
      next = 0;
    }
  };

  ChunkedLineReader reader_;
  int world_size_;
  std::vector<std::unique_ptr<PendingActions>> pending_; // null while the rank has no action waiting
  std::vector<int8_t> default_datatypes_;
};

namespace {

class SharedRankSource final : public detail::RankSource {
public:
  SharedRankSource(std::shared_ptr<SharedTraceDemux> demux, int rank) : demux_(std::move(demux)), rank_(rank) {}
  bool next(TraceAction& out) override { return demux_->next(rank_, out); }

private:
  std::shared_ptr<SharedTraceDemux> demux_;
  int rank_;
};

} // namespace

std::unique_ptr<detail::RankSource> rank_file_source(std::string path, size_t chunk_size, int rank, int world_size)
{
  return std::make_unique<RankFileSource>(std::move(path), chunk_size, rank, world_size);
}

std::shared_ptr<SharedTraceDemux> shared_trace_demux(std::string path, size_t chunk_size, int world_size)
{
  return std::make_shared<SharedTraceDemux>(std::move(path), chunk_size, world_size);
}

std::unique_ptr<detail::RankSource> shared_rank_source(std::shared_ptr<SharedTraceDemux> demux, int rank)
{
  return std::make_unique<SharedRankSource>(std::move(demux), rank);
}

} // namespace mpisim::replay
