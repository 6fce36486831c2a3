// File manipulation, views, hints, file pointers, consistency and error handlers of MPI-IO (MPI-3.1 sections 13.2,
// 13.3, 13.4.3 to 13.4.4 (pointer positions), 13.6, 13.7): MPI_File_open, close, delete, set_size, preallocate,
// get_size, get_group, get_amode, set_info, get_info, set_view, get_view, seek, get_position, get_byte_offset,
// seek_shared, get_position_shared, get_type_extent, set_atomicity, get_atomicity, sync, and the error handler calls.
// The data access calls are in api_file_access.cpp.
//
// Opening makes a hidden communicator of the members (MPI_Comm_create over the whole group, as windows do) and the
// shared file object; the first member to get there opens the real file under the I/O root, and every member pays the
// storage model's open (a metadata request). Collective calls that change what every member sees (set_size,
// preallocate, set_view, set_atomicity, sync, seek_shared, close) end with a barrier on the hidden communicator.
#include "online/bindings/FileArguments.hpp"
#include "online/objects/Collectives.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/FileAccess.hpp"
#include "online/objects/ProcessObjects.hpp"

#include "mpi/External32.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

using namespace mpisim::online;
using mpisim::io::Client;

namespace {

Client client(Runtime& runtime)
{
  const int me = runtime.current_rank();
  return {runtime.world().host_of(me), me};
}

void wait_for(Runtime& runtime, const mpisim::kernel::ActivityPtr& activity)
{
  runtime.simulation().engine().wait(*activity);
}

bool is_attachable(Runtime& runtime, MPI_Errhandler errhandler)
{
  if (errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN)
    return true;
  const UserErrhandler* user = runtime.process_objects().errhandler(errhandler);
  return user != nullptr && user->references > 0;
}

// The error class of a failed open(2) or unlink(2).
int error_class_of_errno(int error)
{
  switch (error) {
  case ENOENT:
  case ENOTDIR: return MPI_ERR_NO_SUCH_FILE;
  case EEXIST: return MPI_ERR_FILE_EXISTS;
  case EACCES:
  case EPERM: return MPI_ERR_ACCESS;
  case EROFS: return MPI_ERR_READ_ONLY;
  case ENOSPC: return MPI_ERR_NO_SPACE;
  case EDQUOT: return MPI_ERR_QUOTA;
  case ENAMETOOLONG: return MPI_ERR_BAD_FILE;
  default: return MPI_ERR_IO;
  }
}

// MPI-3.1 section 13.2.1: exactly one of RDONLY, RDWR, WRONLY; RDONLY with neither CREATE nor EXCL; RDWR without
// SEQUENTIAL.
const char* amode_problem(int amode)
{
  const int access = amode & (MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY);
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY)
    return "exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY must be given";
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)) != 0)
    return "MPI_MODE_RDONLY cannot go with MPI_MODE_CREATE or MPI_MODE_EXCL";
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL) != 0)
    return "MPI_MODE_RDWR cannot go with MPI_MODE_SEQUENTIAL";
  const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |
                    MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if ((amode & ~known) != 0)
    return "unknown bits in the access mode";
  return nullptr;
}

// The first member opens the real file; the others find the outcome on the shared object.
void open_real_file(Runtime& runtime, OpenFile& file, const std::string& name, int amode)
{
  std::string why;
  file.opened = true;
  file.name = name;
  file.amode = amode;
  file.path = runtime.files().real_path(name, why);
  if (file.path.empty()) {
    file.open_error = MPI_ERR_BAD_FILE;
    file.open_error_text = why;
    return;
  }
  int flags = (amode & MPI_MODE_RDONLY) != 0 ? O_RDONLY : O_RDWR;
  if ((amode & MPI_MODE_CREATE) != 0) {
    flags |= O_CREAT;
    std::error_code ignored; // a missing folder inside the root is made: the program's mkdir went elsewhere
    std::filesystem::create_directories(std::filesystem::path(file.path).parent_path(), ignored);
  }
  if ((amode & MPI_MODE_EXCL) != 0)
    flags |= O_EXCL;
  file.fd = ::open(file.path.c_str(), flags | O_CLOEXEC, 0644);
  if (file.fd < 0) {
    const int error = errno;
    file.open_error = error_class_of_errno(error);
    file.open_error_text = "'" + name + "': " + std::strerror(error);
  }
}

FileView default_view(Runtime& runtime)
{
  FileView view;
  view.etype = runtime.datatypes().find(MPI_BYTE);
  view.filetype = view.etype;
  return view;
}

