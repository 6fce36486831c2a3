// MPI-IO: the file calls as the MPI-IO actions of mpisim's trace extension (docs/replay.md, "MPI-IO actions").
//
// Offsets are written in bytes of the file: the call's first byte through the file's view (MPI_File_get_byte_offset);
// a view that scatters the data is written as one contiguous range of the call's size from there (the trace format
// has no pieces). Individual-pointer calls are written with the pointer's byte offset (`_at` forms), and reads with
// the bytes the status counts. A file opened by every rank is `world`, by one rank `self`; a file opened on another
// communicator leaves a comment and its calls are not recorded (the format names no communicators).
//
// Shared-pointer and ordered calls are written without an offset (`file_write_shared NAME BYTES`): where they land is
// decided while the program runs, by the order the ranks reach the pointer, and the replay decides it the same way.
// Non-blocking calls are written when posted (`file_iwrite_at NAME BYTE BYTES`, `file_iwrite_at_all NAME BYTE
// BYTES`, numbered per file in posting order) and completed by the completion call's `file_wait NAME N`
// (wrap_requests.cpp). A split collective is written the same way: its begin as the non-blocking collective
// (`file_iwrite_at_all`; an ordered one `file_iwrite_ordered NAME BYTES`), its end as the `file_wait`. A read whose
// bytes are known only at its completion (non-blocking, split) is written with the bytes it asks for, cut at the end
// of the file when posted.
#include "record/Export.hpp"
#include "record/Recorder.hpp"

#include <algorithm>
#include <map>
#include <string>

using mpisim::record::Call;
using mpisim::record::Recorder;

namespace {

// Each open file as the trace knows it: its name (spaces turned into '_': one token) and how many non-blocking
// accesses the rank posted on it (the next one's number in `file_wait`).
struct RecordedFile {
  std::string name;
  long long posted = 0;
  long long split = -1; // the number of the split collective begun and not ended
};

std::map<MPI_File, RecordedFile>& recorded_files()
{
  static std::map<MPI_File, RecordedFile> files;
  return files;
}

RecordedFile* recorded_file(MPI_File fh)
{
  auto found = recorded_files().find(fh);
  return found == recorded_files().end() ? nullptr : &found->second;
}

const std::string* recorded_name(MPI_File fh)
{
  const RecordedFile* file = recorded_file(fh);
  return file == nullptr ? nullptr : &file->name;
}

std::string as_token(const char* filename)
{
  std::string name = filename;
  for (char& c : name)
    if (c == ' ' || c == '\t' || c == '\n')
      c = '_';
  return name.empty() ? "_" : name;
}

// The byte offset of the call's first byte: etype offset `offset` through the view.
long long byte_offset(MPI_File fh, MPI_Offset offset)
{
  MPI_Offset bytes = 0;
  PMPI_File_get_byte_offset(fh, offset, &bytes);
  return bytes;
}

long long pointer_byte_offset(MPI_File fh)
{
  MPI_Offset position = 0;
  PMPI_File_get_position(fh, &position);
  return byte_offset(fh, position);
}

// The bytes a completed access moved: a read counts its status (it stops at the end of the file).
long long moved_bytes(bool read, int count, MPI_Datatype type, const MPI_Status& status)
{
  if (not read)
    return mpisim::record::Datatypes::bytes(count, type);
  int bytes = 0;
  PMPI_Get_count(&status, MPI_BYTE, &bytes);
  return bytes == MPI_UNDEFINED ? 0 : bytes;
}

// What a call not complete on return will move: a write its whole size; a read what it asks for, cut at the end of
// the file as it is now (exact for a contiguous view read by one rank; its status counts it only at completion).
long long posted_bytes(MPI_File fh, bool read, int count, MPI_Datatype type, long long offset)
{
  const long long asked = mpisim::record::Datatypes::bytes(count, type);
  if (not read || offset < 0)
    return asked;
  MPI_Offset size = 0;
  PMPI_File_get_size(fh, &size);
  return std::clamp<long long>(static_cast<long long>(size) - offset, 0, asked);
}

void record_access(Call& call, MPI_File fh, const char* action, long long offset, long long bytes)
{
  const std::string* name = recorded_name(fh);
  if (name == nullptr)
    return;
  call.args.bytes = bytes;
  call.rec().trace().begin(action).add(*name).add(offset).add(bytes).end();
}

// Shared-pointer and ordered accesses: no offset (the replay finds it).
void record_shared_access(Call& call, MPI_File fh, const char* action, long long bytes)
{
  const std::string* name = recorded_name(fh);
  if (name == nullptr)
    return;
  call.args.bytes = bytes;
  call.rec().trace().begin(action).add(*name).add(bytes).end();
}

// The line of a posted access: the file, its offset (none when `offset` < 0: at the shared pointer, or ordered), its
// bytes.
void record_posted_line(Call& call, const RecordedFile& file, const char* action, long long offset, long long bytes)
{
  call.args.bytes = bytes;
  mpisim::record::TraceFile& line = call.rec().trace().begin(action).add(file.name);
  if (offset >= 0)
    line.add(offset);
  line.add(bytes).end();
}

// A posted independent access, and its request, numbered in the file's order.
void record_posted(Call& call, MPI_File fh, const char* action, long long offset, long long bytes, MPI_Request request)
{
  RecordedFile* file = recorded_file(fh);
  if (file == nullptr)
    return;
  record_posted_line(call, *file, action, offset, bytes);
  call.rec().file_posted(request, {file->name, file->posted++});
}

// A split collective's begin, as the non-blocking collective; its number is kept for the end's `file_wait`.
void record_split_begin(Call& call, MPI_File fh, const char* action, long long offset, long long bytes)
{
  RecordedFile* file = recorded_file(fh);
  if (file == nullptr)
    return;
  record_posted_line(call, *file, action, offset, bytes);
  file->split = file->posted++;
}

void record_split_end(Call& call, MPI_File fh)
{
  RecordedFile* file = recorded_file(fh);
  if (file == nullptr || file->split < 0)
    return;
  call.rec().trace().begin("file_wait").add(file->name).add(file->split).end();
  file->split = -1;
}

} // namespace

