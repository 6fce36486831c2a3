/* The Portals 4 network programming interface, as simulated by mpisim (the Portals 4.x specification of Sandia
 * National Laboratories: "The Portals 4.x Network Programming Interface", Barrett et al.). This file is mpisim's own
 * writing of the subset the S4BXI thesis simulates (J. Emmanuel, 2023, section 2.2): network interfaces (matching or
 * not, physical or logical addressing), portal table entries, match list entries (ME) and list entries (LE) on the
 * priority and overflow lists, memory descriptors, full events and counting events, Put, Get, Atomic, FetchAtomic and
 * Swap. Not provided: I/O vectors, triggered operations, PtlMESearch, handle-bound interfaces other than one NI per
 * process. Valid C (C99 on) and C++. Implemented by libmpisim-mpi.so (src/online/portals/), timed by the BXI NIC
 * model (docs/bxi.md). */
#ifndef MPISIM_PORTALS4_H
#define MPISIM_PORTALS4_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Base types ------------------------------------------------------------------------------------------------------ */

typedef uint64_t ptl_size_t;
typedef unsigned int ptl_pt_index_t;
typedef uint64_t ptl_match_bits_t;
typedef uint64_t ptl_hdr_data_t;
typedef unsigned int ptl_interface_t;
typedef unsigned int ptl_nid_t;
typedef unsigned int ptl_pid_t;
typedef unsigned int ptl_rank_t;
typedef unsigned int ptl_uid_t;
typedef unsigned int ptl_list_t;
typedef unsigned int ptl_ack_req_t;
typedef unsigned int ptl_sr_index_t;
typedef int ptl_sr_value_t;

/* Handles are opaque integers: the kind in the high byte, an index below (0 is never a valid handle). */
typedef uint32_t ptl_handle_any_t;
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_ct_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_me_t;
typedef ptl_handle_any_t ptl_handle_le_t;

#define PTL_INVALID_HANDLE ((ptl_handle_any_t)0xffffffffu)
#define PTL_EQ_NONE ((ptl_handle_eq_t)0x00000000u)
#define PTL_CT_NONE ((ptl_handle_ct_t)0x00000000u)

/* Return codes ----------------------------------------------------------------------------------------------------- */

enum ptl_retvals {
  PTL_OK = 0,
  PTL_ARG_INVALID,     /* an argument is invalid (a handle of the wrong kind, freed, or never made; a null pointer) */
  PTL_CT_NONE_REACHED, /* PtlCTPoll: no counting event reached its test value before the timeout */
  PTL_EQ_DROPPED,      /* an event was dropped because the queue was full (the event returned is valid) */
  PTL_EQ_EMPTY,        /* no event in the queue */
  PTL_FAIL,            /* a failure not covered by the others */
  PTL_IGNORED,         /* PtlNIInit: the interface was already initialized, `desired` ignored */
  PTL_IN_USE,          /* the resource is still in use (an EQ or CT attached to live objects, a PT with entries) */
  PTL_INTERRUPTED,     /* a wait was interrupted (PtlCTCancelTriggered; not raised by mpisim) */
  PTL_LIST_TOO_LONG,   /* more entries than the interface's max_list_size */
  PTL_NO_INIT,         /* PtlInit was not called, or PtlFini was called as many times */
  PTL_NO_SPACE,        /* an allocation exceeded the interface's limits */
  PTL_PID_IN_USE,      /* PtlNIInit: the pid is taken */
  PTL_PT_FULL,         /* PtlPTAlloc: no free portal table entry */
  PTL_PT_EQ_NEEDED,    /* PtlPTAlloc: flow control requested without an event queue */
  PTL_PT_IN_USE,       /* PtlPTAlloc: the requested index is taken */
  PTL_ABORTED          /* the operation was aborted (NI finalized) */
};

/* Network interfaces ---------------------------------------------------------------------------------------------- */

#define PTL_IFACE_DEFAULT ((ptl_interface_t)0xffffffffu)

