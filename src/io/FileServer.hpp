// A file server: its disks and its cache (PIOsimHD paper, Kunkel et al., Sec. 4: a cache layer scheduling the
// operations of an I/O subsystem). Offsets here are in the file's data held by this server (its part of the stripes,
// stored contiguously, as PVFS keeps one data file per server); a file lives on disk number (file mod disks).
//
// The cache (docs/io.md):
//  - write-behind: a write completes once copied into memory (size / memory bandwidth) when the dirty data fits in
//    the cache; it is written to disk in the background. When it does not fit, the write goes to the disk and
//    completes there (behind the queued flushes: the disk is FIFO).
//  - reads: data held in the cache is copied out of memory; data being read ahead is waited for; anything else is
//    read from disk, then kept. A read continuing the previous read of the same file (offset == its end) also fetches
//    the next read_ahead bytes in the background.
//  - the cache holds at most `size` bytes of data; the oldest clean data is dropped first.
#pragma once

#include "io/Disk.hpp"
#include "platform/Storage.hpp"

#include <map>
#include <memory>
#include <vector>

namespace mpisim::io {

class FileServer {
public:
  FileServer(platform::FileServerSpec spec, const std::vector<platform::DiskSpec>& disks, Continuations& continuations);
  FileServer(const FileServer&) = delete;
  FileServer& operator=(const FileServer&) = delete;

  platform::HostId host() const { return spec_.host; }
  const platform::CacheSpec& cache() const { return spec_.cache; }
  Disk& disk_of(FileId file) { return *disks_[file % disks_.size()]; }

  // Serves a request whose data is at the server (write) or must be made ready to send (read).
  IoOperationPtr serve(FileId file, double offset, double size, Direction direction)
  {
    return serve_piece(file, offset, size, direction, offset, offset + size);
  }
  // Serves [offset, offset + size), one piece of a request for [request_begin, request_end) served in transfer-unit
  // pieces (docs/io.md, pipelining): read-ahead is decided once per request, at its last piece.
  IoOperationPtr serve_piece(FileId file, double offset, double size, Direction direction, double request_begin,
                             double request_end);
  // Completes when every write-behind of `file` has reached the disk.
  IoOperationPtr sync(FileId file);
  // Bytes written behind and not yet on disk.
  double dirty_bytes() const { return dirty_; }

private:
  struct Extent {
    double end = 0;
    IoOperationPtr ready; // null: the data is in memory; else it arrives when this completes
    uint64_t age = 0;
  };
  using Extents = std::map<double, Extent>; // by first byte, disjoint

  IoOperationPtr write(FileId file, double offset, double size);
  IoOperationPtr read(FileId file, double offset, double size, double request_begin, double request_end);
  IoOperationPtr copy_in_memory(double size, const std::string& what);
  void read_ahead(FileId file, double from);
  // Whether [offset, offset + size) is all in the cache or on its way; collects what arrives later.
  bool cached(FileId file, double offset, double size, std::vector<IoOperationPtr>& pending) const;
  // The end of the cached bytes that run on without a gap from `offset` (`offset` itself when it is not cached).
  double cached_until(FileId file, double offset) const;
  void keep(FileId file, double offset, double size, IoOperationPtr ready);
  void insert_extent(FileId file, double begin, double end, IoOperationPtr ready);
  void forget_range(FileId file, double begin, double end);
  void make_room();
  void flush_done(FileId file, double size);

  platform::FileServerSpec spec_;
  Continuations& continuations_;
  std::vector<std::unique_ptr<Disk>> disks_;
  std::map<FileId, Extents> extents_;
  std::map<uint64_t, std::pair<FileId, double>> by_age_; // oldest first: (file, first byte)
  uint64_t next_age_ = 0;
  double cached_ = 0; // bytes in extents
  double dirty_ = 0;
  std::map<FileId, double> dirty_of_;
  std::map<FileId, std::vector<IoOperationPtr>> syncs_; // waiting for the file's dirty data to reach the disk
  std::map<FileId, double> last_read_end_;
};

} // namespace mpisim::io