MPISIM_EXPORT int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh)
{
  Call call("MPI_File_open");
  int rc = PMPI_File_open(comm, filename, amode, info, fh);
  if (not call || rc != MPI_SUCCESS)
    return rc;
  Recorder& rec = call.rec();
  const int members = rec.comms().get(comm)->size;
  if (members != rec.size() && members != 1) {
    rec.trace().comment("MPI_File_open of " + std::string(filename) + " on " + std::to_string(members) +
                        " ranks: its calls are not recorded (the trace names no communicator)");
    return rc;
  }
  const std::string name = as_token(filename);
  recorded_files()[*fh] = {name, 0};
  rec.trace().begin("file_open").add(name).add(members == rec.size() && members != 1 ? "world" : "self").end();
  return rc;
}

MPISIM_EXPORT int MPI_File_close(MPI_File* fh)
{
  Call call("MPI_File_close");
  const MPI_File handle = *fh;
  int rc = PMPI_File_close(fh);
  if (not call || rc != MPI_SUCCESS)
    return rc;
  if (const std::string* name = recorded_name(handle)) {
    call.rec().trace().begin("file_close").add(*name).end();
    recorded_files().erase(handle);
  }
  return rc;
}

MPISIM_EXPORT int MPI_File_sync(MPI_File fh)
{
  Call call("MPI_File_sync");
  int rc = PMPI_File_sync(fh);
  if (call && rc == MPI_SUCCESS)
    if (const std::string* name = recorded_name(fh))
      call.rec().trace().begin("file_sync").add(*name).end();
  return rc;
}

MPISIM_EXPORT int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
  Call call("MPI_File_set_size");
  int rc = PMPI_File_set_size(fh, size);
  if (call && rc == MPI_SUCCESS)
    if (const std::string* name = recorded_name(fh))
      call.rec().trace().begin("file_set_size").add(*name).add(static_cast<long long>(size)).end();
  return rc;
}

MPISIM_EXPORT int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
  Call call("MPI_File_seek");
  int rc = PMPI_File_seek(fh, offset, whence);
  if (call && rc == MPI_SUCCESS)
    if (const std::string* name = recorded_name(fh))
      call.rec().trace().begin("file_seek").add(*name).add(pointer_byte_offset(fh)).end();
  return rc;
}

