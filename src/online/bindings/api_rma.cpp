// One-sided communication with active-target synchronization (MPI-3.1 sections 11.3, 11.5.1): MPI_Put, MPI_Get,
// MPI_Accumulate and MPI_Win_fence.
//
// Every operation is a message on the window's hidden communicator, sent when the operation is issued: a put or an
// accumulate carries a small header (what to do, where, with which target datatype) and the origin's data packed; a
// get carries the header alone, and its origin posts the receive of the reply into its buffer at once. Targets act
// at the closing fence, as MPICH's fence does: the members learn how many operations target them (a
// reduce-scatter of counts), each receives its operations in arrival order (so accumulates from one origin are
// applied in the order issued), applies puts and accumulates to its memory and answers gets from it, waits for its
// own operations and replies, and a barrier ends the fence. Updates thus become visible at the target when its
// fence returns (the separate memory model, MPI_WIN_MODEL).
#include "online/bindings/Arguments.hpp"
#include "online/bindings/PointToPoint.hpp"
#include "online/bindings/WindowArguments.hpp"
#include "online/objects/Collectives.hpp"

#include "mpi/ReduceOp.hpp"

#include <cstring>
#include <stdexcept>

using namespace mpisim::online;
using mpisim::mpi::Datatype;
using mpisim::mpi::DatatypePtr;