// The new position of a pointer (etypes) moved by `offset` from `whence`; negative when it would go before the view.
int64_t sought(const FileContext& context, int64_t current, MPI_Offset offset, int whence)
{
  if (whence == MPI_SEEK_SET)
    return offset;
  if (whence == MPI_SEEK_CUR)
    return current + offset;
  const FileView& view = context.member->view;
  const auto etype = static_cast<int64_t>(view.etype->size());
  return view_bytes_before(view, real_file_size(*context.file)) / etype + offset;
}

InfoObject hints_in_effect(Runtime& runtime, const OpenFile& file)
{
  InfoObject info;
  const mpisim::io::Striping striping = runtime.files().storage().striping(file.id);
  const FileHints& hints = file.hints;
  info.set("cb_buffer_size", std::to_string(hints.cb_buffer_size));
  info.set("romio_cb_read", hints.romio_cb_read);
  info.set("romio_cb_write", hints.romio_cb_write);
  info.set("romio_ds_read", hints.romio_ds_read);
  info.set("romio_ds_write", hints.romio_ds_write);
  info.set("ind_rd_buffer_size", std::to_string(hints.ind_rd_buffer_size));
  info.set("ind_wr_buffer_size", std::to_string(hints.ind_wr_buffer_size));
  if (hints.cb_nodes > 0)
    info.set("cb_nodes", std::to_string(hints.cb_nodes));
  info.set("striping_unit", std::to_string(static_cast<int64_t>(striping.unit)));
  info.set("striping_factor", std::to_string(striping.count));
  return info;
}

} // namespace

extern "C" int PMPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_File_open", parent));
  MPISIM_FILE_CHECK(runtime, filename != nullptr, MPI_FILE_NULL, MPI_ERR_ARG, "null file name");
  if (const char* problem = amode_problem(amode))
    return raise_file_error(runtime, MPI_FILE_NULL, MPI_ERR_AMODE, "MPI_File_open", problem);
  const InfoObject* given = info == MPI_INFO_NULL ? nullptr : runtime.process_objects().info(info);
  MPISIM_FILE_CHECK(runtime, info == MPI_INFO_NULL || given != nullptr, MPI_FILE_NULL, MPI_ERR_INFO,
                    "invalid info object " + std::to_string(info));
  const MPI_Comm channel = create_comm(runtime, comm, *parent, members_of(*parent));
  OpenFile& file = runtime.files().join(channel, parent->size());
  if (!file.opened) {
    if (given != nullptr)
      apply_file_hints(file.hints, *given);
    open_real_file(runtime, file, filename, amode);
    if (file.open_error == MPI_SUCCESS)
      file.id = runtime.files().storage().file(
          file.path, {static_cast<double>(file.hints.striping_unit), file.hints.striping_factor});
  }
  const int local = parent->local_rank(runtime.current_rank());
  FileMember& member = file.members[static_cast<size_t>(local)];
  member.live = true;
  ++file.live_members;
  if (file.open_error != MPI_SUCCESS) {
    const int error = file.open_error;
    const std::string text = file.open_error_text;
    runtime.files().leave(file, local);
    free_comm(runtime, channel);
    return raise_file_error(runtime, MPI_FILE_NULL, error, "MPI_File_open", text);
  }
  member.view = default_view(runtime);
  member.errhandler = runtime.files().default_errhandler(runtime.current_rank());
  wait_for(runtime, runtime.files().storage().open(client(runtime), file.id));
  *fh = file.handle;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_close(MPI_File* fh)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, *fh, "MPI_File_close", context));
  OpenFile& file = *context.file;
  wait_for(runtime, runtime.files().storage().close(client(runtime), file.id));
  const MPI_Comm channel = file.channel;
  run_barrier(runtime, *runtime.comm(channel));
  const bool last = file.live_members == 1;
  const bool delete_on_close = (file.amode & MPI_MODE_DELETE_ON_CLOSE) != 0;
  const std::string path = file.path;
  runtime.files().leave(file, context.local_rank);
  if (last && delete_on_close)
    ::unlink(path.c_str());
  free_comm(runtime, channel);
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_delete(const char* filename, MPI_Info info)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_FILE_CHECK(runtime, filename != nullptr, MPI_FILE_NULL, MPI_ERR_ARG, "null file name");
  MPISIM_FILE_CHECK(runtime, info == MPI_INFO_NULL || runtime.process_objects().info(info) != nullptr, MPI_FILE_NULL,
                    MPI_ERR_INFO, "invalid info object " + std::to_string(info));
  std::string why;
  const std::string path = runtime.files().real_path(filename, why);
  MPISIM_FILE_CHECK(runtime, !path.empty(), MPI_FILE_NULL, MPI_ERR_BAD_FILE, why);
  if (::unlink(path.c_str()) != 0) {
    const int error = errno;
    return raise_file_error(runtime, MPI_FILE_NULL, error_class_of_errno(error), "MPI_File_delete",
                            "'" + std::string(filename) + "': " + std::strerror(error));
  }
  return MPI_SUCCESS;
}

