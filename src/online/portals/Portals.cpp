#include "online/portals/Portals.hpp"

#include "kernel/Activity.hpp"
#include "kernel/MemoryContexts.hpp"
#include "models/NetworkModel.hpp"
#include "online/runtime/Runtime.hpp"

#include <algorithm>
#include <cstring>

namespace mpisim::online::portals {

using models::bxi::NicKind;
using models::bxi::NicOperation;
using models::bxi::TargetAnswer;

namespace {

constexpr ptl_pt_index_t kTableSize = 64; // portal table entries per NI (max_pt_index + 1)
static_assert(kMpiPortalIndex < kTableSize);
constexpr int kMaxListEntries = 1 << 20;

class Wakeup : public kernel::Activity {
public:
  explicit Wakeup(const char* what) : what_(what) {}
  std::string describe() const override { return what_; }

private:
  const char* what_;
};

uint32_t kind_of(ptl_handle_any_t handle)
{
  return handle >> 24;
}
size_t index_of(ptl_handle_any_t handle)
{
  return handle & 0xffffffu;
}
ptl_handle_any_t make_handle(HandleKind kind, size_t index)
{
  return (static_cast<uint32_t>(kind) << 24) | static_cast<uint32_t>(index);
}

template <class T> T* lookup(std::vector<std::unique_ptr<T>>& table, ptl_handle_any_t handle, HandleKind kind)
{
  if (kind_of(handle) != static_cast<uint32_t>(kind))
    return nullptr;
  const size_t index = index_of(handle);
  return index >= 1 && index <= table.size() ? table[index - 1].get() : nullptr;
}

template <class T>
ptl_handle_any_t insert(std::vector<std::unique_ptr<T>>& table, std::unique_ptr<T> object, HandleKind kind)
{
  table.push_back(std::move(object));
  return make_handle(kind, table.size());
}

size_t datatype_size(ptl_datatype_t type)
{
  switch (type) {
  case PTL_INT8_T:
  case PTL_UINT8_T: return 1;
  case PTL_INT16_T:
  case PTL_UINT16_T: return 2;
  case PTL_INT32_T:
  case PTL_UINT32_T:
  case PTL_FLOAT: return 4;
  case PTL_INT64_T:
  case PTL_UINT64_T:
  case PTL_DOUBLE:
  case PTL_FLOAT_COMPLEX: return 8;
  case PTL_DOUBLE_COMPLEX:
  case PTL_LONG_DOUBLE: return 16;
  case PTL_LONG_DOUBLE_COMPLEX: return 32;
  }
  return 1;
}

// target = target OP operand, element by element (the arithmetic and logical operations of PtlAtomic).
template <class T> T combine(ptl_op_t op, T target, T operand)
{
  switch (op) {
  case PTL_MIN: return std::min(target, operand);
  case PTL_MAX: return std::max(target, operand);
  case PTL_SUM: return static_cast<T>(target + operand);
  case PTL_PROD: return static_cast<T>(target * operand);
  case PTL_SWAP: return operand;
  default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
    case PTL_LOR: return static_cast<T>(target || operand);
    case PTL_LAND: return static_cast<T>(target && operand);
    case PTL_LXOR: return static_cast<T>((target != 0) != (operand != 0));
    case PTL_BOR: return static_cast<T>(target | operand);
    case PTL_BAND: return static_cast<T>(target & operand);
    case PTL_BXOR: return static_cast<T>(target ^ operand);
    default: break;
    }
  }
  return target;
}

template <class T> void apply_elements(ptl_op_t op, void* target, const void* operand, size_t bytes)
{
  for (size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T t;
    T o;
    std::memcpy(&t, static_cast<char*>(target) + i, sizeof(T));
    std::memcpy(&o, static_cast<const char*>(operand) + i, sizeof(T));
    t = combine(op, t, o);
    std::memcpy(static_cast<char*>(target) + i, &t, sizeof(T));
  }
}

void apply_atomic(ptl_op_t op, ptl_datatype_t type, void* target, const void* operand, size_t bytes)
{
  switch (type) {
  case PTL_INT8_T: apply_elements<int8_t>(op, target, operand, bytes); break;
  case PTL_UINT8_T: apply_elements<uint8_t>(op, target, operand, bytes); break;
  case PTL_INT16_T: apply_elements<int16_t>(op, target, operand, bytes); break;
  case PTL_UINT16_T: apply_elements<uint16_t>(op, target, operand, bytes); break;
  case PTL_INT32_T: apply_elements<int32_t>(op, target, operand, bytes); break;
  case PTL_UINT32_T: apply_elements<uint32_t>(op, target, operand, bytes); break;
  case PTL_INT64_T: apply_elements<int64_t>(op, target, operand, bytes); break;
  case PTL_UINT64_T: apply_elements<uint64_t>(op, target, operand, bytes); break;
  case PTL_FLOAT: apply_elements<float>(op, target, operand, bytes); break;
  case PTL_DOUBLE: apply_elements<double>(op, target, operand, bytes); break;
  default: apply_elements<uint8_t>(op, target, operand, bytes); break; // complex and long double: swap only
  }
}

// The conditional and masked swaps of PtlSwap, on one element (integers; floats compare as their type).
template <class T> void swap_element(ptl_op_t op, void* target, const void* value, const void* operand)
{
  T t;
  T v;
  T o;
  std::memcpy(&t, target, sizeof(T));
  std::memcpy(&v, value, sizeof(T));
  std::memcpy(&o, operand, sizeof(T));
  bool take = false;
  switch (op) {
  case PTL_SWAP: take = true; break;
  case PTL_CSWAP: take = o == t; break;
  case PTL_CSWAP_NE: take = o != t; break;
  case PTL_CSWAP_LE: take = o <= t; break;
  case PTL_CSWAP_LT: take = o < t; break;
  case PTL_CSWAP_GE: take = o >= t; break;
  case PTL_CSWAP_GT: take = o > t; break;
  case PTL_MSWAP:
    if constexpr (std::is_integral_v<T>)
      t = static_cast<T>((t & ~o) | (v & o));
    break;
  default: break;
  }
  if (take)
    t = v;
  std::memcpy(target, &t, sizeof(T));
}

void apply_swap(ptl_op_t op, ptl_datatype_t type, void* target, const void* value, const void* operand)
{
  switch (datatype_size(type)) {
  case 1: swap_element<uint8_t>(op, target, value, operand); break;
  case 2: swap_element<uint16_t>(op, target, value, operand); break;
  case 4:
    if (type == PTL_FLOAT)
      swap_element<float>(op, target, value, operand);
    else if (type == PTL_INT32_T)
      swap_element<int32_t>(op, target, value, operand);
    else
      swap_element<uint32_t>(op, target, value, operand);
    break;
  default:
    if (type == PTL_DOUBLE)
      swap_element<double>(op, target, value, operand);
    else if (type == PTL_INT64_T)
      swap_element<int64_t>(op, target, value, operand);
    else
      swap_element<uint64_t>(op, target, value, operand);
    break;
  }
}

ptl_event_kind_t target_event(NicKind kind)
{
  switch (kind) {
  case NicKind::Put: return PTL_EVENT_PUT;
  case NicKind::Get: return PTL_EVENT_GET;
  case NicKind::Atomic: return PTL_EVENT_ATOMIC;
  case NicKind::FetchAtomic:
  case NicKind::Swap: return PTL_EVENT_FETCH_ATOMIC;
  }
  return PTL_EVENT_PUT;
}

ptl_event_kind_t overflow_event(ptl_event_kind_t type)
{
  return static_cast<ptl_event_kind_t>(static_cast<int>(type) + 1); // each *_OVERFLOW follows its event
}

bool is_put_like(NicKind kind)
{
  return kind == NicKind::Put || kind == NicKind::Atomic;
}

} // namespace