/* PtlNIInit options: exactly one of MATCHING / NO_MATCHING and one of LOGICAL / PHYSICAL. */
#define PTL_NI_MATCHING (1u << 0)
#define PTL_NI_NO_MATCHING (1u << 1)
#define PTL_NI_LOGICAL (1u << 2)
#define PTL_NI_PHYSICAL (1u << 3)

#define PTL_PID_ANY ((ptl_pid_t)0xffffffffu)
#define PTL_NID_ANY ((ptl_nid_t)0xffffffffu)
#define PTL_RANK_ANY ((ptl_rank_t)0xffffffffu)
#define PTL_UID_ANY ((ptl_uid_t)0xffffffffu)
#define PTL_PT_ANY ((ptl_pt_index_t)0xffffffffu)

/* A process: physical (node, process on the node) or logical (rank in the NI's map). */
typedef union {
  struct {
    ptl_nid_t nid;
    ptl_pid_t pid;
  } phys;
  ptl_rank_t rank;
} ptl_process_t;

/* What an interface offers. PtlNIInit gives the actual values (mpisim's limits are those of its tables). */
typedef struct {
  int max_entries;            /* MEs and LEs at once */
  int max_unexpected_headers; /* headers kept for overflow matches */
  int max_mds;
  int max_cts;
  int max_eqs;
  int max_pt_index;      /* largest portal table index */
  int max_iovecs;        /* 0: no I/O vectors */
  int max_list_size;     /* entries on one list */
  int max_triggered_ops; /* 0: no triggered operations */
  ptl_size_t max_msg_size;
  ptl_size_t max_atomic_size;
  ptl_size_t max_fetch_atomic_size;
  ptl_size_t max_waw_ordered_size;
  ptl_size_t max_war_ordered_size;
  ptl_size_t max_volatile_size;
  unsigned int features;
} ptl_ni_limits_t;

#define PTL_TARGET_BIND_INACCESSIBLE (1u << 0)
#define PTL_TOTAL_DATA_ORDERING (1u << 1)
#define PTL_COHERENT_ATOMICS (1u << 2)

/* Portal table entries --------------------------------------------------------------------------------------------- */

/* PtlPTAlloc options */
#define PTL_PT_ONLY_USE_ONCE (1u << 0)
#define PTL_PT_ONLY_TRUNCATE (1u << 1)
#define PTL_PT_FLOWCTRL (1u << 2)

/* Memory descriptors ----------------------------------------------------------------------------------------------- */

typedef struct {
  void* start;
  ptl_size_t length;
  unsigned int options;
  ptl_handle_eq_t eq_handle; /* SEND, ACK, REPLY events; PTL_EQ_NONE for none */
  ptl_handle_ct_t ct_handle; /* counts what the PTL_MD_EVENT_CT_* options select; PTL_CT_NONE for none */
} ptl_md_t;

#define PTL_MD_EVENT_SUCCESS_DISABLE (1u << 0) /* no event for successful operations */
#define PTL_MD_EVENT_SEND_DISABLE (1u << 1)    /* no SEND event */
#define PTL_MD_EVENT_CT_SEND (1u << 2)         /* count SEND events */
#define PTL_MD_EVENT_CT_REPLY (1u << 3)        /* count REPLY events */
#define PTL_MD_EVENT_CT_ACK (1u << 4)          /* count ACK events */
#define PTL_MD_EVENT_CT_BYTES (1u << 5)        /* count bytes rather than events */
#define PTL_MD_UNORDERED (1u << 6)
#define PTL_MD_VOLATILE (1u << 7)

/* Match list entries and list entries ------------------------------------------------------------------------------ */

typedef struct {
  void* start;
  ptl_size_t length;
  ptl_handle_ct_t ct_handle;
  ptl_uid_t uid;
  unsigned int options;
} ptl_le_t;

typedef struct {
  void* start;
  ptl_size_t length;
  ptl_handle_ct_t ct_handle;
  ptl_uid_t uid;
  unsigned int options;
  ptl_process_t match_id;      /* the initiators it accepts (PTL_NID_ANY / PTL_PID_ANY / PTL_RANK_ANY: any) */
  ptl_match_bits_t match_bits; /* matches when ((incoming ^ match_bits) & ~ignore_bits) == 0 */
  ptl_match_bits_t ignore_bits;
  ptl_size_t min_free; /* PTL_ME_MANAGE_LOCAL: unlinked once less than this is left */
} ptl_me_t;

