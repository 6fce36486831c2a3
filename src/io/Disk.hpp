// A disk: one access at a time, in arrival order, each taking its positioning time plus its transfer time.
//
// Hard disks follow the PIOsimHD paper (Kunkel et al., Sec. 4; docs/io.md): with `end` the byte after the previous
// access of the disk,
//   same file, offset == end                  -> no positioning
//   same file, |offset - end| <= seek_window  -> track_to_track_seek + rotational delay
//   otherwise (farther, or another file)      -> average_seek + rotational delay
// where the rotational delay is half a revolution, 30 / rpm seconds; then size / bandwidth (read or write rate).
// SSDs and NVMe drives: latency + size / bandwidth.
#pragma once

#include "io/IoOperation.hpp"
#include "platform/Storage.hpp"

#include <cstdint>
#include <deque>
#include <optional>

namespace mpisim::io {

enum class Direction : uint8_t { Read, Write };

// Files as the storage model knows them: a number per file path.
using FileId = uint64_t;

struct DiskAccess {
  FileId file = 0;
  double offset = 0; // bytes, in the file's data on this disk
  double size = 0;   // bytes
  Direction direction = Direction::Read;
};

// Where the head was left: the file and the byte after the last access.
struct HeadPosition {
  FileId file = 0;
  double end = 0;
};

// Positioning time of `access` with the head at `head` (none before the first access: an average seek).
double positioning_time(const platform::DiskSpec& disk, const std::optional<HeadPosition>& head,
                        const DiskAccess& access);
// Positioning plus transfer (plus the SSD latency).
double service_time(const platform::DiskSpec& disk, const std::optional<HeadPosition>& head, const DiskAccess& access);

class Disk {
public:
  Disk(platform::DiskSpec spec, Continuations& continuations) : spec_(std::move(spec)), continuations_(continuations) {}
  Disk(const Disk&) = delete;
  Disk& operator=(const Disk&) = delete;

  const platform::DiskSpec& spec() const { return spec_; }
  // Queues an access; the operation completes when the disk has done it.
  IoOperationPtr access(const DiskAccess& access);
  // Accesses queued or in progress.
  size_t pending() const { return queue_.size(); }

private:
  void start_next();

  struct Queued {
    DiskAccess access;
    IoOperationPtr done;
  };
  platform::DiskSpec spec_;
  Continuations& continuations_;
  std::deque<Queued> queue_; // front: the access in progress
  std::optional<HeadPosition> head_;
};

} // namespace mpisim::io
