// The Portals 4 runtime of online programs (include/portals4.h): network interfaces, portal tables, match list
// entries and list entries, memory descriptors, event queues and counting events, with the matching, list and event
// rules of the Portals 4.x specification (Barrett et al., Sandia). Operations are timed by the BXI NIC model
// (models/BxiNic.hpp), which calls back at the NIC's dates; the data moves between the ranks' buffers when the target
// processes the request.
//
// This is the C++ API below the C header: api_portals.cpp only checks handles and forwards. An MPI transport over
// Portals would call it the same way (one NI per rank, `Portals::put` ...).
#pragma once

#include "models/BxiNic.hpp"

#include <portals4.h>

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <vector>

namespace mpisim::kernel {
class Activity;
}

namespace mpisim::online {
class Runtime;
}

namespace mpisim::online::portals {

// Handle layout: the kind in the top byte, a table index (from 1) below.
enum class HandleKind : uint32_t { Ni = 1, Eq = 2, Ct = 3, Md = 4, Me = 5, Le = 6 };

struct Waiters {
  std::vector<std::shared_ptr<kernel::Activity>> activities;
  void wake_all();
};

struct CountingEvent {
  int rank = -1;
  ptl_ct_event_t value{0, 0};
  Waiters waiters;
};

struct EventQueue {
  int rank = -1;
  size_t capacity = 0;
  std::deque<ptl_event_t> events;
  bool dropped = false; // an event was lost since the last read: the next read returns PTL_EQ_DROPPED
  Waiters waiters;
};

struct MemoryDescriptor {
  int rank = -1;
  ptl_handle_ni_t ni = 0;
  ptl_md_t md{};
  int pending = 0; // operations still using it (PtlMDRelease refuses: PTL_IN_USE)
};

// An ME or an LE (an LE is an ME that matches everything).
struct ListEntry {
  ptl_handle_any_t handle = 0;
  bool matching = true;
  ptl_me_t me{};
  ptl_list_t list = PTL_PRIORITY_LIST;
  ptl_pt_index_t pt = 0;
  void* user_ptr = nullptr;
  ptl_size_t local_offset = 0; // PTL_ME_MANAGE_LOCAL
  bool linked = false;
  int headers = 0; // unexpected headers still pointing into it (overflow list): AUTO_FREE when 0 after unlink
};

// A message that landed in an overflow-list entry, kept for a later priority-list append (PUT_OVERFLOW ...).
struct UnexpectedHeader {
  ptl_event_kind_t type = PTL_EVENT_PUT;
  ptl_process_t initiator{};
  uint32_t initiator_rank = 0;
  ptl_match_bits_t match_bits = 0;
  ptl_hdr_data_t hdr_data = 0;
  ptl_size_t rlength = 0, mlength = 0, remote_offset = 0;
  void* start = nullptr; // where the data is, in the overflow entry's buffer
  ListEntry* overflow_entry = nullptr;
  ptl_op_t atomic_operation = PTL_MIN;
  ptl_datatype_t atomic_type = PTL_INT8_T;
};

struct PortalTableEntry {
  bool allocated = false;
  bool enabled = true;
  unsigned int options = 0;
  ptl_handle_eq_t eq = PTL_EQ_NONE;
  std::list<ListEntry*> priority, overflow;
  std::deque<UnexpectedHeader> unexpected;
};

struct NetworkInterface {
  ptl_handle_ni_t handle = 0;
  int rank = -1;
  bool matching = true;
  bool logical = false;
  ptl_process_t physical{};
  std::vector<ptl_process_t> map; // logical rank -> physical (PtlSetMap; by default world rank order)
  std::vector<PortalTableEntry> table;
  int init_count = 0;       // the program's PtlNIInit minus PtlNIFini
  bool held_by_mpi = false; // MPI's transport opened it (--model bxi): open until the run ends
  bool is_open() const { return init_count > 0 || held_by_mpi; }
};

// MPI's portal table entry on its NI under --model bxi: the table's last, so that a program's PtlPTAlloc of
// PTL_PT_ANY or of a low index finds its own entries beside MPI's.
constexpr ptl_pt_index_t kMpiPortalIndex = 63;

// What an operation asks of the target (the C call's arguments, resolved).
struct OperationArgs {
  models::bxi::NicKind kind = models::bxi::NicKind::Put;
  ptl_handle_md_t put_md = 0, get_md = 0;
  ptl_size_t put_offset = 0, get_offset = 0, length = 0;
  ptl_ack_req_t ack_req = PTL_ACK_REQ;
  ptl_process_t target{};
  ptl_pt_index_t pt = 0;
  ptl_match_bits_t match_bits = 0;
  ptl_size_t remote_offset = 0;
  void* user_ptr = nullptr;
  ptl_hdr_data_t hdr_data = 0;
  ptl_op_t op = PTL_SUM;
  ptl_datatype_t datatype = PTL_INT32_T;
  const void* operand = nullptr; // Swap: the comparison value or mask
};

class Portals {
public:
  explicit Portals(Runtime& runtime);
  ~Portals();

  models::bxi::BxiFabric& fabric() { return *fabric_; }

