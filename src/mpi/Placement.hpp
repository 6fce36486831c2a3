// Where each rank runs.
//
//  platform order (default): rank i on the i-th host in declaration order, wrapping around when there are more
//    ranks than hosts;
//  sorted: the same over host names sorted as strings, which is what smpirun does without a hostfile (rank 2 lands
//    on node-10, not node-2);
//  hostfile: one host name per line, rank i on line i ("name:N" stands for N lines, as smpirun accepts), wrapping
//    around when the file is shorter than the job.
#pragma once

#include "platform/Platform.hpp"

#include <string>
#include <vector>

namespace mpisim::mpi {

enum class PlacementOrder { Platform, Sorted };

// A hostfile line: the host it names and how many consecutive ranks it takes ("host:N"; 1 without a count).
struct HostfileEntry {
  std::string host;
  int slots = 1;
  long line = 0;
};

// The entries of a hostfile, counts checked (1 to INT_MAX: a count is a number of ranks) but not expanded, so that
// "node-0:1000000000" costs one entry. Throws InputError("FILE:LINE: ...") for a bad count, and for a file that is
// not a regular file or lists no host.
std::vector<HostfileEntry> read_hostfile(const std::string& hostfile);
// The number of ranks the entries take in one pass (what `mpisim run` starts without -np).
long long hostfile_slots(const std::vector<HostfileEntry>& entries);

std::vector<platform::HostId> place_ranks(const platform::Platform& platform, int ranks, PlacementOrder order);
// Throws InputError("FILE:LINE: unknown host 'x'") for names the platform lacks.
std::vector<platform::HostId> place_ranks_from_hostfile(const platform::Platform& platform, int ranks,
                                                        const std::string& hostfile);

} // namespace mpisim::mpi