void Waiters::wake_all()
{
  auto woken = std::move(activities);
  activities.clear();
  for (auto& activity : woken)
    activity->complete();
}

// One Put, Get, Atomic, FetchAtomic or Swap, from the initiator's call to its last event.
class Portals::Operation : public NicOperation {
public:
  Operation(Portals& portals, const OperationArgs& args) : portals(portals), args(args) {}

  void on_send(uint32_t fail) override
  {
    MemoryDescriptor* md = portals.find_md(args.put_md);
    if (md == nullptr)
      return;
    const ptl_ni_fail_t failure = to_fail(fail);
    const unsigned int options = md->md.options;
    if (md->md.eq_handle != PTL_EQ_NONE && (options & PTL_MD_EVENT_SEND_DISABLE) == 0 &&
        not(failure == PTL_NI_OK && (options & PTL_MD_EVENT_SUCCESS_DISABLE) != 0))
      portals.post_event(md->md.eq_handle, initiator_event(PTL_EVENT_SEND, failure, args.length));
    if ((options & PTL_MD_EVENT_CT_SEND) != 0)
      portals.count(md->md.ct_handle, failure == PTL_NI_OK, (options & PTL_MD_EVENT_CT_BYTES) != 0 ? args.length : 1);
  }

  TargetAnswer on_target() override { return portals.process_at_target(*this); }

  void on_answer(uint32_t fail) override
  {
    const ptl_ni_fail_t failure = to_fail(fail);
    const bool reply = not is_put_like(args.kind);
    MemoryDescriptor* md = portals.find_md(reply ? args.get_md : args.put_md);
    if (md != nullptr) {
      const unsigned int options = md->md.options;
      const bool full_event = reply || args.ack_req == PTL_ACK_REQ;
      if (full_event && md->md.eq_handle != PTL_EQ_NONE &&
          not(failure == PTL_NI_OK && (options & PTL_MD_EVENT_SUCCESS_DISABLE) != 0))
        portals.post_event(md->md.eq_handle,
                           initiator_event(reply ? PTL_EVENT_REPLY : PTL_EVENT_ACK, failure, mlength));
      if ((options & (reply ? PTL_MD_EVENT_CT_REPLY : PTL_MD_EVENT_CT_ACK)) != 0)
        portals.count(md->md.ct_handle, failure == PTL_NI_OK, (options & PTL_MD_EVENT_CT_BYTES) != 0 ? mlength : 1);
    }
  }

  void on_done() override { release(); }

  ptl_event_t initiator_event(ptl_event_kind_t type, ptl_ni_fail_t failure, ptl_size_t length) const
  {
    ptl_event_t event{};
    event.type = type;
    event.user_ptr = args.user_ptr;
    event.mlength = length;
    event.rlength = args.length;
    event.remote_offset = remote_offset;
    event.pt_index = args.pt;
    event.match_bits = args.match_bits;
    event.hdr_data = args.hdr_data;
    event.ni_fail_type = failure;
    event.atomic_operation = args.op;
    event.atomic_type = args.datatype;
    return event;
  }

  // The MDs are in use until the last event of the operation.
  void release()
  {
    if (released)
      return;
    released = true;
    for (ptl_handle_md_t handle : {args.put_md, args.get_md})
      if (MemoryDescriptor* md = portals.find_md(handle))
        --md->pending;
  }

  static ptl_ni_fail_t to_fail(uint32_t fail)
  {
    return fail == NicOperation::kUndeliverable ? static_cast<ptl_ni_fail_t>(PTL_NI_UNDELIVERABLE)
                                                : static_cast<ptl_ni_fail_t>(fail);
  }

  Portals& portals;
  OperationArgs args;
  int initiator_rank = -1;
  int target_rank = -1;
  std::vector<char> snapshot;     // the payload, when SEND may fire before the target reads it
  std::vector<char> swap_operand; // PtlSwap's operand
  ptl_size_t mlength = 0;
  ptl_size_t remote_offset = 0;
  bool released = false;
};

// ---- Set up ------------------------------------------------------------------------------------------------------

Portals::Portals(Runtime& runtime) : runtime_(runtime)
{
  mpi::Simulation& simulation = runtime.simulation();
  // One NIC model per node for MPI and Portals traffic: the run's bxi model's fabric when it has one (--model bxi, or
  // made for a switch); else one of the NIC's defaults: Portals programs are always timed by the BXI model.
  fabric_ = models::bxi::fabric_of(simulation.models().find("bxi"));
  if (fabric_ == nullptr) {
    own_parameters_ = std::make_unique<models::Parameters>(models::bxi::bxi_parameters());
    own_fabric_ = std::make_unique<models::bxi::BxiFabric>(simulation.engine(), simulation.platform(),
                                                           models::bxi::read_bxi_settings(*own_parameters_));
    fabric_ = own_fabric_.get();
    for (models::NicObserver* observer : simulation.nic_observers()) // --timeline NIC tracks, --portals-csv
      fabric_->observe(*observer); // (the run's bxi model shows its own fabric to them)
  }
  // NIDs are the nodes (hosts); PIDs number the ranks of a node in rank order.
  const mpi::World& world = simulation.world();
  const int ranks = world.size();
  init_counts_.assign(static_cast<size_t>(ranks), 0);
  std::vector<ptl_pid_t> next_pid(simulation.platform().hosts().size(), 0);
  for (int r = 0; r < ranks; ++r) {
    const auto host = world.host_of(r);
    nids_.push_back(static_cast<ptl_nid_t>(host));
    pids_.push_back(next_pid[host]++);
  }
}