namespace {

constexpr int kOperationTag = 1; // origin -> target: puts, accumulates, get requests
constexpr int kReplyTag = 2;     // target -> origin: the data of a get

enum class OperationKind : int { Put, Get, Accumulate };

// What travels ahead of the data. The target datatype is read through the origin's description of it, which the
// origin keeps alive until the fence has completed (RmaEpoch::types): the simulated message stands for the
// datatype's description as well.
struct OperationHeader {
  OperationKind kind;
  MPI_Op op;
  MPI_Aint disp;
  int count;
  const Datatype* type;
};

constexpr int kKnownAsserts =
    MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

// One operation's arguments, resolved.
struct Access {
  WindowAccess window;
  DatatypePtr origin_type, target_type;
  bool to_nobody = false; // target MPI_PROC_NULL: nothing happens
};

int check_type(MPI_Win win, MPI_Datatype handle, const char* call, DatatypePtr& out)
{
  out = Runtime::get().datatypes().find(handle);
  if (out == nullptr)
    return raise_window_error(win, MPI_ERR_TYPE, call, "invalid datatype " + std::to_string(handle));
  return MPI_SUCCESS;
}

// Whether `count` elements of `type` at `disp` units lie inside the target's window.
bool inside(const WindowPart& target, MPI_Aint disp, int count, const Datatype& type)
{
  if (count == 0 || type.size() == 0)
    return true;
  const MPI_Aint start = disp * target.disp_unit;
  const MPI_Aint first = start + type.true_lb();
  const MPI_Aint last = start + (count - 1) * type.extent() + type.true_lb() + type.true_extent();
  return first >= 0 && last <= target.size;
}

int check_access(MPI_Win win, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                 int target_count, MPI_Datatype target_type, const char* call, Access& out)
{
  MPISIM_TRY(resolve_window(win, call, out.window));
  MPISIM_WIN_CHECK(origin_count >= 0 && target_count >= 0, win, MPI_ERR_COUNT, call,
                   "negative count " + std::to_string(std::min(origin_count, target_count)));
  MPISIM_TRY(check_type(win, origin_type, call, out.origin_type));
  MPISIM_TRY(check_type(win, target_type, call, out.target_type));
  const int members = out.window.channel->size();
  out.to_nobody = target_rank == MPI_PROC_NULL;
  MPISIM_WIN_CHECK(out.to_nobody || (target_rank >= 0 && target_rank < members), win, MPI_ERR_RANK, call,
                   "invalid target rank " + std::to_string(target_rank) + " in a window of " + std::to_string(members) +
                       " ranks");
  MPISIM_WIN_CHECK(out.window.part->epoch_open, win, MPI_ERR_RMA_SYNC, call,
                   "no access epoch: the operation must come between two MPI_Win_fence calls");
  if (out.to_nobody)
    return MPI_SUCCESS;
  MPISIM_WIN_CHECK(target_disp >= 0, win, MPI_ERR_DISP, call,
                   "negative target displacement " + std::to_string(target_disp));
  const size_t origin_bytes = out.origin_type->packed_size(static_cast<size_t>(origin_count));
  const size_t target_bytes = out.target_type->packed_size(static_cast<size_t>(target_count));
  MPISIM_WIN_CHECK(origin_bytes == target_bytes, win, MPI_ERR_TYPE, call,
                   "the origin's " + std::to_string(origin_bytes) + " bytes do not match the target's " +
                       std::to_string(target_bytes));
  const WindowPart& target = out.window.window->parts[static_cast<size_t>(target_rank)];
  MPISIM_WIN_CHECK(inside(target, target_disp, target_count, *out.target_type), win, MPI_ERR_RMA_RANGE, call,
                   "the target data lies outside rank " + std::to_string(target_rank) + "'s window of " +
                       std::to_string(target.size) + " bytes");
  return MPI_SUCCESS;
}

// Accumulates combine basic elements of one kind with a predefined operation (MPI-3.1 section 11.3.4).
int check_accumulate(MPI_Win win, const Access& access, MPI_Op op, const char* call)
{
  MPISIM_WIN_CHECK(op >= MPI_MAX && op <= MPI_REPLACE, win, MPI_ERR_OP, call,
                   op == MPI_NO_OP ? std::string("MPI_NO_OP is for MPI_Get_accumulate only")
                                   : "operation " + std::to_string(op) + " is not a predefined one");
  mpisim::mpi::Element origin{}, target{};
  MPISIM_WIN_CHECK(access.origin_type->homogeneous(origin) && access.target_type->homogeneous(target) &&
                       origin == target,
                   win, MPI_ERR_TYPE, call, "the origin and target datatypes must be made of one same basic datatype");
  if (op == MPI_REPLACE)
    return MPI_SUCCESS;
  // Try the operation on one zero element: it throws when it is not defined on this kind (MPI_SUM on MPI_2INT).
  const DatatypePtr basic = Datatype::predefined(origin);
  std::vector<std::byte> in(basic->size()), inout(basic->size());
  try {
    Runtime::get().operations().find(op)->apply_to_packed(in.data(), inout.data(), 1, *basic);
  } catch (const std::exception&) {
    return raise_window_error(win, MPI_ERR_OP, call,
                              "operation " + std::to_string(op) + " is not defined on " +
                                  mpisim::mpi::element_name(origin));
  }
  return MPI_SUCCESS;
}

// Sends one operation to its target and notes it in the origin's epoch. Puts and accumulates carry `count` elements
// of the origin's data (`data` may be MPI_BOTTOM), packed after the header; gets carry the header alone.
void issue(ApiScope& scope, Access& access, int target_rank, const OperationHeader& header, const void* data, int count)
{
  RmaEpoch& epoch = access.window.part->epoch;
  const bool carries_data = header.kind != OperationKind::Get;
  const size_t data_bytes = carries_data ? access.origin_type->packed_size(static_cast<size_t>(count)) : 0;
  auto message = std::make_unique<std::vector<std::byte>>(sizeof header + data_bytes);
  std::memcpy(message->data(), &header, sizeof header);
  if (data_bytes > 0)
    access.origin_type->pack(data, static_cast<size_t>(count), message->data() + sizeof header);
  scope.describe(access.window.channel, target_rank, static_cast<double>(data_bytes));
  epoch.requests.push_back(scope.rank().isend(*access.window.channel, target_rank, kOperationTag,
                                              static_cast<double>(message->size()), message->data()));
  epoch.payloads.push_back(std::move(message));
  epoch.types.push_back(access.target_type);
  ++epoch.operations_to[target_rank];
}

// The target's side: applies a put or an accumulate to its memory.
void apply(const WindowPart& part, const OperationHeader& header, const std::byte* data)
{
  void* target = static_cast<char*>(part.base) + header.disp * part.disp_unit;
  const auto count = static_cast<size_t>(header.count);
  if (header.kind == OperationKind::Put || header.op == MPI_REPLACE) {
    header.type->unpack(data, count, target);
    return;
  }
  std::vector<std::byte> current(header.type->packed_size(count));
  header.type->pack(target, count, current.data());
  Runtime::get().operations().find(header.op)->apply_to_packed(data, current.data(), count, *header.type);
  header.type->unpack(current.data(), count, target);
}

// The target's side of a fence: receives the `incoming` operations aimed at it, applies them, and answers the gets
// (their replies are added to `replies`, with the buffers they send from).
void serve(ApiScope& scope, const WindowAccess& window, int incoming, std::vector<mpisim::mpi::RequestPtr>& replies,
           std::vector<std::vector<std::byte>>& reply_data)
{
  const mpisim::mpi::Communicator& channel = *window.channel;
  reply_data.reserve(static_cast<size_t>(incoming));
  for (int i = 0; i < incoming; ++i) {
    const mpisim::mpi::Status probed = scope.rank().wait_for_message(channel, mpisim::mpi::kAnySource, kOperationTag);
    std::vector<std::byte> message(static_cast<size_t>(probed.bytes));
    scope.rank().recv(channel, probed.source, kOperationTag, probed.bytes, message.data());
    OperationHeader header;
    std::memcpy(&header, message.data(), sizeof header);
    if (header.kind != OperationKind::Get) {
      apply(*window.part, header, message.data() + sizeof header);
      continue;
    }
    const void* source = static_cast<const char*>(window.part->base) + header.disp * window.part->disp_unit;
    std::vector<std::byte>& reply = reply_data.emplace_back(header.type->packed_size(header.count));
    header.type->pack(source, static_cast<size_t>(header.count), reply.data());
    replies.push_back(
        scope.rank().isend(channel, probed.source, kReplyTag, static_cast<double>(reply.size()), reply.data()));
  }
}

// Completes the epoch the fence closes, on every member (collective over the hidden communicator).
int complete_epoch(ApiScope& scope, const WindowAccess& window)
{
  RmaEpoch& epoch = window.part->epoch;
  std::vector<int> operations_to(static_cast<size_t>(window.channel->size()), 0);
  for (const auto& [target, count] : epoch.operations_to)
    operations_to[static_cast<size_t>(target)] = count;
  int incoming = 0;
  run_reduce_scatter_block(scope.runtime(), *window.channel, operations_to.data(), &incoming, 1, MPI_INT, MPI_SUM);
  std::vector<mpisim::mpi::RequestPtr> replies;
  std::vector<std::vector<std::byte>> reply_data;
  serve(scope, window, incoming, replies, reply_data);
  scope.rank().waitall(epoch.requests);
  scope.rank().waitall(replies);
  // No member may start the next epoch's operations while another still serves this one's: their messages would
  // be taken for this epoch's.
  run_barrier(scope.runtime(), *window.channel);
  epoch.clear();
  return MPI_SUCCESS;
}

// MPI_Put and MPI_Accumulate: checked, then sent to the target (an accumulate also checks its operation).
int update(OperationKind kind, MPI_Op op, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
           int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
           const char* call)
{
  ApiScope scope(call);
  Access access;
  MPISIM_TRY(check_access(win, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                          call, access));
  if (kind == OperationKind::Accumulate)
    MPISIM_TRY(check_accumulate(win, access, op, call));
  if (access.to_nobody)
    return MPI_SUCCESS;
  const OperationHeader header{kind, op, target_disp, target_count, access.target_type.get()};
  issue(scope, access, target_rank, header, origin_addr, origin_count);
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  return update(OperationKind::Put, MPI_OP_NULL, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                target_count, target_datatype, win, "MPI_Put");
}

extern "C" int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win)
{
  return update(OperationKind::Accumulate, op, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                target_count, target_datatype, win, "MPI_Accumulate");
}

