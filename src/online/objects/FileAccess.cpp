#include "online/objects/FileAccess.hpp"

#include "online/runtime/Runtime.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace mpisim::online {

namespace {

// The real file behind a collective access.
class RealFileBytes : public mpi::FileBytes {
public:
  explicit RealFileBytes(const OpenFile& file) : file_(file) {}
  int64_t size() const override { return real_file_size(file_); }
  void write(const std::vector<FilePiece>& pieces, const std::byte* data) override
  {
    write_pieces(file_, pieces, data);
  }
  int64_t read(const std::vector<FilePiece>& pieces, std::byte* data) override
  {
    return read_pieces(file_, pieces, data);
  }

private:
  const OpenFile& file_;
};

} // namespace

int64_t real_file_size(const OpenFile& file)
{
  struct stat about {};
  if (fstat(file.fd, &about) != 0)
    throw std::runtime_error("cannot read the size of " + file.path + ": " + std::strerror(errno));
  return about.st_size;
}

void write_pieces(const OpenFile& file, const std::vector<FilePiece>& pieces, const std::byte* data)
{
  for (const FilePiece& piece : pieces) {
    int64_t done = 0;
    while (done < piece.length) {
      const ssize_t wrote = pwrite(file.fd, data + done, static_cast<size_t>(piece.length - done), piece.offset + done);
      if (wrote < 0)
        throw std::runtime_error("cannot write " + file.path + ": " + std::strerror(errno));
      done += wrote;
    }
    data += piece.length;
  }
}

int64_t read_pieces(const OpenFile& file, const std::vector<FilePiece>& pieces, std::byte* data)
{
  int64_t total = 0;
  for (const FilePiece& piece : pieces) {
    int64_t done = 0;
    while (done < piece.length) {
      const ssize_t got = pread(file.fd, data + done, static_cast<size_t>(piece.length - done), piece.offset + done);
      if (got < 0)
        throw std::runtime_error("cannot read " + file.path + ": " + std::strerror(errno));
      if (got == 0)
        return total + done; // the end of the file
      done += got;
    }
    total += piece.length;
    data += piece.length;
  }
  return total;
}

kernel::ActivityPtr time_pieces(Runtime& runtime, OpenFile& file, int world_rank, const std::vector<FilePiece>& pieces,
                                io::Direction direction)
{
  const io::Client client{runtime.world().host_of(world_rank), world_rank};
  return mpi::time_pieces(runtime.files().storage(), file.id, client, pieces, direction, file.atomic, &file.hints);
}

namespace {

mpi::CollectiveFileAccess access_of(Runtime& runtime, OpenFile& file, uint32_t sequence, mpi::FileBytes& bytes)
{
  mpi::CollectiveFileAccess access{runtime.rank(),
                                   *runtime.comm(file.channel),
                                   runtime.simulation().collectives(),
                                   runtime.files().storage(),
                                   file.id,
                                   file.hints,
                                   &bytes,
                                   file.atomic};
  access.sequence = sequence;
  return access;
}

} // namespace

int64_t collective_access(Runtime& runtime, OpenFile& file, uint32_t sequence, const std::vector<FilePiece>& pieces,
                          std::byte* data, io::Direction direction)
{
  RealFileBytes bytes(file);
  return mpi::collective_access(access_of(runtime, file, sequence, bytes), pieces, data, direction);
}

void start_collective_access(Runtime& runtime, OpenFile& file, uint32_t sequence, std::vector<FilePiece> pieces,
                             std::byte* data, io::Direction direction, AccessFinish finish)
{
  // Everything the helper needs is taken here: it is no rank of the runtime's (Runtime::current_rank() does not know
  // it), though it acts for this one (mpi::Rank::spawn_helper).
  auto bytes = std::make_shared<RealFileBytes>(file);
  const mpi::CollectiveFileAccess access = access_of(runtime, file, sequence, *bytes);
  runtime.rank().spawn_helper("file access " + std::to_string(sequence), [access, bytes, pieces = std::move(pieces),
                                                                          data, direction, finish = std::move(finish)] {
    int64_t moved = 0;
    std::string error;
    try {
      moved = mpi::collective_access(access, pieces, data, direction);
    } catch (const std::runtime_error& failure) { // the real file failed: the request reports it
      error = failure.what();
    }
    finish(moved, error);
  });
}

} // namespace mpisim::online
