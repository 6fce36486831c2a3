// Data access of MPI-IO (MPI-3.1 section 13.4): reads and writes with explicit offsets, individual file pointers and
// the shared file pointer; blocking, non-blocking, collective, split collective and ordered:
//   MPI_File_read_at, read_at_all, write_at, write_at_all, iread_at, iwrite_at, iread_at_all, iwrite_at_all,
//   read, read_all, write, write_all, iread, iwrite, iread_all, iwrite_all,
//   read_shared, write_shared, iread_shared, iwrite_shared, read_ordered, write_ordered,
//   read_at_all_begin/end, write_at_all_begin/end, read_all_begin/end, write_all_begin/end,
//   read_ordered_begin/end, write_ordered_begin/end.
//
// The bytes move at the call, between the program's buffer and the real file (through the view); the time is the
// storage model's. Independent calls access each contiguous piece of the file in turn; collective calls run two-phase
// I/O (objects/FileAccess.hpp, docs/specifications/two-phase-io.md). A non-blocking independent call returns at once
// with a request the storage model completes; non-blocking and split collective calls post their collective, which a
// helper actor carries out while the rank goes on (objects/FileAccess.hpp, start_collective_access): the request
// completes when it is done, at MPI_Wait/Test or the split's end call. Reading past the end of the file reads what
// there is: the status counts it (0 at the end).
#include "online/bindings/FileArguments.hpp"
#include "online/bindings/PointToPoint.hpp"
#include "online/objects/Collectives.hpp"
#include "online/objects/FileAccess.hpp"

#include "mpi/External32.hpp"
#include "mpi/Request.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace mpisim::online;
using mpisim::io::Direction;

