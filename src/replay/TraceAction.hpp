// One action of a SimGrid time-independent (TI) trace, parsed and validated once by the trace reader.
//
// The replayer switches on `kind` and reads the fields that kind uses; the reader has already checked every value
// (counts not negative, ranks in [0, P), known datatype ids), so the replay loop does no string work and no checks.
//
// Field use per kind. P = number of replayed ranks; "own" = the rank whose trace holds the line. Fields a kind does not
// use keep the defaults of the struct below (0, MPI_BYTE, null details). Datatypes are TI datatype ids with the rank's
// default already applied; kinds with one datatype set datatype2 = datatype1.
//
//   kind                 src       dst       tag  root  amount                amount2              datatype1 / 2
//   Init                                                                                           the new default
//   Compute                                             flops
//   Sleep                                               seconds
//   Send, Isend          own       peer      tag        count                                      datatype
//   Recv, Irecv          peer      own       tag        count (< 0: probe)                         datatype
//   SendRecv             recv src  send dst  0          send count            receive count        send / receive
//   Wait, Test           src       dst       tag        (the key of the isend/irecv to complete, as in the trace)
//   Bcast                                         root  count                                      datatype
//   Reduce                                        root  count                 flops                datatype
//   AllReduce, Scan,                                    count                 flops                datatype
//     Exscan
//   AllToAll                                            send count per peer   recv count per peer  send / receive
//   Gather, Scatter                               root  send count            receive count        send / receive
//   AllGather                                           send count            receive count        send / receive
//   GatherV                                       root  send count            sum of recv counts   send / receive
//   AllGatherV                                          send count            sum of recv counts   send / receive
//   ScatterV                                      root  sum of send counts    receive count        send / receive
//   AllToAllV                                           send buffer size      recv buffer size     send / receive
//   ReduceScatter                                       sum of recv counts    flops                datatype
//   Location                                            source line number
//   Finalize, WaitAll, Barrier, CommSize, CommSplit, CommDup: no field (SimGrid 3.32 replays the comm_* as no-ops and
//   ignores the request count that its own writer puts after `waitall`).
//
// `details` (allocated only for the v-collectives and Location):
//   GatherV, AllGatherV, ReduceScatter: counts = receive counts (P). AllGatherV: displs = the P displacements when the
//   trace gives them, empty otherwise (meaning all 0, as for every other v-collective). ScatterV: counts = send counts.
//   AllToAllV: counts = send counts, counts2 = receive counts. Location: file = the source file name.
//
// Counts are element counts as written in the trace; the reader accepts any number syntax (`1e6`) and truncates towards
// zero as SimGrid does, so they hold integral values (exact up to 2^53). Flops and seconds are kept as written.
//
// Layout: 48 bytes, the v-collective arrays live behind one pointer so that the common actions (compute, send, recv,
// wait) stay compact and a rank's queue of pending actions stays small.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::replay {

enum class ActionKind : uint8_t {
  Init, Finalize, Compute, Sleep, Send, Isend, Recv, Irecv, SendRecv, Test, Wait, WaitAll,
  Barrier, Bcast, Reduce, AllReduce, AllToAll, AllToAllV, Gather, GatherV, Scatter, ScatterV, AllGather, AllGatherV,
  ReduceScatter, Scan, Exscan, CommSize, CommSplit, CommDup, Location
};
inline constexpr size_t kActionKindCount = static_cast<size_t>(ActionKind::Location) + 1;

// The action's name as written in traces ("sendRecv", "allgatherv", ...); views a string literal, so data() is
// null-terminated and lives as long as the program.
std::string_view action_name(ActionKind kind);

// TI datatype ids (SimGrid 3.32 `Datatype::decode`): the two defaults a rank's `init` line chooses between.
inline constexpr int8_t kDatatypeDouble = 0; // MPI_DOUBLE, default after `init <anything>`
inline constexpr int8_t kDatatypeByte = 6;   // MPI_BYTE, default after a bare `init` (and before any init)

// Size in bytes of a TI datatype id, from SimGrid 3.32's table of predefined datatypes on x86-64 (ids -1..59; -1 is
// MPI_DATATYPE_NULL, 55 and 56 are MPI_UB and MPI_LB: size 0). Unknown id: InputError naming it.
size_t datatype_size(int ti_datatype_id);
// "MPI_DOUBLE", ... ; unknown id: InputError.
std::string_view datatype_name(int ti_datatype_id);
bool is_known_datatype(int ti_datatype_id);

// Per-rank arrays of the v-collectives and the file name of Location (see the table above).
struct ActionDetails {
  std::vector<double> counts;
  std::vector<double> counts2;
  std::vector<double> displs;
  std::string file;
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
