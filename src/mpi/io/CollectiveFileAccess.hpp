// Collective file accesses by two-phase aggregation (docs/specifications/two-phase-io.md), shared by the online
// MPI-IO binding and by replay: the decisions, the exchanges between members (point to point on the file's
// communicator, timed by the network model) and the aggregators' accesses (timed by the storage model, src/io).
// The bytes are optional: online runs move real bytes through `FileBytes`; replay has none and only takes the time.
#pragma once

#include "io/StorageSystem.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpisim::mpi {

class Rank;
class Communicator;
class CollectiveLibrary;

// [offset, offset + length) of a file, in bytes.
struct FilePiece {
  int64_t offset;
  int64_t length;
};

// The hints of collective buffering in effect (ROMIO's names and defaults).
struct CollectiveBufferingHints {
  int cb_nodes = 0; // aggregators; 0: one per host
  int64_t cb_buffer_size = int64_t{16} << 20;
  std::string romio_cb_read = "automatic";
  std::string romio_cb_write = "automatic";
  // Data sieving of independent non-contiguous accesses (docs/specifications/data-sieving.md).
  std::string romio_ds_read = "automatic";
  std::string romio_ds_write = "automatic";
  int64_t ind_rd_buffer_size = 4194304;
  int64_t ind_wr_buffer_size = 524288;
};

// The real file behind an access (online runs); replay passes none.
class FileBytes {
public:
  virtual ~FileBytes() = default;
  // The file's size in bytes (a read stops there).
  virtual int64_t size() const = 0;
  // Writes the data stream to the pieces, in order.
  virtual void write(const std::vector<FilePiece>& pieces, const std::byte* data) = 0;
  // Reads the pieces into the data stream, in order, up to the end of the file: returns the bytes read (a read stops
  // at the first piece the end of the file cuts).
  virtual int64_t read(const std::vector<FilePiece>& pieces, std::byte* data) = 0;
};

// Who accesses which file, through which communicator.
struct CollectiveFileAccess {
  Rank& rank;                           // the calling member
  const Communicator& channel;          // the file's members (a hidden communicator online, the opener's in replay)
  const CollectiveLibrary& collectives; // runs step 2's all-gather
  io::StorageSystem& storage;
  io::FileId file;
  const CollectiveBufferingHints& hints;
  // Null: time only, `data` is ignored and a read gets every byte it asks for (a trace records what was read).
  FileBytes* bytes = nullptr;
  bool atomic = false; // MPI atomic mode: each file access under a byte-range lock
  // The access's number among the collective accesses on the file (the same on every member, MPI ordering them):
  // its messages carry tags of their own, so that two collectives in flight on one file (non-blocking or split, run
  // by helper actors) never match each other's messages. Unset: the tags of a lone blocking call (replay).
  std::optional<uint32_t> sequence;
};

// The storage model's activity for `world_rank` accessing the pieces one after the other; in atomic mode, under a
// byte-range lock of their extent, so that overlapping accesses of different ranks are serialized. With `sieving`
// hints, non-contiguous pieces are accessed by data sieving unless the hints disable it
// (docs/specifications/data-sieving.md).
kernel::ActivityPtr time_pieces(io::StorageSystem& storage, io::FileId file, const io::Client& client,
                                const std::vector<FilePiece>& pieces, io::Direction direction, bool atomic = false,
                                const CollectiveBufferingHints* sieving = nullptr);

// The first `bytes` bytes of the pieces' data.
std::vector<FilePiece> first_bytes(const std::vector<FilePiece>& pieces, int64_t bytes);

// A collective read or write by every member of the channel, each giving its own pieces (in file order) and its data
// stream (the source of a write, the destination of a read; null without bytes). Returns the member's bytes read or
// written. Blocks the calling member until its part is done.
int64_t collective_access(const CollectiveFileAccess& access, const std::vector<FilePiece>& pieces, std::byte* data,
                          io::Direction direction);

} // namespace mpisim::mpi