namespace {

enum class Pointer : uint8_t { Explicit, Individual, Shared };
enum class Mode : uint8_t { Blocking, Nonblocking, Collective, NonblockingCollective, Ordered };

struct AccessCall {
  const char* name;
  MPI_File fh;
  MPI_Offset offset; // Pointer::Explicit
  void* buffer;
  int count;
  MPI_Datatype datatype;
  Direction direction;
  Pointer pointer;
  Mode mode;
};

// Every read and write function of section 13.4 and the begin halves of the split collectives, each one row of
// kVariants: its name, the direction, the file pointer it uses and how its ranks take part.
enum class Variant : uint8_t {
  ReadAt,
  ReadAtAll,
  WriteAt,
  WriteAtAll,
  IreadAt,
  IwriteAt,
  IreadAtAll,
  IwriteAtAll,
  Read,
  ReadAll,
  Write,
  WriteAll,
  Iread,
  Iwrite,
  IreadAll,
  IwriteAll,
  ReadShared,
  WriteShared,
  IreadShared,
  IwriteShared,
  ReadOrdered,
  WriteOrdered,
  ReadAtAllBegin,
  WriteAtAllBegin,
  ReadAllBegin,
  WriteAllBegin,
  ReadOrderedBegin,
  WriteOrderedBegin
};

struct AccessVariant {
  const char* name;
  Direction direction;
  Pointer pointer;
  Mode mode;
};

constexpr AccessVariant kVariants[] = {
    {"MPI_File_read_at", Direction::Read, Pointer::Explicit, Mode::Blocking},
    {"MPI_File_read_at_all", Direction::Read, Pointer::Explicit, Mode::Collective},
    {"MPI_File_write_at", Direction::Write, Pointer::Explicit, Mode::Blocking},
    {"MPI_File_write_at_all", Direction::Write, Pointer::Explicit, Mode::Collective},
    {"MPI_File_iread_at", Direction::Read, Pointer::Explicit, Mode::Nonblocking},
    {"MPI_File_iwrite_at", Direction::Write, Pointer::Explicit, Mode::Nonblocking},
    {"MPI_File_iread_at_all", Direction::Read, Pointer::Explicit, Mode::NonblockingCollective},
    {"MPI_File_iwrite_at_all", Direction::Write, Pointer::Explicit, Mode::NonblockingCollective},
    {"MPI_File_read", Direction::Read, Pointer::Individual, Mode::Blocking},
    {"MPI_File_read_all", Direction::Read, Pointer::Individual, Mode::Collective},
    {"MPI_File_write", Direction::Write, Pointer::Individual, Mode::Blocking},
    {"MPI_File_write_all", Direction::Write, Pointer::Individual, Mode::Collective},
    {"MPI_File_iread", Direction::Read, Pointer::Individual, Mode::Nonblocking},
    {"MPI_File_iwrite", Direction::Write, Pointer::Individual, Mode::Nonblocking},
    {"MPI_File_iread_all", Direction::Read, Pointer::Individual, Mode::NonblockingCollective},
    {"MPI_File_iwrite_all", Direction::Write, Pointer::Individual, Mode::NonblockingCollective},
    {"MPI_File_read_shared", Direction::Read, Pointer::Shared, Mode::Blocking},
    {"MPI_File_write_shared", Direction::Write, Pointer::Shared, Mode::Blocking},
    {"MPI_File_iread_shared", Direction::Read, Pointer::Shared, Mode::Nonblocking},
    {"MPI_File_iwrite_shared", Direction::Write, Pointer::Shared, Mode::Nonblocking},
    {"MPI_File_read_ordered", Direction::Read, Pointer::Shared, Mode::Ordered},
    {"MPI_File_write_ordered", Direction::Write, Pointer::Shared, Mode::Ordered},
    {"MPI_File_read_at_all_begin", Direction::Read, Pointer::Explicit, Mode::Collective},
    {"MPI_File_write_at_all_begin", Direction::Write, Pointer::Explicit, Mode::Collective},
    {"MPI_File_read_all_begin", Direction::Read, Pointer::Individual, Mode::Collective},
    {"MPI_File_write_all_begin", Direction::Write, Pointer::Individual, Mode::Collective},
    {"MPI_File_read_ordered_begin", Direction::Read, Pointer::Shared, Mode::Ordered},
    {"MPI_File_write_ordered_begin", Direction::Write, Pointer::Shared, Mode::Ordered},
};
static_assert(std::size(kVariants) == static_cast<size_t>(Variant::WriteOrderedBegin) + 1, "one row per variant");

AccessCall call_of(Variant variant, MPI_File fh, MPI_Offset offset, const void* buffer, int count,
                   MPI_Datatype datatype)
{
  const AccessVariant& row = kVariants[static_cast<size_t>(variant)];
  return {row.name, fh, offset, const_cast<void*>(buffer), count, datatype, row.direction, row.pointer, row.mode};
}

bool collective(Mode mode)
{
  return mode == Mode::Collective || mode == Mode::NonblockingCollective || mode == Mode::Ordered;
}

int check(Runtime& runtime, const AccessCall& call, FileContext& context, mpisim::mpi::DatatypePtr& type)
{
  MPISIM_TRY(resolve_file(runtime, call.fh, call.name, context));
  const OpenFile& file = *context.file;
  if (call.count < 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_COUNT, call.name, "negative count " + std::to_string(call.count));
  type = runtime.datatypes().find(call.datatype);
  if (type == nullptr)
    return raise_file_error(runtime, call.fh, MPI_ERR_TYPE, call.name,
                            "invalid datatype " + std::to_string(call.datatype));
  if (call.direction == Direction::Read && (file.amode & MPI_MODE_WRONLY) != 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_ACCESS, call.name, "the file was opened MPI_MODE_WRONLY");
  if (call.direction == Direction::Write && (file.amode & MPI_MODE_RDONLY) != 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_READ_ONLY, call.name, "the file was opened MPI_MODE_RDONLY");
  if (call.pointer != Pointer::Shared && (file.amode & MPI_MODE_SEQUENTIAL) != 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_UNSUPPORTED_OPERATION, call.name,
                            "the file was opened MPI_MODE_SEQUENTIAL: only the shared file pointer may be used");
  if (call.pointer == Pointer::Explicit && call.offset < 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_ARG, call.name, "negative offset " + std::to_string(call.offset));
  if (type->size() % context.member->view.etype->size() != 0)
    return raise_file_error(runtime, call.fh, MPI_ERR_TYPE, call.name,
                            "the datatype is not a whole number of the view's etypes");
  if (context.member->view.external32())
    if (const std::optional<std::string> refusal = mpisim::mpi::external32_refusal(*type))
      return raise_file_error(runtime, call.fh, MPI_ERR_TYPE, call.name, *refusal);
  return MPI_SUCCESS;
}

// The data stream of the call, contiguous, in the view's representation: the program's buffer itself when its type is
// contiguous and nothing converts a write's bytes, else a copy. `take_bytes`: a write's bytes are copied at the call
// whatever the type (a posted write takes them then). An "external32" view's bytes are swapped to big-endian in the
// copy a write makes, and back in place once a read has brought them.
class DataStream {
public:
  DataStream(void* buffer, int count, const mpisim::mpi::DatatypePtr& type, Direction direction, bool external32,
             bool take_bytes = false)
      : DataStream(buffer, count, *type, direction, external32, take_bytes)
  {
    kept_type_ = type;
  }
  DataStream(void* buffer, int count, const mpisim::mpi::Datatype& type, Direction direction, bool external32,
             bool take_bytes = false)
      : buffer_(buffer), count_(static_cast<size_t>(count)), type_(type), external32_(external32)
  {
    const bool write_copied = direction == Direction::Write && (take_bytes || external32);
    if (type.is_contiguous() && !write_copied) {
      data_ = static_cast<std::byte*>(buffer);
      return;
    }
    copy_.resize(type.packed_size(count_));
    data_ = copy_.data();
    if (direction == Direction::Write) {
      type.pack(buffer, count_, data_);
      if (external32)
        mpisim::mpi::swap_external32(data_, count_, type);
    }
  }
  std::byte* data() { return data_; }
  // A read's bytes, `bytes` of them, into the program's buffer: its whole elements (a partial one at the end of the
  // file stays as read).
  void deliver(int64_t bytes)
  {
    if (bytes <= 0)
      return;
    const size_t whole = static_cast<size_t>(bytes) / type_.size();
    if (external32_)
      mpisim::mpi::swap_external32(data_, whole, type_);
    if (not copy_.empty())
      type_.unpack(copy_.data(), whole, buffer_);
  }

private:
  void* buffer_;
  size_t count_;
  const mpisim::mpi::Datatype& type_;
  bool external32_;
  // A posted access's type, alive until it completes (MPI_Type_free may come first).
  mpisim::mpi::DatatypePtr kept_type_;
  std::byte* data_ = nullptr;
  std::vector<std::byte> copy_;
};

void set_status(MPI_Status* status, int64_t bytes)
{
  mpisim::mpi::Status done;
  done.bytes = static_cast<double>(bytes);
  fill_status(status, done);
}

mpisim::io::Client client(Runtime& runtime)
{
  const int me = runtime.current_rank();
  return {runtime.world().host_of(me), me};
}

// An MPI request the storage model completes with `activity` (null: complete now), counting `bytes`.
MPI_Request file_request(Runtime& runtime, MPI_File fh, const mpisim::kernel::ActivityPtr& activity, int64_t bytes)
{
  auto request = std::make_shared<mpisim::mpi::Request>(mpisim::mpi::RequestKind::Generalized, runtime.current_rank(),
                                                        *runtime.comm(MPI_COMM_SELF), 0, 0, static_cast<double>(bytes));
  request->status.bytes = static_cast<double>(bytes);
  request->operation = "file I/O";
  if (activity == nullptr)
    request->complete();
  else
    runtime.files().storage().when_done(activity, [request] { request->complete(); });
  RequestEntry entry;
  entry.request = request;
  entry.owner = ErrorOwner::file(fh);
  return runtime.requests().add(std::move(entry));
}

// Where the call starts in the view's data, in etypes. Ordered calls: each member moves the shared pointer past its
// own etypes on entry, then the members exchange their counts and the values they found (an allgather on the hidden
// communicator): the smallest found is where the call starts, and member r starts after the etypes of members below
// it. The pointer is past them all before any member can leave the exchange.
int64_t start_etype(Runtime& runtime, const AccessCall& call, FileContext& context, int64_t etypes)
{
  OpenFile& file = *context.file;
  switch (call.pointer) {
  case Pointer::Explicit: return call.offset;
  case Pointer::Individual: return context.member->pointer;
  case Pointer::Shared: break;
  }
  if (call.mode != Mode::Ordered) {
    runtime.simulation().engine().wait(*runtime.files().storage().metadata_request(client(runtime), file.id));
    const int64_t mine = file.shared_pointer;
    if (call.direction == Direction::Read) { // a read moves the pointer by what it can read
      const FileView& view = context.member->view;
      const auto etype = static_cast<int64_t>(view.etype->size());
      etypes = std::clamp<int64_t>(view_bytes_before(view, real_file_size(file)) / etype - mine, 0, etypes);
    }
    file.shared_pointer += etypes;
    return mine;
  }
  struct Entry {
    int64_t etypes;
    int64_t found;
  };
  const Entry mine{etypes, file.shared_pointer};
  file.shared_pointer += etypes;
  const mpisim::mpi::Communicator& channel = *runtime.comm(file.channel);
  std::vector<Entry> all(static_cast<size_t>(channel.size()));
  run_allgather(runtime, channel, &mine, all.data(), sizeof mine, MPI_BYTE);
  int64_t start = mine.found;
  int64_t before = 0;
  for (int member = 0; member < channel.size(); ++member) {
    start = std::min(start, all[static_cast<size_t>(member)].found);
    if (member < context.local_rank)
      before += all[static_cast<size_t>(member)].etypes;
  }
  return start + before;
}

// A collective access posted by a non-blocking or split collective call: a helper actor carries it out (the write's
// bytes taken now), and the request completes when it is done, a read's bytes in the program's buffer by then. The
// individual file pointer moves past the whole access now (MPI-3.1 section 13.4.3). An I/O error during the access
// is the request's: its completion call raises it through the file's error handler (api_requests.cpp).
int post_collective(Runtime& runtime, const AccessCall& call, FileContext& context,
                    const mpisim::mpi::DatatypePtr& type, int64_t first, std::vector<FilePiece> pieces, int64_t bytes,
                    MPI_Request* handle)
{
  auto stream = std::make_shared<DataStream>(call.buffer, call.count, type, call.direction,
                                             context.member->view.external32(), true);
  auto request = std::make_shared<mpisim::mpi::Request>(mpisim::mpi::RequestKind::Generalized, runtime.current_rank(),
                                                        *runtime.comm(MPI_COMM_SELF), 0, 0, static_cast<double>(bytes));
  request->operation = "collective file I/O";
  auto failure = std::make_shared<RequestFailure>();
  const Direction direction = call.direction;
  const std::string name = call.name;
  start_collective_access(runtime, *context.file, context.member->collectives++, std::move(pieces), stream->data(),
                          direction,
                          [stream, request, failure, direction, name](int64_t moved, const std::string& error) {
                            if (direction == Direction::Read)
                              stream->deliver(moved);
                            request->status.bytes = static_cast<double>(moved);
                            if (not error.empty())
                              *failure = {MPI_ERR_IO, name + "'s access failed: " + error};
                            request->complete();
                          });
  if (call.pointer == Pointer::Individual)
    context.member->pointer = first + bytes / static_cast<int64_t>(context.member->view.etype->size());
  RequestEntry entry;
  entry.request = request;
  entry.owner = ErrorOwner::file(call.fh);
  entry.late_failure = failure;
  entry.keep_alive = stream;
  *handle = runtime.requests().add(std::move(entry));
  return MPI_SUCCESS;
}

int access(const AccessCall& call, MPI_Status* status, MPI_Request* request)
{
  ApiScope scope(call.name);
  Runtime& runtime = scope.runtime();
  FileContext context;
  mpisim::mpi::DatatypePtr type;
  MPISIM_TRY(check(runtime, call, context, type));
  OpenFile& file = *context.file;
  const FileView& view = context.member->view;
  const auto etype_bytes = static_cast<int64_t>(view.etype->size());
  const int64_t bytes = static_cast<int64_t>(type->size()) * call.count;
  const int64_t first = start_etype(runtime, call, context, bytes / etype_bytes);
  std::vector<FilePiece> pieces = view_pieces(view, first * etype_bytes, bytes);
  if (collective(call.mode) && request != nullptr)
    return post_collective(runtime, call, context, type, first, std::move(pieces), bytes, request);
  DataStream stream(call.buffer, call.count, *type, call.direction, view.external32());
  int64_t moved = 0;
  mpisim::kernel::ActivityPtr pending;
  try {
    if (collective(call.mode)) {
      moved = collective_access(runtime, file, context.member->collectives++, pieces, stream.data(), call.direction);
    } else if (call.direction == Direction::Write) {
      write_pieces(file, pieces, stream.data());
      moved = bytes;
      pending = time_pieces(runtime, file, runtime.current_rank(), pieces, call.direction);
    } else {
      moved = read_pieces(file, pieces, stream.data());
      pending = time_pieces(runtime, file, runtime.current_rank(), first_bytes(pieces, moved), call.direction);
    }
  } catch (const std::runtime_error& error) {
    return raise_file_error(runtime, call.fh, MPI_ERR_IO, call.name, error.what());
  }
  if (call.direction == Direction::Read)
    stream.deliver(moved);
  if (call.pointer == Pointer::Individual)
    context.member->pointer = first + moved / etype_bytes;
  if (request != nullptr) {
    *request = file_request(runtime, call.fh, pending, moved);
    return MPI_SUCCESS;
  }
  if (pending != nullptr)
    runtime.simulation().engine().wait(*pending);
  set_status(status, moved);
  return MPI_SUCCESS;
}

// Split collectives (MPI-3.1 section 13.4.5): the begin call posts the collective as a non-blocking one does; the
// end call waits for it and gives its status.
int split_begin(Runtime& runtime, AccessCall call)
{
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, call.fh, call.name, context));
  if (context.member->split_pending)
    return raise_file_error(runtime, call.fh, MPI_ERR_OTHER, call.name, "a split collective is already in progress");
  MPI_Request request = MPI_REQUEST_NULL;
  MPISIM_TRY(access(call, nullptr, &request));
  context.member->split_pending = true;
  context.member->split_request = request;
  return MPI_SUCCESS;
}