// The explicit-offset and individual-pointer accesses, blocking, independent and collective. CONST is `const` or
// nothing: a qualifier, which parentheses cannot enclose.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define MPISIM_FILE_ACCESS_AT(NAME, PMPI_NAME, ACTION, READ, CONST)                                                    \
  MPISIM_EXPORT int NAME(MPI_File fh, MPI_Offset offset, CONST void* buf, int count, MPI_Datatype type,                \
                         MPI_Status* status)                                                                           \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    MPI_Status own;                                                                                                    \
    MPI_Status* used = status == MPI_STATUS_IGNORE ? &own : status;                                                    \
    int rc = PMPI_NAME(fh, offset, buf, count, type, used);                                                            \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_access(call, fh, ACTION, byte_offset(fh, offset), moved_bytes(READ, count, type, *used));                 \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_ACCESS(NAME, PMPI_NAME, ACTION, READ, CONST)                                                       \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type, MPI_Status* status)               \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    MPI_Status own;                                                                                                    \
    MPI_Status* used = status == MPI_STATUS_IGNORE ? &own : status;                                                    \
    const long long offset = call ? pointer_byte_offset(fh) : 0;                                                       \
    int rc = PMPI_NAME(fh, buf, count, type, used);                                                                    \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_access(call, fh, ACTION, offset, moved_bytes(READ, count, type, *used));                                  \
    return rc;                                                                                                         \
  }
// NOLINTEND(bugprone-macro-parentheses)

MPISIM_FILE_ACCESS_AT(MPI_File_write_at, PMPI_File_write_at, "file_write_at", false, const)
MPISIM_FILE_ACCESS_AT(MPI_File_read_at, PMPI_File_read_at, "file_read_at", true, )
MPISIM_FILE_ACCESS_AT(MPI_File_write_at_all, PMPI_File_write_at_all, "file_write_at_all", false, const)
MPISIM_FILE_ACCESS_AT(MPI_File_read_at_all, PMPI_File_read_at_all, "file_read_at_all", true, )
MPISIM_FILE_ACCESS(MPI_File_write, PMPI_File_write, "file_write_at", false, const)
MPISIM_FILE_ACCESS(MPI_File_read, PMPI_File_read, "file_read_at", true, )
MPISIM_FILE_ACCESS(MPI_File_write_all, PMPI_File_write_all, "file_write_at_all", false, const)
MPISIM_FILE_ACCESS(MPI_File_read_all, PMPI_File_read_all, "file_read_at_all", true, )

// The shared file pointer: independent and ordered accesses, and its collective seek (written as the byte it leaves
// the pointer at).
// NOLINTBEGIN(bugprone-macro-parentheses)
#define MPISIM_FILE_ACCESS_SHARED(NAME, PMPI_NAME, ACTION, READ, CONST)                                                \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type, MPI_Status* status)               \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    MPI_Status own;                                                                                                    \
    MPI_Status* used = status == MPI_STATUS_IGNORE ? &own : status;                                                    \
    int rc = PMPI_NAME(fh, buf, count, type, used);                                                                    \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_shared_access(call, fh, ACTION, moved_bytes(READ, count, type, *used));                                   \
    return rc;                                                                                                         \
  }

// Independent non-blocking accesses at an explicit offset, at the individual pointer, at the shared pointer.
#define MPISIM_FILE_IACCESS_AT(NAME, PMPI_NAME, ACTION, READ, CONST)                                                   \
  MPISIM_EXPORT int NAME(MPI_File fh, MPI_Offset offset, CONST void* buf, int count, MPI_Datatype type,                \
                         MPI_Request* request)                                                                         \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    int rc = PMPI_NAME(fh, offset, buf, count, type, request);                                                         \
    if (call && rc == MPI_SUCCESS) {                                                                                   \
      const long long first = byte_offset(fh, offset);                                                                 \
      record_posted(call, fh, ACTION, first, posted_bytes(fh, READ, count, type, first), *request);                    \
    }                                                                                                                  \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_IACCESS(NAME, PMPI_NAME, ACTION, READ, CONST)                                                      \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type, MPI_Request* request)             \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    const long long first = call ? pointer_byte_offset(fh) : 0;                                                        \
    int rc = PMPI_NAME(fh, buf, count, type, request);                                                                 \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_posted(call, fh, ACTION, first, posted_bytes(fh, READ, count, type, first), *request);                    \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_IACCESS_SHARED(NAME, PMPI_NAME, ACTION, READ, CONST)                                               \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type, MPI_Request* request)             \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    int rc = PMPI_NAME(fh, buf, count, type, request);                                                                 \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_posted(call, fh, ACTION, -1, mpisim::record::Datatypes::bytes(count, type), *request);                    \
    return rc;                                                                                                         \
  }

