// One-sided communication (MPI-3.1 sections 11.3 to 11.5): MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
// MPI_Fetch_and_op, MPI_Compare_and_swap and their request-based forms (MPI_Rput, MPI_Rget, MPI_Raccumulate,
// MPI_Rget_accumulate); the synchronizations: MPI_Win_fence, MPI_Win_lock/unlock, lock_all/unlock_all,
// MPI_Win_flush[_local][_all], MPI_Win_sync, MPI_Win_post/start/complete/wait/test. The bindings check the arguments
// and the epochs; the operations and synchronizations are the window object's (objects/RmaOperations.hpp,
// docs/specifications/one-sided.md).
#include "online/bindings/Arguments.hpp"
#include "online/bindings/PointToPoint.hpp"
#include "online/bindings/WindowArguments.hpp"
#include "online/objects/RmaOperations.hpp"

#include "online/objects/Groups.hpp"

#include "mpi/ReduceOp.hpp"

#include <cstring>
#include <initializer_list>
#include <iterator>
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

int check_type(Runtime& runtime, MPI_Win win, MPI_Datatype handle, const char* call, DatatypePtr& out)
{
  out = runtime.datatypes().find(handle);
  if (out == nullptr)
    return raise_window_error(runtime, win, MPI_ERR_TYPE, call, "invalid datatype " + std::to_string(handle));
  return MPI_SUCCESS;
}

// Whether `count` elements of `type` at `disp` lie inside the target's window: `disp` units from its base, or in a
// dynamic window an address inside one region attached there.
bool inside(const WindowPart& target, MPI_Aint disp, int count, const Datatype& type)
{
  if (count == 0 || type.size() == 0)
    return true;
  const MPI_Aint first = type.true_lb();
  const MPI_Aint last = (count - 1) * type.extent() + type.true_lb() + type.true_extent();
  if (target.flavor == MPI_WIN_FLAVOR_DYNAMIC)
    return std::any_of(target.regions.begin(), target.regions.end(), [&](const AttachedRegion& region) {
      return disp + first >= region.base && disp + last <= region.base + region.size;
    });
  const MPI_Aint start = disp * target.disp_unit;
  return start + first >= 0 && start + last <= target.size;
}

int check_target(Runtime& runtime, MPI_Win win, const WindowAccess& window, int target_rank, const char* call,
                 bool& to_nobody)
{
  const int members = window.channel->size();
  to_nobody = target_rank == MPI_PROC_NULL;
  MPISIM_WIN_CHECK(runtime, to_nobody || (target_rank >= 0 && target_rank < members), win, MPI_ERR_RANK, call,
                   "invalid target rank " + std::to_string(target_rank) + " in a window of " + std::to_string(members) +
                       " ranks");
  MPISIM_WIN_CHECK(runtime, to_nobody || window.part->has_access_epoch(target_rank), win, MPI_ERR_RMA_SYNC, call,
                   "no access epoch to rank " + std::to_string(target_rank) +
                       ": the operation must come in a fence epoch, between MPI_Win_start and MPI_Win_complete, or "
                       "under a lock of the target");
  return MPI_SUCCESS;
}

// The target data: `target_count` elements of `target` inside the target's window, `origin_bytes` in all.
int check_target_data(Runtime& runtime, MPI_Win win, const Access& access, int target_rank, MPI_Aint target_disp,
                      int target_count, size_t origin_bytes, const char* call)
{
  const WindowPart& target = access.window.window->parts[static_cast<size_t>(target_rank)];
  MPISIM_WIN_CHECK(runtime, target_disp >= 0 || target.flavor == MPI_WIN_FLAVOR_DYNAMIC, win, MPI_ERR_DISP, call,
                   "negative target displacement " + std::to_string(target_disp));
  const size_t target_bytes = access.target_type->packed_size(static_cast<size_t>(target_count));
  MPISIM_WIN_CHECK(runtime, origin_bytes == target_bytes, win, MPI_ERR_TYPE, call,
                   "the origin's " + std::to_string(origin_bytes) + " bytes do not match the target's " +
                       std::to_string(target_bytes));
  MPISIM_WIN_CHECK(
      runtime, inside(target, target_disp, target_count, *access.target_type), win, MPI_ERR_RMA_RANGE, call,
      target.flavor == MPI_WIN_FLAVOR_DYNAMIC ? "the target data lies outside every region attached to rank " +
                                                    std::to_string(target_rank) + "'s dynamic window"
                                              : "the target data lies outside rank " + std::to_string(target_rank) +
                                                    "'s window of " + std::to_string(target.size) + " bytes");
  return MPI_SUCCESS;
}