namespace {

// MPI_File_set_size and MPI_File_preallocate: `grow_only` keeps a larger file as it is.
int resize(MPI_File fh, MPI_Offset size, bool grow_only, const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, call, context));
  OpenFile& file = *context.file;
  if (size < 0)
    return raise_file_error(runtime, fh, MPI_ERR_ARG, call, "negative size " + std::to_string(size));
  if ((file.amode & MPI_MODE_SEQUENTIAL) != 0)
    return raise_file_error(runtime, fh, MPI_ERR_UNSUPPORTED_OPERATION, call,
                            "the file was opened MPI_MODE_SEQUENTIAL");
  if ((file.amode & MPI_MODE_RDONLY) != 0)
    return raise_file_error(runtime, fh, MPI_ERR_READ_ONLY, call, "the file was opened MPI_MODE_RDONLY");
  if (!grow_only || real_file_size(file) < size) {
    if (::ftruncate(file.fd, size) != 0)
      return raise_file_error(runtime, fh, MPI_ERR_IO, call, std::strerror(errno));
    wait_for(runtime, runtime.files().storage().set_size(client(runtime), file.id, static_cast<double>(size)));
  }
  run_barrier(runtime, *runtime.comm(file.channel));
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
  return resize(fh, size, false, "MPI_File_set_size");
}

extern "C" int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
  return resize(fh, size, true, "MPI_File_preallocate");
}

