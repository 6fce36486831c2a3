// Moving a file's bytes and timing the move: independent accesses (each contiguous piece of the file in turn) and
// collective ones by two-phase aggregation (mpi/io/CollectiveFileAccess, shared with replay). The bytes go to and
// from the real file; the time is the storage model's (src/io) and, for the exchanges of collective I/O, the network
// model's.
#pragma once

#include "online/objects/Files.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mpisim::online {

class Runtime;

// The real file's size in bytes.
int64_t real_file_size(const OpenFile& file);

// Writes the data stream `data` to the pieces, in order.
void write_pieces(const OpenFile& file, const std::vector<FilePiece>& pieces, const std::byte* data);
// Reads the pieces into `data`, in order, up to the end of the file: returns the bytes read (a read stops at the
// first piece the end of the file cuts).
int64_t read_pieces(const OpenFile& file, const std::vector<FilePiece>& pieces, std::byte* data);
using mpi::first_bytes;

// The storage model's activity for `world_rank` accessing the pieces one after the other.
kernel::ActivityPtr time_pieces(Runtime& runtime, OpenFile& file, int world_rank, const std::vector<FilePiece>& pieces,
                                io::Direction direction);

// A collective read or write by every member of the file, each giving its own pieces (in data order) and its data
// stream (the source of a write, the destination of a read): mpi::collective_access with the real file's bytes.
// `sequence` numbers the access among the member's collective accesses on the file (FileMember::collectives).
// Returns the member's bytes read or written. Blocks the calling member until its part is done.
int64_t collective_access(Runtime& runtime, OpenFile& file, uint32_t sequence, const std::vector<FilePiece>& pieces,
                          std::byte* data, io::Direction direction);

// The same access posted now and carried out by a helper actor on the calling rank's host, which runs the blocking
// code above unchanged while the rank goes on (docs/specifications/two-phase-io.md, "Non-blocking and split
// collectives"). The helper computes nothing. `finish` runs in the helper when the member's part is done, with the
// bytes moved and, when the real file failed, the error's text (else empty). `data` must live until then.
using AccessFinish = std::function<void(int64_t bytes, const std::string& error)>;
void start_collective_access(Runtime& runtime, OpenFile& file, uint32_t sequence, std::vector<FilePiece> pieces,
                             std::byte* data, io::Direction direction, AccessFinish finish);

} // namespace mpisim::online