int check_access(Runtime& runtime, MPI_Win win, int origin_count, MPI_Datatype origin_type, int target_rank,
                 MPI_Aint target_disp, int target_count, MPI_Datatype target_type, const char* call, Access& out)
{
  MPISIM_TRY(resolve_window(runtime, win, call, out.window));
  MPISIM_WIN_CHECK(runtime, origin_count >= 0 && target_count >= 0, win, MPI_ERR_COUNT, call,
                   "negative count " + std::to_string(std::min(origin_count, target_count)));
  MPISIM_TRY(check_type(runtime, win, origin_type, call, out.origin_type));
  MPISIM_TRY(check_type(runtime, win, target_type, call, out.target_type));
  MPISIM_TRY(check_target(runtime, win, out.window, target_rank, call, out.to_nobody));
  if (out.to_nobody)
    return MPI_SUCCESS;
  return check_target_data(runtime, win, out, target_rank, target_disp, target_count,
                           out.origin_type->packed_size(static_cast<size_t>(origin_count)), call);
}

// Accumulates combine basic elements of one kind with a predefined operation (MPI-3.1 section 11.3.4); MPI_NO_OP only
// where the target is read (`fetching`).
int check_accumulate(Runtime& runtime, MPI_Win win, const DatatypePtr& origin_type, const DatatypePtr& target_type,
                     MPI_Op op, bool fetching, const char* call)
{
  MPISIM_WIN_CHECK(runtime, (op >= MPI_MAX && op <= MPI_REPLACE) || (fetching && op == MPI_NO_OP), win, MPI_ERR_OP,
                   call,
                   op == MPI_NO_OP ? std::string("MPI_NO_OP is for MPI_Get_accumulate only")
                                   : "operation " + std::to_string(op) + " is not a predefined one");
  mpisim::mpi::Element origin{}, target{};
  MPISIM_WIN_CHECK(runtime, origin_type->homogeneous(origin) && target_type->homogeneous(target) && origin == target,
                   win, MPI_ERR_TYPE, call, "the origin and target datatypes must be made of one same basic datatype");
  if (op == MPI_REPLACE || op == MPI_NO_OP)
    return MPI_SUCCESS;
  // Try the operation on one zero element: it throws when it is not defined on this kind (MPI_SUM on MPI_2INT).
  const DatatypePtr basic = Datatype::predefined(origin);
  std::vector<std::byte> in(basic->size()), inout(basic->size());
  try {
    runtime.operations().find(op)->apply_to_packed(in.data(), inout.data(), 1, *basic);
  } catch (const std::exception&) {
    return raise_window_error(runtime, win, MPI_ERR_OP, call,
                              "operation " + std::to_string(op) + " is not defined on " +
                                  mpisim::mpi::element_name(origin));
  }
  return MPI_SUCCESS;
}

// MPI_BOTTOM with absolute addresses: a null buffer is "no data" to the simulator (PointToPoint.hpp).
RmaOrigin origin_of(const void* address, int count, const Access& access)
{
  MessageArguments args{access.window.channel, access.origin_type};
  rebase_bottom(address, count, args);
  return RmaOrigin{address, count, args.type};
}

RmaTarget target_of(const Access& access, int rank, MPI_Aint disp, int count)
{
  return RmaTarget{rank, disp, count, access.target_type};
}

// A request-based operation's request: the origin's end of its transfer, or complete at once (null).
int request_of(Runtime& runtime, MPI_Win win, const mpisim::mpi::RequestPtr& end, MPI_Request* request)
{
  *request = runtime.requests().add(RequestEntry{.request = end, .owner = ErrorOwner::window(win)});
  return MPI_SUCCESS;
}

int put_call(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request,
             const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  Access access;
  MPISIM_TRY(check_access(runtime, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, call, access));
  mpisim::mpi::RequestPtr end;
  if (not access.to_nobody) {
    scope.describe(access.window.channel, target_rank,
                   static_cast<double>(access.origin_type->packed_size(static_cast<size_t>(origin_count))));
    end = put(runtime, access.window, origin_of(origin_addr, origin_count, access),
              target_of(access, target_rank, target_disp, target_count),
              request ? OriginEnd::Returned : OriginEnd::Listed);
  }
  return request ? request_of(runtime, win, end, request) : MPI_SUCCESS;
}

