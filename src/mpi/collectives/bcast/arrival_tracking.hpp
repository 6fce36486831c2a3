// What SimGrid 3.32's arrival-pattern-aware bcasts (arrival_pattern_aware, arrival_pattern_aware_wait,
// arrival_scatter, from STAR-MPI) share: every rank but 0 tells rank 0 it has arrived with a 1-byte message; rank 0
// serves the ranks that have arrived in groups, sending the group's list (a header of 1024 ints) along with the data.
//
// SimGrid's rank 0 discovers arrivals with MPI_Iprobe, then receives the 1-byte message; mpisim has no iprobe, so
// rank 0 posts the receives of all 1-byte messages at once and tests them (each test costs what SimGrid's smpi/test
// injects), which sends the same messages; where SimGrid would probe again and again until someone arrives, rank 0
// waits for the next arrival instead.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <vector>

namespace mpisim::mpi::bcast {

inline constexpr int kHeaderInts = 1024;
inline constexpr double kHeaderBytes = kHeaderInts * 4.0; // MPI_INT

// The list a group travels with: its ranks in order, then -1. It always carries its values (in replay too): ranks
// read their successor from it.
using Header = std::vector<int>;
Header make_header(const std::vector<int>& group);
// Position of `rank` in the header's group, and the group's size.
int position_in(const Header& header, int rank);
int group_size(const Header& header);

// Rank 0's view of the 1-byte arrival messages.
class ArrivalWatch {
public:
  explicit ArrivalWatch(const CollectiveContext& c);
  // Tests every rank not served yet whose message has not been seen; `sweeps` passes.
  void poll(int sweeps);
  // Blocks until one more unserved rank has arrived.
  void wait_for_one();
  // Ranks that have arrived and are not served yet, ascending; marks them served.
  std::vector<int> take_arrived();
  // The lowest rank not served yet (served from now on), or -1.
  int take_first_unserved();
  bool all_served() const { return served_count_ == static_cast<int>(notes_.size()) - 1; }
  // Receives the messages of the ranks served before they had arrived.
  void finish();

private:
  const CollectiveContext& c_;
  std::vector<RequestPtr> notes_; // by rank; none for rank 0
  std::vector<char> arrived_;
  std::vector<char> served_;
  int served_count_ = 0;
};

// A rank other than 0: says it has arrived, then receives its group's header (from rank 0 or from its predecessor
// in the group); returns the header and the rank it came from.
struct HeaderReceived {
  Header header;
  int source;
};
HeaderReceived arrive_and_get_header(const CollectiveContext& c, int header_source);

} // namespace mpisim::mpi::bcast
