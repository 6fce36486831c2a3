// Issue 13 item 6: replay ranks run on slices of a stack arena without guard pages (kernel/Stacks.hpp), of
// mpi::rank_arena_stack_bytes() each. This test measures the deepest stack any replay rank reaches over the paths
// replay can take (every collective algorithm of the TI format's operations, forced one by one, and every selector,
// automatic included, whose trials run a nested engine on the rank's stack; each timeline writer observing; every
// network model; a deadlock, whose teardown unwinds blocked ranks by exceptions; an error thrown by a rank), and
// checks that the slice keeps a margin of 2x over it: an algorithm or an observer that needs more stack makes it fail
// here, not in a replay at scale.
#include "common/Errors.hpp"
#include "kernel/Stacks.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "replay/Replayer.hpp"
#include "timeline/TimelineWriter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

// The collectives of the TI format (all but alltoallw, online only).
using C = mpi::Collective;
const C kTraceCollectives[] = {C::Barrier,   C::Bcast,      C::Reduce,        C::Allreduce, C::Alltoall,
                               C::Alltoallv, C::Gather,     C::Gatherv,       C::Scatter,   C::Scatterv,
                               C::Allgather, C::Allgatherv, C::ReduceScatter, C::Scan,      C::Exscan};

// One shared trace file: every collective at a small (eager) and a large (rendezvous, segmented) size, with
// point-to-point traffic around them.
std::string write_collectives_trace(const std::filesystem::path& folder, int ranks)
{
  const std::string path = (folder / ("collectives_" + std::to_string(ranks) + ".txt")).string();
  std::ofstream out(path);
  for (int rank = 0; rank < ranks; ++rank) {
    const int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
    out << rank << " init\n";
    for (int size : {1000, 300000}) {
      std::ostringstream counts;
      for (int i = 0; i < ranks; ++i)
        counts << (i ? " " : "") << size / (i + 1) + 1;
      std::ostringstream blocks;
      for (int i = 0; i < ranks; ++i)
        blocks << (i ? " " : "") << std::max(size / ranks, 1);
      const int mine = size / (rank + 1) + 1;
      std::ostringstream receives;
      for (int i = 0; i < ranks; ++i)
        receives << (i ? " " : "") << mine;
      out << rank << " irecv " << previous << " 1 " << size << "\n"
          << rank << " isend " << next << " 1 " << size << "\n"
          << rank << " waitall\n"
          << rank << " barrier\n"
          << rank << " bcast " << size << " " << 1 % ranks << "\n"
          << rank << " reduce " << size << " 1e6 0\n"
          << rank << " allreduce " << size << " 2e6\n"
          << rank << " alltoall " << std::max(size / ranks, 1) << " " << std::max(size / ranks, 1) << "\n"
          << rank << " alltoallv " << size * ranks << " " << counts.str() << " " << size * ranks << " "
          << receives.str() << "\n"
          << rank << " gather " << size / 4 << " " << size / 4 << " 0\n"
          << rank << " gatherv " << mine << " " << counts.str() << " 0\n"
          << rank << " scatter " << size / 4 << " " << size / 4 << " " << ranks - 1 << "\n"
          << rank << " scatterv " << counts.str() << " " << mine << " 0\n"
          << rank << " allgather " << size / 8 << " " << size / 8 << "\n"
          << rank << " allgatherv " << mine << " " << counts.str() << "\n"
          << rank << " reducescatter " << blocks.str() << " 5e5\n"
          << rank << " scan " << size << " 1e5\n"
          << rank << " exscan " << size << " 1e5\n"
          << rank << " sendRecv " << size << " " << next << " " << size << " " << previous << "\n"
          << rank << " compute " << 1e6 * (rank + 1) << "\n";
    }
    out << rank << " finalize\n";
  }
  return path;
}

struct Grid {
  int ranks;
  int ranks_per_host; // consecutive ranks on a host: SMP-aware algorithms see nodes of that many
};

replay::ReplayOptions options_for(const std::string& trace, const Grid& grid)
{
  replay::ReplayOptions options;
  options.trace = trace;
  options.simulation.platform = "cluster:" + std::to_string(grid.ranks / grid.ranks_per_host);
  for (int rank = 0; rank < grid.ranks; ++rank)
    options.simulation.rank_hosts.push_back(static_cast<platform::HostId>(rank / grid.ranks_per_host));
  return options;
}