int split_end(Runtime& runtime, MPI_File fh, MPI_Status* status, const char* name)
{
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, name, context));
  if (!context.member->split_pending)
    return raise_file_error(runtime, fh, MPI_ERR_OTHER, name, "no split collective in progress");
  context.member->split_pending = false;
  MPI_Request request = context.member->split_request;
  context.member->split_request = MPI_REQUEST_NULL;
  return wait_one(runtime, &request, status, name);
}

} // namespace

extern "C" int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                 MPI_Status* status)
{
  return access(call_of(Variant::ReadAt, fh, offset, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                     MPI_Status* status)
{
  return access(call_of(Variant::ReadAtAll, fh, offset, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                  MPI_Status* status)
{
  return access(call_of(Variant::WriteAt, fh, offset, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                      MPI_Status* status)
{
  return access(call_of(Variant::WriteAtAll, fh, offset, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                  MPI_Request* request)
{
  return access(call_of(Variant::IreadAt, fh, offset, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                   MPI_Request* request)
{
  return access(call_of(Variant::IwriteAt, fh, offset, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                      MPI_Request* request)
{
  return access(call_of(Variant::IreadAtAll, fh, offset, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                       MPI_Datatype datatype, MPI_Request* request)
{
  return access(call_of(Variant::IwriteAtAll, fh, offset, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::Read, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::ReadAll, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::Write, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::WriteAll, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return access(call_of(Variant::Iread, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return access(call_of(Variant::Iwrite, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return access(call_of(Variant::IreadAll, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                    MPI_Request* request)
{
  return access(call_of(Variant::IwriteAll, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::ReadShared, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                      MPI_Status* status)
{
  return access(call_of(Variant::WriteShared, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return access(call_of(Variant::IreadShared, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                       MPI_Request* request)
{
  return access(call_of(Variant::IwriteShared, fh, 0, buf, count, datatype), nullptr, request);
}

extern "C" int PMPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return access(call_of(Variant::ReadOrdered, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                       MPI_Status* status)
{
  return access(call_of(Variant::WriteOrdered, fh, 0, buf, count, datatype), status, nullptr);
}

extern "C" int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::ReadAtAllBegin, fh, offset, buf, count, datatype));
}

extern "C" int PMPI_File_read_at_all_end(MPI_File fh, void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_read_at_all_end");
}

extern "C" int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                            MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::WriteAtAllBegin, fh, offset, buf, count, datatype));
}

extern "C" int PMPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_write_at_all_end");
}

extern "C" int PMPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::ReadAllBegin, fh, 0, buf, count, datatype));
}

extern "C" int PMPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_read_all_end");
}

extern "C" int PMPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::WriteAllBegin, fh, 0, buf, count, datatype));
}

extern "C" int PMPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_write_all_end");
}

extern "C" int PMPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::ReadOrderedBegin, fh, 0, buf, count, datatype));
}

extern "C" int PMPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_read_ordered_end");
}

extern "C" int PMPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, call_of(Variant::WriteOrderedBegin, fh, 0, buf, count, datatype));
}

extern "C" int PMPI_File_write_ordered_end(MPI_File fh, const void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_write_ordered_end");
}

MPISIM_ALIAS(File_read_at)
MPISIM_ALIAS(File_read_at_all)
MPISIM_ALIAS(File_write_at)
MPISIM_ALIAS(File_write_at_all)
MPISIM_ALIAS(File_iread_at)
MPISIM_ALIAS(File_iwrite_at)
MPISIM_ALIAS(File_iread_at_all)
MPISIM_ALIAS(File_iwrite_at_all)
MPISIM_ALIAS(File_read)
MPISIM_ALIAS(File_read_all)
MPISIM_ALIAS(File_write)
MPISIM_ALIAS(File_write_all)
MPISIM_ALIAS(File_iread)
MPISIM_ALIAS(File_iwrite)
MPISIM_ALIAS(File_iread_all)
MPISIM_ALIAS(File_iwrite_all)
MPISIM_ALIAS(File_read_shared)
MPISIM_ALIAS(File_write_shared)
MPISIM_ALIAS(File_iread_shared)
MPISIM_ALIAS(File_iwrite_shared)
MPISIM_ALIAS(File_read_ordered)
MPISIM_ALIAS(File_write_ordered)
MPISIM_ALIAS(File_read_at_all_begin)
MPISIM_ALIAS(File_read_at_all_end)
MPISIM_ALIAS(File_write_at_all_begin)
MPISIM_ALIAS(File_write_at_all_end)
MPISIM_ALIAS(File_read_all_begin)
MPISIM_ALIAS(File_read_all_end)
MPISIM_ALIAS(File_write_all_begin)
MPISIM_ALIAS(File_write_all_end)
MPISIM_ALIAS(File_read_ordered_begin)
MPISIM_ALIAS(File_read_ordered_end)
MPISIM_ALIAS(File_write_ordered_begin)
MPISIM_ALIAS(File_write_ordered_end)
