#include "mpi/io/CollectiveFileAccess.hpp"

#include "mpi/Rank.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <set>

namespace mpisim::mpi {

namespace {

// What each member tells the others first (step 2 of the spec): its first byte, the byte after its last, and how
// many pieces it has.
struct AccessRange {
  int64_t first = 0;
  int64_t end = 0;
  int64_t pieces = 0;
};

// A member's bytes inside a window of the file, with where they are in its data stream.
struct Slice {
  int64_t offset;
  int64_t length;
  int64_t position;
};

// The tag of step 6's piece lists on the file's communicator (the cycles' data use 1, 2, ...), for an access
// without a number; a numbered access adds its own base, (sequence mod 2000 + 1) x 10^6, so that accesses in flight
// together use disjoint tags (2000 of them at once; the largest tag stays below INT_MAX).
constexpr int kListTag = 0;
constexpr int kTagsPerAccess = 1000000;
constexpr uint32_t kNumberedAccesses = 2000;

int tag_base(const CollectiveFileAccess& access)
{
  if (!access.sequence)
    return 0;
  return static_cast<int>(*access.sequence % kNumberedAccesses + 1) * kTagsPerAccess;
}

int cycle_tag(const CollectiveFileAccess& access, int64_t cycle)
{
  return tag_base(access) + static_cast<int>(cycle % (kTagsPerAccess - 1)) + 1;
}

// A member's pieces, and the data position where each starts.
struct MemberPieces {
  std::vector<FilePiece> pieces;
  std::vector<int64_t> positions;
};

MemberPieces with_positions(std::vector<FilePiece> pieces)
{
  MemberPieces member{std::move(pieces), {}};
  int64_t position = 0;
  for (const FilePiece& piece : member.pieces) {
    member.positions.push_back(position);
    position += piece.length;
  }
  return member;
}

// The member's slices within [begin, end) (its pieces are in increasing file order).
std::vector<Slice> slices_in(const MemberPieces& member, int64_t begin, int64_t end)
{
  std::vector<Slice> slices;
  const auto& pieces = member.pieces;
  auto it = std::upper_bound(pieces.begin(), pieces.end(), begin, [](int64_t offset, const FilePiece& piece) {
    return offset < piece.offset + piece.length;
  });
  for (; it != pieces.end() && it->offset < end; ++it) {
    const int64_t from = std::max(begin, it->offset);
    const int64_t to = std::min(end, it->offset + it->length);
    if (to > from)
      slices.push_back(
          {from, to - from, member.positions[static_cast<size_t>(it - pieces.begin())] + from - it->offset});
  }
  return slices;
}

int64_t slices_bytes(const std::vector<Slice>& slices)
{
  int64_t bytes = 0;
  for (const Slice& slice : slices)
    bytes += slice.length;
  return bytes;
}

int64_t pieces_bytes(const std::vector<FilePiece>& pieces)
{
  int64_t bytes = 0;
  for (const FilePiece& piece : pieces)
    bytes += piece.length;
  return bytes;
}

std::vector<FilePiece> as_pieces(const std::vector<Slice>& slices)
{
  std::vector<FilePiece> pieces;
  pieces.reserve(slices.size());
  for (const Slice& slice : slices)
    pieces.push_back({slice.offset, slice.length});
  return pieces;
}

// Step 3: some member's range starts before the end of one starting earlier.
bool interleaved(std::vector<AccessRange> ranges)
{
  std::erase_if(ranges, [](const AccessRange& range) { return range.pieces == 0; });
  std::sort(ranges.begin(), ranges.end(), [](const AccessRange& a, const AccessRange& b) { return a.first < b.first; });
  int64_t reached = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (i > 0 && ranges[i].first < reached)
      return true;
    reached = std::max(reached, ranges[i].end);
  }
  return false;
}

// Step 4: the first member of each host, in rank order, at most cb_nodes of them.
std::vector<int> choose_aggregators(Rank& rank, const Communicator& channel, const CollectiveBufferingHints& hints)
{
  std::vector<int> chosen;
  std::set<platform::HostId> hosts;
  for (int member = 0; member < channel.size(); ++member) {
    if (hosts.insert(rank.world().host_of(channel.world_rank(member))).second)
      chosen.push_back(member);
  }
  if (hints.cb_nodes > 0 && static_cast<size_t>(hints.cb_nodes) < chosen.size())
    chosen.resize(static_cast<size_t>(hints.cb_nodes));
  return chosen;
}

std::vector<std::pair<double, double>> as_extents(const std::vector<FilePiece>& pieces)
{
  std::vector<std::pair<double, double>> extents;
  extents.reserve(pieces.size());
  for (const FilePiece& piece : pieces)
    extents.emplace_back(static_cast<double>(piece.offset), static_cast<double>(piece.length));
  return extents;
}

void wait_for(Rank& rank, const kernel::ActivityPtr& activity)
{
  rank.world().engine().wait(*activity);
}

io::Client client_of(Rank& rank)
{
  return {rank.host(), rank.world_rank()};
}

kernel::ActivityPtr time_own_pieces(const CollectiveFileAccess& access, const std::vector<FilePiece>& pieces,
                                    io::Direction direction)
{
  return time_pieces(access.storage, access.file, client_of(access.rank), pieces, direction, access.atomic,
                     &access.hints);
}

// A collective among the members: a numbered access with the tag of the access's number (as a non-blocking
// collective's), so that it never matches another access's collective in flight on the file.
void run_collective(const CollectiveFileAccess& access, const CollectiveCall& call)
{
  if (!access.sequence) {
    access.collectives.run(access.rank, access.channel, call);
    return;
  }
  const CollectiveContext context{access.rank,           access.channel,
                                  access.collectives,    access.channel.local_rank(access.rank.world_rank()),
                                  access.channel.size(), nonblocking_collective_tag(*access.sequence)};
  access.collectives.run_part(context, call);
}

// Step 2's all-gather of the members' ranges (real bytes: everyone needs the others' values, replay included).
std::vector<AccessRange> exchange_ranges(const CollectiveFileAccess& access, const AccessRange& mine)
{
  std::vector<AccessRange> ranges(static_cast<size_t>(access.channel.size()));
  CollectiveCall call;
  call.op = Collective::Allgather;
  call.with_data = true;
  call.bytes = call.recv_bytes = sizeof mine;
  call.send_data = reinterpret_cast<const std::byte*>(&mine);
  call.recv_data = reinterpret_cast<std::byte*>(ranges.data());
  run_collective(access, call);
  return ranges;
}

// ROMIO ends a two-phase write with one collective on the file's communicator (its error codes: a broadcast from the
// only aggregator, else an all-reduce), so that no member returns, and starts independent I/O, before every
// aggregator's write is done. The value carried is not needed here: its time is.
void end_of_two_phase_write(const CollectiveFileAccess& access, const std::vector<int>& aggregators)
{
  CollectiveCall call;
  call.bytes = sizeof(int);
  call.element_bytes = sizeof(int);
  if (aggregators.size() == 1) {
    call.op = Collective::Bcast;
    call.root = aggregators.front();
  } else {
    call.op = Collective::Allreduce;
  }
  run_collective(access, call);
}

// The independent form of a collective call (aggregation off or not worth it): each member accesses its own pieces.
int64_t independent_access(const CollectiveFileAccess& access, const std::vector<FilePiece>& pieces, std::byte* data,
                           io::Direction direction)
{
  if (direction == io::Direction::Write) {
    if (access.bytes)
      access.bytes->write(pieces, data);
    wait_for(access.rank, time_own_pieces(access, pieces, direction));
    return pieces_bytes(pieces);
  }
  const int64_t bytes = access.bytes ? access.bytes->read(pieces, data) : pieces_bytes(pieces);
  wait_for(access.rank, time_own_pieces(access, first_bytes(pieces, bytes), direction));
  return bytes;
}

} // namespace