int get_call(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request, const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  Access access;
  MPISIM_TRY(check_access(runtime, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, call, access));
  mpisim::mpi::RequestPtr end;
  if (not access.to_nobody) {
    scope.describe(access.window.channel, target_rank, 0);
    end = get(runtime, access.window, origin_of(origin_addr, origin_count, access),
              target_of(access, target_rank, target_disp, target_count),
              request ? OriginEnd::Returned : OriginEnd::Listed);
  }
  return request ? request_of(runtime, win, end, request) : MPI_SUCCESS;
}

int accumulate_call(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request* request, const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  Access access;
  MPISIM_TRY(check_access(runtime, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, call, access));
  MPISIM_TRY(check_accumulate(runtime, win, access.origin_type, access.target_type, op, false, call));
  if (not access.to_nobody) {
    scope.describe(access.window.channel, target_rank,
                   static_cast<double>(access.origin_type->packed_size(static_cast<size_t>(origin_count))));
    accumulate(runtime, access.window, origin_of(origin_addr, origin_count, access),
               target_of(access, target_rank, target_disp, target_count), op);
  }
  return request ? request_of(runtime, win, nullptr, request) : MPI_SUCCESS;
}

int get_accumulate_call(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request,
                        const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  Access access;
  // The result's side is checked as a get's; the origin's as an accumulate's, except with MPI_NO_OP (ignored).
  MPISIM_TRY(check_access(runtime, win, result_count, result_datatype, target_rank, target_disp, target_count,
                          target_datatype, call, access));
  const DatatypePtr result_type = access.origin_type;
  DatatypePtr origin_type = result_type;
  if (op != MPI_NO_OP) {
    MPISIM_WIN_CHECK(runtime, origin_count >= 0, win, MPI_ERR_COUNT, call,
                     "negative count " + std::to_string(origin_count));
    MPISIM_TRY(check_type(runtime, win, origin_datatype, call, origin_type));
    const size_t origin_bytes = origin_type->packed_size(static_cast<size_t>(origin_count));
    const size_t target_bytes = access.target_type->packed_size(static_cast<size_t>(target_count));
    MPISIM_WIN_CHECK(runtime, access.to_nobody || origin_bytes == target_bytes, win, MPI_ERR_TYPE, call,
                     "the origin's " + std::to_string(origin_bytes) + " bytes do not match the target's " +
                         std::to_string(target_bytes));
  }
  MPISIM_TRY(check_accumulate(runtime, win, origin_type, access.target_type, op, true, call));
  if (not access.to_nobody) {
    scope.describe(access.window.channel, target_rank,
                   static_cast<double>(access.target_type->packed_size(static_cast<size_t>(target_count))));
    const RmaOrigin result = origin_of(result_addr, result_count, access);
    access.origin_type = origin_type;
    const RmaOrigin origin = op == MPI_NO_OP ? result : origin_of(origin_addr, origin_count, access);
    get_accumulate(runtime, access.window, origin, result, target_of(access, target_rank, target_disp, target_count),
                   op);
  }
  return request ? request_of(runtime, win, nullptr, request) : MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  return put_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win, nullptr, "MPI_Put");
}

extern "C" int PMPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request)
{
  return put_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win, request, "MPI_Rput");
}

extern "C" int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win, nullptr, "MPI_Get");
}

extern "C" int PMPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request)
{
  return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win, request, "MPI_Rget");
}

extern "C" int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win)
{
  return accumulate_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, win, nullptr, "MPI_Accumulate");
}

extern "C" int PMPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                                MPI_Op op, MPI_Win win, MPI_Request* request)
{
  return accumulate_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, win, request, "MPI_Raccumulate");
}

extern "C" int PMPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                   void* result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                   MPI_Win win)
{
  return get_accumulate_call(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                             target_rank, target_disp, target_count, target_datatype, op, win, nullptr,
                             "MPI_Get_accumulate");
}

extern "C" int PMPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                    void* result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                    MPI_Win win, MPI_Request* request)
{
  return get_accumulate_call(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                             target_rank, target_disp, target_count, target_datatype, op, win, request,
                             "MPI_Rget_accumulate");
}

extern "C" int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
  return get_accumulate_call(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1, datatype,
                             op, win, nullptr, "MPI_Fetch_and_op");
}

