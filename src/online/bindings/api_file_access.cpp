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
// with a request the storage model completes; non-blocking and split collective calls run their collective at the
// call (the request is complete when it returns; docs/io.md). Reading past the end of the file reads what there is:
// the status counts it (0 at the end).
#include "online/bindings/FileArguments.hpp"
#include "online/objects/Collectives.hpp"
#include "online/objects/FileAccess.hpp"

#include "mpi/Request.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
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
  return MPI_SUCCESS;
}

// The data stream of the call, contiguous: the program's buffer itself when its type is contiguous, else a copy.
class DataStream {
public:
  DataStream(void* buffer, int count, const mpisim::mpi::Datatype& type, Direction direction)
      : buffer_(buffer), count_(static_cast<size_t>(count)), type_(type)
  {
    if (type.is_contiguous()) {
      data_ = static_cast<std::byte*>(buffer);
      return;
    }
    copy_.resize(type.packed_size(count_));
    data_ = copy_.data();
    if (direction == Direction::Write)
      type.pack(buffer, count_, data_);
  }
  std::byte* data() { return data_; }
  // A read's bytes, `bytes` of them, into the program's buffer (whole elements and the start of a partial one, as a
  // truncated receive would).
  void deliver(int64_t bytes)
  {
    if (copy_.empty() || bytes <= 0)
      return;
    const size_t whole = static_cast<size_t>(bytes) / type_.size();
    type_.unpack(copy_.data(), whole, buffer_);
  }

private:
  void* buffer_;
  size_t count_;
  const mpisim::mpi::Datatype& type_;
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
MPI_Request file_request(Runtime& runtime, const mpisim::kernel::ActivityPtr& activity, int64_t bytes)
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
  const std::vector<FilePiece> pieces = view_pieces(view, first * etype_bytes, bytes);
  DataStream stream(call.buffer, call.count, *type, call.direction);
  int64_t moved = 0;
  mpisim::kernel::ActivityPtr pending;
  try {
    if (collective(call.mode)) {
      moved = collective_access(runtime, file, pieces, stream.data(), call.direction);
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
    *request = file_request(runtime, pending, moved);
    return MPI_SUCCESS;
  }
  if (pending != nullptr)
    runtime.simulation().engine().wait(*pending);
  set_status(status, moved);
  return MPI_SUCCESS;
}

// Split collectives (MPI-3.1 section 13.4.5): the begin call runs the collective; the end call gives its status.
int split_begin(Runtime& runtime, AccessCall call)
{
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, call.fh, call.name, context));
  if (context.member->split_pending)
    return raise_file_error(runtime, call.fh, MPI_ERR_OTHER, call.name, "a split collective is already in progress");
  MPI_Status status;
  MPISIM_TRY(access(call, &status, nullptr));
  context.member->split_pending = true;
  context.member->split_bytes = status.mpisim_bytes;
  return MPI_SUCCESS;
}

int split_end(Runtime& runtime, MPI_File fh, MPI_Status* status, const char* name)
{
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, name, context));
  if (!context.member->split_pending)
    return raise_file_error(runtime, fh, MPI_ERR_OTHER, name, "no split collective in progress");
  context.member->split_pending = false;
  set_status(status, context.member->split_bytes);
  return MPI_SUCCESS;
}

} // namespace

#define MPISIM_FILE_ACCESS(Name, offset, buffer, direction, pointer, mode, status, request)                            \
  access({"MPI_File_" #Name, fh, offset, const_cast<void*>(buffer), count, datatype, Direction::direction,             \
          Pointer::pointer, Mode::mode},                                                                               \
         status, request)

extern "C" int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                 MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read_at, offset, buf, Read, Explicit, Blocking, status, nullptr);
}

extern "C" int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                     MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read_at_all, offset, buf, Read, Explicit, Collective, status, nullptr);
}

extern "C" int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                  MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write_at, offset, buf, Write, Explicit, Blocking, status, nullptr);
}

extern "C" int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                      MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write_at_all, offset, buf, Write, Explicit, Collective, status, nullptr);
}

extern "C" int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                  MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iread_at, offset, buf, Read, Explicit, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                                   MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iwrite_at, offset, buf, Write, Explicit, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                                      MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iread_at_all, offset, buf, Read, Explicit, NonblockingCollective, nullptr, request);
}

extern "C" int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                       MPI_Datatype datatype, MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iwrite_at_all, offset, buf, Write, Explicit, NonblockingCollective, nullptr, request);
}

extern "C" int PMPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read, 0, buf, Read, Individual, Blocking, status, nullptr);
}

extern "C" int PMPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read_all, 0, buf, Read, Individual, Collective, status, nullptr);
}

extern "C" int PMPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write, 0, buf, Write, Individual, Blocking, status, nullptr);
}

extern "C" int PMPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write_all, 0, buf, Write, Individual, Collective, status, nullptr);
}

extern "C" int PMPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iread, 0, buf, Read, Individual, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iwrite, 0, buf, Write, Individual, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iread_all, 0, buf, Read, Individual, NonblockingCollective, nullptr, request);
}

extern "C" int PMPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                    MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iwrite_all, 0, buf, Write, Individual, NonblockingCollective, nullptr, request);
}

extern "C" int PMPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read_shared, 0, buf, Read, Shared, Blocking, status, nullptr);
}

extern "C" int PMPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                      MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write_shared, 0, buf, Write, Shared, Blocking, status, nullptr);
}

extern "C" int PMPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iread_shared, 0, buf, Read, Shared, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                       MPI_Request* request)
{
  return MPISIM_FILE_ACCESS(iwrite_shared, 0, buf, Write, Shared, Nonblocking, nullptr, request);
}

extern "C" int PMPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(read_ordered, 0, buf, Read, Shared, Ordered, status, nullptr);
}

extern "C" int PMPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                                       MPI_Status* status)
{
  return MPISIM_FILE_ACCESS(write_ordered, 0, buf, Write, Shared, Ordered, status, nullptr);
}

extern "C" int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, {"MPI_File_read_at_all_begin", fh, offset, buf, count, datatype, Direction::Read,
                               Pointer::Explicit, Mode::Collective});
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
  return split_begin(runtime, {"MPI_File_write_at_all_begin", fh, offset, const_cast<void*>(buf), count, datatype,
                               Direction::Write, Pointer::Explicit, Mode::Collective});
}

extern "C" int PMPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_write_at_all_end");
}

extern "C" int PMPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, {"MPI_File_read_all_begin", fh, 0, buf, count, datatype, Direction::Read,
                               Pointer::Individual, Mode::Collective});
}

extern "C" int PMPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_read_all_end");
}

extern "C" int PMPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, {"MPI_File_write_all_begin", fh, 0, const_cast<void*>(buf), count, datatype,
                               Direction::Write, Pointer::Individual, Mode::Collective});
}

extern "C" int PMPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_write_all_end");
}

extern "C" int PMPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, {"MPI_File_read_ordered_begin", fh, 0, buf, count, datatype, Direction::Read,
                               Pointer::Shared, Mode::Ordered});
}

extern "C" int PMPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return split_end(runtime, fh, status, "MPI_File_read_ordered_end");
}

extern "C" int PMPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype)
{
  Runtime& runtime = Runtime::get();
  return split_begin(runtime, {"MPI_File_write_ordered_begin", fh, 0, const_cast<void*>(buf), count, datatype,
                               Direction::Write, Pointer::Shared, Mode::Ordered});
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