Portals::~Portals() = default;

int Portals::me() const
{
  return runtime_.current_rank();
}

Portals& portals_of(Runtime& runtime)
{
  // One per run: a restarted attempt has a new runtime and engine (possibly at the same addresses as the previous).
  static std::unique_ptr<Portals> instance;
  static Runtime* owner = nullptr;
  static const kernel::Engine* engine = nullptr;
  if (owner != &runtime || engine != &runtime.simulation().engine() || not instance) {
    instance = std::make_unique<Portals>(runtime);
    owner = &runtime;
    engine = &runtime.simulation().engine();
  }
  return *instance;
}

// ---- Lookups -----------------------------------------------------------------------------------------------------

NetworkInterface* Portals::find_ni(ptl_handle_ni_t handle)
{
  NetworkInterface* ni = lookup(nis_, handle, HandleKind::Ni);
  return ni != nullptr && ni->is_open() ? ni : nullptr;
}
EventQueue* Portals::find_eq(ptl_handle_eq_t handle)
{
  return lookup(eqs_, handle, HandleKind::Eq);
}
CountingEvent* Portals::find_ct(ptl_handle_ct_t handle)
{
  return lookup(cts_, handle, HandleKind::Ct);
}
MemoryDescriptor* Portals::find_md(ptl_handle_md_t handle)
{
  return lookup(mds_, handle, HandleKind::Md);
}
ListEntry* Portals::find_entry(ptl_handle_any_t handle, bool matching)
{
  ListEntry* entry = lookup(entries_, handle, matching ? HandleKind::Me : HandleKind::Le);
  return entry != nullptr && entry->linked ? entry : nullptr;
}

NetworkInterface* Portals::ni_of(int rank, bool matching)
{
  for (auto& ni : nis_)
    if (ni && ni->rank == rank && ni->matching == matching && ni->is_open())
      return ni.get();
  return nullptr;
}

int Portals::rank_of(const NetworkInterface& ni, ptl_process_t target) const
{
  ptl_process_t physical = target;
  if (ni.logical) {
    if (target.rank >= ni.map.size())
      return -1;
    physical = ni.map[target.rank];
  }
  for (size_t r = 0; r < nids_.size(); ++r)
    if (nids_[r] == physical.phys.nid && pids_[r] == physical.phys.pid)
      return static_cast<int>(r);
  return -1;
}

ptl_process_t Portals::id_seen_by(const NetworkInterface& target_ni, int initiator_rank) const
{
  ptl_process_t id{};
  const auto r = static_cast<size_t>(initiator_rank);
  if (target_ni.logical) {
    for (size_t i = 0; i < target_ni.map.size(); ++i)
      if (target_ni.map[i].phys.nid == nids_[r] && target_ni.map[i].phys.pid == pids_[r]) {
        id.rank = static_cast<ptl_rank_t>(i);
        return id;
      }
    id.rank = PTL_RANK_ANY;
    return id;
  }
  id.phys.nid = nids_[r];
  id.phys.pid = pids_[r];
  return id;
}

// ---- Interfaces --------------------------------------------------------------------------------------------------

int Portals::init()
{
  ++init_counts_[static_cast<size_t>(me())];
  return PTL_OK;
}

void Portals::fini()
{
  int& count = init_counts_[static_cast<size_t>(me())];
  if (count > 0)
    --count;
}

int Portals::ni_init(unsigned int options, ptl_pid_t pid, ptl_ni_limits_t* actual, ptl_handle_ni_t* handle)
{
  const int rank = me();
  if (init_counts_[static_cast<size_t>(rank)] == 0)
    return PTL_NO_INIT;
  const bool matching = (options & PTL_NI_MATCHING) != 0;
  const bool logical = (options & PTL_NI_LOGICAL) != 0;
  if (handle == nullptr || matching == ((options & PTL_NI_NO_MATCHING) != 0) ||
      logical == ((options & PTL_NI_PHYSICAL) != 0))
    return PTL_ARG_INVALID;
  if (pid != PTL_PID_ANY && pid != pids_[static_cast<size_t>(rank)])
    return PTL_ARG_INVALID; // one process, one PID: the one its node gave it
  if (actual != nullptr) {
    *actual = ptl_ni_limits_t{};
    actual->max_entries = kMaxListEntries;
    actual->max_unexpected_headers = kMaxListEntries;
    actual->max_mds = kMaxListEntries;
    actual->max_cts = kMaxListEntries;
    actual->max_eqs = kMaxListEntries;
    actual->max_pt_index = kTableSize - 1;
    actual->max_list_size = kMaxListEntries;
    actual->max_msg_size = ptl_size_t{1} << 40;
    actual->max_atomic_size = 512;
    actual->max_fetch_atomic_size = 512;
    actual->max_waw_ordered_size = 512;
    actual->max_war_ordered_size = 512;
    actual->max_volatile_size = static_cast<ptl_size_t>(fabric_->settings().early_send);
  }
  if (NetworkInterface* open = open_ni(rank, matching, logical)) {
    *handle = open->handle;
    // Already initialized by this program: the specification's answer, the same handle. Opened by MPI only: the
    // program's first initialization, the same handle too.
    return open->init_count++ > 0 ? PTL_IGNORED : PTL_OK;
  }
  NetworkInterface* ni = make_ni(rank, matching, logical);
  ni->init_count = 1;
  *handle = ni->handle;
  return PTL_OK;
}

NetworkInterface* Portals::open_ni(int rank, bool matching, bool logical)
{
  for (auto& ni : nis_)
    if (ni && ni->rank == rank && ni->matching == matching && ni->logical == logical && ni->is_open())
      return ni.get();
  return nullptr;
}

NetworkInterface* Portals::make_ni(int rank, bool matching, bool logical)
{
  auto ni = std::make_unique<NetworkInterface>();
  ni->rank = rank;
  ni->matching = matching;
  ni->logical = logical;
  ni->physical.phys.nid = nids_[static_cast<size_t>(rank)];
  ni->physical.phys.pid = pids_[static_cast<size_t>(rank)];
  ni->table.resize(kTableSize);
  for (size_t r = 0; r < nids_.size(); ++r) { // the default map: world rank order
    ptl_process_t p{};
    p.phys.nid = nids_[r];
    p.phys.pid = pids_[r];
    ni->map.push_back(p);
  }
  NetworkInterface* raw = ni.get();
  raw->handle = insert(nis_, std::move(ni), HandleKind::Ni);
  return raw;
}

