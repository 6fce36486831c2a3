// Windows of one-sided communication (MPI-3.1 sections 11.2, 11.2.6, 11.2.7, 8.3.2, 6.7.4): MPI_Win_create,
// MPI_Win_allocate, MPI_Win_free, MPI_Win_get_group, names, hints (MPI_Win_set_info/get_info) and error handlers
// (the windows' attributes are api_attributes.cpp's, with those of communicators and datatypes).
//
// Creating a window makes the hidden communicator its operations travel on (objects/CommLifecycle.hpp's
// window_channel: no attribute is copied onto it), then allgathers each member's base, size and displacement unit
// (as MPICH does; SMPI allgathers a pointer): in simulated time the call synchronizes its members as a barrier would.
// Freeing it is two barriers on the hidden communicator (as SMPI).
#include "online/bindings/Arguments.hpp"
#include "online/bindings/WindowArguments.hpp"
#include "online/objects/Collectives.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/objects/WindowHints.hpp"

#include <algorithm>
#include <cstring>

using namespace mpisim::online;

namespace {

// The calling member's part, as the others learn it at creation.
void describe_part(WindowPart& part, void* base, MPI_Aint size, int disp_unit, int flavor)
{
  if (flavor != MPI_WIN_FLAVOR_SHARED) // laid out in the shared segment by MPI_Win_allocate_shared
    part.base = base;
  part.size = size;
  part.disp_unit = disp_unit;
  part.flavor = flavor;
}

// The exchange that tells the members each other's parts: MPICH allgathers each part's base, size and displacement
// unit, SMPI a pointer to its window object. The parts are shared objects here, each described by its member before
// the exchange: once it returns, every member's is (a member may access another's part as soon as its own call
// returns, before the other's has). It is made for its simulated time.
void exchange_descriptions(Runtime& runtime, const mpisim::mpi::Communicator& channel)
{
  constexpr size_t kMpichDescription = 2 * sizeof(MPI_Aint) + sizeof(int);
  constexpr size_t kSmpiPointer = sizeof(void*);
  const size_t bytes = creation_messages(runtime) == CreationMessages::Smpi ? kSmpiPointer : kMpichDescription;
  std::vector<std::byte> mine(bytes), all(bytes * static_cast<size_t>(channel.size()));
  run_allgather(runtime, channel, mine.data(), all.data(), static_cast<int>(bytes), MPI_BYTE);
}

int check_creation(Runtime& runtime, MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info, const char* call)
{
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, call, c));
  if (size < 0)
    return raise_error(runtime, comm, MPI_ERR_SIZE, call, "negative window size " + std::to_string(size));
  if (disp_unit <= 0)
    return raise_error(runtime, comm, MPI_ERR_DISP, call,
                       "displacement unit " + std::to_string(disp_unit) + " is not positive");
  if (info != MPI_INFO_NULL && runtime.process_objects().info(info) == nullptr)
    return raise_error(runtime, comm, MPI_ERR_INFO, call, "invalid info object " + std::to_string(info));
  return MPI_SUCCESS;
}

// The collective part of MPI_Win_create and MPI_Win_allocate (arguments already checked); `info` gives the hints.
int make_window(Runtime& runtime, MPI_Comm comm, void* base, MPI_Aint size, int disp_unit, int flavor, MPI_Info info,
                MPI_Win* win)
{
  const mpisim::mpi::Communicator& parent = *runtime.comm(comm);
  const int rank = parent.local_rank(runtime.current_rank());
  const int members = parent.size();
  const MPI_Comm channel = window_channel(runtime, comm, parent);
  const int handle = runtime.windows().join(channel, members).handle;
  describe_part(runtime.windows().find(handle)->parts[static_cast<size_t>(rank)], base, size, disp_unit, flavor);
  exchange_descriptions(runtime, *runtime.comm(channel));
  Window& window = *runtime.windows().find(handle);
  WindowPart& part = window.parts[static_cast<size_t>(rank)];
  part.hints = default_window_hints(flavor);
  if (info != MPI_INFO_NULL)
    apply_window_hints(part.hints, *runtime.process_objects().info(info));
  part.live = true;
  ++window.live_parts;
  *win = window.handle;
  return MPI_SUCCESS;
}

