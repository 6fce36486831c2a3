#include "online/objects/Files.hpp"

#include "common/Units.hpp"
#include "mpi/Simulation.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace mpisim::online {

namespace {

// A prefix naming a file system, as ROMIO accepts them ("ufs:data.bin"): dropped.
std::string without_file_system_prefix(const std::string& name)
{
  const size_t colon = name.find(':');
  if (colon == std::string::npos || colon < 2 || name.find('/') < colon)
    return name;
  return name.substr(colon + 1);
}

void add_piece(std::vector<FilePiece>& pieces, int64_t offset, int64_t length)
{
  if (length <= 0)
    return;
  if (!pieces.empty() && pieces.back().offset + pieces.back().length == offset)
    pieces.back().length += length;
  else
    pieces.push_back({offset, length});
}

} // namespace

std::vector<FilePiece> view_pieces(const FileView& view, int64_t position, int64_t bytes)
{
  std::vector<FilePiece> pieces;
  if (bytes <= 0)
    return pieces;
  const mpi::Datatype& filetype = *view.filetype;
  if (filetype.is_contiguous()) {
    pieces.push_back({view.disp + position, bytes});
    return pieces;
  }
  const auto tile_bytes = static_cast<int64_t>(filetype.size());
  const int64_t extent = filetype.extent();
  int64_t tile = position / tile_bytes;
  int64_t skip = position % tile_bytes; // data bytes of the first tile before `position`
  while (bytes > 0) {
    const int64_t origin = view.disp + tile * extent;
    for (const mpi::Datatype::Block& block : filetype.blocks()) {
      auto length = static_cast<int64_t>(block.length);
      if (skip >= length) {
        skip -= length;
        continue;
      }
      const int64_t taken = std::min(length - skip, bytes);
      add_piece(pieces, origin + block.offset + skip, taken);
      skip = 0;
      bytes -= taken;
      if (bytes == 0)
        break;
    }
    ++tile;
  }
  return pieces;
}

int64_t view_bytes_before(const FileView& view, int64_t file_size)
{
  const int64_t span = file_size - view.disp;
  if (span <= 0)
    return 0;
  const mpi::Datatype& filetype = *view.filetype;
  if (filetype.is_contiguous())
    return span;
  const int64_t extent = filetype.extent();
  const int64_t tiles = span / extent;
  int64_t bytes = tiles * static_cast<int64_t>(filetype.size());
  const int64_t rest = span - tiles * extent;
  for (const mpi::Datatype::Block& block : filetype.blocks())
    bytes += std::clamp<int64_t>(rest - block.offset, 0, static_cast<int64_t>(block.length));
  return bytes;
}

void apply_file_hints(FileHints& hints, const InfoObject& info)
{
  auto positive = [](const std::string& text, int64_t& out) {
    try {
      const double value = units::parse_size(text);
      if (value >= 1)
        out = static_cast<int64_t>(value);
    } catch (const std::exception&) {
    }
  };
  for (const auto& [key, value] : info.entries) {
    int64_t number = 0;
    if (key == "cb_nodes" && (positive(value, number), number > 0))
      hints.cb_nodes = static_cast<int>(std::min<int64_t>(number, 1 << 30));
    else if (key == "cb_buffer_size")
      positive(value, hints.cb_buffer_size);
    else if (key == "striping_unit")
      positive(value, hints.striping_unit);
    else if (key == "striping_factor" && (positive(value, number), number > 0))
      hints.striping_factor = static_cast<int>(std::min<int64_t>(number, 1 << 30));
    else if ((key == "romio_cb_read" || key == "romio_cb_write") &&
             (value == "enable" || value == "disable" || value == "automatic"))
      (key == "romio_cb_read" ? hints.romio_cb_read : hints.romio_cb_write) = value;
    else if ((key == "romio_ds_read" || key == "romio_ds_write") &&
             (value == "enable" || value == "disable" || value == "automatic"))
      (key == "romio_ds_read" ? hints.romio_ds_read : hints.romio_ds_write) = value;
    else if (key == "ind_rd_buffer_size")
      positive(value, hints.ind_rd_buffer_size);
    else if (key == "ind_wr_buffer_size")
      positive(value, hints.ind_wr_buffer_size);
  }
}

Files::Files(mpi::Simulation& simulation, std::string root, int ranks)
    : storage_(simulation.engine(), simulation.platform(), simulation.network(), ranks), root_(std::move(root)),
      default_errhandlers_(static_cast<size_t>(ranks), MPI_ERRORS_RETURN)
{
}

Files::~Files()
{
  for (auto& [channel, handle] : handle_of_channel_) {
    if (OpenFile* file = files_.find(handle); file != nullptr && file->fd >= 0)
      ::close(file->fd);
  }
  remove_temporary_root();
}

void Files::remove_temporary_root()
{
  if (!temporary_root_)
    return;
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
  temporary_root_ = false;
}

const std::string& Files::root()
{
  if (root_.empty()) {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/mpisim-io-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot make a temporary folder for the run's files: " + pattern);
    root_ = pattern;
    temporary_root_ = true;
  } else {
    std::error_code ignored;
    std::filesystem::create_directories(root_, ignored);
  }
  return root_;
}

std::string Files::real_path(const std::string& name, std::string& why)
{
  const std::string given = without_file_system_prefix(name);
  if (given.empty()) {
    why = "empty file name";
    return "";
  }
  // Lexically: a ".." may not climb above the root; symbolic links inside the root are not followed out of it
  // because mpisim makes none there.
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= given.size()) {
    size_t slash = given.find('/', start);
    if (slash == std::string::npos)
      slash = given.size();
    const std::string part = given.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".")
      continue;
    if (part == "..") {
      if (parts.empty()) {
        why = "'" + name + "' leaves the run's I/O folder";
        return "";
      }
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  if (parts.empty()) {
    why = "'" + name + "' names no file";
    return "";
  }
  std::string path = root();
  for (const std::string& part : parts)
    path += "/" + part;
  return path;
}

OpenFile& Files::join(int channel, int members)
{
  auto known = handle_of_channel_.find(channel);
  if (known != handle_of_channel_.end())
    return *files_.find(known->second);
  const int handle = files_.insert(OpenFile{});
  OpenFile& file = *files_.find(handle);
  file.handle = handle;
  file.channel = channel;
  file.comm_size = members;
  file.members.resize(static_cast<size_t>(members));
  handle_of_channel_[channel] = handle;
  return file;
}

void Files::leave(OpenFile& file, int local_rank)
{
  FileMember& member = file.members[static_cast<size_t>(local_rank)];
  if (!member.live)
    return;
  member.live = false;
  if (--file.live_members > 0)
    return;
  if (file.fd >= 0)
    ::close(file.fd);
  handle_of_channel_.erase(file.channel);
  files_.erase(file.handle);
}

} // namespace mpisim::online