void Portals::open_mpi_interface()
{
  if (own_fabric_ != nullptr)
    return; // no bxi model in the run: MPI does not go over Portals
  const int rank = me();
  NetworkInterface* ni = open_ni(rank, true, true);
  if (ni == nullptr)
    ni = make_ni(rank, true, true);
  if (ni->held_by_mpi)
    return;
  ni->held_by_mpi = true;
  // A PTL_PT_FLOWCTRL entry needs an event queue (PTL_EVENT_PT_DISABLED goes there).
  auto eq = std::make_unique<EventQueue>();
  eq->rank = rank;
  eq->capacity = kMaxListEntries;
  const ptl_handle_eq_t mpi_eq = insert(eqs_, std::move(eq), HandleKind::Eq);
  ptl_pt_index_t index = 0;
  pt_alloc(ni->handle, PTL_PT_FLOWCTRL, mpi_eq, kMpiPortalIndex, &index);
}

int Portals::mpi_interface(ptl_handle_ni_t* ni, ptl_pt_index_t* pt)
{
  if (ni == nullptr || pt == nullptr)
    return PTL_ARG_INVALID;
  NetworkInterface* open = open_ni(me(), true, true);
  if (open == nullptr || not open->held_by_mpi)
    return PTL_NO_INIT;
  *ni = open->handle;
  *pt = kMpiPortalIndex;
  return PTL_OK;
}

int Portals::ni_fini(ptl_handle_ni_t handle)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || ni->rank != me())
    return PTL_ARG_INVALID;
  if (ni->init_count > 0)
    --ni->init_count; // MPI's hold (held_by_mpi) keeps the NI open past the program's last PtlNIFini
  return PTL_OK;
}

int Portals::ni_handle(ptl_handle_any_t handle, ptl_handle_ni_t* ni)
{
  if (ni == nullptr)
    return PTL_ARG_INVALID;
  if (NetworkInterface* found = find_ni(handle)) {
    *ni = found->handle;
    return PTL_OK;
  }
  if (MemoryDescriptor* md = find_md(handle)) {
    *ni = md->ni;
    return PTL_OK;
  }
  return PTL_ARG_INVALID;
}

int Portals::set_map(ptl_handle_ni_t handle, ptl_size_t size, const ptl_process_t* mapping)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || not ni->logical || mapping == nullptr || size == 0)
    return PTL_ARG_INVALID;
  ni->map.assign(mapping, mapping + size);
  return PTL_OK;
}

int Portals::get_map(ptl_handle_ni_t handle, ptl_size_t size, ptl_process_t* mapping, ptl_size_t* actual)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || not ni->logical || actual == nullptr || (size > 0 && mapping == nullptr))
    return PTL_ARG_INVALID;
  *actual = ni->map.size();
  std::copy_n(ni->map.begin(), std::min<size_t>(size, ni->map.size()), mapping);
  return PTL_OK;
}

int Portals::get_id(ptl_handle_ni_t handle, ptl_process_t* id, bool physical)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || id == nullptr)
    return PTL_ARG_INVALID;
  *id = physical ? ni->physical : id_seen_by(*ni, ni->rank);
  return PTL_OK;
}

int Portals::get_uid(ptl_handle_ni_t handle, ptl_uid_t* uid)
{
  if (find_ni(handle) == nullptr || uid == nullptr)
    return PTL_ARG_INVALID;
  *uid = 0; // one user runs the whole job
  return PTL_OK;
}

// ---- Portal table ------------------------------------------------------------------------------------------------

int Portals::pt_alloc(ptl_handle_ni_t handle, unsigned int options, ptl_handle_eq_t eq, ptl_pt_index_t requested,
                      ptl_pt_index_t* index)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || index == nullptr || (eq != PTL_EQ_NONE && find_eq(eq) == nullptr))
    return PTL_ARG_INVALID;
  if ((options & PTL_PT_FLOWCTRL) != 0 && eq == PTL_EQ_NONE)
    return PTL_PT_EQ_NEEDED;
  ptl_pt_index_t chosen = requested;
  if (requested == PTL_PT_ANY) {
    chosen = kTableSize;
    for (ptl_pt_index_t i = 0; i < kTableSize; ++i)
      if (not ni->table[i].allocated) {
        chosen = i;
        break;
      }
    if (chosen == kTableSize)
      return PTL_PT_FULL;
  } else if (requested >= kTableSize) {
    return PTL_ARG_INVALID;
  } else if (ni->table[requested].allocated) {
    return PTL_PT_IN_USE;
  }
  PortalTableEntry& pte = ni->table[chosen];
  pte = PortalTableEntry{};
  pte.allocated = true;
  pte.options = options;
  pte.eq = eq;
  *index = chosen;
  return PTL_OK;
}

int Portals::pt_free(ptl_handle_ni_t handle, ptl_pt_index_t index)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || index >= kTableSize || not ni->table[index].allocated)
    return PTL_ARG_INVALID;
  PortalTableEntry& pte = ni->table[index];
  if (not pte.priority.empty() || not pte.overflow.empty())
    return PTL_PT_IN_USE;
  pte = PortalTableEntry{};
  return PTL_OK;
}

int Portals::pt_enable(ptl_handle_ni_t handle, ptl_pt_index_t index, bool enabled)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || index >= kTableSize || not ni->table[index].allocated)
    return PTL_ARG_INVALID;
  ni->table[index].enabled = enabled;
  return PTL_OK;
}

// ---- Memory descriptors ------------------------------------------------------------------------------------------

int Portals::md_bind(ptl_handle_ni_t handle, const ptl_md_t* md, ptl_handle_md_t* md_handle)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || md == nullptr || md_handle == nullptr ||
      (md->eq_handle != PTL_EQ_NONE && find_eq(md->eq_handle) == nullptr) ||
      (md->ct_handle != PTL_CT_NONE && find_ct(md->ct_handle) == nullptr) || (md->start == nullptr && md->length > 0))
    return PTL_ARG_INVALID;
  auto object = std::make_unique<MemoryDescriptor>();
  object->rank = me();
  object->ni = handle;
  object->md = *md;
  *md_handle = insert(mds_, std::move(object), HandleKind::Md);
  return PTL_OK;
}

int Portals::md_release(ptl_handle_md_t handle)
{
  MemoryDescriptor* md = find_md(handle);
  if (md == nullptr)
    return PTL_ARG_INVALID;
  if (md->pending > 0)
    return PTL_IN_USE;
  mds_[index_of(handle) - 1].reset();
  return PTL_OK;
}

// ---- Events and counters -----------------------------------------------------------------------------------------

void Portals::post_event(ptl_handle_eq_t handle, const ptl_event_t& event)
{
  EventQueue* eq = find_eq(handle);
  if (eq == nullptr)
    return;
  if (eq->events.size() >= eq->capacity) { // full: the oldest event is overwritten, the next read says so
    eq->events.pop_front();
    eq->dropped = true;
  }
  eq->events.push_back(event);
  eq->waiters.wake_all();
}

