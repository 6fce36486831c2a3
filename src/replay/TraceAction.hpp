// One action of a SimGrid time-independent (TI) trace, parsed, validated and sized once by the trace reader.
//
// The replayer switches on `kind` and reads the fields that kind uses; the reader has already checked every value
// (counts not negative, ranks in [0, P), known datatype ids) and turned element counts into bytes (count x size of
// the datatype), so the replay loop does no string work, no checks and no datatype look-ups.
//
// Field use per kind. P = number of replayed ranks; "own" = the rank whose trace holds the line. Fields a kind does not
// use keep the defaults of the struct below (0, MPI_BYTE, null details). Datatypes are TI datatype ids with the rank's
// default already applied (kept for inspection: the sizes are already in the byte fields); kinds with one datatype set
// datatype2 = datatype1. "bytes" = the trace's count times the size of the datatype it goes with.
//
//   kind                 src       dst       tag  root  amount                amount2              datatype1 / 2
//   Init                                                                                           the new default
//   Compute                                             flops
//   Sleep                                               seconds
//   Send, Isend          own       peer      tag        bytes                                      datatype
//   Recv, Irecv          peer      own       tag        bytes (< 0: the count,                     datatype
//                                                       probe for the size)
//   SendRecv             recv src  send dst  0          send bytes            receive bytes        send / receive
//   Wait, Test           src       dst       tag        (the key of the isend/irecv to complete, as in the trace)
//   Bcast                                         root  bytes                                      datatype
//   Reduce                                        root  bytes                 flops                datatype
//   AllReduce, Scan,                                    bytes                 flops                datatype
//     Exscan
//   AllToAll                                            send bytes per peer   recv bytes per peer  send / receive
//   Gather, Scatter                               root  send bytes            receive bytes        send / receive
//   AllGather                                           send bytes            receive bytes        send / receive
//   GatherV                                       root  send bytes            sum of recv bytes    send / receive
//   AllGatherV                                          send bytes            sum of recv bytes    send / receive
//   ScatterV                                      root  sum of send bytes     receive bytes        send / receive
//   AllToAllV                                           send buffer bytes     recv buffer bytes    send / receive
//   ReduceScatter                                       sum of recv bytes     flops                datatype
//   Location                                            source line number
//   FileOpen                       tag: 1 = opened by the rank alone ("self"), 0 = by every rank ("world")
//   FileSeek                                            offset (bytes)
//   FileSetSize                                         size (bytes)
//   FileRead, FileWrite,                                bytes
//     FileReadAll, FileWriteAll
//   FileReadAt, FileWriteAt,                            bytes                 offset (bytes)
//     FileReadAtAll, FileWriteAtAll
//   FileClose, FileSync: no field but the file (details->file).
//   FileReadShared, FileWriteShared,                    bytes
//     FileReadOrdered, FileWriteOrdered,
//     FileIReadShared, FileIWriteShared,
//     FileIReadOrdered, FileIWriteOrdered
//   FileSeekShared                                      offset (bytes)
//   FileIReadAt, FileIWriteAt,                          bytes                 offset (bytes)
//     FileIReadAtAll, FileIWriteAtAll
//   FileWait                                            the access's number (its rank's n-th non-blocking access to
//                                                       the file, from 0)
//   Finalize, WaitAll, Barrier, CommSize, CommSplit, CommDup: no field (SimGrid 3.32 replays the comm_* as no-ops and
//   ignores the request count that its own writer puts after `waitall`).
//
// `details` (allocated only for the collectives and Location):
//   collectives: `call`, the complete description the MPI layer's collective library runs on MPI_COMM_WORLD, or on
//   `communicator` (below) for formats that record communicators (its
//   `op`, byte sizes, per-rank byte arrays, root, element size, and the reduction's flops in `reduce_flops`).
//   Per-rank arrays, in bytes: GatherV, AllGatherV: recv_counts (P). AllGatherV: recv_displs = the P displacements
//   when the trace gives them, else P zeros (as SimGrid's replay passes them). ScatterV: send_counts.
//   AllToAllV: send_counts and recv_counts. ReduceScatter: recv_counts, element_bytes = the datatype's size.
//   Location: file = the source file name. MPI-IO actions: file = the file's name as the trace gives it.
//
// Counts are read with any number syntax (`1e6`) and truncated towards zero as SimGrid does, so they hold integral
// values (exact up to 2^53) before being multiplied by the datatype size. Flops and seconds are kept as written.
//
// Layout: 48 bytes, the collective call lives behind one pointer so that the common actions (compute, send, recv,
// wait) stay compact and a rank's queue of pending actions stays small.
#pragma once

#include "mpi/collectives/Collectives.hpp"
#include "replay/TiDatatypes.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mpisim::replay {

enum class ActionKind : uint8_t {
  Init,
  Finalize,
  Compute,
  Sleep,
  Send,
  Isend,
  Recv,
  Irecv,
  SendRecv,
  Test,
  Wait,
  WaitAll,
  Barrier,
  Bcast,
  Reduce,
  AllReduce,
  AllToAll,
  AllToAllV,
  Gather,
  GatherV,
  Scatter,
  ScatterV,
  AllGather,
  AllGatherV,
  ReduceScatter,
  Scan,
  Exscan,
  CommSize,
  CommSplit,
  CommDup,
  Location,
  // MPI-IO, an extension of the format SimGrid does not read (docs/replay.md).
  FileOpen,
  FileClose,
  FileSeek,
  FileSync,
  FileSetSize,
  FileRead,
  FileWrite,
  FileReadAt,
  FileWriteAt,
  FileReadAll,
  FileWriteAll,
  FileReadAtAll,
  FileWriteAtAll,
  FileReadShared,
  FileWriteShared,
  FileReadOrdered,
  FileWriteOrdered,
  FileSeekShared,
  FileIReadAt,
  FileIWriteAt,
  FileIReadShared,
  FileIWriteShared,
  FileIReadAtAll,
  FileIWriteAtAll,
  FileIReadOrdered,
  FileIWriteOrdered,
  FileWait
};
inline constexpr size_t kActionKindCount = static_cast<size_t>(ActionKind::FileWait) + 1;

