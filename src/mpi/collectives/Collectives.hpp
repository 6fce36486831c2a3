// The collective-operation extension point.
//
// An algorithm is one file that registers {operation, name, description, origin, function}; a selector is one file
// that registers {name, description, factory of a CollectiveSelector}, or, for the rules of a real library,
// {name, description, rule giving an algorithm name from the call}. Algorithms move data only through Rank's
// point-to-point calls, so they time the same way in replay and online mode.
#pragma once

#include "mpi/Rank.hpp"
#include "mpi/ReduceOp.hpp"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace mpisim::mpi {

enum class Collective : uint8_t {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Alltoall,
  Alltoallv,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  Allgather,
  Allgatherv,
  ReduceScatter,
  Scan,
  Exscan,
  Alltoallw
};
inline constexpr size_t kCollectiveCount = 16;

const char* collective_name(Collective op); // "bcast", "reduce_scatter", ...
// Throws InputError listing the valid names.
Collective collective_from_name(const std::string& name);

// What one rank asks of a collective: sizes in bytes (replay), and in online mode the data itself.
//
// Data is packed: contiguous bytes laid out as the sizes describe (the front end packs derived datatypes before the
// call and unpacks after it). Layouts, for this rank:
//   bcast: recv_data is the buffer (root: input, others: output); send_data is unused.
//   reduce, allreduce, scan, exscan: send_data (bytes) in, recv_data (bytes) out (reduce: root only).
//   alltoall: send_data holds P blocks of `bytes`, recv_data P blocks of `recv_bytes`, in rank order.
//   alltoallv: block i at send_displs[i] / recv_displs[i] (bytes), of send_counts[i] / recv_counts[i].
//   alltoallw: as alltoallv (the front end packs each peer's block, of that peer's datatype, into bytes).
//   gather(v), allgather(v): send_data is this rank's block; recv_data (gather: root only) receives every rank's
//     block in rank order (v: at recv_displs).
//   scatter(v): send_data (root only) holds every rank's block (v: at send_displs); recv_data this rank's block.
//   reduce_scatter: send_data holds the whole vector (sum of recv_counts), recv_data this rank's block.
// In-place calls are expressed by pointers: send_data == recv_data (allreduce, reduce at the root, scan), or, for
// gather/allgather at the root, send_data pointing at this rank's slot of recv_data. Algorithms must accept both.
struct CollectiveCall {
  // The small fields first, together (no padding between them): a call is kept per rank by the replay (the trace's
  // collective actions) and copied on the stack by algorithms made of others.
  Collective op = Collective::Barrier;
  bool commutative = true;  // of the reduction operation (replay: MPI_OP_NULL, taken as commutative as SimGrid does)
  bool nonblocking = false; // MPI_Ibcast, ...: selectors may choose differently (SimGrid runs its linear schedules)
  bool with_data = false;   // online mode only (false in replay, and the data pointers below null)
  int root = 0;
  double bytes = 0;      // bcast/reduce/allreduce/scan/exscan: the buffer; alltoall/gather/allgather/scatter: the
                         // block sent to each peer (gather, allgather: this rank's contribution)
  double recv_bytes = 0; // alltoall/gather/allgather/scatter: the block received from each peer
  std::vector<double> send_counts; // v-variants: bytes sent to each rank
  std::vector<double> recv_counts; // v-variants and reduce_scatter: bytes received from / kept by each rank
  double reduce_flops = 0;         // cost of applying the operation (replay: given by the trace)
  double element_bytes = 1;        // size of one element: selectors of real libraries decide on element counts too
  std::vector<double> send_displs; // v-variants: byte offsets of the blocks; empty = packed in rank order
  std::vector<double> recv_displs;

  // Online mode only (null in replay).
  const std::byte* send_data = nullptr;
  std::byte* recv_data = nullptr;
  ReduceOpPtr reduce_op;   // the operation of reductions
  DatatypePtr reduce_type; // its element type; element_bytes == reduce_type->size()

  bool has_data() const { return with_data; }
};

class CollectiveLibrary;

