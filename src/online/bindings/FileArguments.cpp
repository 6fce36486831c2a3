#include "online/bindings/FileArguments.hpp"

namespace mpisim::online {

namespace {

FileContext context_of(MPI_File fh)
{
  Runtime& runtime = Runtime::get();
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

int resolve_file(MPI_File fh, const char* call, FileContext& out)
{
  out = context_of(fh);
  if (out.file != nullptr)
    return MPI_SUCCESS;
  return raise_file_error(fh, MPI_ERR_FILE, call, "invalid file " + std::to_string(fh));
}

int raise_file_error(MPI_File fh, int error_class, const char* call, const std::string& what)
{
  Runtime& runtime = Runtime::get();
  const FileContext context = context_of(fh);
  const int handler = context.member != nullptr ? context.member->errhandler
                                                : runtime.files().default_errhandler(runtime.current_rank());
  return raise_through_handler(handler, context.file != nullptr ? fh : MPI_FILE_NULL, error_class, call, what);
}

} // namespace mpisim::online