class StackDepth : public ::testing::Test {
protected:
  void SetUp() override
  {
    folder_ = std::filesystem::temp_directory_path() / ("mpisim_stack_depth_" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder_);
    kernel::StackArena::measure_depth(true);
  }
  void TearDown() override
  {
    kernel::StackArena::measure_depth(false);
    std::filesystem::remove_all(folder_);
  }

  // Replays with a timeline writer of each format in turn observing (internals and links on).
  void replay_observed(replay::ReplayOptions options)
  {
    static const char* const kExtensions[] = {".json", ".paje", ".csv"};
    timeline::TimelineOptions t;
    t.path = (folder_ / (std::string("timeline") + kExtensions[runs_ % 3])).string();
    t.internals = t.links = true;
    std::unique_ptr<timeline::TimelineWriter> writer = timeline::open_timeline(t);
    options.observers.push_back(writer.get());
    options.link_observers.push_back(writer.get());
    static const char* const kModels[] = {"smpi", "hybrid", "loggps", "fluid"};
    options.simulation.model = kModels[runs_ % 4];
    ++runs_;
    replay::ReplayOptions on_shared_stack = options;
    on_shared_stack.observers.clear();
    on_shared_stack.link_observers.clear();
    options.rank_stacks = mpi::RankStacks::Arena; // measured there
    const replay::ReplayResult on_slices = replay::replay(options);
    writer->finish();
    // The same replay with the ranks on one shared stack (copy-on-switch) gives the same events at the same dates.
    const replay::ReplayResult shared = replay::replay(on_shared_stack);
    EXPECT_EQ(shared.simulated_time, on_slices.simulated_time);
    EXPECT_EQ(shared.fingerprint, on_slices.fingerprint);
    EXPECT_EQ(shared.actions, on_slices.actions);
  }

  std::filesystem::path folder_;
  int runs_ = 0;
};

TEST_F(StackDepth, ReplayFitsItsArenaSliceWithAMarginOfTwo)
{
  for (const Grid grid : {Grid{4, 1}, Grid{7, 1}, Grid{16, 4}}) {
    const std::string trace = write_collectives_trace(folder_, grid.ranks);
    // Algorithm k of each operation (wrapping around), until every algorithm has run.
    size_t most = 0;
    for (const C op : kTraceCollectives)
      most = std::max(most, mpi::AlgorithmRegistry::of(op).size());
    for (size_t k = 0; k < most; ++k) {
      replay::ReplayOptions options = options_for(trace, grid);
      for (const C op : kTraceCollectives) {
        const auto algorithms = mpi::AlgorithmRegistry::of(op);
        options.simulation.collective_algorithms[mpi::collective_name(op)] = algorithms[k % algorithms.size()]->name;
      }
      SCOPED_TRACE(std::to_string(grid.ranks) + " ranks, algorithm " + std::to_string(k));
      replay_observed(options);
    }
    for (const char* selector : {"default", "ompi", "mpich", "mvapich2", "impi", "automatic"}) {
      replay::ReplayOptions options = options_for(trace, grid);
      options.simulation.collective_selector = selector;
      SCOPED_TRACE(std::string(selector) + " on " + std::to_string(grid.ranks) + " ranks");
      replay_observed(options);
    }
  }

  // A deadlock inside collectives: rank 0 waits for a message nobody sends while the others block in an allreduce;
  // the engine's teardown unwinds them all by exceptions from where they block.
  {
    const std::string trace = (folder_ / "deadlock.txt").string();
    std::ofstream(trace) << "0 recv 1 5 100\n1 allreduce 300000 1\n2 allreduce 300000 1\n3 allreduce 300000 1\n";
    EXPECT_THROW(replay_observed(options_for(trace, Grid{4, 1})), DeadlockError);
  }
  // An error thrown by a rank in the middle of the run (a receive smaller than its message).
  {
    const std::string trace = (folder_ / "truncated.txt").string();
    std::ofstream(trace) << "0 bcast 100000\n1 bcast 100000\n0 send 1 0 1000\n1 recv 0 0 10\n";
    EXPECT_THROW(replay_observed(options_for(trace, Grid{2, 1})), InputError);
  }

  const size_t deepest = kernel::StackArena::deepest_use();
  std::printf("deepest replay stack use: %zu bytes over %d replays; arena slice: %zu bytes\n", deepest, runs_,
              mpi::rank_arena_stack_bytes());
  EXPECT_GT(deepest, 0u);
  EXPECT_LE(2 * deepest, mpi::rank_arena_stack_bytes());
}

} // namespace
