/* Portals semantics between two processes, one line per property checked ("NAME ok", or "NAME FAILED: why"):
 * matching and ignore bits, first match wins, no match, the overflow list and a later priority append, use-once
 * entries unlinked, locally managed offsets, counting events, event queue overflow, invalid handles, a Put beyond an
 * entry without truncation, an unallocated portal table entry, atomics. Rank 1 is the target, rank 0 the initiator;
 * they synchronize through a control portal (PT 9). */
#include "portals_common.h"

#include <stdint.h>
#include <string.h>

enum {
  kControl = 9,
  kMatch = 1,
  kOverflow = 2,
  kOnce = 3,
  kLocal = 4,
  kCount = 5,
  kSmallEq = 6,
  kTruncate = 7,
  kAtomic = 8,
  kFlowControl = 10
};

static ptl_handle_ni_t ni;
static ptl_handle_eq_t control_eq, eq, small_eq, flow_eq;
static ptl_handle_md_t md, signal_md;
static char source[256];
static int failures;

static void report(const char* name, int ok, const char* why)
{
  if (ok)
    printf("%s ok\n", name);
  else {
    printf("%s FAILED: %s\n", name, why);
    ++failures;
  }
}

static void signal_peer(ptl_rank_t peer)
{
  CHECK(PtlPut(signal_md, 0, 0, PTL_NO_ACK_REQ, rank_id(peer), kControl, 0, 0, NULL, 0));
}

static void wait_peer(void)
{
  wait_event(control_eq, PTL_EVENT_PUT);
}

/* Initiator: a Put of `length` bytes with `bits`, returning the ACK's failure type (and its mlength). */
static ptl_ni_fail_t put_and_ack(ptl_pt_index_t pt, ptl_size_t length, ptl_match_bits_t bits, ptl_size_t* mlength)
{
  CHECK(PtlPut(md, 0, length, PTL_ACK_REQ, rank_id(1), pt, bits, 0, NULL, 0));
  ptl_event_t event;
  do
    CHECK(PtlEQWait(eq, &event));
  while (event.type == PTL_EVENT_SEND);
  if (mlength != NULL)
    *mlength = event.mlength;
  return event.ni_fail_type;
}

static ptl_me_t entry(void* start, ptl_size_t length, ptl_match_bits_t bits, ptl_match_bits_t ignore,
                      unsigned int options)
{
  ptl_me_t me = {.start = start,
                 .length = length,
                 .ct_handle = PTL_CT_NONE,
                 .uid = PTL_UID_ANY,
                 .options = options | PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                 .match_id = rank_id(PTL_RANK_ANY),
                 .match_bits = bits,
                 .ignore_bits = ignore,
                 .min_free = 0};
  return me;
}

