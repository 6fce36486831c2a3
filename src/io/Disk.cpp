#include "io/Disk.hpp"

#include <cmath>

namespace mpisim::io {

double positioning_time(const platform::DiskSpec& disk, const std::optional<HeadPosition>& head,
                        const DiskAccess& access)
{
  if (disk.kind == platform::DiskKind::Ssd)
    return disk.latency;
  const double rotational_delay = 30.0 / disk.rpm;
  if (!head || head->file != access.file)
    return disk.average_seek + rotational_delay;
  const double distance = std::fabs(access.offset - head->end);
  if (distance == 0)
    return 0;
  if (distance <= disk.seek_window)
    return disk.track_to_track_seek + rotational_delay;
  return disk.average_seek + rotational_delay;
}

double service_time(const platform::DiskSpec& disk, const std::optional<HeadPosition>& head, const DiskAccess& access)
{
  const double bandwidth = access.direction == Direction::Read ? disk.read_bandwidth : disk.write_bandwidth;
  return positioning_time(disk, head, access) + access.size / bandwidth;
}

IoOperationPtr Disk::access(const DiskAccess& access)
{
  auto done = std::make_shared<IoOperation>("disk '" + spec_.name +
                                            "': " + (access.direction == Direction::Read ? "read" : "write") + " of " +
                                            std::to_string(static_cast<long long>(access.size)) + " bytes");
  queue_.push_back({access, done});
  if (queue_.size() == 1)
    start_next();
  return done;
}

void Disk::start_next()
{
  const Queued& current = queue_.front();
  const double duration = service_time(spec_, head_, current.access);
  head_ = HeadPosition{current.access.file, current.access.offset + current.access.size};
  continuations_.after_delay(duration, current.done->describe(), [this] {
    IoOperationPtr done = std::move(queue_.front().done);
    queue_.pop_front();
    if (!queue_.empty())
      start_next();
    done->complete();
  });
}

} // namespace mpisim::io
