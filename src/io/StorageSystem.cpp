#include "io/StorageSystem.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::io {

namespace {

std::string bytes_text(double bytes)
{
  return std::to_string(static_cast<long long>(bytes)) + " bytes";
}

// A server moves a request's data between its network and its storage in pieces of this size, so that its disk works
// on one piece while the network carries another (docs/io.md, pipelining). Large enough that the network latency paid
// per piece is small next to the piece's transfer (1.2 % on Gigabit Ethernet), small enough that a 100 MiB record
// flows through 100 pieces.
constexpr double kTransferUnit = 1048576;

// Completes `done` after `count` calls of the returned function.
std::function<void()> countdown(size_t count, const IoOperationPtr& done)
{
  auto left = std::make_shared<size_t>(count);
  return [left, done] {
    if (--*left == 0)
      done->complete();
  };
}

} // namespace

StorageSystem::StorageSystem(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
                             int first_server_rank)
    : engine_(engine), platform_(platform), network_(network), first_server_rank_(first_server_rank),
      continuations_(engine)
{
  const platform::StorageSpec& storage = platform.storage();
  for (const platform::FileServerSpec& server : storage.servers)
    servers_.push_back(std::make_unique<FileServer>(server, storage.disks.at(server.host), continuations_));
}

FileId StorageSystem::file(const std::string& path, Striping hints)
{
  auto [it, added] = ids_.try_emplace(path, ids_.size());
  if (!added)
    return it->second;
  const platform::StorageSpec& storage = platform_.storage();
  FileState state;
  const int servers = static_cast<int>(servers_.size());
  state.striping.unit = hints.unit > 0 ? hints.unit : storage.stripe_size;
  const int count = hints.count > 0 ? hints.count : storage.stripe_count > 0 ? storage.stripe_count : servers;
  state.striping.count = std::max(1, std::min(count, std::max(servers, 1)));
  state.first_server = servers > 0 ? it->second % servers_.size() : 0;
  files_[it->second] = state;
  return it->second;
}

size_t StorageSystem::server_of_unit(const FileState& state, uint64_t unit) const
{
  return (state.first_server + unit % static_cast<uint64_t>(state.striping.count)) % servers_.size();
}

StorageSystem::Placement StorageSystem::place(FileId file, double offset) const
{
  const FileState& state = files_.at(file);
  if (servers_.empty())
    return {0, offset};
  const double unit_size = state.striping.unit;
  const auto unit = static_cast<uint64_t>(std::floor(offset / unit_size));
  const double within = offset - static_cast<double>(unit) * unit_size;
  const uint64_t round = unit / static_cast<uint64_t>(state.striping.count);
  return {server_of_unit(state, unit), static_cast<double>(round) * unit_size + within};
}

// A contiguous range covers consecutive stripe units; the units a server holds among them are consecutive in its
// data, so each server gets one contiguous request: from the placement of the first byte it holds to the last.
std::vector<StorageSystem::ServerRequest> StorageSystem::split(FileId file, double offset, double size) const
{
  if (servers_.empty())
    return {{0, offset, size}};
  const FileState& state = files_.at(file);
  const double unit_size = state.striping.unit;
  const auto first_unit = static_cast<uint64_t>(std::floor(offset / unit_size));
  const auto last_unit = static_cast<uint64_t>(std::floor((offset + size - 1) / unit_size));
  const uint64_t units = std::min<uint64_t>(last_unit - first_unit + 1, state.striping.count);
  std::vector<ServerRequest> requests;
  for (uint64_t k = 0; k < units; ++k) {
    const uint64_t unit = first_unit + k;
    const double begin = std::max(offset, static_cast<double>(unit) * unit_size);
    // The last unit of this server within the range.
    const uint64_t last_of_server = last_unit - (last_unit - unit) % state.striping.count;
    const double end = std::min(offset + size, static_cast<double>(last_of_server + 1) * unit_size);
    const Placement from = place(file, begin);
    const Placement to = place(file, end - 1);
    requests.push_back({from.server, from.local_offset, to.local_offset + 1 - from.local_offset});
  }
  return requests;
}

void StorageSystem::send(platform::HostId src, int src_rank, platform::HostId dst, int dst_rank, double bytes,
                         std::function<void()> next)
{
  models::TransferRequest message{src, dst, src_rank, dst_rank, bytes, engine_.now(), models::Protocol::Eager};
  models::Transfer transfer = network_.transfer(message);
  ActivityPtr arrival =
      transfer.arrival ? transfer.arrival : network_.arrival_at_match(*transfer.window, engine_.now());
  continuations_.after(arrival, std::move(next));
}