namespace {

bool contiguous(const std::vector<FilePiece>& pieces)
{
  for (size_t k = 1; k < pieces.size(); ++k) {
    if (pieces[k].offset != pieces[k - 1].offset + pieces[k - 1].length)
      return false;
  }
  return true;
}

bool sieves(const CollectiveBufferingHints* hints, const std::vector<FilePiece>& pieces, io::Direction direction)
{
  if (hints == nullptr || contiguous(pieces))
    return false;
  return (direction == io::Direction::Read ? hints->romio_ds_read : hints->romio_ds_write) != "disable";
}

} // namespace

kernel::ActivityPtr time_pieces(io::StorageSystem& storage, io::FileId file, const io::Client& client,
                                const std::vector<FilePiece>& pieces, io::Direction direction, bool atomic,
                                const CollectiveBufferingHints* sieving)
{
  if (sieves(sieving, pieces, direction)) {
    int64_t begin = pieces.front().offset;
    int64_t end = begin;
    for (const FilePiece& piece : pieces) {
      begin = std::min(begin, piece.offset);
      end = std::max(end, piece.offset + piece.length);
    }
    if (direction == io::Direction::Write)
      return storage.read_modify_write(client, file, static_cast<double>(begin), static_cast<double>(end),
                                       static_cast<double>(sieving->ind_wr_buffer_size), atomic);
    auto chunks = io::StorageSystem::chunks_of(static_cast<double>(begin), static_cast<double>(end),
                                               static_cast<double>(sieving->ind_rd_buffer_size));
    return atomic ? storage.access_each_atomically(client, file, std::move(chunks), direction)
                  : storage.access_each(client, file, std::move(chunks), direction);
  }
  if (atomic)
    return storage.access_each_atomically(client, file, as_extents(pieces), direction);
  return storage.access_each(client, file, as_extents(pieces), direction);
}

