// MPI-IO files (MPI-3.1 chapter 13): the state behind MPI_File handles, made only when a program opens a file.
//
// A file opened by a communicator is one object shared by its members, with one handle on every member (as windows):
// its part on each member (view, individual file pointer, error handler) is indexed by rank in the file's
// communicator. The members' collective work (two-phase I/O, ordered accesses) travels on a hidden communicator of
// the file. The bytes are real: each file is a real file under the run's I/O root (--io-root), opened once for all
// members; the time of each access is the storage model's (src/io).
#pragma once

#include "online/objects/ProcessObjects.hpp"
#include "online/runtime/HandleTable.hpp"

#include "io/StorageSystem.hpp"
#include "mpi/Datatype.hpp"
#include "mpi/io/CollectiveFileAccess.hpp"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {
class Simulation;
}

namespace mpisim::online {

class Runtime;

using mpi::FilePiece;

// A file view (MPI-3.1 section 13.3): the data of a member are the filetype's bytes, tiled from `disp`.
struct FileView {
  int64_t disp = 0;
  MPI_Datatype etype_handle = MPI_BYTE;
  MPI_Datatype filetype_handle = MPI_BYTE;
  mpi::DatatypePtr etype;
  mpi::DatatypePtr filetype;
  std::string datarep = "native"; // "internal" holds the same bytes (one machine); "external32" is big-endian
  bool external32() const { return datarep == "external32"; }
};

// The file's pieces holding `bytes` bytes of the view's data from data byte `position` (the view's etypes times the
// etype's size), in data order, adjacent pieces merged.
std::vector<FilePiece> view_pieces(const FileView& view, int64_t position, int64_t bytes);
// The view's data bytes that lie before file byte `file_size` (where MPI_SEEK_END puts a pointer).
int64_t view_bytes_before(const FileView& view, int64_t file_size);

// The hints in effect (ROMIO's names; docs/specifications/two-phase-io.md).
struct FileHints : mpi::CollectiveBufferingHints {
  int64_t striping_unit = 0; // 0: the platform's
  int striping_factor = 0;
};
// Takes the hints of `info` mpisim knows (others are ignored, as the standard allows); wrong values are ignored too.
void apply_file_hints(FileHints& hints, const InfoObject& info);

struct FileMember {
  FileView view;
  int64_t pointer = 0; // individual file pointer, in etypes of the view
  int errhandler = MPI_ERRORS_RETURN;
  bool live = false;
  // Collective accesses this member began on the file: the next one's number (the same on every member, MPI
  // ordering them), which keeps the messages of accesses in flight together apart.
  uint32_t collectives = 0;
  // A split collective begun and not ended (MPI_File_*_all_begin): its request, which the end call waits for.
  bool split_pending = false;
  int split_request = MPI_REQUEST_NULL;
};

struct OpenFile {
  int handle = MPI_FILE_NULL;
  int channel = MPI_COMM_NULL; // hidden communicator of the members
  int comm_size = 0;
  std::string name; // as the program gave it
  std::string path; // the real file
  int fd = -1;
  int amode = 0;
  io::FileId id = 0;
  std::vector<FileMember> members; // by rank in the file's communicator
  int live_members = 0;
  int64_t shared_pointer = 0; // in etypes
  bool atomic = false;
  FileHints hints;
  // MPI_File_open's outcome, decided by the first member to get there (the same on every member).
  int open_error = MPI_SUCCESS;
  std::string open_error_text;
  bool opened = false;
};

class Files {
public:
  // `root`: the I/O root; empty: a temporary folder made on first use and removed with this object.
  Files(mpi::Simulation& simulation, std::string root, int ranks);
  ~Files();
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;

  io::StorageSystem& storage() { return storage_; }
  // The real path of the program's file `name` inside the I/O root (ROMIO's "ufs:" style prefixes dropped; an absolute
  // path is taken relative to the root); "" with `why` set when the name is empty or leaves the root ("..").
  std::string real_path(const std::string& name, std::string& why);
  const std::string& root();
  // Removes the temporary I/O root (none when --io-root gave one): at the end of the run, also an abrupt one.
  void remove_temporary_root();

  // The file of hidden communicator `channel`, made by its first member to get there.
  OpenFile& join(int channel, int members);
  OpenFile* find(int handle) { return files_.find(handle); }
  // The member left: the object goes with its last member.
  void leave(OpenFile& file, int local_rank);
  // MPI_FILE_NULL's error handler on a rank: the one of files not opened yet, and of errors without a file.
  int& default_errhandler(int world_rank) { return default_errhandlers_[static_cast<size_t>(world_rank)]; }

private:
  io::StorageSystem storage_;
  std::string root_;
  bool temporary_root_ = false;
  HandleTable<OpenFile> files_{{MPI_ERR_FILE, "file"}, MPI_FILE_NULL + 1};
  std::map<int, int> handle_of_channel_;
  std::vector<int> default_errhandlers_;
};

} // namespace mpisim::online
