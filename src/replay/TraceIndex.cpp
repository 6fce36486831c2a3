// Discovery of a trace set's files: an index, a one-line index naming a shared trace, or a trace file itself; the
// number of ranks; the read buffer size per stream. See TraceReader.hpp for the rules.
#include "replay/TraceIndex.hpp"

#include "common/Errors.hpp"
#include "replay/FolderListing.hpp"
#include "replay/LineReader.hpp"
#include "replay/TraceLine.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

namespace mpisim::replay {

namespace {

constexpr size_t kKiB = 1024;
constexpr size_t kIndexChunk = 64 * kKiB;
constexpr size_t kSharedChunk = 1024 * kKiB;
// Read buffers of all per-rank streams together stay under this budget, within [kMinRankChunk, kMaxRankChunk] each.
constexpr size_t kRankBufferBudget = size_t{4} * 1024 * kKiB; // small: replay memory must stay below SMPI's
constexpr size_t kMinRankChunk = 4 * kKiB;
constexpr size_t kMaxRankChunk = 64 * kKiB;
// Guards the rank-count scan against a typo such as `1000000000 send ...` allocating a queue per rank.
constexpr int kMostRanks = 1 << 24;
// From this many per-rank files on, their folder is listed instead of a stat() per file.
constexpr int kListFolderFrom = 256;

struct IndexEntry {
  std::string listed_path;
  uint32_t line;
};

// The regular files of an index's folder (listed once for long indexes) and the folder as a prefix of their paths.
struct IndexFolder {
  FolderListing files;
  std::string prefix; // the folder and a separator (empty: the current directory)
};

// SimGrid resolves index entries from the current directory only; we look next to the index first so that an index
// can be used from anywhere, and fall back to the current directory for indexes written for SimGrid's rule.
// `index_folder_files`: the regular files of the index's folder when listed (long indexes), which answer for a bare
// file name without a stat() (the same path comes out: the first place looked at). `rank`: whose trace file it is
// (-1: the shared trace file), named in the error only.
std::string resolve_trace_path(const IndexEntry& entry, const std::string& index_path, int rank,
                               const IndexFolder* index_folder_files = nullptr)
{
  namespace fs = std::filesystem;
  if (index_folder_files != nullptr && entry.listed_path.find('/') == std::string::npos &&
      index_folder_files->files.lists_regular_file(entry.listed_path))
    return index_folder_files->prefix + entry.listed_path; // index_folder / listed, without building paths
  const fs::path listed(entry.listed_path);
  const fs::path index_folder = fs::path(index_path).parent_path();
  const std::string role = rank < 0 ? "shared trace file" : "trace file of rank " + std::to_string(rank);
  std::error_code ignored;
  if (listed.is_relative()) {
    if (not index_folder.empty()) {
      const fs::path beside_index = index_folder / listed;
      if (fs::is_regular_file(beside_index, ignored))
        return beside_index.string();
    }
  }
  if (fs::is_regular_file(listed, ignored))
    return listed.string();
  throw InputError(
      index_path, entry.line,
      role + " " + in_quotes(entry.listed_path) +
          (listed.is_relative() ? " not found (looked next to the index and in the current directory)" : " not found"));
}

// One more than the largest rank field of a shared trace; reads only the first token of each line.
int scan_world_size(const std::string& file)
{
  ChunkedLineReader reader(file, kSharedChunk);
  std::string_view line;
  int largest = -1;
  while (reader.next_line(line)) {
    line = trim(line);
    if (line.empty() || line.front() == '#')
      continue;
    const size_t end = std::min(line.find(' '), line.find('\t'));
    const LineSite site{reader.path(), reader.line_number()};
    const int rank = parse_rank_field(line.substr(0, end), site);
    if (rank >= kMostRanks)
      throw InputError(site.file, site.line,
                       "rank field " + std::to_string(rank) + " is beyond the " + std::to_string(kMostRanks) +
                           " ranks supported");
    largest = std::max(largest, rank);
  }
  if (largest < 0)
    throw InputError(file, 0, "shared trace holds no action line: cannot tell the number of ranks");
  return largest + 1;
}

TraceFiles shared_trace_files(std::string file, int np)
{
  TraceFiles found;
  found.layout = TraceLayout::SharedFile;
  found.world_size = np == -1 ? scan_world_size(file) : np;
  found.files.push_back(std::move(file));
  found.chunk_size = kSharedChunk;
  return found;
}

TraceFiles per_rank_files(const std::vector<IndexEntry>& entries, const std::string& index_path, int np)
{
  const int listed = static_cast<int>(entries.size());
  if (np > listed)
    throw InputError(index_path, 0,
                     "cannot replay " + std::to_string(np) + " ranks: the index lists " + std::to_string(listed) +
                         " trace files");
  TraceFiles state;
  state.layout = TraceLayout::PerRankFiles;
  state.world_size = np == -1 ? listed : np;
  state.files.reserve(static_cast<size_t>(state.world_size));
  // Many files: their folder listed once (a few times their number of entries read at most) rather than a stat()
  // each; a file the listing does not show as a regular file is looked for as before.
  std::optional<IndexFolder> index_folder_files;
  if (state.world_size >= kListFolderFrom) {
    const std::filesystem::path folder = std::filesystem::path(index_path).parent_path();
    index_folder_files.emplace(
        IndexFolder{FolderListing(folder.string(), 4 * static_cast<size_t>(state.world_size) + 64),
                    folder.empty() ? std::string() : (folder / "").string()});
  }
  for (int rank = 0; rank < state.world_size; ++rank)
    state.files.push_back(resolve_trace_path(entries[static_cast<size_t>(rank)], index_path, rank,
                                             index_folder_files ? &*index_folder_files : nullptr));
  state.chunk_size =
      std::clamp(kRankBufferBudget / static_cast<size_t>(state.world_size), kMinRankChunk, kMaxRankChunk);
  return state;
}

} // namespace

TraceFiles find_trace_files(const std::string& path, int np)
{
  if (np == 0 || np < -1 || np > kMostRanks)
    throw InputError("invalid number of ranks " + std::to_string(np) + " (expected -1, meaning all, or 1 to " +
                     std::to_string(kMostRanks) + ")");

  ChunkedLineReader reader(path, kIndexChunk);
  std::vector<IndexEntry> entries;
  std::vector<std::string_view>& tokens = scratch_tokens();
  std::string_view line;
  while (reader.next_line(line)) {
    if (not split_buffered_line(line, tokens))
      continue;
    if (entries.empty() && is_action_line(tokens))
      return shared_trace_files(path, np); // given a trace file, not an index
    entries.push_back({std::string(trim(line)), reader.line_number()});
  }
  if (entries.empty())
    throw InputError(path, 0, "empty trace index: it lists no trace file");
  if (entries.size() == 1)
    return shared_trace_files(resolve_trace_path(entries.front(), path, -1), np);
  return per_rank_files(entries, path, np);
}

} // namespace mpisim::replay