extern "C" int PMPI_File_get_size(MPI_File fh, MPI_Offset* size)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_size", context));
  *size = real_file_size(*context.file);
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_group(MPI_File fh, MPI_Group* group)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_group", context));
  *group = group_of(runtime, *runtime.comm(context.file->channel)); // the same members in the same order
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_amode(MPI_File fh, int* amode)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_amode", context));
  *amode = context.file->amode;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_set_info", context));
  const InfoObject* given = info == MPI_INFO_NULL ? nullptr : runtime.process_objects().info(info);
  MPISIM_FILE_CHECK(runtime, info == MPI_INFO_NULL || given != nullptr, fh, MPI_ERR_INFO,
                    "invalid info object " + std::to_string(info));
  // The striping is fixed once the file exists; the other hints change for the next accesses.
  if (given != nullptr) {
    FileHints hints = context.file->hints;
    apply_file_hints(hints, *given);
    hints.striping_unit = context.file->hints.striping_unit;
    hints.striping_factor = context.file->hints.striping_factor;
    context.file->hints = hints;
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_info(MPI_File fh, MPI_Info* info_used)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_info", context));
  *info_used = runtime.process_objects().add_info(hints_in_effect(runtime, *context.file));
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                                  const char* datarep, MPI_Info info)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_set_view", context));
  OpenFile& file = *context.file;
  const mpisim::mpi::DatatypePtr e = runtime.datatypes().find(etype);
  const mpisim::mpi::DatatypePtr f = runtime.datatypes().find(filetype);
  MPISIM_FILE_CHECK(runtime, e != nullptr, fh, MPI_ERR_TYPE, "invalid etype " + std::to_string(etype));
  MPISIM_FILE_CHECK(runtime, f != nullptr, fh, MPI_ERR_TYPE, "invalid filetype " + std::to_string(filetype));
  MPISIM_FILE_CHECK(runtime, e->size() > 0, fh, MPI_ERR_ARG, "the etype holds no data");
  MPISIM_FILE_CHECK(runtime, f->size() > 0 && f->size() % e->size() == 0, fh, MPI_ERR_ARG,
                    "the filetype (" + std::to_string(f->size()) + " bytes) is not a whole number of etypes (" +
                        std::to_string(e->size()) + " bytes)");
  for (const auto& block : f->blocks())
    MPISIM_FILE_CHECK(runtime, block.offset >= 0, fh, MPI_ERR_ARG, "the filetype has a negative displacement");
  MPISIM_FILE_CHECK(runtime, datarep != nullptr, fh, MPI_ERR_ARG, "null data representation");
  const std::string representation = datarep;
  MPISIM_FILE_CHECK(
      runtime, representation == "native" || representation == "internal" || representation == "external32", fh,
      MPI_ERR_UNSUPPORTED_DATAREP,
      "data representation '" + representation + "': mpisim knows \"native\", \"internal\" and \"external32\"");
  if (representation == "external32")
    for (const auto& [role, type] : {std::pair{"etype", e}, std::pair{"filetype", f}})
      if (const std::optional<std::string> refusal = mpisim::mpi::external32_refusal(*type))
        return raise_file_error(runtime, fh, MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view",
                                std::string("the ") + role + "'s " + *refusal);
  const bool sequential = (file.amode & MPI_MODE_SEQUENTIAL) != 0;
  MPISIM_FILE_CHECK(runtime, disp >= 0 || (sequential && disp == MPI_DISPLACEMENT_CURRENT), fh, MPI_ERR_ARG,
                    "negative displacement " + std::to_string(disp));
  const InfoObject* given = info == MPI_INFO_NULL ? nullptr : runtime.process_objects().info(info);
  MPISIM_FILE_CHECK(runtime, info == MPI_INFO_NULL || given != nullptr, fh, MPI_ERR_INFO,
                    "invalid info object " + std::to_string(info));
  FileView& view = context.member->view;
  if (disp == MPI_DISPLACEMENT_CURRENT) // the shared pointer's byte position
    disp = view_pieces(view, file.shared_pointer * static_cast<int64_t>(view.etype->size()), 1).front().offset;
  view.disp = disp;
  view.etype_handle = etype;
  view.filetype_handle = filetype;
  view.etype = e;
  view.filetype = f;
  view.datarep = representation;
  context.member->pointer = 0;
  if (given != nullptr) {
    FileHints hints = file.hints;
    apply_file_hints(hints, *given);
    hints.striping_unit = file.hints.striping_unit;
    hints.striping_factor = file.hints.striping_factor;
    file.hints = hints;
  }
  // Reset before the barrier: once a member has left it, another may already move the pointer.
  if (context.local_rank == 0)
    file.shared_pointer = 0;
  run_barrier(runtime, *runtime.comm(file.channel));
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                                  char* datarep)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_view", context));
  const FileView& view = context.member->view;
  *disp = view.disp;
  // Derived types come back as new handles the program frees (MPI-3.1 section 13.3); predefined ones as they are.
  auto handed_out = [&runtime](MPI_Datatype handle, const mpisim::mpi::DatatypePtr& type) {
    return type->is_predefined() ? handle : runtime.datatypes().add(mpisim::mpi::Datatype::duplicate(type));
  };
  *etype = handed_out(view.etype_handle, view.etype);
  *filetype = handed_out(view.filetype_handle, view.filetype);
  std::strncpy(datarep, view.datarep.c_str(), MPI_MAX_DATAREP_STRING - 1);
  datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_seek", context));
  MPISIM_FILE_CHECK(runtime, (context.file->amode & MPI_MODE_SEQUENTIAL) == 0, fh, MPI_ERR_UNSUPPORTED_OPERATION,
                    "the file was opened MPI_MODE_SEQUENTIAL");
  MPISIM_FILE_CHECK(runtime, whence == MPI_SEEK_SET || whence == MPI_SEEK_CUR || whence == MPI_SEEK_END, fh,
                    MPI_ERR_ARG,
                    "whence " + std::to_string(whence) + " is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
  const int64_t position = sought(context, context.member->pointer, offset, whence);
  MPISIM_FILE_CHECK(runtime, position >= 0, fh, MPI_ERR_ARG, "the pointer would go before the view's first etype");
  context.member->pointer = position;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_position(MPI_File fh, MPI_Offset* offset)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_position", context));
  *offset = context.member->pointer;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_byte_offset", context));
  MPISIM_FILE_CHECK(runtime, offset >= 0, fh, MPI_ERR_ARG, "negative offset " + std::to_string(offset));
  const FileView& view = context.member->view;
  *disp = view_pieces(view, offset * static_cast<int64_t>(view.etype->size()), 1).front().offset;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_seek_shared", context));
  MPISIM_FILE_CHECK(runtime, whence == MPI_SEEK_SET || whence == MPI_SEEK_CUR || whence == MPI_SEEK_END, fh,
                    MPI_ERR_ARG,
                    "whence " + std::to_string(whence) + " is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
  OpenFile& file = *context.file;
  const int64_t position = sought(context, file.shared_pointer, offset, whence);
  MPISIM_FILE_CHECK(runtime, position >= 0, fh, MPI_ERR_ARG, "the pointer would go before the view's first etype");
  // The first member sets it (the arguments are the same everywhere), before the barrier: no member uses the pointer
  // before all have reached it.
  if (context.local_rank == 0)
    file.shared_pointer = position;
  run_barrier(runtime, *runtime.comm(file.channel));
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_position_shared", context));
  wait_for(runtime, runtime.files().storage().metadata_request(client(runtime), context.file->id));
  *offset = context.file->shared_pointer;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_type_extent", context));
  const mpisim::mpi::DatatypePtr type = runtime.datatypes().find(datatype);
  MPISIM_FILE_CHECK(runtime, type != nullptr, fh, MPI_ERR_TYPE, "invalid datatype " + std::to_string(datatype));
  // In every representation mpisim writes, the elements have their sizes in memory: a type's extent is the same.
  if (context.member->view.external32())
    if (const std::optional<std::string> refusal = mpisim::mpi::external32_refusal(*type))
      return raise_file_error(runtime, fh, MPI_ERR_TYPE, "MPI_File_get_type_extent", *refusal);
  *extent = type->extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_set_atomicity", context));
  run_barrier(runtime, *runtime.comm(context.file->channel));
  context.file->atomic = flag != 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_atomicity(MPI_File fh, int* flag)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_get_atomicity", context));
  *flag = context.file->atomic ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_sync(MPI_File fh)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  FileContext context;
  MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_sync", context));
  MPISIM_FILE_CHECK(runtime, (context.file->amode & MPI_MODE_RDONLY) == 0, fh, MPI_ERR_ACCESS,
                    "the file was opened MPI_MODE_RDONLY");
  wait_for(runtime, runtime.files().storage().sync(client(runtime), context.file->id));
  run_barrier(runtime, *runtime.comm(context.file->channel));
  return MPI_SUCCESS;
}

// Error handlers (MPI-3.1 section 8.3.4) ---------------------------------------------------------------------------

extern "C" int PMPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  MPISIM_FILE_CHECK(runtime, function != nullptr, MPI_FILE_NULL, MPI_ERR_ARG, "null error handler function");
  // File and communicator handles are both integers: the handler has the communicator handlers' signature.
  *errhandler = runtime.process_objects().add_errhandler(function);
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  if (file != MPI_FILE_NULL)
    MPISIM_TRY(resolve_file(runtime, file, "MPI_File_set_errhandler", context));
  MPISIM_FILE_CHECK(runtime, is_attachable(runtime, errhandler), file, MPI_ERR_ARG,
                    "invalid error handler " + std::to_string(errhandler));
  if (file == MPI_FILE_NULL)
    runtime.files().default_errhandler(runtime.current_rank()) = errhandler;
  else
    context.member->errhandler = errhandler;
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  FileContext context;
  if (file != MPI_FILE_NULL)
    MPISIM_TRY(resolve_file(runtime, file, "MPI_File_get_errhandler", context));
  *errhandler =
      file == MPI_FILE_NULL ? runtime.files().default_errhandler(runtime.current_rank()) : context.member->errhandler;
  if (UserErrhandler* user = runtime.process_objects().errhandler(*errhandler))
    ++user->references; // a new handle the application frees
  return MPI_SUCCESS;
}