bool is_attachable(Runtime& runtime, MPI_Errhandler errhandler)
{
  if (errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN)
    return true;
  const UserErrhandler* user = runtime.process_objects().errhandler(errhandler);
  return user != nullptr && user->references > 0;
}

} // namespace

// The members of a shared window run on one host (MPI_ERR_RMA_SHARED otherwise: MPI lets an implementation refuse).
int check_one_host(Runtime& runtime, MPI_Comm comm, const char* call)
{
  const mpisim::mpi::Communicator& members = *runtime.comm(comm);
  for (int rank = 1; rank < members.size(); ++rank)
    if (runtime.world().host_of(members.world_rank(rank)) != runtime.world().host_of(members.world_rank(0)))
      return raise_error(runtime, comm, MPI_ERR_RMA_SHARED, call,
                         "ranks 0 and " + std::to_string(rank) + " of the communicator run on different hosts");
  return MPI_SUCCESS;
}

// Creation and destruction -------------------------------------------------------------------------------------------

extern "C" int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_TRY(check_creation(runtime, comm, size, disp_unit, info, "MPI_Win_create"));
  return make_window(runtime, comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, info, win);
}

extern "C" int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                 MPI_Win* win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_TRY(check_creation(runtime, comm, size, disp_unit, info, "MPI_Win_allocate"));
  void* base = allocate_memory(size);
  if (base == nullptr) // raised as by the MPI_Alloc_mem it makes
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem",
                       "cannot allocate " + std::to_string(size) + " bytes");
  if (int error = make_window(runtime, comm, base, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, info, win);
      error != MPI_SUCCESS) {
    free_memory(base);
    return error;
  }
  *static_cast<void**>(baseptr) = base;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                        MPI_Win* win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_TRY(check_creation(runtime, comm, size, disp_unit, info, "MPI_Win_allocate_shared"));
  MPISIM_TRY(check_one_host(runtime, comm, "MPI_Win_allocate_shared"));
  const mpisim::mpi::Communicator& parent = *runtime.comm(comm);
  // Every member's size, to lay the parts out one after the other in one segment.
  std::vector<MPI_Aint> sizes(static_cast<size_t>(parent.size()));
  run_allgather(runtime, parent, &size, sizes.data(), sizeof size, MPI_BYTE);
  MPISIM_TRY(make_window(runtime, comm, nullptr, size, disp_unit, MPI_WIN_FLAVOR_SHARED, info, win));
  Window& window = *runtime.windows().find(*win);
  if (window.shared_segment == nullptr) { // the first member here allocates for all and lays the parts out
    MPI_Aint total = 0;
    for (MPI_Aint part : sizes)
      total += part;
    window.shared_segment = std::make_unique<std::byte[]>(static_cast<size_t>(std::max<MPI_Aint>(total, 1)));
    MPI_Aint offset = 0;
    for (size_t member = 0; member < sizes.size(); ++member) {
      window.parts[member].base = window.shared_segment.get() + offset;
      offset += sizes[member];
    }
  }
  const int rank = parent.local_rank(runtime.current_rank());
  *static_cast<void**>(baseptr) = window.parts[static_cast<size_t>(rank)].base;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_shared_query", access));
  MPISIM_WIN_CHECK(runtime, access.part->flavor == MPI_WIN_FLAVOR_SHARED, win, MPI_ERR_RMA_FLAVOR,
                   "MPI_Win_shared_query", "the window was not made by MPI_Win_allocate_shared");
  const int members = access.channel->size();
  MPISIM_WIN_CHECK(runtime, rank == MPI_PROC_NULL || (rank >= 0 && rank < members), win, MPI_ERR_RANK,
                   "MPI_Win_shared_query",
                   "invalid rank " + std::to_string(rank) + " in a window of " + std::to_string(members) + " ranks");
  const std::vector<WindowPart>& parts = access.window->parts;
  const WindowPart* part = rank == MPI_PROC_NULL ? nullptr : &parts[static_cast<size_t>(rank)];
  for (int member = 0; part == nullptr && member < members; ++member) // MPI_PROC_NULL: the first non-empty part
    if (parts[static_cast<size_t>(member)].size > 0)
      part = &parts[static_cast<size_t>(member)];
  *size = part ? part->size : 0;
  *disp_unit = part ? part->disp_unit : 1;
  *static_cast<void**>(baseptr) = part ? part->base : nullptr;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_TRY(check_creation(runtime, comm, 0, 1, info, "MPI_Win_create_dynamic"));
  return make_window(runtime, comm, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, info, win);
}