static void initiator(void)
{
  ptl_size_t mlength = 0;
  for (int i = 0; i < 256; ++i)
    source[i] = (char)i;
  wait_peer(); // the target's entries are posted

  report("match_ignore_bits", put_and_ack(kMatch, 4, 0x1f, NULL) == PTL_NI_OK, "0x1f should match 0x10/0x0f");
  report("match_exact_bits", put_and_ack(kMatch, 4, 0x20, NULL) == PTL_NI_OK, "0x20 should match");
  report("no_match", put_and_ack(kMatch, 4, 0x40, NULL) == PTL_NI_NO_MATCH, "0x40 should find no entry");
  report("target_invalid", put_and_ack(20, 4, 0, NULL) == PTL_NI_TARGET_INVALID, "PT 20 is not allocated");

  report("overflow_put", put_and_ack(kOverflow, 16, 5, NULL) == PTL_NI_OK, "overflow entry should take it");
  report("use_once_first", put_and_ack(kOnce, 8, 0, NULL) == PTL_NI_OK, "first put should match");
  report("use_once_second", put_and_ack(kOnce, 8, 0, NULL) == PTL_NI_NO_MATCH, "the entry should be unlinked");

  put_and_ack(kLocal, 30, 0, NULL);
  put_and_ack(kLocal, 30, 0, NULL);
  put_and_ack(kCount, 10, 0, NULL);
  put_and_ack(kCount, 22, 0, NULL);
  for (int i = 0; i < 3; ++i)
    put_and_ack(kSmallEq, 1, 0, NULL);

  ptl_ni_fail_t fail = put_and_ack(kTruncate, 32, 1, &mlength);
  report("no_truncate_beyond", fail == PTL_NI_NO_MATCH, mpisim_ptl_fail_name(fail));
  fail = put_and_ack(kTruncate, 32, 2, &mlength);
  report("truncate", fail == PTL_NI_OK && mlength == 16, "a truncating entry of 16 B should take 16 of 32 B");
  fail = put_and_ack(kFlowControl, 4, 0, NULL);
  report("flowctrl_disables", fail == PTL_NI_PT_DISABLED, "no entry on a flow-controlled portal table entry");
  fail = put_and_ack(kFlowControl, 4, 0, NULL);
  report("flowctrl_stays_disabled", fail == PTL_NI_PT_DISABLED, "disabled until the target re-enables it");

  /* Atomics: SUM into the target's int64, then fetch-add, then a compare-and-swap. */
  int64_t operand = 5, fetched = 0, expected = 17, swap_value = 100;
  ptl_md_t value_md = {.start = &operand, .length = 8, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
  ptl_md_t fetch_md = {.start = &fetched, .length = 8, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
  ptl_md_t swap_md = {.start = &swap_value, .length = 8, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
  ptl_handle_md_t value_handle, fetch_handle, swap_handle;
  CHECK(PtlMDBind(ni, &value_md, &value_handle));
  CHECK(PtlMDBind(ni, &fetch_md, &fetch_handle));
  CHECK(PtlMDBind(ni, &swap_md, &swap_handle));
  ptl_event_t event;
  CHECK(PtlAtomic(value_handle, 0, 8, PTL_ACK_REQ, rank_id(1), kAtomic, 0, 0, NULL, 0, PTL_SUM, PTL_INT64_T));
  wait_event(eq, PTL_EVENT_SEND);
  wait_event(eq, PTL_EVENT_ACK);
  operand = 2;
  CHECK(PtlFetchAtomic(fetch_handle, 0, value_handle, 0, 8, rank_id(1), kAtomic, 0, 0, NULL, 0, PTL_SUM, PTL_INT64_T));
  wait_event(eq, PTL_EVENT_SEND);
  wait_event(eq, PTL_EVENT_REPLY);
  report("fetch_atomic", fetched == 10 + 5, "the target held 10, plus 5");
  CHECK(PtlSwap(fetch_handle, 0, swap_handle, 0, 8, rank_id(1), kAtomic, 0, 0, NULL, 0, &expected, PTL_CSWAP,
                PTL_INT64_T));
  wait_event(eq, PTL_EVENT_SEND);
  wait_event(eq, PTL_EVENT_REPLY);
  report("swap_fetch", fetched == 17, "the target held 17 before the swap");

  /* Bad input: handles of the wrong kind, freed, or never made. */
  report("invalid_md", PtlPut(12345, 0, 1, PTL_ACK_REQ, rank_id(1), 0, 0, 0, NULL, 0) == PTL_ARG_INVALID,
         "a made-up MD handle");
  report("invalid_eq", PtlEQGet(md, &event) == PTL_ARG_INVALID, "an MD handle given as an EQ");
  report("md_too_short", PtlPut(md, 250, 10, PTL_ACK_REQ, rank_id(1), 0, 0, 0, NULL, 0) == PTL_ARG_INVALID,
         "offset + length beyond the MD");
  ptl_handle_md_t released;
  ptl_md_t spare = {.start = source, .length = 4, .options = 0, .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE};
  CHECK(PtlMDBind(ni, &spare, &released));
  CHECK(PtlMDRelease(released));
  report("released_md", PtlMDRelease(released) == PTL_ARG_INVALID, "an MD released twice");
  report("eq_empty", PtlEQGet(eq, &event) == PTL_EQ_EMPTY, "nothing left in the initiator's queue");
  /* An MD is in use until its operation's last event. */
  ptl_handle_md_t busy;
  ptl_md_t busy_desc = {.start = source, .length = 8, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
  CHECK(PtlMDBind(ni, &busy_desc, &busy));
  CHECK(PtlPut(busy, 0, 8, PTL_ACK_REQ, rank_id(1), kMatch, 0x20, 0, NULL, 0));
  report("md_in_use", PtlMDRelease(busy) == PTL_IN_USE, "an MD with an operation in flight");
  wait_event(eq, PTL_EVENT_SEND);
  wait_event(eq, PTL_EVENT_ACK);
  report("md_released_after_ack", PtlMDRelease(busy) == PTL_OK, "the operation is over");
  signal_peer(1); // the target may check what it received

  /* A non-matching, physically addressed NI: list entries, the target named by its NID and PID. */
  ptl_handle_ni_t plain;
  ptl_handle_eq_t plain_eq;
  ptl_process_t map[2];
  ptl_size_t mapped;
  ptl_le_t wrong = {
      .start = source, .length = 8, .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY, .options = PTL_LE_OP_PUT};
  ptl_handle_le_t wrong_handle;
  report("le_on_matching_ni",
         PtlLEAppend(ni, kMatch, &wrong, PTL_PRIORITY_LIST, NULL, &wrong_handle) == PTL_ARG_INVALID,
         "LEs belong to non-matching NIs");
  CHECK(PtlGetMap(ni, 2, map, &mapped));
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &plain));
  CHECK(PtlEQAlloc(plain, 8, &plain_eq));
  ptl_md_t plain_desc = {
      .start = source + 100, .length = 16, .options = 0, .eq_handle = plain_eq, .ct_handle = PTL_CT_NONE};
  ptl_handle_md_t plain_md;
  CHECK(PtlMDBind(plain, &plain_desc, &plain_md));
  wait_peer(); /* the target's LE is posted */
  CHECK(PtlPut(plain_md, 0, 16, PTL_ACK_REQ, map[1], 0, 0, 0, NULL, 0));
  wait_event(plain_eq, PTL_EVENT_SEND);
  ptl_event_t plain_ack = wait_event(plain_eq, PTL_EVENT_ACK);
  report("le_put", plain_ack.ni_fail_type == PTL_NI_OK && plain_ack.mlength == 16, "a Put into an LE by NID/PID");
}

static void target(void)
{
  static char match_a[8], match_b[8], overflow_buffer[256], once[8], local[100], counted[64], small[4], trunc_a[16],
      trunc_b[16];
  static int64_t atomic_target = 10;
  ptl_pt_index_t pt;
  ptl_handle_me_t handle;
  ptl_handle_ct_t ct;
  for (int index = kMatch; index <= kAtomic; ++index)
    CHECK(PtlPTAlloc(ni, 0, index == kSmallEq ? small_eq : eq, (ptl_pt_index_t)index, &pt));
  CHECK(PtlPTAlloc(ni, PTL_PT_FLOWCTRL, flow_eq, kFlowControl, &pt)); // no entry: the first message disables it
  ptl_me_t me = entry(match_a, 8, 0x10, 0x0f, 0);
  CHECK(PtlMEAppend(ni, kMatch, &me, PTL_PRIORITY_LIST, "A", &handle));
  me = entry(match_b, 8, 0x20, 0, 0);
  CHECK(PtlMEAppend(ni, kMatch, &me, PTL_PRIORITY_LIST, "B", &handle));
  me = entry(match_b, 8, 0x1f, 0, 0); // also matches 0x1f, but comes after A: first match wins
  CHECK(PtlMEAppend(ni, kMatch, &me, PTL_PRIORITY_LIST, "C", &handle));
  me = entry(overflow_buffer, sizeof overflow_buffer, 0, ~(ptl_match_bits_t)0, PTL_ME_MANAGE_LOCAL);
  CHECK(PtlMEAppend(ni, kOverflow, &me, PTL_OVERFLOW_LIST, "overflow", &handle));
  me = entry(once, 8, 0, 0, PTL_ME_USE_ONCE);
  CHECK(PtlMEAppend(ni, kOnce, &me, PTL_PRIORITY_LIST, "once", &handle));
  me = entry(local, sizeof local, 0, 0, PTL_ME_MANAGE_LOCAL);
  CHECK(PtlMEAppend(ni, kLocal, &me, PTL_PRIORITY_LIST, "local", &handle));
  CHECK(PtlCTAlloc(ni, &ct));
  me = entry(counted, sizeof counted, 0, 0, PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_BYTES);
  me.ct_handle = ct;
  CHECK(PtlMEAppend(ni, kCount, &me, PTL_PRIORITY_LIST, "counted", &handle));
  me = entry(small, sizeof small, 0, 0, 0);
  CHECK(PtlMEAppend(ni, kSmallEq, &me, PTL_PRIORITY_LIST, "small", &handle));
  me = entry(trunc_a, sizeof trunc_a, 1, 0, PTL_ME_NO_TRUNCATE | PTL_ME_MANAGE_LOCAL);
  CHECK(PtlMEAppend(ni, kTruncate, &me, PTL_PRIORITY_LIST, "no-truncate", &handle));
  me = entry(trunc_b, sizeof trunc_b, 2, 0, 0);
  CHECK(PtlMEAppend(ni, kTruncate, &me, PTL_PRIORITY_LIST, "truncate", &handle));
  me = entry(&atomic_target, 8, 0, 0, PTL_ME_OP_GET);
  CHECK(PtlMEAppend(ni, kAtomic, &me, PTL_PRIORITY_LIST, "atomic", &handle));
  signal_peer(0);
  wait_peer(); // the initiator is done

  ptl_event_t event;
  CHECK(PtlEQGet(eq, &event));
  report("first_match_wins", event.type == PTL_EVENT_PUT && strcmp((char*)event.user_ptr, "A") == 0,
         "0x1f should land in A");
  CHECK(PtlEQGet(eq, &event));
  report("second_entry", strcmp((char*)event.user_ptr, "B") == 0, "0x20 should land in B");
  CHECK(PtlEQGet(eq, &event));
  report("overflow_event",
         event.type == PTL_EVENT_PUT && event.ptl_list == PTL_OVERFLOW_LIST && event.mlength == 16 &&
             event.start == overflow_buffer,
         "an overflow-list PUT event at the start of the overflow buffer");
  CHECK(PtlEQGet(eq, &event));
  report("use_once_put", event.type == PTL_EVENT_PUT, "PUT into the use-once entry");
  CHECK(PtlEQGet(eq, &event));
  report("auto_unlink", event.type == PTL_EVENT_AUTO_UNLINK && strcmp((char*)event.user_ptr, "once") == 0,
         "AUTO_UNLINK after the use-once entry's match");
  ptl_event_t first, second;
  CHECK(PtlEQGet(eq, &first));
  CHECK(PtlEQGet(eq, &second));
  report("manage_local",
         first.start == local && second.start == local + 30 && second.remote_offset == 30 && local[29] == 29 &&
             local[31] == 1,
         "locally managed: the second 30 B at offset 30");
  ptl_ct_event_t counts;
  CHECK(PtlCTWait(ct, 32, &counts));
  report("ct_bytes", counts.success == 32 && counts.failure == 0, "10 + 22 bytes counted");
  CHECK(PtlEQGet(eq, &event));
  CHECK(PtlEQGet(eq, &event)); // the two counted PUTs
  int rc = PtlEQGet(small_eq, &event);
  report("eq_dropped", rc == PTL_EQ_DROPPED && event.type == PTL_EVENT_PUT, "3 events in a queue of 2");
  rc = PtlEQGet(small_eq, &event);
  report("eq_after_drop", rc == PTL_OK, "the next event reads normally");
  rc = PtlEQGet(flow_eq, &event);
  report("pt_disabled_event",
         rc == PTL_OK && event.type == PTL_EVENT_PT_DISABLED && event.pt_index == kFlowControl &&
             PtlEQGet(flow_eq, &event) == PTL_EQ_EMPTY,
         "one PT_DISABLED event for the two messages");
  report("pt_enable", PtlPTEnable(ni, kFlowControl) == PTL_OK, "re-enabled by the application");
  CHECK(PtlEQGet(eq, &event));
  report("truncated_event",
         event.mlength == 16 && event.rlength == 32 && strcmp((char*)event.user_ptr, "truncate") == 0,
         "mlength 16 of rlength 32 in the truncating entry");
  report("atomic_result", atomic_target == 100, "10 + 5 + 2 = 17, equal to the compare value: swapped for 100");

  /* An unexpected header met by a later priority append: PUT_OVERFLOW. */
  static char late[16];
  me = entry(late, sizeof late, 5, 0, PTL_ME_USE_ONCE);
  CHECK(PtlMEAppend(ni, kOverflow, &me, PTL_PRIORITY_LIST, "late", &handle));
  do
    CHECK(PtlEQGet(eq, &event));
  while (event.type != PTL_EVENT_PUT_OVERFLOW);
  report("put_overflow",
         event.start == overflow_buffer && event.mlength == 16 && strcmp((char*)event.user_ptr, "late") == 0,
         "the late priority entry meets the unexpected header");
  report("late_entry_consumed", PtlMEUnlink(handle) == PTL_ARG_INVALID, "a use-once entry met by a header");

  ptl_handle_ni_t plain;
  ptl_handle_eq_t plain_eq;
  static char plain_buffer[16];
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &plain));
  CHECK(PtlEQAlloc(plain, 8, &plain_eq));
  CHECK(PtlPTAlloc(plain, 0, plain_eq, 0, &pt));
  ptl_le_t le = {.start = plain_buffer,
                 .length = sizeof plain_buffer,
                 .ct_handle = PTL_CT_NONE,
                 .uid = PTL_UID_ANY,
                 .options = PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE};
  ptl_handle_le_t le_handle;
  CHECK(PtlLEAppend(plain, 0, &le, PTL_PRIORITY_LIST, "le", &le_handle));
  ptl_process_t physical;
  CHECK(PtlGetPhysId(plain, &physical));
  signal_peer(0);
  ptl_event_t put = wait_event(plain_eq, PTL_EVENT_PUT);
  report("le_event",
         put.mlength == 16 && plain_buffer[0] == 100 && plain_buffer[15] == 115 && put.initiator.phys.pid == 0 &&
             physical.phys.pid == 0,
         "16 B from offset 100 of the initiator's buffer, initiator named physically");
  report("le_unlink", PtlLEUnlink(le_handle) == PTL_OK && PtlLEUnlink(le_handle) == PTL_ARG_INVALID, "unlinked once");
}