// Non-blocking collectives: posted as the independent ones are.
#define MPISIM_FILE_ICOLLECTIVE_AT(NAME, PMPI_NAME, ACTION, READ, CONST)                                               \
  MPISIM_EXPORT int NAME(MPI_File fh, MPI_Offset offset, CONST void* buf, int count, MPI_Datatype type,                \
                         MPI_Request* request)                                                                         \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    const long long first = call ? byte_offset(fh, offset) : 0;                                                        \
    const long long bytes = call ? posted_bytes(fh, READ, count, type, first) : 0;                                     \
    int rc = PMPI_NAME(fh, offset, buf, count, type, request);                                                         \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_posted(call, fh, ACTION, first, bytes, *request);                                                         \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_ICOLLECTIVE(NAME, PMPI_NAME, ACTION, READ, CONST)                                                  \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type, MPI_Request* request)             \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    const long long first = call ? pointer_byte_offset(fh) : 0;                                                        \
    const long long bytes = call ? posted_bytes(fh, READ, count, type, first) : 0;                                     \
    int rc = PMPI_NAME(fh, buf, count, type, request);                                                                 \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_posted(call, fh, ACTION, first, bytes, *request);                                                         \
    return rc;                                                                                                         \
  }

// Split collectives: `_begin` as the non-blocking collective, `_end` as its `file_wait`.
#define MPISIM_FILE_BEGIN_AT(NAME, PMPI_NAME, ACTION, READ, CONST)                                                     \
  MPISIM_EXPORT int NAME(MPI_File fh, MPI_Offset offset, CONST void* buf, int count, MPI_Datatype type)                \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    const long long first = call ? byte_offset(fh, offset) : 0;                                                        \
    const long long bytes = call ? posted_bytes(fh, READ, count, type, first) : 0;                                     \
    int rc = PMPI_NAME(fh, offset, buf, count, type);                                                                  \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_split_begin(call, fh, ACTION, first, bytes);                                                              \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_BEGIN(NAME, PMPI_NAME, ACTION, READ, CONST)                                                        \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type)                                   \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    const long long first = call ? pointer_byte_offset(fh) : 0;                                                        \
    const long long bytes = call ? posted_bytes(fh, READ, count, type, first) : 0;                                     \
    int rc = PMPI_NAME(fh, buf, count, type);                                                                          \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_split_begin(call, fh, ACTION, first, bytes);                                                              \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_BEGIN_ORDERED(NAME, PMPI_NAME, ACTION, CONST)                                                      \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, int count, MPI_Datatype type)                                   \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    int rc = PMPI_NAME(fh, buf, count, type);                                                                          \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_split_begin(call, fh, ACTION, -1, mpisim::record::Datatypes::bytes(count, type));                         \
    return rc;                                                                                                         \
  }