std::vector<FilePiece> first_bytes(const std::vector<FilePiece>& pieces, int64_t bytes)
{
  std::vector<FilePiece> kept;
  for (const FilePiece& piece : pieces) {
    if (bytes <= 0)
      break;
    kept.push_back({piece.offset, std::min(piece.length, bytes)});
    bytes -= kept.back().length;
  }
  return kept;
}

int64_t collective_access(const CollectiveFileAccess& access, const std::vector<FilePiece>& pieces, std::byte* data,
                          io::Direction direction)
{
  Rank& rank = access.rank;
  const Communicator& channel = access.channel;
  const int members = channel.size();
  const int local_rank = channel.local_rank(rank.world_rank());
  const bool writing = direction == io::Direction::Write;
  FileBytes* const file_bytes = access.bytes;
  if (file_bytes == nullptr)
    data = nullptr;

  // Step 2: everyone's range.
  AccessRange mine;
  if (!pieces.empty())
    mine = {pieces.front().offset, pieces.back().offset + pieces.back().length, static_cast<int64_t>(pieces.size())};
  const std::vector<AccessRange> ranges = exchange_ranges(access, mine);

  // Step 3.
  const std::string& rule = writing ? access.hints.romio_cb_write : access.hints.romio_cb_read;
  if (rule == "disable" || (rule == "automatic" && !interleaved(ranges)))
    return independent_access(access, pieces, data, direction);

  // Steps 4 and 5: aggregators and their file domains.
  const std::vector<int> aggregators = choose_aggregators(rank, channel, access.hints);
  int64_t min_first = INT64_MAX;
  int64_t max_end = 0;
  for (const AccessRange& range : ranges) {
    if (range.pieces == 0)
      continue;
    min_first = std::min(min_first, range.first);
    max_end = std::max(max_end, range.end);
  }
  if (min_first == INT64_MAX) // nobody accesses anything
    return 0;
  const auto naggs = static_cast<int64_t>(aggregators.size());
  const int64_t domain_size = (max_end - min_first + naggs - 1) / naggs;
  auto domain_begin = [&](int64_t a) { return std::min(min_first + a * domain_size, max_end); };
  auto domain_end = [&](int64_t a) { return std::min(min_first + (a + 1) * domain_size, max_end); };
  const int64_t window = access.hints.cb_buffer_size;
  int64_t cycles = 0;
  for (int64_t a = 0; a < naggs; ++a)
    cycles = std::max(cycles, (domain_end(a) - domain_begin(a) + window - 1) / window);

  // Step 6: each member sends each aggregator the list of its pieces in that aggregator's domain (one message per
  // aggregator, empty when it has none there); an aggregator receives one list from every member and keeps only
  // those, so no member holds everyone's pieces.
  const MemberPieces me = with_positions(pieces);
  const auto my_aggregator = std::find(aggregators.begin(), aggregators.end(), local_rank);
  const int64_t my_index = my_aggregator == aggregators.end() ? -1 : my_aggregator - aggregators.begin();
  std::vector<MemberPieces> in_my_domain(static_cast<size_t>(members));
  {
    const int list_tag = tag_base(access) + kListTag;
    std::vector<std::vector<int64_t>> lists;
    std::vector<RequestPtr> sends;
    for (int64_t a = 0; a < naggs; ++a) {
      const int aggregator = aggregators[static_cast<size_t>(a)];
      if (aggregator == local_rank)
        continue;
      std::vector<int64_t>& list = lists.emplace_back();
      for (const Slice& slice : slices_in(me, domain_begin(a), domain_end(a))) {
        list.push_back(slice.offset);
        list.push_back(slice.length);
      }
      sends.push_back(
          rank.isend(channel, aggregator, list_tag, static_cast<double>(list.size() * sizeof(int64_t)), list.data()));
    }
    if (my_index >= 0) {
      for (int member = 0; member < members; ++member) {
        if (member == local_rank)
          continue;
        const Status arrived = rank.wait_for_message(channel, member, list_tag);
        std::vector<int64_t> list(static_cast<size_t>(arrived.bytes) / sizeof(int64_t));
        rank.recv(channel, member, list_tag, arrived.bytes, list.data());
        std::vector<FilePiece> theirs;
        for (size_t k = 0; k + 1 < list.size(); k += 2)
          theirs.push_back({list[k], list[k + 1]});
        in_my_domain[static_cast<size_t>(member)] = with_positions(std::move(theirs));
      }
    }
    rank.waitall(sends);
  }

  // What this member will have transferred: all of its bytes for a write; for a read, those before the end of the
  // file, up to the first piece the end cuts.
  const int64_t file_size = writing || file_bytes == nullptr ? INT64_MAX : file_bytes->size();
  int64_t my_bytes = 0;
  for (const FilePiece& piece : pieces) {
    if (!writing && piece.offset + piece.length > file_size) {
      my_bytes += std::max<int64_t>(0, file_size - piece.offset);
      break;
    }
    my_bytes += piece.length;
  }

  // Step 7.
  for (int64_t cycle = 0; cycle < cycles; ++cycle) {
    const int tag = cycle_tag(access, cycle);
    auto window_of = [&](int64_t a) {
      const int64_t begin = domain_begin(a) + cycle * window;
      return std::make_pair(begin, std::min(begin + window, domain_end(a)));
    };
    std::vector<RequestPtr> requests;
    std::vector<std::vector<std::byte>> outgoing;
    struct Incoming {
      std::vector<Slice> slices;
      std::vector<std::byte> bytes;
    };
    std::vector<Incoming> incoming; // reads: my bytes from each aggregator
    // Room for a message's bytes: none without real bytes.
    auto buffer_of = [&](int64_t bytes) { return std::vector<std::byte>(data ? static_cast<size_t>(bytes) : 0); };
    auto pointer = [](std::vector<std::byte>& bytes) { return bytes.empty() ? nullptr : bytes.data(); };
    // This member's part towards every other aggregator.
    for (int64_t a = 0; a < naggs; ++a) {
      const int aggregator = aggregators[static_cast<size_t>(a)];
      const auto [begin, end] = window_of(a);
      if (aggregator == local_rank || begin >= end)
        continue;
      std::vector<Slice> slices = slices_in(me, begin, end);
      const int64_t bytes = slices_bytes(slices);
      if (bytes == 0)
        continue;
      if (writing) {
        std::vector<std::byte>& packed = outgoing.emplace_back(buffer_of(bytes));
        if (data) {
          int64_t at = 0;
          for (const Slice& slice : slices) {
            std::memcpy(packed.data() + at, data + slice.position, static_cast<size_t>(slice.length));
            at += slice.length;
          }
        }
        requests.push_back(rank.isend(channel, aggregator, tag, static_cast<double>(bytes), pointer(packed)));
      } else {
        Incoming& in = incoming.emplace_back(Incoming{std::move(slices), buffer_of(bytes)});
        requests.push_back(rank.irecv(channel, aggregator, tag, static_cast<double>(bytes), pointer(in.bytes)));
      }
    }
    // This member's work as an aggregator.
    if (my_index >= 0) {
      const auto [begin, end] = window_of(my_index);
      if (begin < end) {
        std::vector<std::vector<Slice>> theirs(static_cast<size_t>(members));
        int64_t span_first = INT64_MAX;
        int64_t span_end = 0;
        int64_t covered = 0;
        for (int member = 0; member < members; ++member) {
          // This member's own pieces with their positions in its data; the others' as their lists came.
          const MemberPieces& source = member == local_rank ? me : in_my_domain[static_cast<size_t>(member)];
          auto& slices = theirs[static_cast<size_t>(member)] = slices_in(source, begin, end);
          if (slices.empty())
            continue;
          span_first = std::min(span_first, slices.front().offset);
          span_end = std::max(span_end, slices.back().offset + slices.back().length);
          covered += slices_bytes(slices);
        }
        if (span_first < span_end) {
          const std::vector<FilePiece> span{{span_first, span_end - span_first}};
          if (writing) {
            std::vector<std::vector<std::byte>> received(static_cast<size_t>(members));
            std::vector<RequestPtr> receives;
            for (int member = 0; member < members; ++member) {
              const int64_t bytes = slices_bytes(theirs[static_cast<size_t>(member)]);
              if (member == local_rank || bytes == 0)
                continue;
              received[static_cast<size_t>(member)] = buffer_of(bytes);
              receives.push_back(rank.irecv(channel, member, tag, static_cast<double>(bytes),
                                            pointer(received[static_cast<size_t>(member)])));
            }
            rank.waitall(receives);
            if (covered < span_end - span_first) // holes: read-modify-write
              wait_for(rank, time_own_pieces(access, span, io::Direction::Read));
            for (int member = 0; file_bytes && member < members; ++member) {
              const auto& slices = theirs[static_cast<size_t>(member)];
              if (slices.empty())
                continue;
              if (member == local_rank) {
                for (const Slice& slice : slices)
                  file_bytes->write({{slice.offset, slice.length}}, data + slice.position);
              } else {
                file_bytes->write(as_pieces(slices), received[static_cast<size_t>(member)].data());
              }
            }
            wait_for(rank, time_own_pieces(access, span, io::Direction::Write));
          } else {
            const int64_t readable_end = std::min(span_end, file_size);
            if (readable_end > span_first)
              wait_for(rank, time_own_pieces(access, {{span_first, readable_end - span_first}}, io::Direction::Read));
            for (int member = 0; member < members; ++member) {
              const auto& slices = theirs[static_cast<size_t>(member)];
              const int64_t bytes = slices_bytes(slices);
              if (bytes == 0)
                continue;
              if (member == local_rank) {
                for (const Slice& slice : slices)
                  if (file_bytes)
                    file_bytes->read({{slice.offset, slice.length}}, data + slice.position);
                continue;
              }
              std::vector<std::byte>& packed = outgoing.emplace_back(buffer_of(bytes));
              if (file_bytes)
                file_bytes->read(as_pieces(slices), packed.data());
              requests.push_back(rank.isend(channel, member, tag, static_cast<double>(bytes), pointer(packed)));
            }
          }
        }
      }
    }
    rank.waitall(requests);
    for (const Incoming& in : incoming) {
      if (!data)
        break;
      int64_t at = 0;
      for (const Slice& slice : in.slices) {
        std::memcpy(data + slice.position, in.bytes.data() + at, static_cast<size_t>(slice.length));
        at += slice.length;
      }
    }
  }
  if (writing)
    end_of_two_phase_write(access, aggregators);
  return my_bytes;
}

} // namespace mpisim::mpi
