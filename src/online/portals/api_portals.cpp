// The Portals 4 C API (include/portals4.h): each call enters the rank's accounting (computation since the last call
// becomes simulated time, as for MPI calls, without requiring MPI_Init) and forwards to the Portals runtime.
#include "online/portals/Portals.hpp"
#include "online/runtime/Runtime.hpp"

namespace {

using mpisim::online::Runtime;
using mpisim::online::portals::Portals;

class PortalsScope {
public:
  explicit PortalsScope(const char* call = __builtin_FUNCTION())
      : runtime_(Runtime::get()), world_rank_(runtime_.enter_call(call, false))
  {
  }
  ~PortalsScope() { runtime_.leave_call(world_rank_); }
  PortalsScope(const PortalsScope&) = delete;
  PortalsScope& operator=(const PortalsScope&) = delete;
  Portals& portals() { return mpisim::online::portals::portals_of(runtime_); }

private:
  Runtime& runtime_;
  int world_rank_;
};

using mpisim::models::bxi::NicKind;

} // namespace

extern "C" {

int PtlInit(void)
{
  PortalsScope scope;
  return scope.portals().init();
}

void PtlFini(void)
{
  PortalsScope scope;
  scope.portals().fini();
}

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired,
              ptl_ni_limits_t* actual, ptl_handle_ni_t* ni_handle)
{
  (void)desired; // mpisim's limits are its tables'; `actual` says what they are
  PortalsScope scope;
  if (iface != PTL_IFACE_DEFAULT && iface != 0)
    return PTL_ARG_INVALID; // one interface per node
  return scope.portals().ni_init(options, pid, actual, ni_handle);
}

int PtlNIFini(ptl_handle_ni_t ni_handle)
{
  PortalsScope scope;
  return scope.portals().ni_fini(ni_handle);
}

int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t* ni_handle)
{
  PortalsScope scope;
  return scope.portals().ni_handle(handle, ni_handle);
}

int PtlSetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size, const ptl_process_t* mapping)
{
  PortalsScope scope;
  return scope.portals().set_map(ni_handle, map_size, mapping);
}

int PtlGetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size, ptl_process_t* mapping, ptl_size_t* actual_map_size)
{
  PortalsScope scope;
  return scope.portals().get_map(ni_handle, map_size, mapping, actual_map_size);
}

int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t* id)
{
  PortalsScope scope;
  return scope.portals().get_id(ni_handle, id, false);
}

int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t* id)
{
  PortalsScope scope;
  return scope.portals().get_id(ni_handle, id, true);
}

int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t* uid)
{
  PortalsScope scope;
  return scope.portals().get_uid(ni_handle, uid);
}

int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options, ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t* pt_index)
{
  PortalsScope scope;
  return scope.portals().pt_alloc(ni_handle, options, eq_handle, pt_index_req, pt_index);
}

int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
  PortalsScope scope;
  return scope.portals().pt_free(ni_handle, pt_index);
}

int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
  PortalsScope scope;
  return scope.portals().pt_enable(ni_handle, pt_index, true);
}

int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
  PortalsScope scope;
  return scope.portals().pt_enable(ni_handle, pt_index, false);
}

int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t* md, ptl_handle_md_t* md_handle)
{
  PortalsScope scope;
  return scope.portals().md_bind(ni_handle, md, md_handle);
}

int PtlMDRelease(ptl_handle_md_t md_handle)
{
  PortalsScope scope;
  return scope.portals().md_release(md_handle);
}

int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_le_t* le, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_le_t* le_handle)
{
  PortalsScope scope;
  if (le == nullptr)
    return PTL_ARG_INVALID;
  ptl_me_t as_me{};
  as_me.start = le->start;
  as_me.length = le->length;
  as_me.ct_handle = le->ct_handle;
  as_me.uid = le->uid;
  as_me.options = le->options;
  return scope.portals().append(ni_handle, pt_index, as_me, false, ptl_list, user_ptr, le_handle);
}

int PtlLEUnlink(ptl_handle_le_t le_handle)
{
  PortalsScope scope;
  return scope.portals().unlink(le_handle, false);
}