int main(void)
{
  ptl_rank_t rank;
  ptl_size_t size;
  ni = open_ni(&rank, &size);
  ptl_pt_index_t pt;
  CHECK(PtlEQAlloc(ni, 64, &control_eq));
  CHECK(PtlEQAlloc(ni, 64, &eq));
  CHECK(PtlEQAlloc(ni, 2, &small_eq));
  CHECK(PtlEQAlloc(ni, 8, &flow_eq));
  CHECK(PtlPTAlloc(ni, 0, control_eq, kControl, &pt));
  ptl_me_t control = entry(NULL, 0, 0, ~(ptl_match_bits_t)0, 0); // every signal, persistent
  ptl_handle_me_t control_handle;
  CHECK(PtlMEAppend(ni, kControl, &control, PTL_PRIORITY_LIST, NULL, &control_handle));
  ptl_md_t signal_desc = {
      .start = source, .length = 0, .options = 0, .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE};
  CHECK(PtlMDBind(ni, &signal_desc, &signal_md));
  ptl_md_t desc = {.start = source, .length = sizeof source, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
  CHECK(PtlMDBind(ni, &desc, &md));
  if (rank == 0)
    initiator();
  else
    target();
  PtlNIFini(ni);
  PtlFini();
  return failures == 0 ? 0 : 1;
}