std::vector<std::pair<double, double>> StorageSystem::unit_pieces(double local_offset, double size, double unit)
{
  std::vector<std::pair<double, double>> pieces;
  const double end = local_offset + size;
  for (double begin = local_offset; begin < end;) {
    const double boundary = (std::floor(begin / unit) + 1) * unit;
    const double piece_end = std::min(end, boundary);
    pieces.emplace_back(begin, piece_end - begin);
    begin = piece_end;
  }
  return pieces;
}

// The request message, then the pieces through the stages: on a write the client sends them one after the other and
// the server serves each once it has arrived and the one before is served, then acknowledges; on a read the server
// serves them one after the other and sends each back once served and the one before has arrived.
void StorageSystem::request(const Client& client, size_t index, FileId file, double local_offset, double size,
                            Direction direction, const std::function<void()>& done)
{
  auto pipeline = std::make_shared<Pipeline>(Pipeline{client, index, file, direction, local_offset, local_offset + size,
                                                      unit_pieces(local_offset, size, kTransferUnit), done});
  const platform::HostId host = servers_[index]->host();
  const int server_rank = first_server_rank_ + static_cast<int>(index);
  send(client.host, client.rank, host, server_rank, platform_.storage().request_size, [this, pipeline] {
    if (pipeline->direction == Direction::Write) {
      send_piece_to_server(pipeline, 0);
    } else {
      pipeline->at_server = pipeline->pieces.size();
      serve_next_piece(pipeline);
    }
  });
}

void StorageSystem::send_piece_to_server(const PipelinePtr& pipeline, size_t index)
{
  const platform::HostId host = servers_[pipeline->server]->host();
  const int server_rank = first_server_rank_ + static_cast<int>(pipeline->server);
  send(pipeline->client.host, pipeline->client.rank, host, server_rank, pipeline->pieces[index].second,
       [this, pipeline, index] {
         ++pipeline->at_server;
         serve_next_piece(pipeline);
         if (index + 1 < pipeline->pieces.size())
           send_piece_to_server(pipeline, index + 1);
       });
}

// The request overhead is paid once, before the first piece.
void StorageSystem::serve_next_piece(const PipelinePtr& pipeline)
{
  if (pipeline->serving || pipeline->served == pipeline->at_server)
    return;
  pipeline->serving = true;
  const double overhead = pipeline->served == 0 ? platform_.storage().request_overhead : 0;
  continuations_.after_delay(overhead, "file server: request", [this, pipeline] {
    const auto [offset, size] = pipeline->pieces[pipeline->served];
    FileServer& server = *servers_[pipeline->server];
    IoOperationPtr served =
        server.serve_piece(pipeline->file, offset, size, pipeline->direction, pipeline->begin, pipeline->end);
    continuations_.after(served, [this, pipeline] {
      pipeline->serving = false;
      ++pipeline->served;
      const bool all_served = pipeline->served == pipeline->pieces.size();
      if (pipeline->direction == Direction::Read) {
        return_next_piece(pipeline);
      } else if (all_served) {
        const platform::HostId host = servers_[pipeline->server]->host();
        const int server_rank = first_server_rank_ + static_cast<int>(pipeline->server);
        send(host, server_rank, pipeline->client.host, pipeline->client.rank, platform_.storage().request_size,
             pipeline->done);
      }
      serve_next_piece(pipeline);
    });
  });
}

void StorageSystem::return_next_piece(const PipelinePtr& pipeline)
{
  if (pipeline->returning || pipeline->returned == pipeline->served)
    return;
  pipeline->returning = true;
  const platform::HostId host = servers_[pipeline->server]->host();
  const int server_rank = first_server_rank_ + static_cast<int>(pipeline->server);
  send(host, server_rank, pipeline->client.host, pipeline->client.rank, pipeline->pieces[pipeline->returned].second,
       [this, pipeline] {
         pipeline->returning = false;
         if (++pipeline->returned == pipeline->pieces.size())
           pipeline->done();
         else
           return_next_piece(pipeline);
       });
}

Disk* StorageSystem::local_disk(platform::HostId host)
{
  auto found = local_disks_.find(host);
  if (found != local_disks_.end())
    return found->second.get();
  auto disks = platform_.storage().disks.find(host);
  if (disks == platform_.storage().disks.end())
    return nullptr;
  return local_disks_.emplace(host, std::make_unique<Disk>(disks->second.front(), continuations_)).first->second.get();
}