/* Options shared by MEs and LEs (the LE names have the same values) */
#define PTL_ME_OP_PUT (1u << 0)                 /* accepts Put and Atomic */
#define PTL_ME_OP_GET (1u << 1)                 /* accepts Get (and the fetch of FetchAtomic and Swap with OP_PUT) */
#define PTL_ME_USE_ONCE (1u << 2)               /* unlinked after its first match */
#define PTL_ME_ACK_DISABLE (1u << 3)            /* never acknowledges */
#define PTL_ME_UNEXPECTED_HDR_DISABLE (1u << 4) /* overflow list: keep no header for later matches */
#define PTL_ME_IS_ACCESSIBLE (1u << 5)
#define PTL_ME_EVENT_COMM_DISABLE (1u << 6) /* no PUT/GET/ATOMIC... event */
#define PTL_ME_EVENT_FLOWCTRL_DISABLE (1u << 7)
#define PTL_ME_EVENT_SUCCESS_DISABLE (1u << 8)
#define PTL_ME_EVENT_OVER_DISABLE (1u << 9)    /* no *_OVERFLOW event */
#define PTL_ME_EVENT_UNLINK_DISABLE (1u << 10) /* no AUTO_UNLINK event */
#define PTL_ME_EVENT_LINK_DISABLE (1u << 11)   /* no LINK event */
#define PTL_ME_EVENT_CT_COMM (1u << 12)        /* count communication events */
#define PTL_ME_EVENT_CT_OVERFLOW (1u << 13)    /* count overflow events */
#define PTL_ME_EVENT_CT_BYTES (1u << 14)       /* count bytes rather than events */
/* ME only */
#define PTL_ME_MANAGE_LOCAL (1u << 15) /* the target keeps the offset: successive messages fill the buffer */
#define PTL_ME_NO_TRUNCATE (1u << 16)  /* a message longer than the room left does not match this entry */
#define PTL_ME_MAY_ALIGN (1u << 17)

#define PTL_LE_OP_PUT PTL_ME_OP_PUT
#define PTL_LE_OP_GET PTL_ME_OP_GET
#define PTL_LE_USE_ONCE PTL_ME_USE_ONCE
#define PTL_LE_ACK_DISABLE PTL_ME_ACK_DISABLE
#define PTL_LE_UNEXPECTED_HDR_DISABLE PTL_ME_UNEXPECTED_HDR_DISABLE
#define PTL_LE_IS_ACCESSIBLE PTL_ME_IS_ACCESSIBLE
#define PTL_LE_EVENT_COMM_DISABLE PTL_ME_EVENT_COMM_DISABLE
#define PTL_LE_EVENT_FLOWCTRL_DISABLE PTL_ME_EVENT_FLOWCTRL_DISABLE
#define PTL_LE_EVENT_SUCCESS_DISABLE PTL_ME_EVENT_SUCCESS_DISABLE
#define PTL_LE_EVENT_OVER_DISABLE PTL_ME_EVENT_OVER_DISABLE
#define PTL_LE_EVENT_UNLINK_DISABLE PTL_ME_EVENT_UNLINK_DISABLE
#define PTL_LE_EVENT_LINK_DISABLE PTL_ME_EVENT_LINK_DISABLE
#define PTL_LE_EVENT_CT_COMM PTL_ME_EVENT_CT_COMM
#define PTL_LE_EVENT_CT_OVERFLOW PTL_ME_EVENT_CT_OVERFLOW
#define PTL_LE_EVENT_CT_BYTES PTL_ME_EVENT_CT_BYTES

/* Lists */
enum ptl_list {
  PTL_PRIORITY_LIST = 0,
  PTL_OVERFLOW_LIST,
  PTL_PROBE_ONLY, /* PtlMESearch (not provided) */
  PTL_PROBE_UNLINK
};