void Portals::count(ptl_handle_ct_t handle, bool success, ptl_size_t amount)
{
  CountingEvent* ct = find_ct(handle);
  if (ct == nullptr)
    return;
  if (success)
    ct->value.success += amount;
  else
    ++ct->value.failure;
  ct->waiters.wake_all();
}

void Portals::wait_on(Waiters& waiters, const char* what)
{
  auto wakeup = std::make_shared<Wakeup>(what);
  waiters.activities.push_back(wakeup);
  runtime_.simulation().engine().wait(*wakeup);
}

int Portals::eq_alloc(ptl_handle_ni_t handle, ptl_size_t count, ptl_handle_eq_t* eq_handle)
{
  if (find_ni(handle) == nullptr || eq_handle == nullptr || count == 0)
    return PTL_ARG_INVALID;
  auto eq = std::make_unique<EventQueue>();
  eq->rank = me();
  eq->capacity = count;
  *eq_handle = insert(eqs_, std::move(eq), HandleKind::Eq);
  return PTL_OK;
}

int Portals::eq_free(ptl_handle_eq_t handle)
{
  if (find_eq(handle) == nullptr)
    return PTL_ARG_INVALID;
  eqs_[index_of(handle) - 1].reset();
  return PTL_OK;
}

namespace {
int pop_event(EventQueue& eq, ptl_event_t* event)
{
  *event = eq.events.front();
  eq.events.pop_front();
  const bool dropped = eq.dropped;
  eq.dropped = false;
  return dropped ? PTL_EQ_DROPPED : PTL_OK;
}
} // namespace

int Portals::eq_get(ptl_handle_eq_t handle, ptl_event_t* event)
{
  EventQueue* eq = find_eq(handle);
  if (eq == nullptr || event == nullptr)
    return PTL_ARG_INVALID;
  if (eq->events.empty()) {
    runtime_.sleep(fabric_->polling_delay()); // an empty poll costs the CPU, and lets the NIC progress
    return PTL_EQ_EMPTY;
  }
  return pop_event(*eq, event);
}

int Portals::eq_wait(ptl_handle_eq_t handle, ptl_event_t* event)
{
  EventQueue* eq = find_eq(handle);
  if (eq == nullptr || event == nullptr)
    return PTL_ARG_INVALID;
  while (eq->events.empty()) {
    wait_on(eq->waiters, "PtlEQWait");
    eq = find_eq(handle);
    if (eq == nullptr)
      return PTL_ABORTED;
  }
  return pop_event(*eq, event);
}

int Portals::eq_poll(const ptl_handle_eq_t* handles, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
                     unsigned int* which)
{
  if (handles == nullptr || event == nullptr || which == nullptr || size == 0)
    return PTL_ARG_INVALID;
  for (unsigned int i = 0; i < size; ++i)
    if (find_eq(handles[i]) == nullptr)
      return PTL_ARG_INVALID;
  kernel::Engine& engine = runtime_.simulation().engine();
  const double deadline = timeout == PTL_TIME_FOREVER ? kernel::kNever : engine.now() + timeout * 1e-3;
  for (;;) {
    for (unsigned int i = 0; i < size; ++i) {
      EventQueue* eq = find_eq(handles[i]);
      if (eq != nullptr && not eq->events.empty()) {
        *which = i;
        return pop_event(*eq, event);
      }
    }
    if (engine.now() >= deadline)
      return PTL_EQ_EMPTY;
    auto wakeup = std::make_shared<Wakeup>("PtlEQPoll");
    for (unsigned int i = 0; i < size; ++i)
      find_eq(handles[i])->waiters.activities.push_back(wakeup);
    if (deadline == kernel::kNever) {
      engine.wait(*wakeup);
    } else {
      auto timer = engine.start_timer(deadline - engine.now(), "PtlEQPoll timeout");
      kernel::Activity* both[] = {wakeup.get(), timer.get()};
      engine.wait_any(both);
    }
  }
}

int Portals::ct_alloc(ptl_handle_ni_t handle, ptl_handle_ct_t* ct_handle)
{
  if (find_ni(handle) == nullptr || ct_handle == nullptr)
    return PTL_ARG_INVALID;
  auto ct = std::make_unique<CountingEvent>();
  ct->rank = me();
  *ct_handle = insert(cts_, std::move(ct), HandleKind::Ct);
  return PTL_OK;
}

int Portals::ct_free(ptl_handle_ct_t handle)
{
  if (find_ct(handle) == nullptr)
    return PTL_ARG_INVALID;
  cts_[index_of(handle) - 1].reset();
  return PTL_OK;
}

int Portals::ct_get(ptl_handle_ct_t handle, ptl_ct_event_t* event)
{
  CountingEvent* ct = find_ct(handle);
  if (ct == nullptr || event == nullptr)
    return PTL_ARG_INVALID;
  *event = ct->value;
  runtime_.sleep(fabric_->polling_delay()); // reading a counter in a loop must let the NIC progress
  return PTL_OK;
}

// A counting event has reached `test` when its successes and failures together have (as the specification's
// PtlCTWait tests it).
int Portals::ct_wait(ptl_handle_ct_t handle, ptl_size_t test, ptl_ct_event_t* event)
{
  CountingEvent* ct = find_ct(handle);
  if (ct == nullptr || event == nullptr)
    return PTL_ARG_INVALID;
  while (ct->value.success + ct->value.failure < test) {
    wait_on(ct->waiters, "PtlCTWait");
    ct = find_ct(handle);
    if (ct == nullptr)
      return PTL_ABORTED;
  }
  *event = ct->value;
  return PTL_OK;
}

int Portals::ct_poll(const ptl_handle_ct_t* handles, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
                     ptl_ct_event_t* event, unsigned int* which)
{
  if (handles == nullptr || tests == nullptr || event == nullptr || which == nullptr || size == 0)
    return PTL_ARG_INVALID;
  for (unsigned int i = 0; i < size; ++i)
    if (find_ct(handles[i]) == nullptr)
      return PTL_ARG_INVALID;
  kernel::Engine& engine = runtime_.simulation().engine();
  const double deadline = timeout == PTL_TIME_FOREVER ? kernel::kNever : engine.now() + timeout * 1e-3;
  for (;;) {
    for (unsigned int i = 0; i < size; ++i) {
      CountingEvent* ct = find_ct(handles[i]);
      if (ct->value.success + ct->value.failure >= tests[i]) {
        *which = i;
        *event = ct->value;
        return PTL_OK;
      }
    }
    if (engine.now() >= deadline)
      return PTL_CT_NONE_REACHED;
    auto wakeup = std::make_shared<Wakeup>("PtlCTPoll");
    for (unsigned int i = 0; i < size; ++i)
      find_ct(handles[i])->waiters.activities.push_back(wakeup);
    if (deadline == kernel::kNever) {
      engine.wait(*wakeup);
    } else {
      auto timer = engine.start_timer(deadline - engine.now(), "PtlCTPoll timeout");
      kernel::Activity* both[] = {wakeup.get(), timer.get()};
      engine.wait_any(both);
    }
  }
}

