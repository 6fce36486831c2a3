// The recursive-doubling schedule shared by allgather "rdb", allgatherv "mpich_rdb", reduce_scatter "mpich_rdb",
// bcast "scatter_rdb_allgather" and alltoall "rdb".
//
// Ranks 0..P-1 each start with their own block and end with all P blocks. At level i (distance m = 2^i) the ranks
// form aligned groups of m ([t, t+m), cut at P); each rank trades its group's blocks with rank XOR m, so both groups
// end up with the blocks of the group of 2m. When P is not a power of two a group may face a partner group cut by P:
// only its first ranks (as many as the partner group has) get the partner group's blocks, and they pass them on
// inside their group by recursive halving before the next level. Which rank passes to which follows MPICH's rule
// (Thakur, Rabenseifner and Gropp 2005), on which agreement with SMPI depends: see
// docs/specifications/recursive-collectives.md, "Building block".
//
// The schedule is plain data (who, when, which blocks), so each collective chooses what a block means: gather()
// below moves the blocks themselves; reduce_scatter "mpich_rdb" moves everything but them.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <cstdint>
#include <vector>

namespace mpisim::mpi::recursive_doubling {

// The blocks of ranks [first, last).
struct BlockRange {
  int first = 0;
  int last = 0;
  bool empty() const { return last <= first; }
  bool operator==(const BlockRange&) const = default;
};

enum class Move : uint8_t {
  Exchange, // one sendrecv with the partner: our group's blocks out, the partner group's in
  Send,     // pass-on: a blocking send of the cut partner group's blocks, as received
  Receive,  // pass-on: the matching blocking receive
};

struct Step {
  Move move;
  int level;           // distance 2^level
  int sub_step;        // 0 for the exchange; j >= 1 for the pass-on at distance 2^(level - j)
  int peer;            // in the schedule's ranks
  BlockRange sent;     // empty for Receive
  BlockRange received; // empty for Send
};

// Every step of `rank` among `size` ranks, in the order the rank performs them: level by level, the exchange first,
// then the pass-on sub-steps.
std::vector<Step> schedule(int size, int rank);

// Where gathered blocks live: block b has sizes[b] bytes at offsets[b] of `base` (null in replay); the blocks of a
// range are contiguous, so a range moves as one message.
struct BlockLayout {
  std::vector<double> sizes;
  std::vector<double> offsets;
  std::byte* base = nullptr;

  // Blocks packed in rank order.
  static BlockLayout packed(std::vector<double> sizes, std::byte* base);

  double bytes(BlockRange range) const;
  std::byte* block(int b) const { return coll::at(base, offsets[b]); }
  std::byte* start(BlockRange range) const;
};

// Runs the schedule, moving the blocks themselves: on entry this rank's block is in place, on return every block is.
// Schedule rank v is rank (v + origin) mod P of c.comm (bcast runs it relative to its root).
void gather(const CollectiveContext& c, const BlockLayout& layout, int origin = 0);

} // namespace mpisim::mpi::recursive_doubling
