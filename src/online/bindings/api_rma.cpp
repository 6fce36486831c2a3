// One-sided communication with active-target synchronization (MPI-3.1 sections 11.3, 11.5.1): MPI_Put, MPI_Get,
// MPI_Accumulate and MPI_Win_fence. The bindings check the arguments; the operations and the fence are the window
// object's (objects/RmaOperations.hpp).
#include "online/bindings/Arguments.hpp"
#include "online/bindings/PointToPoint.hpp"
#include "online/bindings/WindowArguments.hpp"
#include "online/objects/RmaOperations.hpp"

#include "mpi/ReduceOp.hpp"

#include <cstring>
#include <stdexcept>

using namespace mpisim::online;
using mpisim::mpi::Datatype;
using mpisim::mpi::DatatypePtr;

namespace {

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

// MPI_Put and MPI_Accumulate: checked, then sent to the target (an accumulate also checks its operation).
int update(RmaKind kind, MPI_Op op, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
           int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
           const char* call)
{
  ApiScope scope(call);
  Access access;
  MPISIM_TRY(check_access(win, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                          call, access));
  if (kind == RmaKind::Accumulate)
    MPISIM_TRY(check_accumulate(win, access, op, call));
  if (access.to_nobody)
    return MPI_SUCCESS;
  scope.describe(access.window.channel, target_rank,
                 static_cast<double>(access.origin_type->packed_size(static_cast<size_t>(origin_count))));
  issue_update(scope.runtime(), access.window, kind, op, RmaOrigin{origin_addr, origin_count, access.origin_type},
               RmaTarget{target_rank, target_disp, target_count, access.target_type});
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  return update(RmaKind::Put, MPI_OP_NULL, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                target_count, target_datatype, win, "MPI_Put");
}

extern "C" int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win)
{
  return update(RmaKind::Accumulate, op, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
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
  MessageArguments reply{access.window.channel, access.origin_type};
  rebase_bottom(origin_addr, origin_count, reply); // MPI_BOTTOM with absolute addresses: a null buffer is "no data"
  scope.describe(access.window.channel, target_rank, 0);
  issue_get(scope.runtime(), access.window, origin_addr, origin_count, reply.type,
            RmaTarget{target_rank, target_disp, target_count, access.target_type});
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_fence(int assert, MPI_Win win)
{
  ApiScope scope;
  WindowAccess window;
  MPISIM_TRY(resolve_window(win, "MPI_Win_fence", window));
  MPISIM_WIN_CHECK((assert & ~kKnownAsserts) == 0, win, MPI_ERR_ASSERT, "MPI_Win_fence",
                   "invalid assert " + std::to_string(assert));
  // No operation precedes it anywhere (every member must say so): nothing to complete, nothing to wait for.
  MPISIM_WIN_CHECK(not(assert& MPI_MODE_NOPRECEDE) || window.part->epoch.idle(), win, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                   "MPI_MODE_NOPRECEDE, yet operations were issued since the last fence");
  fence(scope.runtime(), window, assert);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Put)
MPISIM_ALIAS(Get)
MPISIM_ALIAS(Accumulate)
MPISIM_ALIAS(Win_fence)
