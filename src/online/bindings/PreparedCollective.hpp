// A collective call ready for the collective library: MPI's typed buffers turned into CollectiveCall's packed bytes.
//
// Contiguous datatypes are used in place; derived, non-contiguous ones are packed into buffers the call owns, and
// unpacked into the user's buffers by finish() once the operation is complete (at once for blocking calls, at
// MPI_Wait for non-blocking ones). MPI_IN_PLACE becomes the pointer conventions of Collectives.hpp.
#pragma once

#include "online/bindings/Arguments.hpp"

#include "mpi/collectives/Collectives.hpp"

#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <vector>

namespace mpisim::online {

class PreparedCollective {
public:
  PreparedCollective(mpi::Collective op, const mpi::Communicator& comm, int me);

  mpi::CollectiveCall call;
  const mpi::Communicator& comm;
  const int me; // local rank in comm

  // `count` elements of `type` at `buffer`, packed when needed (read now).
  const std::byte* input(const void* buffer, size_t count, const mpi::Datatype& type);
  // The same, always copied (in-place inputs that the algorithm's outputs would overwrite).
  const std::byte* copy_of(const void* buffer, size_t count, const mpi::Datatype& type);
  // Where the library writes `count` elements of `type` for `buffer`; `initialize` when the buffer is also an input
  // (bcast root, in-place calls).
  std::byte* output(void* buffer, size_t count, const mpi::DatatypePtr& type, bool initialize);
  // v-forms: blocks of counts[i] elements at displs[i] extents; their packed byte counts and offsets are returned.
  const std::byte* input_v(const void* buffer, const int* counts, const int* displs, const mpi::Datatype& type,
                           std::vector<double>& byte_counts, std::vector<double>& byte_displs);
  std::byte* output_v(void* buffer, const int* counts, const int* displs, const mpi::DatatypePtr& type, bool initialize,
                      std::vector<double>& byte_counts, std::vector<double>& byte_displs);
  // w-forms (alltoallw): block i is counts[i] elements of types[i] at byte displacement displs[i]; the blocks are
  // always packed, one after the other (the input is read now, so in-place calls may pass the output buffer).
  const std::byte* input_w(const void* buffer, const int* counts, const int* displs,
                           const std::vector<mpi::DatatypePtr>& types, std::vector<double>& byte_counts,
                           std::vector<double>& byte_displs);
  std::byte* output_w(void* buffer, const int* counts, const int* displs, const std::vector<mpi::DatatypePtr>& types,
                      std::vector<double>& byte_counts, std::vector<double>& byte_displs);
  // Uses `type` and `op` for the call's reduction.
  void reduce_with(const mpi::DatatypePtr& type, const mpi::ReduceOpPtr& op);

  // Unpacks the results (once).
  void finish();

private:
  std::byte* scratch(size_t bytes);

  std::list<std::vector<std::byte>> storage_; // stable addresses; no allocation while empty (most calls)
  std::vector<std::function<void()>> unpackers_;
};

using PreparedPtr = std::shared_ptr<PreparedCollective>;

// Where a collective's preparation is built. A blocking call keeps it in its own frame: on the rank's stack, in the
// page the rank has touched already, so a blocked rank holds no heap for it (memory per rank is what limits scale).
// A non-blocking call's preparation outlives the call: on the heap, shared with its request.
class PreparedOut {
public:
  enum class Place { Frame, Heap };
  explicit PreparedOut(Place place) : place_(place) {}
  PreparedOut(const PreparedOut&) = delete;
  PreparedOut& operator=(const PreparedOut&) = delete;

  void make(mpi::Collective op, const mpi::Communicator& comm, int me);
  PreparedCollective& operator*() const { return *get(); }
  PreparedCollective* operator->() const { return get(); }
  PreparedCollective* get() const;
  // The heap-built preparation (Place::Heap).
  const PreparedPtr& shared() const { return heap_; }

private:
  Place place_;
  PreparedPtr heap_;
  mutable std::optional<PreparedCollective> frame_;
};

// Runs the call now (blocking collectives) and unpacks the results.
int run_blocking(ApiScope& scope, PreparedCollective& prepared);
// Starts it (non-blocking collectives): the results are unpacked when the request completes.
int start_nonblocking(ApiScope& scope, const PreparedPtr& prepared, MPI_Request* request);

} // namespace mpisim::online
