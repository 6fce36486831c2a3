#include "online/bindings/PreparedCollective.hpp"

#include <cctype>

#include <cstring>

namespace mpisim::online {

PreparedCollective::PreparedCollective(mpi::Collective op, const mpi::Communicator& comm, int me) : comm(comm), me(me)
{
  call.op = op;
  call.with_data = true;
}

void PreparedOut::make(mpi::Collective op, const mpi::Communicator& comm, int me)
{
  if (place_ == Place::Frame)
    frame_.emplace(op, comm, me);
  else
    heap_ = std::make_shared<PreparedCollective>(op, comm, me);
}

PreparedCollective* PreparedOut::get() const
{
  return place_ == Place::Frame ? &*frame_ : heap_.get();
}

std::byte* PreparedCollective::scratch(size_t bytes)
{
  storage_.emplace_back(bytes);
  return storage_.back().data();
}

const std::byte* PreparedCollective::input(const void* buffer, size_t count, const mpi::Datatype& type)
{
  if (type.is_contiguous())
    return static_cast<const std::byte*>(buffer);
  std::byte* packed = scratch(type.packed_size(count));
  type.pack(buffer, count, packed);
  return packed;
}

const std::byte* PreparedCollective::copy_of(const void* buffer, size_t count, const mpi::Datatype& type)
{
  std::byte* packed = scratch(type.packed_size(count));
  type.pack(buffer, count, packed);
  return packed;
}

std::byte* PreparedCollective::output(void* buffer, size_t count, const mpi::DatatypePtr& type, bool initialize)
{
  if (type->is_contiguous())
    return static_cast<std::byte*>(buffer);
  std::byte* packed = scratch(type->packed_size(count));
  if (initialize)
    type->pack(buffer, count, packed);
  unpackers_.push_back([=] { type->unpack(packed, count, buffer); });
  return packed;
}

const std::byte* PreparedCollective::input_v(const void* buffer, const int* counts, const int* displs,
                                             const mpi::Datatype& type, std::vector<double>& byte_counts,
                                             std::vector<double>& byte_displs)
{
  const int size = comm.size();
  byte_counts.assign(size, 0);
  byte_displs.assign(size, 0);
  size_t total = 0;
  for (int i = 0; i < size; ++i) {
    byte_counts[i] = static_cast<double>(type.packed_size(counts[i]));
    byte_displs[i] = type.is_contiguous() ? static_cast<double>(displs[i] * type.extent()) : static_cast<double>(total);
    total += type.packed_size(counts[i]);
  }
  if (type.is_contiguous())
    return static_cast<const std::byte*>(buffer);
  std::byte* packed = scratch(total);
  for (int i = 0; i < size; ++i)
    type.pack(static_cast<const std::byte*>(buffer) + displs[i] * type.extent(), counts[i],
              packed + static_cast<size_t>(byte_displs[i]));
  return packed;
}

std::byte* PreparedCollective::output_v(void* buffer, const int* counts, const int* displs,
                                        const mpi::DatatypePtr& type, bool initialize, std::vector<double>& byte_counts,
                                        std::vector<double>& byte_displs)
{
  const std::byte* packed = input_v(buffer, counts, displs, *type, byte_counts, byte_displs);
  if (type->is_contiguous())
    return static_cast<std::byte*>(buffer);
  std::byte* out = const_cast<std::byte*>(packed); // our own scratch
  if (not initialize)
    std::memset(out, 0, storage_.back().size());
  std::vector<int> block_counts(counts, counts + comm.size()), block_displs(displs, displs + comm.size());
  std::vector<double> offsets = byte_displs;
  unpackers_.push_back([=] {
    for (size_t i = 0; i < block_counts.size(); ++i)
      type->unpack(out + static_cast<size_t>(offsets[i]), block_counts[i],
                   static_cast<std::byte*>(buffer) + block_displs[i] * type->extent());
  });
  return out;
}

const std::byte* PreparedCollective::input_w(const void* buffer, const int* counts, const int* displs,
                                             const std::vector<mpi::DatatypePtr>& types,
                                             std::vector<double>& byte_counts, std::vector<double>& byte_displs)
{
  const int size = comm.size();
  byte_counts.assign(size, 0);
  byte_displs.assign(size, 0);
  size_t total = 0;
  for (int i = 0; i < size; ++i) {
    byte_counts[i] = static_cast<double>(types[i]->packed_size(counts[i]));
    byte_displs[i] = static_cast<double>(total);
    total += types[i]->packed_size(counts[i]);
  }
  std::byte* packed = scratch(total);
  for (int i = 0; i < size; ++i)
    types[i]->pack(static_cast<const std::byte*>(buffer) + displs[i], counts[i],
                   packed + static_cast<size_t>(byte_displs[i]));
  return packed;
}

std::byte* PreparedCollective::output_w(void* buffer, const int* counts, const int* displs,
                                        const std::vector<mpi::DatatypePtr>& types, std::vector<double>& byte_counts,
                                        std::vector<double>& byte_displs)
{
  const int size = comm.size();
  byte_counts.assign(size, 0);
  byte_displs.assign(size, 0);
  size_t total = 0;
  for (int i = 0; i < size; ++i) {
    byte_counts[i] = static_cast<double>(types[i]->packed_size(counts[i]));
    byte_displs[i] = static_cast<double>(total);
    total += types[i]->packed_size(counts[i]);
  }
  std::byte* out = scratch(total);
  std::vector<int> block_counts(counts, counts + size), block_displs(displs, displs + size);
  std::vector<double> offsets = byte_displs;
  unpackers_.push_back([=] {
    for (int i = 0; i < size; ++i)
      types[i]->unpack(out + static_cast<size_t>(offsets[i]), block_counts[i],
                       static_cast<std::byte*>(buffer) + block_displs[i]);
  });
  return out;
}

void PreparedCollective::reduce_with(const mpi::DatatypePtr& type, const mpi::ReduceOpPtr& op)
{
  call.reduce_type = type;
  call.reduce_op = op;
  call.element_bytes = static_cast<double>(type->size() ? type->size() : 1);
  call.commutative = op->commutative();
}

void PreparedCollective::finish()
{
  for (auto& unpack : unpackers_)
    unpack();
  unpackers_.clear();
}

namespace {

// The collective's timeline slice: its root (rooted collectives) and this rank's send buffer, as the replay shows.
void describe(ApiScope& scope, const PreparedCollective& prepared)
{
  const mpi::CollectiveCall& call = prepared.call;
  bool rooted = false;
  switch (call.op) {
  case mpi::Collective::Bcast:
  case mpi::Collective::Reduce:
  case mpi::Collective::Gather:
  case mpi::Collective::Gatherv:
  case mpi::Collective::Scatter:
  case mpi::Collective::Scatterv: rooted = true; break;
  default: break;
  }
  double bytes = call.bytes;
  for (double count : call.send_counts)
    bytes += count;
  scope.describe(&prepared.comm, rooted ? call.root : -1, bytes);
}

} // namespace

// "MPI_Allreduce" for a report: the C function of a collective operation's name.
std::string function_name(mpi::Collective op)
{
  std::string name = std::string("MPI_") + mpi::collective_name(op);
  name[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[4])));
  return name;
}