#define MPISIM_FILE_END(NAME, PMPI_NAME, CONST)                                                                        \
  MPISIM_EXPORT int NAME(MPI_File fh, CONST void* buf, MPI_Status* status)                                             \
  {                                                                                                                    \
    Call call(#NAME);                                                                                                  \
    int rc = PMPI_NAME(fh, buf, status);                                                                               \
    if (call && rc == MPI_SUCCESS)                                                                                     \
      record_split_end(call, fh);                                                                                      \
    return rc;                                                                                                         \
  }
// NOLINTEND(bugprone-macro-parentheses)

MPISIM_FILE_ACCESS_SHARED(MPI_File_write_shared, PMPI_File_write_shared, "file_write_shared", false, const)
MPISIM_FILE_ACCESS_SHARED(MPI_File_read_shared, PMPI_File_read_shared, "file_read_shared", true, )
MPISIM_FILE_ACCESS_SHARED(MPI_File_write_ordered, PMPI_File_write_ordered, "file_write_ordered", false, const)
MPISIM_FILE_ACCESS_SHARED(MPI_File_read_ordered, PMPI_File_read_ordered, "file_read_ordered", true, )

MPISIM_FILE_IACCESS_AT(MPI_File_iwrite_at, PMPI_File_iwrite_at, "file_iwrite_at", false, const)
MPISIM_FILE_IACCESS_AT(MPI_File_iread_at, PMPI_File_iread_at, "file_iread_at", true, )
MPISIM_FILE_IACCESS(MPI_File_iwrite, PMPI_File_iwrite, "file_iwrite_at", false, const)
MPISIM_FILE_IACCESS(MPI_File_iread, PMPI_File_iread, "file_iread_at", true, )
MPISIM_FILE_IACCESS_SHARED(MPI_File_iwrite_shared, PMPI_File_iwrite_shared, "file_iwrite_shared", false, const)
MPISIM_FILE_IACCESS_SHARED(MPI_File_iread_shared, PMPI_File_iread_shared, "file_iread_shared", true, )

MPISIM_FILE_ICOLLECTIVE_AT(MPI_File_iwrite_at_all, PMPI_File_iwrite_at_all, "file_iwrite_at_all", false, const)
MPISIM_FILE_ICOLLECTIVE_AT(MPI_File_iread_at_all, PMPI_File_iread_at_all, "file_iread_at_all", true, )
MPISIM_FILE_ICOLLECTIVE(MPI_File_iwrite_all, PMPI_File_iwrite_all, "file_iwrite_at_all", false, const)
MPISIM_FILE_ICOLLECTIVE(MPI_File_iread_all, PMPI_File_iread_all, "file_iread_at_all", true, )

MPISIM_FILE_BEGIN_AT(MPI_File_write_at_all_begin, PMPI_File_write_at_all_begin, "file_iwrite_at_all", false, const)
MPISIM_FILE_BEGIN_AT(MPI_File_read_at_all_begin, PMPI_File_read_at_all_begin, "file_iread_at_all", true, )
MPISIM_FILE_BEGIN(MPI_File_write_all_begin, PMPI_File_write_all_begin, "file_iwrite_at_all", false, const)
MPISIM_FILE_BEGIN(MPI_File_read_all_begin, PMPI_File_read_all_begin, "file_iread_at_all", true, )
MPISIM_FILE_BEGIN_ORDERED(MPI_File_write_ordered_begin, PMPI_File_write_ordered_begin, "file_iwrite_ordered", const)
MPISIM_FILE_BEGIN_ORDERED(MPI_File_read_ordered_begin, PMPI_File_read_ordered_begin, "file_iread_ordered", )
MPISIM_FILE_END(MPI_File_write_at_all_end, PMPI_File_write_at_all_end, const)
MPISIM_FILE_END(MPI_File_read_at_all_end, PMPI_File_read_at_all_end, )
MPISIM_FILE_END(MPI_File_write_all_end, PMPI_File_write_all_end, const)
MPISIM_FILE_END(MPI_File_read_all_end, PMPI_File_read_all_end, )
MPISIM_FILE_END(MPI_File_write_ordered_end, PMPI_File_write_ordered_end, const)
MPISIM_FILE_END(MPI_File_read_ordered_end, PMPI_File_read_ordered_end, )

MPISIM_EXPORT int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
  Call call("MPI_File_seek_shared");
  int rc = PMPI_File_seek_shared(fh, offset, whence);
  if (call && rc == MPI_SUCCESS)
    if (const std::string* name = recorded_name(fh)) {
      // MPI_SEEK_SET names the place; otherwise ask (another rank may move the pointer as soon as the call returns).
      MPI_Offset position = offset;
      if (whence != MPI_SEEK_SET)
        PMPI_File_get_position_shared(fh, &position);
      call.rec().trace().begin("file_seek_shared").add(*name).add(byte_offset(fh, position)).end();
    }
  return rc;
}
