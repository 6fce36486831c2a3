// The overflow list of a receiver whose NIC matches (bxi, docs/bxi.md "MPI over Portals"): the locally managed MEs
// that MPI's transport appends to its portal table entry for messages that find no posted receive. A message lands in
// the first buffer of the list and takes its eager payload there (a rendezvous header, its data left at the sender,
// takes none); a buffer with less than `min_free` left is unlinked, and appended again at the list's end once its
// last message has been received. With every buffer unlinked, a message finds nothing to land in.
#pragma once

#include "common/Errors.hpp"
#include "models/NetworkModel.hpp"

#include <deque>
#include <string>
#include <vector>

namespace mpisim::mpi {

// A message found every buffer of its receiver's overflow list unlinked: MPI's transport would see its portal table
// entry disabled, a recovery mpisim does not model, so the run ends. what() is the whole report: the receiver, the
// call that sent the message, the list's buffers, then what to change.
class OverflowExhausted : public SimulationError {
public:
  using SimulationError::SimulationError;
};

class OverflowList {
public:
  explicit OverflowList(const models::OverflowSettings& settings);

  // A message no posted receive took lands, taking `room` bytes: its buffer's index, or -1 when none is linked (the
  // portal table entry would be disabled).
  int land(double room);
  // A receive took the message that landed in `buffer`.
  void consume(int buffer);

  // What a receive spends copying `bytes` out of a buffer into its own.
  double copy_time(double bytes) const { return bytes / settings_.copy_bandwidth; }
  const models::OverflowSettings& settings() const { return settings_; }

private:
  struct Buffer {
    double used = 0;
    int messages = 0; // unexpected messages whose data (or header) is still in it
    bool linked = true;
  };
  models::OverflowSettings settings_;
  std::vector<Buffer> buffers_;
  std::deque<int> order_; // the linked buffers, in list order
};

} // namespace mpisim::mpi