// The actions' names as written in traces, in ActionKind order.
// clang-format off
inline constexpr std::array<std::string_view, kActionKindCount> kActionNames = {
  "init", "finalize", "compute", "sleep", "send", "isend", "recv", "irecv", "sendRecv", "test", "wait", "waitall",
  "barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv",
  "allgather", "allgatherv", "reducescatter", "scan", "exscan", "comm_size", "comm_split", "comm_dup", "location",
  "file_open", "file_close", "file_seek", "file_sync", "file_set_size", "file_read", "file_write", "file_read_at",
  "file_write_at", "file_read_all", "file_write_all", "file_read_at_all", "file_write_at_all", "file_read_shared",
  "file_write_shared", "file_read_ordered", "file_write_ordered", "file_seek_shared", "file_iread_at", "file_iwrite_at",
  "file_iread_shared", "file_iwrite_shared", "file_iread_at_all", "file_iwrite_at_all", "file_iread_ordered",
  "file_iwrite_ordered", "file_wait"};
// clang-format on

// The action's name as written in traces ("sendRecv", "allgatherv", ...); views a string literal, so data() is
// null-terminated and lives as long as the program.
constexpr std::string_view action_name(ActionKind kind)
{
  return kActionNames[static_cast<size_t>(kind)];
}

// Whether the action is a collective, i.e. carries a `details->call`.
constexpr bool is_collective(ActionKind kind)
{
  return kind >= ActionKind::Barrier && kind <= ActionKind::Exscan;
}

// Whether the action is an MPI-IO one (details->file names the file).
constexpr bool is_file_action(ActionKind kind)
{
  return kind >= ActionKind::FileOpen;
}

// The file accesses: which way the data goes, where the offset comes from, whether every opener takes part, whether
// the access completes at a later `file_wait`.
constexpr bool is_file_access(ActionKind kind)
{
  return (kind >= ActionKind::FileRead && kind <= ActionKind::FileWriteOrdered) ||
         (kind >= ActionKind::FileIReadAt && kind <= ActionKind::FileIWriteOrdered);
}
constexpr bool is_file_write(ActionKind kind)
{
  switch (kind) {
  case ActionKind::FileWrite:
  case ActionKind::FileWriteAt:
  case ActionKind::FileWriteAll:
  case ActionKind::FileWriteAtAll:
  case ActionKind::FileWriteShared:
  case ActionKind::FileWriteOrdered:
  case ActionKind::FileIWriteAt:
  case ActionKind::FileIWriteShared:
  case ActionKind::FileIWriteAtAll:
  case ActionKind::FileIWriteOrdered: return true;
  default: return false;
  }
}
constexpr bool is_explicit_offset(ActionKind kind)
{
  return kind == ActionKind::FileReadAt || kind == ActionKind::FileWriteAt || kind == ActionKind::FileReadAtAll ||
         kind == ActionKind::FileWriteAtAll || kind == ActionKind::FileIReadAt || kind == ActionKind::FileIWriteAt ||
         kind == ActionKind::FileIReadAtAll || kind == ActionKind::FileIWriteAtAll;
}
// In rank order at the shared file pointer, blocking or posted (an ordered split collective).
constexpr bool is_ordered_access(ActionKind kind)
{
  return kind == ActionKind::FileReadOrdered || kind == ActionKind::FileWriteOrdered ||
         kind == ActionKind::FileIReadOrdered || kind == ActionKind::FileIWriteOrdered;
}
// At the shared file pointer, independent (`_shared`) or in rank order (`_ordered`).
constexpr bool is_shared_pointer(ActionKind kind)
{
  return kind == ActionKind::FileReadShared || kind == ActionKind::FileWriteShared ||
         kind == ActionKind::FileIReadShared || kind == ActionKind::FileIWriteShared || is_ordered_access(kind);
}
constexpr bool is_collective_access(ActionKind kind)
{
  return (kind >= ActionKind::FileReadAll && kind <= ActionKind::FileWriteAtAll) ||
         kind == ActionKind::FileIReadAtAll || kind == ActionKind::FileIWriteAtAll || is_ordered_access(kind);
}
constexpr bool is_nonblocking_access(ActionKind kind)
{
  return kind >= ActionKind::FileIReadAt && kind <= ActionKind::FileIWriteOrdered;
}

// The collective's call and the file name of Location and of the MPI-IO actions (see the table above).
struct ActionDetails {
  mpi::CollectiveCall call;
  std::string file;
  // The collective's communicator: -1 is MPI_COMM_WORLD (TI traces have no other), else an index in the trace set's
  // communicators (TraceSet::communicators(), formats that record them: OTF2). Then `call.root` and the call's
  // per-rank arrays are in the communicator's ranks, while the action's `root` stays a world rank.
  int32_t communicator = -1;
};

struct TraceAction {
  double amount = 0;
  double amount2 = 0;
  int32_t src = 0;
  int32_t dst = 0;
  int32_t tag = 0;
  int32_t root = 0;
  uint32_t line = 0; // line in the trace file, for error messages
  ActionKind kind = ActionKind::Finalize;
  int8_t datatype1 = kDatatypeByte;
  int8_t datatype2 = kDatatypeByte;
  std::unique_ptr<ActionDetails> details;
};

} // namespace mpisim::replay