struct CollectiveContext {
  Rank& rank;
  const Communicator& comm;
  const CollectiveLibrary& library;
  int me;   // local rank in comm
  int size; // comm size
  int tag;  // the tag of every message of this call (negative; unique per non-blocking call)
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

// What selectors of real libraries look at besides the message: the communicator's size and how its ranks spread
// over nodes (hosts).
struct CommShape {
  int size = 1;
  int nodes = 1;               // hosts the ranks run on
  int ranks_per_node = 1;      // the largest number of ranks on one host
  bool uniform = true;         // every node has the same number of ranks
  bool blocked = true;         // each node's ranks are consecutive
  bool hierarchy_part = false; // a node or leader communicator of an SMP-aware algorithm (SimGrid's is_smp_comm)
  bool layout_computed = true; // an earlier collective computed the node layout (NodeLayout::computed_by_collective)
  // A shape of `size` ranks, one per node.
  static CommShape flat(int size) { return {size, size, 1, true, true, false, true}; }
};

// Times `algorithm` for `call` on the hosts of `comm`, alone in a fresh simulation (provided by Simulation): how the
// "automatic" selector measures the candidates.
using CollectiveTrial =
    std::function<double(const std::string& algorithm, const Communicator& comm, const CollectiveCall& call)>;

// What the "automatic" selector decided for one kind of call: every candidate's time, alone on the same hosts.
struct AutomaticDecision {
  Collective op;
  int comm_size;
  double bytes;
  std::string chosen;
  std::vector<std::pair<std::string, double>> candidates; // algorithm, seconds (in registry order)
  uint64_t calls = 0;                                     // calls that used this decision (counted per rank)
};

// Chooses the algorithm of each call. The configured library makes one selector per run (SelectorEntry::factory), so
// a selector may keep state across the calls of that run (the automatic selector's decisions).
class CollectiveSelector {
public:
  virtual ~CollectiveSelector() = default;
  virtual const AlgorithmEntry& choose(const CollectiveContext& context, const CollectiveCall& call) = 0;
};

// The rules of a real library: the name of the algorithm for a call, from the call and the communicator's shape.
using SelectorRule = std::string (*)(const CollectiveCall& call, const CommShape& shape);
// Whether deciding `call` computes the communicator's node layout first, as some of SimGrid's selectors do
// (Comm::init_smp) even when they then pick a flat algorithm.
using ComputesLayout = bool (*)(const CollectiveCall& call);

// What a selector is made with besides its own configuration.
struct CollectiveSelectorContext {
  const CollectiveTrial& trial;              // empty when the library was made without one
  std::vector<AutomaticDecision>& decisions; // where a selector that times algorithms reports its decisions
};

using SelectorFactory = std::function<std::unique_ptr<CollectiveSelector>(const CollectiveSelectorContext&)>;

struct SelectorEntry {
  // A selector with state of its own, made by `factory`.
  SelectorEntry(std::string name, std::string description, SelectorFactory factory);
  // A selector given by its rule: each run makes a selector that resolves every name the rule gives to its
  // algorithm once (per operation and name) and answers with the entry from then on. `computes_layout`, if given,
  // says which calls compute the node layout while deciding.
  SelectorEntry(std::string name, std::string description, SelectorRule rule, ComputesLayout computes_layout = nullptr);

  // The rule's choice, by name (tests, and selectors that defer to another library's rules). std::logic_error for a
  // selector without a rule (automatic).
  std::string choose(const CollectiveCall& call, const CommShape& shape) const;

  std::string name;
  std::string description; // one line
  SelectorFactory factory;
  SelectorRule rule = nullptr; // set for the selectors given by their rule
  ComputesLayout computes_layout = nullptr;
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

// The configured library: one selector, made for this run, plus per-operation forced algorithms (--coll
// alltoall=bruck), all resolved to their entries when the library is made.
class CollectiveLibrary {
public:
  using Trial = CollectiveTrial;

  // `trial` lets the "automatic" selector time the candidates; without it, automatic runs the default selector.
  explicit CollectiveLibrary(const std::string& selector = "default",
                             const std::map<std::string, std::string>& forced = {}, CollectiveTrial trial = {});
  CollectiveLibrary(const CollectiveLibrary&) = delete; // the selector refers to this library's members
  CollectiveLibrary& operator=(const CollectiveLibrary&) = delete;

  void run(Rank& rank, const Communicator& comm, const CollectiveCall& call) const;
  // Non-blocking form: the algorithm runs as its own actor on the rank's host, progressing while the rank computes;
  // the returned request completes when this rank's part is done. Its messages carry a tag of their own, so
  // blocking and non-blocking collectives in flight on one communicator never match each other. The buffers must
  // stay valid until the request completes (as MPI requires).
  RequestPtr start(Rank& rank, const Communicator& comm, CollectiveCall call) const;
  // The members of `parent` agree on a new communicator's context id: an allreduce (MPI_MAX) of one int, its messages
  // only (the value is not needed). Paid by the online communicator creations and MPI_File_open's duplicate of its
  // communicator (as ROMIO makes one), and by the replayed file_open, so that both times agree.
  void agree_on_context(Rank& rank, const Communicator& parent) const;
  // A part of a composed algorithm (reduce + bcast, ...): the library's choice for call.op, or the named algorithm,
  // with the context's tag.
  void run_part(const CollectiveContext& context, const CollectiveCall& call) const;
  void run_algorithm(const CollectiveContext& context, const std::string& name, const CollectiveCall& call) const;
  // The algorithm the library would run for this call.
  const AlgorithmEntry& choose(const CollectiveContext& context, const CollectiveCall& call) const;
  const std::string& selector_name() const { return selector_entry_->name; }

  // The "automatic" selector's decisions (empty under the other selectors).
  const std::vector<AutomaticDecision>& automatic_decisions() const { return decisions_; }

private:
  const AlgorithmEntry& lookup(Collective op, const std::string& name) const;

  const SelectorEntry* selector_entry_;
  std::array<const AlgorithmEntry*, kCollectiveCount> forced_{};
  CollectiveTrial trial_;
  std::vector<AutomaticDecision> decisions_;
  std::unique_ptr<CollectiveSelector> selector_; // made last: it may refer to trial_ and decisions_
  // Algorithms named by other algorithms (run_algorithm): resolved once per name (the registry is searched linearly).
  mutable std::array<std::unordered_map<std::string, const AlgorithmEntry*>, kCollectiveCount> cache_;
};

// The shape of the context's communicator (from World::node_layout).
CommShape comm_shape(const CollectiveContext& context);

// Tags of collective traffic: negative, so MPI_ANY_TAG never matches them. Blocking collectives use one per
// operation; the n-th non-blocking collective on a communicator uses its own.
inline int collective_tag(Collective op)
{
  return -100 - static_cast<int>(op);
}
inline int nonblocking_collective_tag(uint32_t sequence)
{
  return -1000 - static_cast<int>(sequence % 1000000000u);
}

} // namespace mpisim::mpi
