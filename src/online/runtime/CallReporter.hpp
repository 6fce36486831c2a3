// Tells the world's observers (timelines) what each online rank did, as the replay does for traced actions: one
// CallRecord per outermost MPI call (named after its function, PMPI_Allreduce -> "allreduce") and one per computation
// burst injected between calls ("compute"), with the ids of the messages each call sent and received.
#pragma once

#include "mpi/Observer.hpp"
#include "mpi/Rank.hpp"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mpisim::online {

class CallReporter {
public:
  explicit CallReporter(mpi::World& world);

  // `function` names the MPI function (__builtin_FUNCTION of its ApiScope: "PMPI_Send", "MPI_Send", ...).
  void begin(int rank, const char* function, double start);
  // What the call knows of itself: `peer` is a rank of `comm` (negative: none), `bytes` its payload.
  void describe(int rank, const mpi::Communicator* comm, int peer, double bytes, int tag);
  void end(int rank, double end);
  void compute(int rank, double start, double end, double flops);

  // "PMPI_Reduce_scatter" -> "reduce_scatter"; the replay's names where they differ. Static storage.
  const char* operation(const char* function);

  // Called when the run ends abruptly (MPI_Abort, a fatal MPI error: terminate_run), so that the timeline is still
  // completed: set by whoever owns the writer.
  void set_on_abrupt_end(std::function<void()> hook) { on_abrupt_end_ = std::move(hook); }
  void abrupt_end()
  {
    if (auto hook = std::move(on_abrupt_end_))
      hook();
  }

private:
  struct OpenCall {
    mpi::CallRecord record{};
    mpi::MessageLog messages;
  };

  mpi::World& world_;
  std::vector<OpenCall> open_;                         // by world rank
  std::unordered_map<const char*, std::string> names_; // by the function name's address (a string literal)
  std::function<void()> on_abrupt_end_;
};

} // namespace mpisim::online