extern "C" int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
  Runtime& runtime = Runtime::get();
  if (fh != MPI_FILE_NULL) {
    FileContext context;
    MPISIM_TRY(resolve_file(runtime, fh, "MPI_File_call_errhandler", context));
  }
  raise_file_error(runtime, fh, errorcode, "MPI_File_call_errhandler", "raised by the application");
  return MPI_SUCCESS;
}

MPISIM_ALIAS(File_open)
MPISIM_ALIAS(File_close)
MPISIM_ALIAS(File_delete)
MPISIM_ALIAS(File_set_size)
MPISIM_ALIAS(File_preallocate)
MPISIM_ALIAS(File_get_size)
MPISIM_ALIAS(File_get_group)
MPISIM_ALIAS(File_get_amode)
MPISIM_ALIAS(File_set_info)
MPISIM_ALIAS(File_get_info)
MPISIM_ALIAS(File_set_view)
MPISIM_ALIAS(File_get_view)
MPISIM_ALIAS(File_seek)
MPISIM_ALIAS(File_get_position)
MPISIM_ALIAS(File_get_byte_offset)
MPISIM_ALIAS(File_seek_shared)
MPISIM_ALIAS(File_get_position_shared)
MPISIM_ALIAS(File_get_type_extent)
MPISIM_ALIAS(File_set_atomicity)
MPISIM_ALIAS(File_get_atomicity)
MPISIM_ALIAS(File_sync)
MPISIM_ALIAS(File_create_errhandler)
MPISIM_ALIAS(File_set_errhandler)
MPISIM_ALIAS(File_get_errhandler)
MPISIM_ALIAS(File_call_errhandler)