ActivityPtr StorageSystem::access(const Client& client, FileId file, double offset, double size, Direction direction)
{
  auto done = std::make_shared<IoOperation>(std::string(direction == Direction::Read ? "read" : "write") + " of " +
                                            bytes_text(size) + " at offset " + bytes_text(offset));
  if (direction == Direction::Write && size > 0) {
    done->then([this, file, end = offset + size] {
      FileState& state = files_.at(file);
      state.size = std::max(state.size, end);
    });
  }
  if (size <= 0) {
    continuations_.after_delay(0, "", [done] { done->complete(); });
    return done;
  }
  if (servers_.empty()) {
    Disk* disk = local_disk(client.host);
    if (disk == nullptr)
      continuations_.after_delay(0, "", [done] { done->complete(); });
    else
      continuations_.after(disk->access({file, offset, size, direction}), [done] { done->complete(); });
    return done;
  }
  const std::vector<ServerRequest> requests = split(file, offset, size);
  auto finished = countdown(requests.size(), done);
  for (const ServerRequest& part : requests)
    request(client, part.server, file, part.local_offset, part.size, direction, finished);
  return done;
}

ActivityPtr StorageSystem::access_each(const Client& client, FileId file, std::vector<std::pair<double, double>> pieces,
                                       Direction direction)
{
  auto done = std::make_shared<IoOperation>(std::string(direction == Direction::Read ? "read" : "write") + " of " +
                                            std::to_string(pieces.size()) + " pieces");
  if (pieces.empty() || (servers_.empty() && local_disk(client.host) == nullptr)) { // no time: no steps
    continuations_.after_delay(0, "", [done] { done->complete(); });
    return done;
  }
  auto remaining = std::make_shared<std::vector<std::pair<double, double>>>(std::move(pieces));
  auto next = std::make_shared<std::function<void(size_t)>>();
  // Each step starts the next one from the completion of the previous access; the last completes `done`. The
  // function holds itself only through the steps in flight.
  std::weak_ptr<std::function<void(size_t)>> step = next;
  *next = [this, client, file, direction, remaining, done, step](size_t index) {
    if (index == remaining->size()) {
      done->complete();
      return;
    }
    const auto [offset, size] = (*remaining)[index];
    auto self = step.lock();
    continuations_.after(access(client, file, offset, size, direction), [self, index] { (*self)(index + 1); });
  };
  (*next)(0);
  return done;
}

ActivityPtr StorageSystem::access_each_atomically(const Client& client, FileId file,
                                                  std::vector<std::pair<double, double>> pieces, Direction direction)
{
  if (pieces.empty())
    return access_each(client, file, std::move(pieces), direction);
  ByteRange range{pieces.front().first, pieces.front().first};
  for (const auto& [offset, size] : pieces) {
    range.begin = std::min(range.begin, offset);
    range.end = std::max(range.end, offset + size);
  }
  auto done = std::make_shared<IoOperation>(std::string("atomic ") + (direction == Direction::Read ? "read" : "write"));
  auto shared_pieces = std::make_shared<std::vector<std::pair<double, double>>>(std::move(pieces));
  lock(file, range, [this, client, file, shared_pieces, direction, range, done] {
    continuations_.after(access_each(client, file, std::move(*shared_pieces), direction), [this, file, range, done] {
      unlock(file, range);
      done->complete();
    });
  });
  return done;
}

std::vector<std::pair<double, double>> StorageSystem::chunks_of(double begin, double end, double buffer)
{
  std::vector<std::pair<double, double>> chunks;
  for (double offset = begin; offset < end; offset += buffer)
    chunks.emplace_back(offset, std::min(buffer, end - offset));
  return chunks;
}

ActivityPtr StorageSystem::read_modify_write(const Client& client, FileId file, double begin, double end, double buffer,
                                             bool atomic)
{
  auto done = std::make_shared<IoOperation>("sieved write of " + bytes_text(end - begin));
  auto chunks = std::make_shared<std::vector<std::pair<double, double>>>(chunks_of(begin, end, buffer));
  const ByteRange whole{begin, end};
  auto next = std::make_shared<std::function<void(size_t)>>();
  // As in access_each: the function holds itself only through the steps in flight.
  std::weak_ptr<std::function<void(size_t)>> step = next;
  *next = [this, client, file, chunks, done, step, atomic, whole](size_t index) {
    if (index == chunks->size()) {
      if (atomic)
        unlock(file, whole);
      done->complete();
      return;
    }
    auto self = step.lock();
    // Named copies, not a structured binding: lambdas capture them (clang before 16 refuses bindings there).
    const double offset = (*chunks)[index].first;
    const double size = (*chunks)[index].second;
    const ByteRange chunk{offset, offset + size};
    auto read_then_write = [this, client, file, offset, size, chunk, atomic, self, index] {
      auto write = [=, this] {
        continuations_.after(access(client, file, offset, size, Direction::Write), [=, this] {
          if (!atomic)
            unlock(file, chunk);
          (*self)(index + 1);
        });
      };
      // Only what the file holds now is read (the holes must keep it); past its end there is nothing to keep, and a
      // read there would return nothing. The size is taken under the chunk's lock, after the chunks before it.
      const double inside = std::clamp(this->size(file) - offset, 0.0, size);
      if (inside > 0)
        continuations_.after(access(client, file, offset, inside, Direction::Read), write);
      else
        write();
    };
    if (atomic)
      read_then_write();
    else
      lock(file, chunk, read_then_write);
  };
  if (chunks->empty() || (servers_.empty() && local_disk(client.host) == nullptr)) {
    continuations_.after_delay(0, "", [done] { done->complete(); });
    return done;
  }
  if (atomic)
    lock(file, whole, [next] { (*next)(0); });
  else
    (*next)(0);
  return done;
}