int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_me_t* me, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_me_t* me_handle)
{
  PortalsScope scope;
  if (me == nullptr)
    return PTL_ARG_INVALID;
  return scope.portals().append(ni_handle, pt_index, *me, true, ptl_list, user_ptr, me_handle);
}

int PtlMEUnlink(ptl_handle_me_t me_handle)
{
  PortalsScope scope;
  return scope.portals().unlink(me_handle, true);
}

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_handle_eq_t* eq_handle)
{
  PortalsScope scope;
  return scope.portals().eq_alloc(ni_handle, count, eq_handle);
}

int PtlEQFree(ptl_handle_eq_t eq_handle)
{
  PortalsScope scope;
  return scope.portals().eq_free(eq_handle);
}

int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t* event)
{
  PortalsScope scope;
  return scope.portals().eq_get(eq_handle, event);
}

int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t* event)
{
  PortalsScope scope;
  return scope.portals().eq_wait(eq_handle, event);
}

int PtlEQPoll(const ptl_handle_eq_t* eq_handles, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
              unsigned int* which)
{
  PortalsScope scope;
  return scope.portals().eq_poll(eq_handles, size, timeout, event, which);
}

int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t* ct_handle)
{
  PortalsScope scope;
  return scope.portals().ct_alloc(ni_handle, ct_handle);
}

int PtlCTFree(ptl_handle_ct_t ct_handle)
{
  PortalsScope scope;
  return scope.portals().ct_free(ct_handle);
}

int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t* event)
{
  PortalsScope scope;
  return scope.portals().ct_get(ct_handle, event);
}

int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test, ptl_ct_event_t* event)
{
  PortalsScope scope;
  return scope.portals().ct_wait(ct_handle, test, event);
}

int PtlCTPoll(const ptl_handle_ct_t* ct_handles, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* event, unsigned int* which)
{
  PortalsScope scope;
  return scope.portals().ct_poll(ct_handles, tests, size, timeout, event, which);
}

int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct)
{
  PortalsScope scope;
  return scope.portals().ct_set(ct_handle, new_ct);
}

int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment)
{
  PortalsScope scope;
  return scope.portals().ct_inc(ct_handle, increment);
}

int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
           ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
           void* user_ptr, ptl_hdr_data_t hdr_data)
{
  PortalsScope scope;
  return scope.portals().start({.kind = NicKind::Put,
                                .put_md = md_handle,
                                .put_offset = local_offset,
                                .length = length,
                                .ack_req = ack_req,
                                .target = target_id,
                                .pt = pt_index,
                                .match_bits = match_bits,
                                .remote_offset = remote_offset,
                                .user_ptr = user_ptr,
                                .hdr_data = hdr_data});
}

int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr)
{
  PortalsScope scope;
  return scope.portals().start({.kind = NicKind::Get,
                                .get_md = md_handle,
                                .get_offset = local_offset,
                                .length = length,
                                .target = target_id,
                                .pt = pt_index,
                                .match_bits = match_bits,
                                .remote_offset = remote_offset,
                                .user_ptr = user_ptr});
}

int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              void* user_ptr, ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype)
{
  PortalsScope scope;
  if (operation >= PTL_SWAP)
    return PTL_ARG_INVALID; // the swaps belong to PtlSwap
  return scope.portals().start({.kind = NicKind::Atomic,
                                .put_md = md_handle,
                                .put_offset = local_offset,
                                .length = length,
                                .ack_req = ack_req,
                                .target = target_id,
                                .pt = pt_index,
                                .match_bits = match_bits,
                                .remote_offset = remote_offset,
                                .user_ptr = user_ptr,
                                .hdr_data = hdr_data,
                                .op = operation,
                                .datatype = datatype});
}

int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
                   ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
                   ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
                   ptl_op_t operation, ptl_datatype_t datatype)
{
  PortalsScope scope;
  if (operation >= PTL_SWAP)
    return PTL_ARG_INVALID;
  return scope.portals().start({.kind = NicKind::FetchAtomic,
                                .put_md = put_md_handle,
                                .get_md = get_md_handle,
                                .put_offset = local_put_offset,
                                .get_offset = local_get_offset,
                                .length = length,
                                .target = target_id,
                                .pt = pt_index,
                                .match_bits = match_bits,
                                .remote_offset = remote_offset,
                                .user_ptr = user_ptr,
                                .hdr_data = hdr_data,
                                .op = operation,
                                .datatype = datatype});
}

