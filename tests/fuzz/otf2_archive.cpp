// Fuzz target: an OTF2 archive as `mpisim replay trace.otf2` opens it (replay/Otf2TraceReader.cpp, through the OTF2
// reader library). The input holds the archive's files separated by lines "%%": the global definitions trace.def,
// then for location 0, 1, ... its events trace/L.evt and its local definitions trace/L.def. The anchor file is
// the 4-rank one of tests/python/otf2/write_fixture.c (made by the build, MPISIM_OTF2_ANCHOR): the library trusts its
// fields for its allocations, which is the library's matter, not the reader's. Every rank's actions are then read and
// checked as the replayer takes them, with what a format that has communicators adds: a collective's communicator
// exists and holds the rank, its root and per-rank arrays fit it.
#include "FuzzInput.hpp"
#include "TraceActionCheck.hpp"
#include "replay/TraceFormat.hpp"

#include <algorithm>
#include <filesystem>

namespace {

constexpr size_t kMostLocations = 8;

std::string fixture_anchor()
{
  std::string bytes = mpisim::fuzz::file_contents(MPISIM_OTF2_ANCHOR);
  if (bytes.empty())
    mpisim::fuzz::finding(std::string("the anchor file is empty: ") + MPISIM_OTF2_ANCHOR);
  return bytes;
}

std::string location_file(size_t location, const char* extension)
{
  return "trace/" + std::to_string(location) + extension;
}

// The communicator of a collective action: its members (world ranks), MPI_COMM_WORLD's when `index` is -1.
std::vector<int> members_of(const mpisim::replay::TraceSet& set, int32_t index)
{
  if (index < 0) {
    std::vector<int> world(static_cast<size_t>(set.size()));
    for (size_t i = 0; i < world.size(); ++i)
      world[i] = static_cast<int>(i);
    return world;
  }
  if (static_cast<size_t>(index) >= set.communicators().size())
    mpisim::fuzz::finding("collective on communicator " + std::to_string(index) + " of " +
                          std::to_string(set.communicators().size()));
  return set.communicators()[static_cast<size_t>(index)];
}

void check_collective(const mpisim::replay::TraceSet& set, const mpisim::replay::TraceAction& action, int rank)
{
  const std::string name(mpisim::replay::action_name(action.kind));
  const std::vector<int> members = members_of(set, action.details->communicator);
  if (std::find(members.begin(), members.end(), rank) == members.end())
    mpisim::fuzz::finding(name + ": rank " + std::to_string(rank) + " is not a member of its communicator");
  const auto size = static_cast<int>(members.size());
  const mpisim::mpi::CollectiveCall& call = action.details->call;
  if (call.root < 0 || call.root >= size)
    mpisim::fuzz::finding(name + ": root outside its communicator");
  for (const std::vector<double>* counts : {&call.send_counts, &call.recv_counts})
    if (not counts->empty() && counts->size() != members.size())
      mpisim::fuzz::finding(name + ": per-rank array of " + std::to_string(counts->size()) + " for " +
                            std::to_string(size) + " ranks");
  for (const std::vector<double>* counts : {&call.send_counts, &call.recv_counts})
    for (double count : *counts)
      if (not(count >= 0) || not std::isfinite(count))
        mpisim::fuzz::finding(name + ": per-rank count negative or not finite");
}

void read_every_stream(mpisim::replay::TraceSet& set)
{
  for (const std::vector<int>& members : set.communicators())
    for (int member : members)
      if (member < 0 || member >= set.size())
        mpisim::fuzz::finding("communicator member " + std::to_string(member) + " outside the world");
  mpisim::replay::TraceAction action;
  for (int rank = 0; rank < set.size(); ++rank) {
    mpisim::replay::RankStream stream = set.stream(rank);
    while (stream.next(action)) {
      mpisim::fuzz::check_action(action, set.size());
      if (mpisim::replay::is_collective(action.kind))
        check_collective(set, action, rank);
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  const std::vector<std::string_view> files = fuzz::split_files(fuzz::input_text(data, size));
  if (files.size() > 1 + 2 * kMostLocations)
    return 0;
  static const std::string anchor = [] {
    std::filesystem::create_directories(fuzz::scratch_folder() + "/trace");
    return fuzz::write_scratch_file("trace.otf2", fixture_anchor());
  }();
  const auto file_or_nothing = [&](size_t i, const std::string& name) { // a previous input's files must not be found
    if (i < files.size())
      fuzz::write_scratch_file(name, files[i]);
    else
      fuzz::remove_scratch_file(name);
  };
  file_or_nothing(0, "trace.def");
  for (size_t location = 0; location < kMostLocations; ++location) {
    file_or_nothing(1 + 2 * location, location_file(location, ".evt"));
    file_or_nothing(2 + 2 * location, location_file(location, ".def"));
  }
  replay::TraceFormatOptions options;
  options.host_speed = 1e9;
  fuzz::read_input([&] {
    replay::TraceSet set = replay::open_trace(anchor, -1, options);
    read_every_stream(set);
  });
  return 0;
}