bool StorageSystem::range_is_free(const FileState& state, const ByteRange& range,
                                  std::list<LockWaiter>::const_iterator waiters_end)
{
  const auto overlapping = [&](const ByteRange& other) { return other.overlaps(range); };
  return std::none_of(state.locked.begin(), state.locked.end(), overlapping) &&
         std::none_of(state.waiting.begin(), waiters_end,
                      [&](const LockWaiter& waiter) { return overlapping(waiter.range); });
}

void StorageSystem::lock(FileId file, ByteRange range, std::function<void()> start)
{
  FileState& state = files_.at(file);
  if (!range_is_free(state, range, state.waiting.end())) {
    state.waiting.push_back({range, std::move(start)});
    return;
  }
  state.locked.push_back(range);
  start();
}

void StorageSystem::unlock(FileId file, ByteRange range)
{
  FileState& state = files_.at(file);
  const auto held = std::find_if(state.locked.begin(), state.locked.end(), [&](const ByteRange& other) {
    return other.begin == range.begin && other.end == range.end;
  });
  state.locked.erase(held);
  // A waiter starts when it overlaps neither a held range nor an earlier waiter (first come, first served). The
  // starts run after the scan: one may complete at once and unlock again.
  std::vector<std::function<void()>> starts;
  for (auto it = state.waiting.begin(); it != state.waiting.end();) {
    if (!range_is_free(state, it->range, it)) {
      ++it;
      continue;
    }
    state.locked.push_back(it->range);
    starts.push_back(std::move(it->start));
    it = state.waiting.erase(it);
  }
  for (auto& start : starts)
    start();
}

ActivityPtr StorageSystem::metadata_request(const Client& client, FileId file)
{
  return metadata(client, file, platform_.storage().request_overhead, "file pointer");
}

ActivityPtr StorageSystem::metadata(const Client& client, FileId file, double cost, const std::string& what)
{
  auto done = std::make_shared<IoOperation>(what);
  if (servers_.empty()) {
    continuations_.after_delay(cost, what, [done] { done->complete(); });
    return done;
  }
  const size_t index = files_.at(file).first_server;
  const platform::HostId host = servers_[index]->host();
  const int server_rank = first_server_rank_ + static_cast<int>(index);
  const double message = platform_.storage().request_size;
  send(client.host, client.rank, host, server_rank, message, [=, this] {
    continuations_.after_delay(cost, what, [=, this] {
      send(host, server_rank, client.host, client.rank, message, [done] { done->complete(); });
    });
  });
  return done;
}

ActivityPtr StorageSystem::open(const Client& client, FileId file)
{
  return metadata(client, file, platform_.storage().open_cost, "open");
}

ActivityPtr StorageSystem::close(const Client& client, FileId file)
{
  return metadata(client, file, platform_.storage().close_cost, "close");
}

ActivityPtr StorageSystem::set_size(const Client& client, FileId file, double size)
{
  ActivityPtr done = metadata(client, file, platform_.storage().request_overhead, "set size");
  files_.at(file).size = size;
  return done;
}

ActivityPtr StorageSystem::sync(const Client& client, FileId file)
{
  auto done = std::make_shared<IoOperation>("sync");
  if (servers_.empty()) {
    continuations_.after_delay(0, "sync", [done] { done->complete(); });
    return done;
  }
  const FileState& state = files_.at(file);
  const platform::StorageSpec& storage = platform_.storage();
  auto finished = countdown(static_cast<size_t>(state.striping.count), done);
  for (int k = 0; k < state.striping.count; ++k) {
    const size_t index = server_of_unit(state, static_cast<uint64_t>(k));
    FileServer& server = *servers_[index];
    const platform::HostId host = server.host();
    const int server_rank = first_server_rank_ + static_cast<int>(index);
    send(client.host, client.rank, host, server_rank, storage.request_size, [=, this, &server] {
      continuations_.after(server.sync(file), [=, this] {
        send(host, server_rank, client.host, client.rank, storage.request_size, finished);
      });
    });
  }
  return done;
}

} // namespace mpisim::io