extern "C" int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  ApiScope scope;
  Access access;
  MPISIM_TRY(check_access(win, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                          "MPI_Get", access));
  if (access.to_nobody)
    return MPI_SUCCESS;
  // The reply's receive is posted first: the target answers in its fence, whenever that comes.
  MessageArguments reply{access.window.channel, access.origin_type};
  rebase_bottom(origin_addr, origin_count, reply); // MPI_BOTTOM with absolute addresses: a null buffer is "no data"
  RmaEpoch& epoch = access.window.part->epoch;
  epoch.requests.push_back(scope.rank().irecv(*access.window.channel, target_rank, kReplyTag, origin_addr,
                                              static_cast<size_t>(origin_count), reply.type));
  const OperationHeader header{OperationKind::Get, MPI_OP_NULL, target_disp, target_count, access.target_type.get()};
  issue(scope, access, target_rank, header, nullptr, 0);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_fence(int assert, MPI_Win win)
{
  ApiScope scope;
  WindowAccess window;
  MPISIM_TRY(resolve_window(win, "MPI_Win_fence", window));
  MPISIM_WIN_CHECK((assert & ~kKnownAsserts) == 0, win, MPI_ERR_ASSERT, "MPI_Win_fence",
                   "invalid assert " + std::to_string(assert));
  if (assert & MPI_MODE_NOPRECEDE) {
    // No operation precedes it anywhere (every member must say so): nothing to complete, nothing to wait for. The
    // next epoch's messages are only served by its closing fence.
    MPISIM_WIN_CHECK(window.part->epoch.idle(), win, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                     "MPI_MODE_NOPRECEDE, yet operations were issued since the last fence");
  } else {
    MPISIM_TRY(complete_epoch(scope, window));
  }
  window.part->epoch_open = (assert& MPI_MODE_NOSUCCEED) == 0;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Put)
MPISIM_ALIAS(Get)
MPISIM_ALIAS(Accumulate)
MPISIM_ALIAS(Win_fence)