int run_blocking(ApiScope& scope, PreparedCollective& prepared)
{
  Runtime& runtime = scope.runtime();
  describe(scope, prepared);
  const int handle = runtime.communicators().handle_of_context(prepared.comm.context());
  return failure_aware(runtime, handle, function_name(prepared.call.op).c_str(), [&] {
    runtime.simulation().collectives().run(scope.rank(), prepared.comm, prepared.call);
    prepared.finish();
    return MPI_SUCCESS;
  });
}

int start_nonblocking(ApiScope& scope, const PreparedPtr& prepared, MPI_Request* request)
{
  Runtime& runtime = scope.runtime();
  describe(scope, *prepared);
  const int handle = runtime.communicators().handle_of_context(prepared->comm.context());
  return failure_aware(runtime, handle, function_name(prepared->call.op).c_str(), [&] {
    prepared->call.nonblocking = true;
    RequestEntry entry{.owner = ErrorOwner::communicator(handle)};
    entry.request = runtime.simulation().collectives().start(scope.rank(), prepared->comm, prepared->call);
    entry.on_complete = [prepared] { prepared->finish(); };
    entry.keep_alive = prepared;
    *request = runtime.requests().add(std::move(entry));
    return MPI_SUCCESS;
  });
}

} // namespace mpisim::online