int Portals::ct_set(ptl_handle_ct_t handle, ptl_ct_event_t value)
{
  CountingEvent* ct = find_ct(handle);
  if (ct == nullptr)
    return PTL_ARG_INVALID;
  ct->value = value;
  ct->waiters.wake_all();
  return PTL_OK;
}

int Portals::ct_inc(ptl_handle_ct_t handle, ptl_ct_event_t increment)
{
  CountingEvent* ct = find_ct(handle);
  if (ct == nullptr)
    return PTL_ARG_INVALID;
  ct->value.success += increment.success;
  ct->value.failure += increment.failure;
  ct->waiters.wake_all();
  return PTL_OK;
}

// ---- List entries ------------------------------------------------------------------------------------------------

int Portals::append(ptl_handle_ni_t handle, ptl_pt_index_t pt, const ptl_me_t& me_in, bool matching, ptl_list_t list,
                    void* user_ptr, ptl_handle_any_t* entry_handle)
{
  NetworkInterface* ni = find_ni(handle);
  if (ni == nullptr || entry_handle == nullptr || pt >= kTableSize || not ni->table[pt].allocated ||
      ni->matching != matching || (list != PTL_PRIORITY_LIST && list != PTL_OVERFLOW_LIST) ||
      (me_in.ct_handle != PTL_CT_NONE && find_ct(me_in.ct_handle) == nullptr) ||
      (me_in.start == nullptr && me_in.length > 0))
    return PTL_ARG_INVALID;
  PortalTableEntry& pte = ni->table[pt];
  auto entry = std::make_unique<ListEntry>();
  entry->matching = matching;
  entry->me = me_in;
  entry->list = list;
  entry->pt = pt;
  entry->user_ptr = user_ptr;
  ListEntry* raw = entry.get();
  raw->handle = insert(entries_, std::move(entry), matching ? HandleKind::Me : HandleKind::Le);
  *entry_handle = raw->handle;
  // A priority-list entry first meets the messages already in the overflow list (unexpected headers).
  if (list == PTL_PRIORITY_LIST && (raw->me.options & PTL_ME_UNEXPECTED_HDR_DISABLE) == 0 &&
      match_unexpected(*ni, pte, *raw))
    return PTL_OK; // used once by an unexpected message: never linked
  raw->linked = true;
  (list == PTL_PRIORITY_LIST ? pte.priority : pte.overflow).push_back(raw);
  if (pte.eq != PTL_EQ_NONE && (raw->me.options & PTL_ME_EVENT_LINK_DISABLE) == 0) {
    ptl_event_t event{};
    event.type = PTL_EVENT_LINK;
    event.user_ptr = user_ptr;
    event.pt_index = pt;
    event.ptl_list = list;
    event.ni_fail_type = PTL_NI_OK;
    post_event(pte.eq, event);
  }
  return PTL_OK;
}

bool Portals::match_unexpected(NetworkInterface& ni, PortalTableEntry& pte, ListEntry& entry)
{
  (void)ni;
  for (auto it = pte.unexpected.begin(); it != pte.unexpected.end();) {
    const UnexpectedHeader& header = *it;
    const bool bits_match =
        not entry.matching || ((header.match_bits ^ entry.me.match_bits) & ~entry.me.ignore_bits) == 0;
    if (not bits_match) {
      ++it;
      continue;
    }
    if (pte.eq != PTL_EQ_NONE && (entry.me.options & PTL_ME_EVENT_OVER_DISABLE) == 0) {
      ptl_event_t event{};
      event.type = overflow_event(header.type);
      event.start = header.start;
      event.user_ptr = entry.user_ptr;
      event.hdr_data = header.hdr_data;
      event.match_bits = header.match_bits;
      event.rlength = header.rlength;
      event.mlength = header.mlength;
      event.remote_offset = header.remote_offset;
      event.initiator = header.initiator;
      event.ptl_list = PTL_PRIORITY_LIST;
      event.pt_index = entry.pt;
      event.ni_fail_type = PTL_NI_OK;
      event.atomic_operation = header.atomic_operation;
      event.atomic_type = header.atomic_type;
      post_event(pte.eq, event);
    }
    if ((entry.me.options & PTL_ME_EVENT_CT_OVERFLOW) != 0)
      count(entry.me.ct_handle, true, (entry.me.options & PTL_ME_EVENT_CT_BYTES) != 0 ? header.mlength : 1);
    ListEntry* overflow_entry = header.overflow_entry;
    it = pte.unexpected.erase(it);
    if (overflow_entry != nullptr && --overflow_entry->headers == 0 && not overflow_entry->linked &&
        pte.eq != PTL_EQ_NONE) {
      ptl_event_t freed{};
      freed.type = PTL_EVENT_AUTO_FREE;
      freed.user_ptr = overflow_entry->user_ptr;
      freed.pt_index = entry.pt;
      freed.ptl_list = PTL_OVERFLOW_LIST;
      post_event(pte.eq, freed);
    }
    if ((entry.me.options & PTL_ME_USE_ONCE) != 0)
      return true;
  }
  return false;
}

int Portals::unlink(ptl_handle_any_t handle, bool matching)
{
  ListEntry* entry = find_entry(handle, matching);
  if (entry == nullptr)
    return PTL_ARG_INVALID;
  for (auto& ni : nis_)
    if (ni && ni->rank == me() && ni->matching == matching && ni->is_open()) {
      unlink_entry(*ni, *entry, false);
      return PTL_OK;
    }
  return PTL_ARG_INVALID;
}

void Portals::unlink_entry(NetworkInterface& ni, ListEntry& entry, bool automatic)
{
  PortalTableEntry& pte = ni.table[entry.pt];
  auto& list = entry.list == PTL_PRIORITY_LIST ? pte.priority : pte.overflow;
  list.remove(&entry);
  entry.linked = false;
  if (automatic && pte.eq != PTL_EQ_NONE && (entry.me.options & PTL_ME_EVENT_UNLINK_DISABLE) == 0) {
    ptl_event_t event{};
    event.type = PTL_EVENT_AUTO_UNLINK;
    event.user_ptr = entry.user_ptr;
    event.pt_index = entry.pt;
    event.ptl_list = entry.list;
    post_event(pte.eq, event);
  }
}