/* Events ----------------------------------------------------------------------------------------------------------- */

typedef enum {
  PTL_EVENT_GET = 0,
  PTL_EVENT_GET_OVERFLOW,
  PTL_EVENT_PUT,
  PTL_EVENT_PUT_OVERFLOW,
  PTL_EVENT_ATOMIC,
  PTL_EVENT_ATOMIC_OVERFLOW,
  PTL_EVENT_FETCH_ATOMIC,
  PTL_EVENT_FETCH_ATOMIC_OVERFLOW,
  PTL_EVENT_REPLY,
  PTL_EVENT_SEND,
  PTL_EVENT_ACK,
  PTL_EVENT_PT_DISABLED,
  PTL_EVENT_LINK,
  PTL_EVENT_AUTO_UNLINK,
  PTL_EVENT_AUTO_FREE,
  PTL_EVENT_SEARCH
} ptl_event_kind_t;

/* Why an operation failed, in its event's ni_fail_type. */
enum ptl_ni_fail {
  PTL_NI_OK = 0,
  PTL_NI_UNDELIVERABLE,  /* the network could not deliver it (end-to-end retries exhausted) */
  PTL_NI_PT_DISABLED,    /* the target's portal table entry is disabled */
  PTL_NI_DROPPED,        /* the target dropped it */
  PTL_NI_PERM_VIOLATION, /* the entry's uid does not allow the initiator */
  PTL_NI_OP_VIOLATION,   /* the entry does not accept this operation (OP_PUT / OP_GET) */
  PTL_NI_SEGV,
  PTL_NI_NO_MATCH,      /* no entry of the priority or overflow list matched */
  PTL_NI_TARGET_INVALID /* no such target process, or its portal table entry is not allocated */
};
typedef unsigned int ptl_ni_fail_t;

/* Atomic operations and datatypes */
typedef enum {
  PTL_MIN = 0,
  PTL_MAX,
  PTL_SUM,
  PTL_PROD,
  PTL_LOR,
  PTL_LAND,
  PTL_BOR,
  PTL_BAND,
  PTL_LXOR,
  PTL_BXOR,
  PTL_SWAP,  /* Swap: the target takes the operand */
  PTL_CSWAP, /* Swap: ... when it equals the operand given by `operand` */
  PTL_CSWAP_NE,
  PTL_CSWAP_LE,
  PTL_CSWAP_LT,
  PTL_CSWAP_GE,
  PTL_CSWAP_GT,
  PTL_MSWAP /* Swap: the bits set in `operand` take the new value */
} ptl_op_t;

typedef enum {
  PTL_INT8_T = 0,
  PTL_UINT8_T,
  PTL_INT16_T,
  PTL_UINT16_T,
  PTL_INT32_T,
  PTL_UINT32_T,
  PTL_INT64_T,
  PTL_UINT64_T,
  PTL_FLOAT,
  PTL_FLOAT_COMPLEX,
  PTL_DOUBLE,
  PTL_DOUBLE_COMPLEX,
  PTL_LONG_DOUBLE,
  PTL_LONG_DOUBLE_COMPLEX
} ptl_datatype_t;

/* A full event. Which fields are meaningful depends on the type (the specification's tables): initiator events
 * (SEND, ACK, REPLY) fill user_ptr, mlength, remote_offset, ni_fail_type (and REPLY: start is not set); target events
 * (PUT, GET, ATOMIC, FETCH_ATOMIC and their _OVERFLOW, LINK, AUTO_UNLINK, AUTO_FREE) fill everything else. */
typedef struct {
  void* start;                 /* target: where the data went (or came from) in the entry's buffer */
  void* user_ptr;              /* the user_ptr given to the operation (initiator) or to the append (target) */
  ptl_hdr_data_t hdr_data;     /* the 64 bits of header data the initiator sent */
  ptl_match_bits_t match_bits; /* the incoming match bits */
  ptl_size_t rlength;          /* requested length */
  ptl_size_t mlength;          /* manipulated length (after truncation) */
  ptl_size_t remote_offset;    /* the offset at the target */
  ptl_uid_t uid;
  ptl_process_t initiator; /* target events: who sent it (physical or logical, as the NI addresses) */
  ptl_event_kind_t type;
  ptl_list_t ptl_list; /* target events: the list the entry was on */
  ptl_pt_index_t pt_index;
  ptl_ni_fail_t ni_fail_type;
  ptl_op_t atomic_operation;
  ptl_datatype_t atomic_type;
} ptl_event_t;