extern "C" int PMPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                                     MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
  Runtime& runtime = Runtime::get();
  static constexpr const char* call = "MPI_Compare_and_swap";
  ApiScope scope(runtime, call);
  Access access;
  MPISIM_TRY(check_access(runtime, win, 1, datatype, target_rank, target_disp, 1, datatype, call, access));
  // Predefined integer, logical or byte types only (MPI-3.1 section 11.3.4): one basic element.
  mpisim::mpi::Element element{};
  MPISIM_WIN_CHECK(runtime,
                   access.target_type->homogeneous(element) && access.target_type->is_contiguous() &&
                       access.target_type->size() == Datatype::predefined(element)->size(),
                   win, MPI_ERR_TYPE, call, "the datatype must be a predefined one");
  if (access.to_nobody)
    return MPI_SUCCESS;
  scope.describe(access.window.channel, target_rank, static_cast<double>(access.target_type->size()));
  compare_and_swap(scope.runtime(), access.window, origin_addr, compare_addr, result_addr,
                   target_of(access, target_rank, target_disp, 1));
  return MPI_SUCCESS;
}

// Synchronization ----------------------------------------------------------------------------------------------------

namespace {

// The epoch states the synchronization calls require of the calling rank's part of the window (MPI-3.1 section 11.5),
// each with what MPI_ERR_RMA_SYNC says when it does not hold. A call lists the states it requires, in checking order.
enum class Epoch {
  NoPassiveTarget,  // no MPI_Win_lock or MPI_Win_lock_all epoch
  NoLockHeld,       // the same, as MPI_Win_lock_all says it
  NoGeneralActive,  // no MPI_Win_start or MPI_Win_post epoch
  FenceCompleted,   // no fence epoch with operations not completed
  NoStartEpoch,     // no MPI_Win_start epoch
  StartNotYetOpen,  // the same, as MPI_Win_start says it
  PostNotYetOpen,   // no MPI_Win_post epoch, as MPI_Win_post says it
  StartEpochOpen,   // an MPI_Win_start epoch to complete
  PostEpochOpen,    // an MPI_Win_post epoch to wait for
  LockAllEpochOpen, // an MPI_Win_lock_all epoch to end
};

bool no_passive_target(const WindowPart& part)
{
  return part.locks_held.empty() && not part.locked_all;
}

bool no_general_active(const WindowPart& part)
{
  return not part.start_open && not part.post_open;
}

bool fence_completed(const WindowPart& part)
{
  return not part.fence_open || part.started.empty();
}

bool no_start(const WindowPart& part)
{
  return not part.start_open;
}

bool no_post(const WindowPart& part)
{
  return not part.post_open;
}

bool start_open(const WindowPart& part)
{
  return part.start_open;
}

bool post_open(const WindowPart& part)
{
  return part.post_open;
}

bool lock_all_open(const WindowPart& part)
{
  return part.locked_all;
}

struct EpochRule {
  Epoch epoch;
  bool (*holds)(const WindowPart& part);
  const char* otherwise;
};

constexpr EpochRule kEpochRules[] = {
    {Epoch::NoPassiveTarget, no_passive_target, "a passive-target epoch (MPI_Win_lock) is open"},
    {Epoch::NoLockHeld, no_passive_target, "this rank already holds locks on the window"},
    {Epoch::NoGeneralActive, no_general_active, "a post/start/complete/wait epoch is open"},
    {Epoch::FenceCompleted, fence_completed, "operations of a fence epoch are not completed"},
    {Epoch::NoStartEpoch, no_start, "an MPI_Win_start epoch is open"},
    {Epoch::StartNotYetOpen, no_start, "an MPI_Win_start epoch is already open"},
    {Epoch::PostNotYetOpen, no_post, "an MPI_Win_post epoch is already open"},
    {Epoch::StartEpochOpen, start_open, "no MPI_Win_start epoch is open"},
    {Epoch::PostEpochOpen, post_open, "no MPI_Win_post epoch is open"},
    {Epoch::LockAllEpochOpen, lock_all_open, "no MPI_Win_lock_all epoch is open"},
};

constexpr bool rules_in_epoch_order()
{
  for (size_t i = 0; i < std::size(kEpochRules); ++i)
    if (static_cast<size_t>(kEpochRules[i].epoch) != i)
      return false;
  return true;
}
static_assert(rules_in_epoch_order() && std::size(kEpochRules) == static_cast<size_t>(Epoch::LockAllEpochOpen) + 1,
              "one rule per epoch state, in the enum's order");

int check_epochs(Runtime& runtime, MPI_Win win, const WindowAccess& window, const char* call,
                 std::initializer_list<Epoch> required)
{
  for (Epoch epoch : required) {
    const EpochRule& rule = kEpochRules[static_cast<size_t>(epoch)];
    MPISIM_WIN_CHECK(runtime, rule.holds(*window.part), win, MPI_ERR_RMA_SYNC, call, rule.otherwise);
  }
  return MPI_SUCCESS;
}

int check_window_rank(Runtime& runtime, MPI_Win win, const WindowAccess& window, int rank, const char* call)
{
  MPISIM_WIN_CHECK(runtime, rank >= 0 && rank < window.channel->size(), win, MPI_ERR_RANK, call,
                   "invalid rank " + std::to_string(rank) + " in a window of " +
                       std::to_string(window.channel->size()) + " ranks");
  return MPI_SUCCESS;
}

int check_assert(Runtime& runtime, MPI_Win win, int assert, int allowed, const char* call)
{
  MPISIM_WIN_CHECK(runtime, (assert & ~allowed) == 0, win, MPI_ERR_ASSERT, call,
                   "invalid assert " + std::to_string(assert));
  return MPI_SUCCESS;
}

// The members of `group` as comm ranks of the window (MPI_ERR_GROUP, MPI_ERR_RANK for one outside the window).
int window_ranks(Runtime& runtime, MPI_Win win, const WindowAccess& window, MPI_Group group, const char* call,
                 std::vector<int>& out)
{
  const GroupMembers* members = runtime.groups().find(runtime.current_rank(), group);
  MPISIM_WIN_CHECK(runtime, members != nullptr, win, MPI_ERR_GROUP, call, "invalid group " + std::to_string(group));
  for (int world_rank : *members) {
    const int rank = window.channel->local_rank(world_rank);
    MPISIM_WIN_CHECK(runtime, rank >= 0, win, MPI_ERR_RANK, call,
                     "world rank " + std::to_string(world_rank) + " of the group is not a member of the window");
    out.push_back(rank);
  }
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Win_fence(int assert, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_fence", window));
  MPISIM_TRY(check_assert(runtime, win, assert, kKnownAsserts, "MPI_Win_fence"));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_fence", {Epoch::NoPassiveTarget, Epoch::NoGeneralActive}));
  // No operation precedes it anywhere (every member must say so).
  MPISIM_WIN_CHECK(runtime, not(assert& MPI_MODE_NOPRECEDE) || window.part->started.empty(), win, MPI_ERR_RMA_SYNC,
                   "MPI_Win_fence", "MPI_MODE_NOPRECEDE, yet operations were issued since the last fence");
  fence(runtime, window, assert);
  return MPI_SUCCESS;
}

// MPI_PROC_NULL is a valid target of every RMA call (MPI-3.1 section 11.3): locking or unlocking it does nothing.
extern "C" int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_lock", window));
  MPISIM_WIN_CHECK(runtime, lock_type == MPI_LOCK_SHARED || lock_type == MPI_LOCK_EXCLUSIVE, win, MPI_ERR_LOCKTYPE,
                   "MPI_Win_lock", "invalid lock type " + std::to_string(lock_type));
  MPISIM_TRY(check_assert(runtime, win, assert, MPI_MODE_NOCHECK, "MPI_Win_lock"));
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  MPISIM_TRY(check_window_rank(runtime, win, window, rank, "MPI_Win_lock"));
  MPISIM_WIN_CHECK(runtime, not window.part->locks_held.contains(rank) && not window.part->locked_all, win,
                   MPI_ERR_RMA_SYNC, "MPI_Win_lock",
                   "rank " + std::to_string(rank) + " is already locked by this rank");
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_lock", {Epoch::FenceCompleted, Epoch::NoStartEpoch}));
  lock(runtime, window, lock_type, rank);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_unlock(int rank, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_unlock", window));
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  MPISIM_TRY(check_window_rank(runtime, win, window, rank, "MPI_Win_unlock"));
  MPISIM_WIN_CHECK(runtime, window.part->locks_held.contains(rank), win, MPI_ERR_RMA_SYNC, "MPI_Win_unlock",
                   "rank " + std::to_string(rank) + " is not locked by this rank");
  unlock(runtime, window, rank);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_lock_all(int assert, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_lock_all", window));
  MPISIM_TRY(check_assert(runtime, win, assert, MPI_MODE_NOCHECK, "MPI_Win_lock_all"));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_lock_all", {Epoch::NoLockHeld, Epoch::NoStartEpoch}));
  lock_all(runtime, window);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_unlock_all(MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_unlock_all", window));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_unlock_all", {Epoch::LockAllEpochOpen}));
  unlock_all(runtime, window);
  return MPI_SUCCESS;
}

namespace {

// MPI_Win_flush and its variants: in a passive-target epoch to `rank` (all targets when `all`). MPI_PROC_NULL, a
// valid target of every RMA call (MPI-3.1 section 11.3), has nothing to complete.
int flush_call(int rank, bool all, bool local, MPI_Win win, const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, call, window));
  if (not all && rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (not all)
    MPISIM_TRY(check_window_rank(runtime, win, window, rank, call));
  const bool in_epoch =
      all ? window.part->locked_all || not window.part->locks_held.empty() : window.part->passive_epoch(rank);
  MPISIM_WIN_CHECK(runtime, in_epoch, win, MPI_ERR_RMA_SYNC, call, "no passive-target epoch (MPI_Win_lock) is open");
  if (local)
    flush_local(runtime, window, all ? -1 : rank);
  else
    flush(runtime, window, all ? -1 : rank);
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Win_flush(int rank, MPI_Win win)
{
  return flush_call(rank, false, false, win, "MPI_Win_flush");
}

extern "C" int PMPI_Win_flush_local(int rank, MPI_Win win)
{
  return flush_call(rank, false, true, win, "MPI_Win_flush_local");
}

extern "C" int PMPI_Win_flush_all(MPI_Win win)
{
  return flush_call(-1, true, false, win, "MPI_Win_flush_all");
}

extern "C" int PMPI_Win_flush_local_all(MPI_Win win)
{
  return flush_call(-1, true, true, win, "MPI_Win_flush_local_all");
}

extern "C" int PMPI_Win_sync(MPI_Win win)
{
  Runtime& runtime = Runtime::get();
  // The unified model: the public and private copies are one, nothing to synchronize.
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_sync", window));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  std::vector<int> origins;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_post", window));
  MPISIM_TRY(check_assert(runtime, win, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, "MPI_Win_post"));
  MPISIM_TRY(window_ranks(runtime, win, window, group, "MPI_Win_post", origins));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_post", {Epoch::PostNotYetOpen, Epoch::FenceCompleted}));
  post(runtime, window, origins);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  std::vector<int> targets;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_start", window));
  MPISIM_TRY(check_assert(runtime, win, assert, MPI_MODE_NOCHECK, "MPI_Win_start"));
  MPISIM_TRY(window_ranks(runtime, win, window, group, "MPI_Win_start", targets));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_start", {Epoch::StartNotYetOpen, Epoch::NoPassiveTarget}));
  start(runtime, window, targets);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_complete(MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_complete", window));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_complete", {Epoch::StartEpochOpen}));
  complete(runtime, window);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_wait(MPI_Win win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_wait", window));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_wait", {Epoch::PostEpochOpen}));
  wait(runtime, window);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_test(MPI_Win win, int* flag)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess window;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_test", window));
  MPISIM_TRY(check_epochs(runtime, win, window, "MPI_Win_test", {Epoch::PostEpochOpen}));
  *flag = test(runtime, window) ? 1 : 0;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Put)
MPISIM_ALIAS(Rput)
MPISIM_ALIAS(Get)
MPISIM_ALIAS(Rget)
MPISIM_ALIAS(Accumulate)
MPISIM_ALIAS(Raccumulate)
MPISIM_ALIAS(Get_accumulate)
MPISIM_ALIAS(Rget_accumulate)
MPISIM_ALIAS(Fetch_and_op)
MPISIM_ALIAS(Compare_and_swap)
MPISIM_ALIAS(Win_fence)
MPISIM_ALIAS(Win_lock)
MPISIM_ALIAS(Win_unlock)
MPISIM_ALIAS(Win_lock_all)
MPISIM_ALIAS(Win_unlock_all)
MPISIM_ALIAS(Win_flush)
MPISIM_ALIAS(Win_flush_local)
MPISIM_ALIAS(Win_flush_all)
MPISIM_ALIAS(Win_flush_local_all)
MPISIM_ALIAS(Win_sync)
MPISIM_ALIAS(Win_post)
MPISIM_ALIAS(Win_start)
MPISIM_ALIAS(Win_complete)
MPISIM_ALIAS(Win_wait)
MPISIM_ALIAS(Win_test)