// ---- Operations --------------------------------------------------------------------------------------------------

int Portals::start(const OperationArgs& args)
{
  const bool fetch = args.kind == NicKind::Get || args.kind == NicKind::FetchAtomic || args.kind == NicKind::Swap;
  const bool sends = args.kind != NicKind::Get;
  MemoryDescriptor* put_md = sends ? find_md(args.put_md) : nullptr;
  MemoryDescriptor* get_md = fetch ? find_md(args.get_md) : nullptr;
  if ((sends && put_md == nullptr) || (fetch && get_md == nullptr))
    return PTL_ARG_INVALID;
  if ((sends && args.put_offset + args.length > put_md->md.length) ||
      (fetch && args.get_offset + args.length > get_md->md.length))
    return PTL_ARG_INVALID;
  MemoryDescriptor* any_md = sends ? put_md : get_md;
  NetworkInterface* ni = find_ni(any_md->ni);
  if (ni == nullptr || any_md->rank != me())
    return PTL_ARG_INVALID;
  const int target = rank_of(*ni, args.target);
  if (target < 0)
    return PTL_ARG_INVALID;
  if (args.kind == NicKind::Swap && args.operand == nullptr && args.op != PTL_SWAP)
    return PTL_ARG_INVALID;

  auto op = std::make_shared<Operation>(*this, args);
  op->kind = args.kind;
  op->initiator_rank = me();
  op->target_rank = target;
  op->src_node = nids_[static_cast<size_t>(me())];
  op->dst_node = nids_[static_cast<size_t>(target)];
  op->src_process = me();
  op->dst_process = target;
  op->request_payload = sends ? static_cast<double>(args.length) : 0;
  op->matching = ni->matching;
  op->wants_send = sends;
  op->wants_answer = fetch || args.ack_req != PTL_NO_ACK_REQ;
  if (sends && args.length <= fabric_->settings().early_send) { // SEND may fire before the target reads it
    const char* source = static_cast<const char*>(put_md->md.start) + args.put_offset;
    op->snapshot.assign(source, source + args.length);
  }
  if (args.kind == NicKind::Swap && args.operand != nullptr) {
    const auto* operand = static_cast<const char*>(args.operand);
    op->swap_operand.assign(operand, operand + datatype_size(args.datatype));
  }
  if (put_md != nullptr)
    ++put_md->pending;
  if (get_md != nullptr)
    ++get_md->pending;
  fabric_->issue(op);
  return PTL_OK;
}

bool Portals::entry_matches(const ListEntry& entry, const Operation& op, ptl_size_t rlength) const
{
  const ptl_me_t& me = entry.me;
  if (entry.matching) {
    if (((op.args.match_bits ^ me.match_bits) & ~me.ignore_bits) != 0)
      return false;
    const NetworkInterface* target_ni = nullptr;
    for (const auto& ni : nis_)
      if (ni && ni->rank == op.target_rank && ni->matching && ni->is_open())
        target_ni = ni.get();
    if (target_ni != nullptr) {
      const ptl_process_t from = id_seen_by(*target_ni, op.initiator_rank);
      if (target_ni->logical) {
        if (me.match_id.rank != PTL_RANK_ANY && me.match_id.rank != from.rank)
          return false;
      } else if ((me.match_id.phys.nid != PTL_NID_ANY && me.match_id.phys.nid != from.phys.nid) ||
                 (me.match_id.phys.pid != PTL_PID_ANY && me.match_id.phys.pid != from.phys.pid)) {
        return false;
      }
    }
    // A locally managed entry without truncation matches only a message that fits in the room left.
    if ((me.options & PTL_ME_NO_TRUNCATE) != 0) {
      const ptl_size_t offset = (me.options & PTL_ME_MANAGE_LOCAL) != 0 ? entry.local_offset : op.args.remote_offset;
      if (offset > me.length || me.length - offset < rlength)
        return false;
    }
  }
  return true;
}

// Runs `body` with `rank`'s private memory in place when `address` is private to ranks (globals under swap
// privatization live at the same addresses for every rank): the NIC's callbacks run outside the ranks' actors.
template <class Body> void in_memory_of(kernel::Engine& engine, int rank, const void* address, Body&& body)
{
  kernel::MemoryContexts* contexts = engine.memory_contexts();
  if (contexts != nullptr && contexts->is_private(address)) {
    const kernel::MemoryContextScope scope(engine, rank);
    body();
  } else {
    body();
  }
}

// The data of an operation, moved at the target's processing: the payload into the target's entry (or combined with
// it), and the target's former contents back into the initiator's get MD. Each side is touched in its own memory.
void Portals::move_data(Operation& op, char* target, ptl_size_t mlength)
{
  if (mlength == 0)
    return;
  const OperationArgs& a = op.args;
  kernel::Engine& engine = runtime_.simulation().engine();
  MemoryDescriptor* put_md = find_md(a.put_md);
  MemoryDescriptor* get_md = find_md(a.get_md);
  auto is_private = [&engine](const void* address) {
    return engine.memory_contexts() != nullptr && engine.memory_contexts()->is_private(address);
  };
  if (a.kind == NicKind::Get && get_md != nullptr) { // the common cases in one copy: heap buffers on both sides
    char* reply_to = static_cast<char*>(get_md->md.start) + a.get_offset;
    if (not is_private(target) && not is_private(reply_to)) {
      if (reply_to != target) // one buffer shared by both ranks (SMPI_SHARED_MALLOC): nothing to move
        std::memmove(reply_to, target, mlength);
      return;
    }
  }
  std::vector<char> payload;
  if (a.kind != NicKind::Get) {
    if (not op.snapshot.empty()) {
      payload.assign(op.snapshot.begin(), op.snapshot.begin() + static_cast<std::ptrdiff_t>(mlength));
    } else if (put_md != nullptr) {
      const char* source = static_cast<const char*>(put_md->md.start) + a.put_offset;
      if (a.kind == NicKind::Put && not is_private(source) && not is_private(target)) {
        if (source != target) // one buffer shared by both ranks (SMPI_SHARED_MALLOC): nothing to move
          std::memmove(target, source, mlength);
        return;
      }
      in_memory_of(engine, op.initiator_rank, source, [&] { payload.assign(source, source + mlength); });
    }
  }
  std::vector<char> former;
  in_memory_of(engine, op.target_rank, target, [&] {
    if (a.kind != NicKind::Put && a.kind != NicKind::Atomic)
      former.assign(target, target + mlength);
    switch (a.kind) {
    case NicKind::Put:
      if (not payload.empty())
        std::memmove(target, payload.data(), mlength);
      break;
    case NicKind::Get: break;
    case NicKind::Atomic:
    case NicKind::FetchAtomic:
      if (not payload.empty())
        apply_atomic(a.op, a.datatype, target, payload.data(), mlength);
      break;
    case NicKind::Swap: {
      const size_t element = datatype_size(a.datatype);
      const std::vector<char> zero(element, 0);
      const char* operand = op.swap_operand.empty() ? zero.data() : op.swap_operand.data();
      if (not payload.empty())
        for (size_t i = 0; i + element <= mlength; i += element)
          apply_swap(a.op, a.datatype, target + i, payload.data() + i, operand);
      break;
    }
    }
  });
  if (not former.empty() && get_md != nullptr) {
    char* reply_to = static_cast<char*>(get_md->md.start) + a.get_offset;
    in_memory_of(engine, op.initiator_rank, reply_to, [&] { std::memcpy(reply_to, former.data(), mlength); });
  }
}

