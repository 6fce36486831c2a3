#include "replay/ReplayFiles.hpp"

#include "common/Errors.hpp"
#include "mpi/Rank.hpp"
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

io::Client RankFiles::client() const
{
  return {rank_.host(), rank_.world_rank()};
}

void RankFiles::wait_for(const kernel::ActivityPtr& activity)
{
  rank_.world().engine().wait(*activity);
}

void RankFiles::barrier_of(const OpenFile& file)
{
  if (file.channel == nullptr)
    return;
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Barrier;
  shared_.collectives().run(rank_, *file.channel, call);
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
    files_.emplace(name, file);
    wait_for(storage.open(client(), file.id));
    return;
  }
  OpenFile& file = open_file(a);
  switch (a.kind) {
  case ActionKind::FileClose: {
    wait_for(storage.close(client(), file.id));
    const OpenFile closed = file;
    files_.erase(name);
    barrier_of(closed);
    return;
  }
  case ActionKind::FileSeek: file.pointer = static_cast<int64_t>(a.amount); return;
  case ActionKind::FileSync:
    wait_for(storage.sync(client(), file.id));
    barrier_of(file);
    return;
  case ActionKind::FileSetSize:
    wait_for(storage.set_size(client(), file.id, a.amount));
    barrier_of(file);
    return;
  default: access(a, file); return;
  }
}

void RankFiles::access(const TraceAction& a, OpenFile& file)
{
  const auto bytes = static_cast<int64_t>(a.amount);
  const int64_t offset = is_explicit_offset(a.kind) ? static_cast<int64_t>(a.amount2) : file.pointer;
  const io::Direction direction = is_file_write(a.kind) ? io::Direction::Write : io::Direction::Read;
  std::vector<mpi::FilePiece> pieces;
  if (bytes > 0)
    pieces.push_back({offset, bytes});
  io::StorageSystem& storage = shared_.storage();
  if (is_collective_access(a.kind) && file.channel != nullptr) {
    const mpi::CollectiveFileAccess access{rank_,   *file.channel, shared_.collectives(),
                                           storage, file.id,       shared_.hints()};
    mpi::collective_access(access, pieces, nullptr, direction);
  } else {
    // Independent, or collective on a file of one opener (one member never interleaves with another: independent).
    wait_for(mpi::time_pieces(storage, file.id, client(), pieces, direction));
  }
  if (not is_explicit_offset(a.kind))
    file.pointer = offset + bytes;
}

} // namespace mpisim::replay
