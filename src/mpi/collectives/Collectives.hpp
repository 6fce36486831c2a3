// The collective-operation extension point.
//
// An algorithm is one file that registers {operation, name, description, origin, function}; a selector is one file
// that registers {name, description, function choosing an algorithm name from the call}. Algorithms move data only
// through Rank's point-to-point calls, so they time the same way in replay and online mode.
#pragma once

#include "mpi/Rank.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace mpisim::mpi {

enum class Collective : uint8_t {
  Barrier, Bcast, Reduce, Allreduce, Alltoall, Alltoallv, Gather, Gatherv, Scatter, Scatterv, Allgather, Allgatherv,
  ReduceScatter, Scan, Exscan
};
inline constexpr size_t kCollectiveCount = 15;

const char* collective_name(Collective op); // "bcast", "reduce_scatter", ...
// Throws InputError listing the valid names.
Collective collective_from_name(const std::string& name);

// What one rank asks of a collective, in bytes.
struct CollectiveCall {
  Collective op = Collective::Barrier;
  double bytes = 0;      // bcast/reduce/allreduce/scan/exscan: the buffer; alltoall/gather/allgather/scatter: the
                         // block sent to each peer (gather, allgather: this rank's contribution)
  double recv_bytes = 0; // alltoall/gather/allgather/scatter: the block received from each peer
  std::vector<double> send_counts; // v-variants: bytes sent to each rank
  std::vector<double> recv_counts; // v-variants and reduce_scatter: bytes received from / kept by each rank
  int root = 0;
  double reduce_flops = 0;  // cost of applying the operation (replay: given by the trace)
  double element_bytes = 1; // size of one element: selectors of real libraries decide on element counts too
  bool commutative = true;  // of the reduction operation (replay: MPI_OP_NULL, taken as commutative as SimGrid does)
};

class CollectiveLibrary;

struct CollectiveContext {
  Rank& rank;
  const Communicator& comm;
  const CollectiveLibrary& library;
  int me;   // local rank in comm
  int size; // comm size
};

using CollectiveAlgorithm = void (*)(const CollectiveContext&, const CollectiveCall&);

struct AlgorithmEntry {
  Collective op;
  std::string name;
  std::string description;
  std::string origin; // paper or library it comes from
  CollectiveAlgorithm run;
};

class AlgorithmRegistry {
public:
  static void add(AlgorithmEntry entry);
  static const AlgorithmEntry& find(Collective op, const std::string& name); // InputError listing valid names
  static std::vector<const AlgorithmEntry*> of(Collective op);
};

struct RegisterAlgorithm {
  explicit RegisterAlgorithm(AlgorithmEntry entry) { AlgorithmRegistry::add(std::move(entry)); }
};

// Chooses an algorithm name for a call on a communicator of `comm_size` ranks.
using SelectorFunction = std::string (*)(const CollectiveCall& call, int comm_size);

struct SelectorEntry {
  std::string name;
  std::string description;
  SelectorFunction choose;
};

class SelectorRegistry {
public:
  static void add(SelectorEntry entry);
  static const SelectorEntry& find(const std::string& name); // InputError listing valid names
  static std::vector<const SelectorEntry*> all();
};

struct RegisterSelector {
  explicit RegisterSelector(SelectorEntry entry) { SelectorRegistry::add(std::move(entry)); }
};

// The configured library: a selector plus per-operation forced algorithms (--coll alltoall=bruck).
class CollectiveLibrary {
public:
  explicit CollectiveLibrary(const std::string& selector = "default",
                             const std::map<std::string, std::string>& forced = {});

  void run(Rank& rank, const Communicator& comm, const CollectiveCall& call) const;
  // Runs a named algorithm (compositions such as reduce + bcast call their parts this way).
  void run_algorithm(const CollectiveContext& context, const std::string& name, const CollectiveCall& call) const;
  const std::string& selector_name() const { return selector_->name; }

private:
  const SelectorEntry* selector_;
  std::array<const AlgorithmEntry*, kCollectiveCount> forced_{};
};

// Tags of collective traffic: negative, so MPI_ANY_TAG never matches them.
inline int collective_tag(Collective op) { return -100 - static_cast<int>(op); }

} // namespace mpisim::mpi
