#include "online/bindings/FileArguments.hpp"

namespace mpisim::online {

namespace {

FileContext context_of(Runtime& runtime, MPI_File fh)
{
  FileContext context;
  OpenFile* file = fh == MPI_FILE_NULL ? nullptr : runtime.files().find(fh);
  if (file == nullptr)
    return context;
  const mpi::Communicator* channel = runtime.comm(file->channel);
  const int local = channel == nullptr ? -1 : channel->local_rank(runtime.current_rank());
  if (local < 0 || !file->members[static_cast<size_t>(local)].live)
    return context;
  return {file, &file->members[static_cast<size_t>(local)], local};
}

} // namespace

int resolve_file(Runtime& runtime, MPI_File fh, const char* call, FileContext& out)
{
  out = context_of(runtime, fh);
  if (out.file != nullptr)
    return MPI_SUCCESS;
  return raise_file_error(runtime, fh, MPI_ERR_FILE, call, "invalid file " + std::to_string(fh));
}

int raise_file_error(Runtime& runtime, MPI_File fh, int error_class, const char* call, const std::string& what)
{
  const FileContext context = context_of(runtime, fh);
  const int handler = context.member != nullptr ? context.member->errhandler
                                                : runtime.files().default_errhandler(runtime.current_rank());
  return raise_through_handler(runtime, handler, context.file != nullptr ? fh : MPI_FILE_NULL, error_class, call, what);
}

} // namespace mpisim::online