  // Every function returns a Portals return code; the calling rank is the runtime's.
  int init();
  void fini();
  int ni_init(unsigned int options, ptl_pid_t pid, ptl_ni_limits_t* actual, ptl_handle_ni_t* handle);
  int ni_fini(ptl_handle_ni_t ni);
  int ni_handle(ptl_handle_any_t handle, ptl_handle_ni_t* ni);
  int set_map(ptl_handle_ni_t ni, ptl_size_t size, const ptl_process_t* mapping);
  int get_map(ptl_handle_ni_t ni, ptl_size_t size, ptl_process_t* mapping, ptl_size_t* actual);
  int get_id(ptl_handle_ni_t ni, ptl_process_t* id, bool physical);
  int get_uid(ptl_handle_ni_t ni, ptl_uid_t* uid);

  // MPI_Init under --model bxi: MPI's transport opens the rank's matching, logical NI (the one PtlNIInit of that kind
  // then returns) and allocates its portal table entry there (kMpiPortalIndex, PTL_PT_FLOWCTRL, an event queue).
  // Nothing when the run has no bxi model (MPI then is not over Portals).
  void open_mpi_interface();
  // The calling rank's MPI NI and portal index (mpisim_ptl_mpi_interface): PTL_NO_INIT when MPI has not opened one.
  int mpi_interface(ptl_handle_ni_t* ni, ptl_pt_index_t* pt);

  int pt_alloc(ptl_handle_ni_t ni, unsigned int options, ptl_handle_eq_t eq, ptl_pt_index_t requested,
               ptl_pt_index_t* index);
  int pt_free(ptl_handle_ni_t ni, ptl_pt_index_t index);
  int pt_enable(ptl_handle_ni_t ni, ptl_pt_index_t index, bool enabled);

  int md_bind(ptl_handle_ni_t ni, const ptl_md_t* md, ptl_handle_md_t* handle);
  int md_release(ptl_handle_md_t md);

  int append(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_me_t& me, bool matching, ptl_list_t list, void* user_ptr,
             ptl_handle_any_t* handle);
  int unlink(ptl_handle_any_t handle, bool matching);

  int eq_alloc(ptl_handle_ni_t ni, ptl_size_t count, ptl_handle_eq_t* handle);
  int eq_free(ptl_handle_eq_t eq);
  int eq_get(ptl_handle_eq_t eq, ptl_event_t* event);
  int eq_wait(ptl_handle_eq_t eq, ptl_event_t* event);
  int eq_poll(const ptl_handle_eq_t* eqs, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
              unsigned int* which);

  int ct_alloc(ptl_handle_ni_t ni, ptl_handle_ct_t* handle);
  int ct_free(ptl_handle_ct_t ct);
  int ct_get(ptl_handle_ct_t ct, ptl_ct_event_t* event);
  int ct_wait(ptl_handle_ct_t ct, ptl_size_t test, ptl_ct_event_t* event);
  int ct_poll(const ptl_handle_ct_t* cts, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* event, unsigned int* which);
  int ct_set(ptl_handle_ct_t ct, ptl_ct_event_t value);
  int ct_inc(ptl_handle_ct_t ct, ptl_ct_event_t increment);

  // Put, Get, Atomic, FetchAtomic, Swap.
  int start(const OperationArgs& args);

  // Used by the operations (Portals.cpp).
  class Operation;
  void post_event(ptl_handle_eq_t eq, const ptl_event_t& event);
  void count(ptl_handle_ct_t ct, bool success, ptl_size_t amount);
  models::bxi::TargetAnswer process_at_target(Operation& op);

private:
  NetworkInterface* find_ni(ptl_handle_ni_t handle);
  EventQueue* find_eq(ptl_handle_eq_t handle);
  CountingEvent* find_ct(ptl_handle_ct_t handle);
  MemoryDescriptor* find_md(ptl_handle_md_t handle);
  ListEntry* find_entry(ptl_handle_any_t handle, bool matching);
  NetworkInterface* ni_of(int rank, bool matching);
  NetworkInterface* open_ni(int rank, bool matching, bool logical); // this kind's NI of the rank, if open
  NetworkInterface* make_ni(int rank, bool matching, bool logical); // a new one, its map the world rank order
  int rank_of(const NetworkInterface& ni, ptl_process_t target) const;
  ptl_process_t id_seen_by(const NetworkInterface& target_ni, int initiator_rank) const;
  bool entry_matches(const ListEntry& entry, const Operation& op, ptl_size_t rlength) const;
  void unlink_entry(NetworkInterface& ni, ListEntry& entry, bool automatic);
  void move_data(Operation& op, char* target, ptl_size_t mlength);
  bool match_unexpected(NetworkInterface& ni, PortalTableEntry& pte, ListEntry& entry);
  void wait_on(Waiters& waiters, const char* what);
  int me() const;

  Runtime& runtime_;
  std::unique_ptr<models::Parameters> own_parameters_; // the BXI defaults when the run has no bxi model
  std::unique_ptr<models::bxi::BxiFabric> own_fabric_;
  models::bxi::BxiFabric* fabric_ = nullptr; // the run's bxi model's (shared with MPI), else own_fabric_
  std::vector<int> init_counts_;             // per rank: PtlInit minus PtlFini
  std::vector<ptl_nid_t> nids_;              // per rank
  std::vector<ptl_pid_t> pids_;              // per rank
  std::vector<std::unique_ptr<NetworkInterface>> nis_;
  std::vector<std::unique_ptr<EventQueue>> eqs_;
  std::vector<std::unique_ptr<CountingEvent>> cts_;
  std::vector<std::unique_ptr<MemoryDescriptor>> mds_;
  std::vector<std::unique_ptr<ListEntry>> entries_; // MEs and LEs
};

// The runtime's Portals state, made on first use.
Portals& portals_of(Runtime& runtime);

} // namespace mpisim::online::portals
