// MPI-IO: the file calls as the MPI-IO actions of mpisim's trace extension (docs/replay.md, "MPI-IO actions").
//
// Offsets are written in bytes of the file: the call's first byte through the file's view (MPI_File_get_byte_offset);
// a view that scatters the data is written as one contiguous range of the call's size from there (the trace format
// has no pieces). Individual-pointer calls are written with the pointer's byte offset (`_at` forms), and reads with
// the bytes the status counts. A file opened by every rank is `world`, by one rank `self`; a file opened on another
// communicator leaves a comment and its calls are not recorded (the format names no communicators). Non-blocking,
// split and shared-pointer calls are not recorded yet.
#include "record/Export.hpp"
#include "record/Recorder.hpp"

#include <map>
#include <string>

using mpisim::record::Call;
using mpisim::record::Recorder;

namespace {

// The recorded name of each open file (its name with spaces turned into '_': one token in the trace).
std::map<MPI_File, std::string>& recorded_files()
{
  static std::map<MPI_File, std::string> files;
  return files;
}

const std::string* recorded_name(MPI_File fh)
{
  auto found = recorded_files().find(fh);
  return found == recorded_files().end() ? nullptr : &found->second;
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

void record_access(Call& call, MPI_File fh, const char* action, long long offset, long long bytes)
{
  const std::string* name = recorded_name(fh);
  if (name == nullptr)
    return;
  call.args.bytes = bytes;
  call.rec().trace().begin(action).add(*name).add(offset).add(bytes).end();
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
  recorded_files()[*fh] = name;
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
