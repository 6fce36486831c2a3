#include "replay/ReplayFiles.hpp"

#include "common/Errors.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Request.hpp"
#include "replay/TraceLine.hpp"

#include <numeric>

namespace mpisim::replay {

io::StorageSystem& SharedFiles::storage()
{
  if (not storage_)
    storage_ = std::make_unique<io::StorageSystem>(simulation_.engine(), simulation_.platform(),
                                                   simulation_.world().network(), ranks_);
  return *storage_;
}

const mpi::Communicator& SharedFiles::channel(const std::string& name)
{
  const mpi::Communicator*& channel = channels_[name];
  if (channel == nullptr) {
    std::vector<int> everyone(static_cast<size_t>(ranks_));
    std::iota(everyone.begin(), everyone.end(), 0);
    channel = &simulation_.world().create_communicator("file " + name, std::move(everyone));
  }
  return *channel;
}

void SharedFiles::opened(const std::string& key)
{
  SharedPointer& pointer = shared_pointers_[key];
  if (pointer.openers++ == 0)
    pointer.bytes = 0;
}

void SharedFiles::closed(const std::string& key)
{
  auto found = shared_pointers_.find(key);
  if (found != shared_pointers_.end() && --found->second.openers <= 0)
    shared_pointers_.erase(found);
}

io::Client RankFiles::client() const
{
  return {rank_.host(), rank_.world_rank()};
}

void RankFiles::wait_for(const kernel::ActivityPtr& activity)
{
  rank_.world().engine().wait(*activity);
}

void RankFiles::barrier_of(const mpi::Communicator* channel)
{
  if (channel == nullptr)
    return;
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Barrier;
  shared_.collectives().run(rank_, *channel, call);
}

RankFiles::OpenFile& RankFiles::open_file(const TraceAction& a)
{
  const std::string& name = a.details->file;
  auto found = files_.find(name);
  if (found == files_.end())
    throw InputError(trace_file_, a.line,
                     std::string(action_name(a.kind)) + ": file " + in_quotes(name) + " is not open on this rank");
  return found->second;
}

void RankFiles::perform(const TraceAction& a)
{
  io::StorageSystem& storage = shared_.storage();
  const std::string& name = a.details->file;
  if (a.kind == ActionKind::FileOpen) {
    if (files_.contains(name))
      throw InputError(trace_file_, a.line, "file_open: file " + in_quotes(name) + " is already open on this rank");
    OpenFile file;
    file.id = storage.file(name);
    file.channel = a.tag == 1 ? nullptr : &shared_.channel(name);
    file.key = a.tag == 1 ? name + "@" + std::to_string(rank_.world_rank()) : name;
    shared_.opened(file.key);
    files_.emplace(name, file);
    if (file.channel != nullptr) // the file's communicator, a duplicate of the opening one: as the online open pays
      shared_.collectives().agree_on_context(rank_, *file.channel);
    wait_for(storage.open(client(), file.id));
    return;
  }
  OpenFile& file = open_file(a);
  switch (a.kind) {
  case ActionKind::FileClose: {
    for (const auto& [number, activity] : file.pending) // MPI asks the program to complete them first
      wait_for(activity);
    wait_for(storage.close(client(), file.id));
    const mpi::Communicator* channel = file.channel;
    shared_.closed(file.key);
    files_.erase(name);
    barrier_of(channel);
    return;
  }
  case ActionKind::FileSeek: file.pointer = static_cast<int64_t>(a.amount); return;
  case ActionKind::FileSeekShared: // collective: every opener sets it, then they meet, as online
    shared_.shared_pointer(file.key) = static_cast<int64_t>(a.amount);
    barrier_of(file.channel);
    return;
  case ActionKind::FileWait: wait_pending(a, file); return;
  case ActionKind::FileSync:
    wait_for(storage.sync(client(), file.id));
    barrier_of(file.channel);
    return;
  case ActionKind::FileSetSize:
    wait_for(storage.set_size(client(), file.id, a.amount));
    barrier_of(file.channel);
    return;
  default: access(a, file); return;
  }
}

void RankFiles::wait_pending(const TraceAction& a, OpenFile& file)
{
  const auto number = static_cast<int64_t>(a.amount);
  auto found = file.pending.find(number);
  if (found == file.pending.end())
    throw InputError(trace_file_, a.line,
                     "file_wait: file " + in_quotes(a.details->file) + " has no pending non-blocking access number " +
                         std::to_string(number) + " on this rank (" + std::to_string(file.posted) + " posted)");
  const kernel::ActivityPtr activity = found->second;
  file.pending.erase(found);
  wait_for(activity);
}

int64_t RankFiles::ordered_offset(OpenFile& file, int64_t bytes)
{
  struct Entry {
    int64_t bytes;
    int64_t found; // the shared pointer when this member came in
  };
  int64_t& pointer = shared_.shared_pointer(file.key);
  const Entry mine{bytes, pointer};
  pointer += bytes;
  if (file.channel == nullptr)
    return mine.found;
  std::vector<Entry> all(static_cast<size_t>(file.channel->size()));
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Allgather;
  call.with_data = true;
  call.bytes = call.recv_bytes = sizeof mine;
  call.send_data = reinterpret_cast<const std::byte*>(&mine);
  call.recv_data = reinterpret_cast<std::byte*>(all.data());
  shared_.collectives().run(rank_, *file.channel, call);
  int64_t start = mine.found;
  int64_t before = 0;
  for (size_t member = 0; member < all.size(); ++member) { // the channel holds every rank in world order
    start = std::min(start, all[member].found);
    if (static_cast<int>(member) < rank_.world_rank())
      before += all[member].bytes;
  }
  return start + before;
}

kernel::ActivityPtr RankFiles::start_collective(const mpi::CollectiveFileAccess& access,
                                                std::vector<mpi::FilePiece> pieces, io::Direction direction)
{
  auto done = std::make_shared<mpi::Request>(mpi::RequestKind::Generalized, rank_.world_rank(), access.channel,
                                             mpi::kAnySource, 0, 0);
  done->operation = "collective file I/O";
  rank_.spawn_helper("file access " + std::to_string(*access.sequence),
                     [access, pieces = std::move(pieces), direction, done] {
                       mpi::collective_access(access, pieces, nullptr, direction);
                       done->complete();
                     });
  return done;
}

int64_t RankFiles::access_offset(const TraceAction& a, OpenFile& file, int64_t bytes)
{
  if (is_explicit_offset(a.kind))
    return static_cast<int64_t>(a.amount2);
  if (is_ordered_access(a.kind)) // a posted one too: the places are exchanged at the line, as online
    return ordered_offset(file, bytes);
  if (is_shared_pointer(a.kind)) {
    // The shared pointer lives with the file system: a metadata request reads and moves it (as online).
    wait_for(shared_.storage().metadata_request(client(), file.id));
    int64_t& pointer = shared_.shared_pointer(file.key);
    const int64_t start = pointer;
    pointer += bytes;
    return start;
  }
  return file.pointer;
}

void RankFiles::access(const TraceAction& a, OpenFile& file)
{
  const auto bytes = static_cast<int64_t>(a.amount);
  const int64_t offset = access_offset(a, file, bytes);
  const io::Direction direction = is_file_write(a.kind) ? io::Direction::Write : io::Direction::Read;
  std::vector<mpi::FilePiece> pieces;
  if (bytes > 0)
    pieces.push_back({offset, bytes});
  io::StorageSystem& storage = shared_.storage();
  if (is_collective_access(a.kind) && file.channel != nullptr) {
    mpi::CollectiveFileAccess access{rank_, *file.channel, shared_.collectives(), storage, file.id, shared_.hints()};
    access.sequence = file.collectives++;
    if (is_nonblocking_access(a.kind))
      file.pending[file.posted++] = start_collective(access, std::move(pieces), direction);
    else
      mpi::collective_access(access, pieces, nullptr, direction);
  } else if (is_nonblocking_access(a.kind)) {
    file.pending[file.posted++] = mpi::time_pieces(storage, file.id, client(), pieces, direction);
  } else {
    // Independent, or collective on a file of one opener (one member never interleaves with another: independent).
    wait_for(mpi::time_pieces(storage, file.id, client(), pieces, direction));
  }
  if (not is_explicit_offset(a.kind) && not is_shared_pointer(a.kind))
    file.pointer = offset + bytes;
}

} // namespace mpisim::replay