int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
            ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
            ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
            const void* operand, ptl_op_t operation, ptl_datatype_t datatype)
{
  PortalsScope scope;
  if (operation < PTL_SWAP)
    return PTL_ARG_INVALID;
  return scope.portals().start({.kind = NicKind::Swap,
                                .put_md = put_md_handle,
                                .get_md = get_md_handle,
                                .put_offset = local_put_offset,
                                .get_offset = local_get_offset,
                                .length = length,
                                .target = target_id,
                                .pt = pt_index,
                                .match_bits = match_bits,
                                .remote_offset = remote_offset,
                                .user_ptr = user_ptr,
                                .hdr_data = hdr_data,
                                .op = operation,
                                .datatype = datatype,
                                .operand = operand});
}

int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2)
{
  return handle1 == handle2 ? 1 : 0;
}

int PtlAtomicSync(void)
{
  return PTL_OK;
}

int PtlStartBundle(ptl_handle_ni_t ni_handle)
{
  PortalsScope scope;
  ptl_handle_ni_t found;
  return scope.portals().ni_handle(ni_handle, &found);
}

int PtlEndBundle(ptl_handle_ni_t ni_handle)
{
  return PtlStartBundle(ni_handle);
}

int mpisim_ptl_mpi_interface(ptl_handle_ni_t* ni_handle, ptl_pt_index_t* pt_index)
{
  PortalsScope scope;
  return scope.portals().mpi_interface(ni_handle, pt_index);
}

const char* mpisim_ptl_strerror(int code)
{
  static const char* const kNames[] = {
      "PTL_OK",         "PTL_ARG_INVALID", "PTL_CT_NONE_REACHED", "PTL_EQ_DROPPED",    "PTL_EQ_EMPTY", "PTL_FAIL",
      "PTL_IGNORED",    "PTL_IN_USE",      "PTL_INTERRUPTED",     "PTL_LIST_TOO_LONG", "PTL_NO_INIT",  "PTL_NO_SPACE",
      "PTL_PID_IN_USE", "PTL_PT_FULL",     "PTL_PT_EQ_NEEDED",    "PTL_PT_IN_USE",     "PTL_ABORTED"};
  return code >= 0 && code < static_cast<int>(std::size(kNames)) ? kNames[code] : "PTL_(unknown)";
}

const char* mpisim_ptl_event_name(ptl_event_kind_t type)
{
  static const char* const kNames[] = {"PTL_EVENT_GET",          "PTL_EVENT_GET_OVERFLOW",
                                       "PTL_EVENT_PUT",          "PTL_EVENT_PUT_OVERFLOW",
                                       "PTL_EVENT_ATOMIC",       "PTL_EVENT_ATOMIC_OVERFLOW",
                                       "PTL_EVENT_FETCH_ATOMIC", "PTL_EVENT_FETCH_ATOMIC_OVERFLOW",
                                       "PTL_EVENT_REPLY",        "PTL_EVENT_SEND",
                                       "PTL_EVENT_ACK",          "PTL_EVENT_PT_DISABLED",
                                       "PTL_EVENT_LINK",         "PTL_EVENT_AUTO_UNLINK",
                                       "PTL_EVENT_AUTO_FREE",    "PTL_EVENT_SEARCH"};
  const auto index = static_cast<size_t>(type);
  return index < std::size(kNames) ? kNames[index] : "PTL_EVENT_(unknown)";
}

const char* mpisim_ptl_fail_name(ptl_ni_fail_t fail)
{
  static const char* const kNames[] = {"PTL_NI_OK",      "PTL_NI_UNDELIVERABLE",  "PTL_NI_PT_DISABLED",
                                       "PTL_NI_DROPPED", "PTL_NI_PERM_VIOLATION", "PTL_NI_OP_VIOLATION",
                                       "PTL_NI_SEGV",    "PTL_NI_NO_MATCH",       "PTL_NI_TARGET_INVALID"};
  return fail < std::size(kNames) ? kNames[fail] : "PTL_NI_(unknown)";
}

} // extern "C"