TargetAnswer Portals::process_at_target(Operation& op)
{
  const OperationArgs& a = op.args;
  const NicKind kind = a.kind;
  const bool fetch = kind == NicKind::Get || kind == NicKind::FetchAtomic || kind == NicKind::Swap;
  TargetAnswer answer;
  answer.respond = fetch || a.ack_req != PTL_NO_ACK_REQ;
  auto fail = [&](ptl_ni_fail_t why) {
    answer.fail = why;
    answer.response_bytes = 0;
    op.mlength = 0;
    return answer;
  };
  NetworkInterface* ni = ni_of(op.target_rank, op.matching);
  if (ni == nullptr || a.pt >= kTableSize || not ni->table[a.pt].allocated)
    return fail(PTL_NI_TARGET_INVALID);
  PortalTableEntry& pte = ni->table[a.pt];
  if (not pte.enabled)
    return fail(PTL_NI_PT_DISABLED);

  ListEntry* entry = nullptr;
  for (ListEntry* candidate : pte.priority)
    if (entry_matches(*candidate, op, a.length)) {
      entry = candidate;
      break;
    }
  if (entry == nullptr)
    for (ListEntry* candidate : pte.overflow)
      if (entry_matches(*candidate, op, a.length)) {
        entry = candidate;
        break;
      }
  if (entry == nullptr && (pte.options & PTL_PT_FLOWCTRL) != 0) {
    // The specification's flow-control situation: the target ran out of entries; the entry is disabled until the
    // application re-enables it (PtlPTEnable), and the initiator learns it from its ACK or REPLY.
    pte.enabled = false;
    ptl_event_t event{};
    event.type = PTL_EVENT_PT_DISABLED;
    event.pt_index = a.pt;
    event.ni_fail_type = PTL_NI_PT_DISABLED;
    event.initiator = id_seen_by(*ni, op.initiator_rank);
    post_event(pte.eq, event);
    return fail(PTL_NI_PT_DISABLED);
  }
  if (entry == nullptr)
    return fail(PTL_NI_NO_MATCH);

  const ptl_me_t& me = entry->me;
  const bool needs_put = kind != NicKind::Get;
  const bool needs_get = fetch;
  if ((needs_put && (me.options & PTL_ME_OP_PUT) == 0) || (needs_get && (me.options & PTL_ME_OP_GET) == 0))
    return fail(PTL_NI_OP_VIOLATION);

  const bool local = entry->matching && (me.options & PTL_ME_MANAGE_LOCAL) != 0;
  const ptl_size_t offset = local ? entry->local_offset : a.remote_offset;
  const ptl_size_t room = offset < me.length ? me.length - offset : 0;
  const ptl_size_t mlength = std::min<ptl_size_t>(a.length, room);
  char* target = static_cast<char*>(me.start) + offset;
  op.mlength = mlength;
  op.remote_offset = offset;

  move_data(op, target, mlength);
  answer.response_bytes = fetch ? static_cast<double>(mlength) : 0;
  if (is_put_like(kind) && (me.options & PTL_ME_ACK_DISABLE) != 0)
    answer.respond = false;

  // The target's event and counter.
  const bool overflow = entry->list == PTL_OVERFLOW_LIST;
  const ptl_event_kind_t type = target_event(kind);
  const ptl_process_t initiator = id_seen_by(*ni, op.initiator_rank);
  if (pte.eq != PTL_EQ_NONE && (me.options & (PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_SUCCESS_DISABLE)) == 0) {
    ptl_event_t event{};
    event.type = type;
    event.start = target;
    event.user_ptr = entry->user_ptr;
    event.hdr_data = a.hdr_data;
    event.match_bits = a.match_bits;
    event.rlength = a.length;
    event.mlength = mlength;
    event.remote_offset = offset;
    event.initiator = initiator;
    event.ptl_list = entry->list;
    event.pt_index = a.pt;
    event.ni_fail_type = PTL_NI_OK;
    event.atomic_operation = a.op;
    event.atomic_type = a.datatype;
    post_event(pte.eq, event);
  }
  if ((me.options & (overflow ? PTL_ME_EVENT_CT_OVERFLOW : PTL_ME_EVENT_CT_COMM)) != 0)
    count(me.ct_handle, true, (me.options & PTL_ME_EVENT_CT_BYTES) != 0 ? mlength : 1);
  if (overflow && (me.options & PTL_ME_UNEXPECTED_HDR_DISABLE) == 0) {
    UnexpectedHeader header;
    header.type = type;
    header.initiator = initiator;
    header.initiator_rank = static_cast<uint32_t>(op.initiator_rank);
    header.match_bits = a.match_bits;
    header.hdr_data = a.hdr_data;
    header.rlength = a.length;
    header.mlength = mlength;
    header.remote_offset = offset;
    header.start = target;
    header.overflow_entry = entry;
    header.atomic_operation = a.op;
    header.atomic_type = a.datatype;
    ++entry->headers;
    pte.unexpected.push_back(header);
  }

  // The entry after this match: locally managed offsets move on; use-once and full entries leave the list.
  if (local)
    entry->local_offset += mlength;
  const bool full = local && me.length - std::min(me.length, entry->local_offset) < me.min_free;
  if ((me.options & PTL_ME_USE_ONCE) != 0 || full) {
    unlink_entry(*ni, *entry, true);
    if (overflow && entry->headers == 0 && pte.eq != PTL_EQ_NONE) {
      ptl_event_t freed{};
      freed.type = PTL_EVENT_AUTO_FREE;
      freed.user_ptr = entry->user_ptr;
      freed.pt_index = a.pt;
      freed.ptl_list = PTL_OVERFLOW_LIST;
      post_event(pte.eq, freed);
    }
  }
  return answer;
}

} // namespace mpisim::online::portals