/* Counting events: successes and failures. */
typedef struct {
  ptl_size_t success;
  ptl_size_t failure;
} ptl_ct_event_t;

#define PTL_TIME_FOREVER ((ptl_time_t)-1)
typedef int64_t ptl_time_t; /* milliseconds (PtlEQPoll, PtlCTPoll) */

/* Acknowledgements requested by PtlPut and PtlAtomic */
enum ptl_ack_req {
  PTL_ACK_REQ = 0, /* a full ACK event */
  PTL_NO_ACK_REQ,  /* none */
  PTL_CT_ACK_REQ,  /* counted only */
  PTL_OC_ACK_REQ   /* operation completed: counted only, as soon as the target has it */
};

/* Functions -------------------------------------------------------------------------------------------------------- */

int PtlInit(void);
void PtlFini(void);

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired,
              ptl_ni_limits_t* actual, ptl_handle_ni_t* ni_handle);
int PtlNIFini(ptl_handle_ni_t ni_handle);
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t* ni_handle);
int PtlSetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size, const ptl_process_t* mapping);
int PtlGetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size, ptl_process_t* mapping, ptl_size_t* actual_map_size);
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t* id);
int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t* id);
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t* uid);

int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options, ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t* pt_index);
int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t* md, ptl_handle_md_t* md_handle);
int PtlMDRelease(ptl_handle_md_t md_handle);

int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_le_t* le, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_le_t* le_handle);
int PtlLEUnlink(ptl_handle_le_t le_handle);
int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_me_t* me, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_me_t* me_handle);
int PtlMEUnlink(ptl_handle_me_t me_handle);

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_handle_eq_t* eq_handle);
int PtlEQFree(ptl_handle_eq_t eq_handle);
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t* event);
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t* event);
int PtlEQPoll(const ptl_handle_eq_t* eq_handles, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
              unsigned int* which);

int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t* ct_handle);
int PtlCTFree(ptl_handle_ct_t ct_handle);
int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t* event);
int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test, ptl_ct_event_t* event);
int PtlCTPoll(const ptl_handle_ct_t* ct_handles, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* event, unsigned int* which);
int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct);
int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment);

int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
           ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
           void* user_ptr, ptl_hdr_data_t hdr_data);
int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr);
int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              void* user_ptr, ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype);
int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
                   ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
                   ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
                   ptl_op_t operation, ptl_datatype_t datatype);
int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
            ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
            ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
            const void* operand, ptl_op_t operation, ptl_datatype_t datatype);

int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2);
/* Ordering and bundling hints of the specification: every operation is already ordered and issued at once here. */
int PtlAtomicSync(void);
int PtlStartBundle(ptl_handle_ni_t ni_handle);
int PtlEndBundle(ptl_handle_ni_t ni_handle);

/* mpisim's own: the name of a return code, an event type or a failure type ("PTL_EQ_EMPTY"), for messages. */
const char* mpisim_ptl_strerror(int code);
const char* mpisim_ptl_event_name(ptl_event_kind_t type);
const char* mpisim_ptl_fail_name(ptl_ni_fail_t fail);
/* mpisim's own: MPI's NI and portal table entry under --model bxi, after MPI_Init (MPI's messages go over Portals,
 * docs/bxi.md): the NI PtlNIInit(PTL_NI_MATCHING | PTL_NI_LOGICAL) returns, and MPI's portal index on it, which
 * the program's own entries must not take. PTL_NO_INIT when MPI has opened none (another model, or before
 * MPI_Init). */
int mpisim_ptl_mpi_interface(ptl_handle_ni_t* ni_handle, ptl_pt_index_t* pt_index);

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_PORTALS4_H */
