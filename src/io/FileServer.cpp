#include "io/FileServer.hpp"

#include <algorithm>

namespace mpisim::io {

FileServer::FileServer(platform::FileServerSpec spec, const std::vector<platform::DiskSpec>& disks,
                       Continuations& continuations)
    : spec_(spec), continuations_(continuations)
{
  for (const platform::DiskSpec& disk : disks)
    disks_.push_back(std::make_unique<Disk>(disk, continuations_));
}

IoOperationPtr FileServer::serve_piece(FileId file, double offset, double size, Direction direction,
                                       double request_begin, double request_end)
{
  return direction == Direction::Write ? write(file, offset, size)
                                       : read(file, offset, size, request_begin, request_end);
}

IoOperationPtr FileServer::copy_in_memory(double size, const std::string& what)
{
  auto done = std::make_shared<IoOperation>(what);
  continuations_.after_delay(size / spec_.cache.memory_bandwidth, what, [done] { done->complete(); });
  return done;
}

IoOperationPtr FileServer::write(FileId file, double offset, double size)
{
  const platform::CacheSpec& cache = spec_.cache;
  const DiskAccess access{file, offset, size, Direction::Write};
  if (cache.size > 0 && cache.write_behind && dirty_ + size <= cache.size) {
    dirty_ += size;
    dirty_of_[file] += size;
    keep(file, offset, size, nullptr);
    IoOperationPtr flushed = disk_of(file).access(access);
    continuations_.after(flushed, [this, file, size] { flush_done(file, size); });
    return copy_in_memory(size, "cache: write of " + std::to_string(static_cast<long long>(size)) + " bytes");
  }
  IoOperationPtr written = disk_of(file).access(access);
  if (cache.size > 0)
    continuations_.after(written, [this, file, offset, size] { keep(file, offset, size, nullptr); });
  return written;
}

void FileServer::flush_done(FileId file, double size)
{
  dirty_ -= size;
  double& left = dirty_of_[file];
  left -= size;
  if (left > 0)
    return;
  dirty_of_.erase(file);
  auto waiting = syncs_.find(file);
  if (waiting == syncs_.end())
    return;
  std::vector<IoOperationPtr> done = std::move(waiting->second);
  syncs_.erase(waiting);
  for (auto& sync : done)
    sync->complete();
}

IoOperationPtr FileServer::sync(FileId file)
{
  auto done = std::make_shared<IoOperation>("sync");
  if (!dirty_of_.count(file)) {
    continuations_.after_delay(0, "sync", [done] { done->complete(); });
    return done;
  }
  syncs_[file].push_back(done);
  return done;
}

IoOperationPtr FileServer::read(FileId file, double offset, double size, double request_begin, double request_end)
{
  const platform::CacheSpec& cache = spec_.cache;
  const std::string what = "read of " + std::to_string(static_cast<long long>(size)) + " bytes";
  IoOperationPtr done;
  std::vector<IoOperationPtr> pending;
  if (cache.size > 0 && cached(file, offset, size, pending)) {
    done = std::make_shared<IoOperation>("cache: " + what);
    // Wait for the read-ahead still on its way (all of it: they complete in disk order), then copy out.
    auto copy = [this, done, size, what] {
      IoOperationPtr copied = copy_in_memory(size, "cache: " + what);
      continuations_.after(copied, [done] { done->complete(); });
    };
    if (pending.empty())
      copy();
    else
      continuations_.after(pending.back(), copy);
  } else {
    done = disk_of(file).access({file, offset, size, Direction::Read});
    if (cache.size > 0)
      keep(file, offset, size, done);
  }
  if (offset + size < request_end) // not the request's last piece: the request as a whole decides on read-ahead
    return done;
  auto last = last_read_end_.find(file);
  const bool sequential = last != last_read_end_.end() && last->second == request_begin;
  last_read_end_[file] = request_end;
  if (sequential && cache.size > 0 && cache.read_ahead > 0)
    read_ahead(file, request_end);
  return done;
}

// Fetches what of [from, from + read_ahead) the cache does not hold yet, from the end of the cached bytes that follow
// `from`: a reader going through a file in records smaller than the read-ahead does not fetch the same window again
// at each record.
void FileServer::read_ahead(FileId file, double from)
{
  const double end = from + spec_.cache.read_ahead;
  const double start = cached_until(file, from);
  if (start >= end)
    return;
  IoOperationPtr fetched = disk_of(file).access({file, start, end - start, Direction::Read});
  keep(file, start, end - start, fetched);
}

double FileServer::cached_until(FileId file, double offset) const
{
  auto found = extents_.find(file);
  if (found == extents_.end())
    return offset;
  const Extents& extents = found->second;
  double covered = offset;
  auto it = extents.upper_bound(offset);
  if (it != extents.begin())
    --it;
  for (; it != extents.end() && it->first <= covered; ++it)
    covered = std::max(covered, it->second.end);
  return covered;
}

bool FileServer::cached(FileId file, double offset, double size, std::vector<IoOperationPtr>& pending) const
{
  auto found = extents_.find(file);
  if (found == extents_.end())
    return false;
  const Extents& extents = found->second;
  double covered = offset;
  const double end = offset + size;
  auto it = extents.upper_bound(offset);
  if (it != extents.begin())
    --it;
  for (; it != extents.end() && covered < end; ++it) {
    if (it->first > covered)
      return false;
    if (it->second.end <= covered)
      continue;
    if (it->second.ready && !it->second.ready->done())
      pending.push_back(it->second.ready);
    covered = it->second.end;
  }
  return covered >= end;
}

void FileServer::keep(FileId file, double offset, double size, IoOperationPtr ready)
{
  forget_range(file, offset, offset + size);
  insert_extent(file, offset, offset + size, std::move(ready));
  make_room();
}

void FileServer::insert_extent(FileId file, double begin, double end, IoOperationPtr ready)
{
  const uint64_t age = next_age_++;
  extents_[file][begin] = {end, std::move(ready), age};
  by_age_[age] = {file, begin};
  cached_ += end - begin;
}

// Drops what the cache holds of [begin, end), keeping the parts of extents outside it.
void FileServer::forget_range(FileId file, double begin, double end)
{
  Extents& extents = extents_[file];
  struct Part {
    double begin, end;
    IoOperationPtr ready;
  };
  std::vector<Part> outside;
  auto it = extents.upper_bound(begin);
  if (it != extents.begin())
    --it;
  while (it != extents.end() && it->first < end) {
    if (it->second.end <= begin) {
      ++it;
      continue;
    }
    const double first = it->first;
    const Extent extent = it->second;
    by_age_.erase(extent.age);
    cached_ -= extent.end - first;
    it = extents.erase(it);
    if (first < begin)
      outside.push_back({first, begin, extent.ready});
    if (extent.end > end)
      outside.push_back({end, extent.end, extent.ready});
  }
  for (Part& part : outside)
    insert_extent(file, part.begin, part.end, std::move(part.ready));
}

void FileServer::make_room()
{
  while (cached_ > spec_.cache.size && !by_age_.empty()) {
    auto oldest = by_age_.begin();
    auto [file, begin] = oldest->second;
    Extents& extents = extents_[file];
    auto extent = extents.find(begin);
    cached_ -= extent->second.end - begin;
    extents.erase(extent);
    by_age_.erase(oldest);
  }
}

} // namespace mpisim::io