extern "C" int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_attach", access));
  MPISIM_WIN_CHECK(runtime, access.part->flavor == MPI_WIN_FLAVOR_DYNAMIC, win, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach",
                   "the window is not dynamic");
  MPISIM_WIN_CHECK(runtime, size >= 0, win, MPI_ERR_SIZE, "MPI_Win_attach", "negative size " + std::to_string(size));
  const auto address = reinterpret_cast<MPI_Aint>(base);
  for (const AttachedRegion& region : access.part->regions)
    MPISIM_WIN_CHECK(runtime, address + size <= region.base || address >= region.base + region.size, win,
                     MPI_ERR_RMA_ATTACH, "MPI_Win_attach", "the memory overlaps a region already attached");
  access.part->regions.push_back(AttachedRegion{address, size});
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_detach(MPI_Win win, const void* base)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_detach", access));
  MPISIM_WIN_CHECK(runtime, access.part->flavor == MPI_WIN_FLAVOR_DYNAMIC, win, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach",
                   "the window is not dynamic");
  std::vector<AttachedRegion>& regions = access.part->regions;
  const auto address = reinterpret_cast<MPI_Aint>(base);
  auto found = std::find_if(regions.begin(), regions.end(),
                            [address](const AttachedRegion& region) { return region.base == address; });
  MPISIM_WIN_CHECK(runtime, found != regions.end(), win, MPI_ERR_RMA_ATTACH, "MPI_Win_detach",
                   "no region attached at this address");
  regions.erase(found);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_free(MPI_Win* win)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, *win, "MPI_Win_free", access));
  const WindowPart& part = *access.part;
  MPISIM_WIN_CHECK(runtime, part.started.empty(), *win, MPI_ERR_RMA_SYNC, "MPI_Win_free",
                   "operations issued since the last fence are not completed: call MPI_Win_fence first");
  MPISIM_WIN_CHECK(runtime, part.locks_held.empty() && not part.locked_all && not part.start_open && not part.post_open,
                   *win, MPI_ERR_RMA_SYNC, "MPI_Win_free", "an epoch of the window is open");
  // A failing delete callback keeps the window (and the attribute), and its error is the call's.
  MPISIM_TRY(runtime.attributes().remove_all(runtime.current_rank(), AttributeObject::Win, *win));
  const MPI_Comm channel = access.window->channel;
  // As SMPI: a barrier, the operations completed (none left: checked above), a barrier.
  run_barrier(runtime, *access.channel);
  run_barrier(runtime, *access.channel);
  if (access.part->flavor == MPI_WIN_FLAVOR_ALLOCATE)
    free_memory(access.part->base);
  runtime.windows().leave(*access.window, access.local_rank);
  free_comm(runtime, channel);
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_get_group(MPI_Win win, MPI_Group* group)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_get_group", access));
  *group = group_of(runtime, *access.channel); // the same members in the same order
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_set_name(MPI_Win win, const char* win_name)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_set_name", access));
  MPISIM_WIN_CHECK(runtime, win_name != nullptr, win, MPI_ERR_ARG, "MPI_Win_set_name", "null name");
  access.part->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_get_name", access));
  std::memcpy(win_name, access.part->name.c_str(), access.part->name.size() + 1);
  *resultlen = static_cast<int>(access.part->name.size());
  return MPI_SUCCESS;
}

// Hints (MPI-3.1 section 11.2.7)
// ---------------------------------------------------------------------------------------

// Collective in MPI, yet local here: nothing the hints say changes what the members do (objects/WindowHints.hpp).
extern "C" int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_set_info", access));
  const InfoObject* given = info == MPI_INFO_NULL ? nullptr : runtime.process_objects().info(info);
  MPISIM_WIN_CHECK(runtime, given != nullptr, win, MPI_ERR_INFO, "MPI_Win_set_info",
                   "invalid info object " + std::to_string(info));
  apply_window_hints(access.part->hints, *given);
  return MPI_SUCCESS;
}

// A new info object holding the hints in effect (MPI's defaults for those never given).
extern "C" int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_get_info", access));
  *info_used = runtime.process_objects().add_info(access.part->hints);
  return MPI_SUCCESS;
}

// Error handlers -----------------------------------------------------------------------------------------------------

extern "C" int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, function != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null error handler function");
  // Window and communicator handles are both integers: the handler has the communicator handlers' signature.
  *errhandler = runtime.process_objects().add_errhandler(function);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_set_errhandler", access));
  MPISIM_WIN_CHECK(runtime, is_attachable(runtime, errhandler), win, MPI_ERR_ARG, "MPI_Win_set_errhandler",
                   "invalid error handler " + std::to_string(errhandler));
  access.part->errhandler = errhandler;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_get_errhandler", access));
  *errhandler = access.part->errhandler;
  if (UserErrhandler* user = runtime.process_objects().errhandler(*errhandler))
    ++user->references; // a new handle the application frees
  return MPI_SUCCESS;
}

extern "C" int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
  Runtime& runtime = Runtime::get();
  WindowAccess access;
  MPISIM_TRY(resolve_window(runtime, win, "MPI_Win_call_errhandler", access));
  // The handler sees the code itself; a fatal handler reports its class.
  int error_class = errorcode;
  if (errorcode > MPI_ERR_LASTCODE) {
    const auto& classes = runtime.process_objects().of_rank(runtime.current_rank()).class_of_code;
    auto found = classes.find(errorcode);
    error_class = found == classes.end() ? MPI_ERR_UNKNOWN : found->second;
  }
  const int raised = access.part->errhandler == MPI_ERRORS_ARE_FATAL ? error_class : errorcode;
  raise_window_error(runtime, win, raised, "MPI_Win_call_errhandler", "error code " + std::to_string(errorcode));
  return MPI_SUCCESS; // the handler returned
}

MPISIM_ALIAS(Win_create)
MPISIM_ALIAS(Win_allocate)
MPISIM_ALIAS(Win_allocate_shared)
MPISIM_ALIAS(Win_shared_query)
MPISIM_ALIAS(Win_create_dynamic)
MPISIM_ALIAS(Win_attach)
MPISIM_ALIAS(Win_detach)
MPISIM_ALIAS(Win_free)
MPISIM_ALIAS(Win_get_group)
MPISIM_ALIAS(Win_set_name)
MPISIM_ALIAS(Win_get_name)
MPISIM_ALIAS(Win_set_info)
MPISIM_ALIAS(Win_get_info)
MPISIM_ALIAS(Win_create_errhandler)
MPISIM_ALIAS(Win_set_errhandler)
MPISIM_ALIAS(Win_get_errhandler)
MPISIM_ALIAS(Win_call_errhandler)
