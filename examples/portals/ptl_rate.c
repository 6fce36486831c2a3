/* A message-rate program in the manner of PtlPerf (S4BXI thesis, section 4.6.2): rank 0 sends Puts of one size to
 * rank 1 for DURATION simulated seconds and prints how many went through per second.
 *   ct     one Put in flight, its ACK counted (PtlCTWait)
 *   ack    one Put in flight, its full ACK event waited for (PtlEQWait)
 *   match  up to WINDOW Puts in flight (default 256), ACKs counted
 * Usage: ptl_rate ct|ack|match [DURATION [WINDOW]] (defaults 0.002 s, 256). Sizes: powers of two, 1 B to 1 MiB.
 * Output: one CSV line per size: mode,size,messages_per_second. */
#include <mpisim.h>
#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    if (rc_ != PTL_OK) {                                                                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, mpisim_ptl_strerror(rc_));                         \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

enum { kDataPt = 0, kControlPt = 1 };
static const ptl_size_t kMaxSize = 1 << 20;

static double now_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static ptl_process_t peer(ptl_rank_t rank)
{
  ptl_process_t p;
  p.rank = rank;
  return p;
}

static void wait_put(ptl_handle_eq_t eq)
{
  ptl_event_t event;
  do
    CHECK(PtlEQWait(eq, &event));
  while (event.type != PTL_EVENT_PUT);
}

int main(int argc, char** argv)
{
  const char* mode = argc > 1 ? argv[1] : "ct";
  const double duration = argc > 2 ? atof(argv[2]) : 0.002;
  const int match = strcmp(mode, "match") == 0;
  const int full_ack = strcmp(mode, "ack") == 0;
  const ptl_size_t window = match ? (argc > 3 ? (ptl_size_t)atol(argv[3]) : 256) : 1;
  if ((!match && !full_ack && strcmp(mode, "ct") != 0) || duration <= 0 || window < 1) {
    fprintf(stderr, "usage: ptl_rate ct|ack|match [DURATION [WINDOW]]\n");
    return 2;
  }
  ptl_handle_ni_t ni;
  ptl_process_t me;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetId(ni, &me));
  char* buffer = MPISIM_SHARED_MALLOC(kMaxSize);
  ptl_handle_eq_t eq, control_eq;
  ptl_handle_ct_t ct;
  ptl_pt_index_t pt;
  CHECK(PtlEQAlloc(ni, 1024, &eq));
  CHECK(PtlEQAlloc(ni, 16, &control_eq));
  CHECK(PtlCTAlloc(ni, &ct));
  CHECK(PtlPTAlloc(ni, 0, control_eq, kControlPt, &pt));
  ptl_me_t control = {.start = NULL,
                      .length = 0,
                      .ct_handle = PTL_CT_NONE,
                      .uid = PTL_UID_ANY,
                      .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                      .match_id = peer(PTL_RANK_ANY),
                      .match_bits = 0,
                      .ignore_bits = ~(ptl_match_bits_t)0,
                      .min_free = 0};
  ptl_handle_me_t handle;
  CHECK(PtlMEAppend(ni, kControlPt, &control, PTL_PRIORITY_LIST, NULL, &handle));
  ptl_md_t signal = {.start = NULL, .length = 0, .options = 0, .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE};
  ptl_handle_md_t signal_md;
  CHECK(PtlMDBind(ni, &signal, &signal_md));

  if (me.rank == 1) {
    CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, kDataPt, &pt));
    ptl_me_t data = {.start = buffer,
                     .length = kMaxSize,
                     .ct_handle = PTL_CT_NONE,
                     .uid = PTL_UID_ANY,
                     .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE,
                     .match_id = peer(PTL_RANK_ANY),
                     .match_bits = 0,
                     .ignore_bits = 0,
                     .min_free = 0};
    CHECK(PtlMEAppend(ni, kDataPt, &data, PTL_PRIORITY_LIST, NULL, &handle));
    CHECK(PtlPut(signal_md, 0, 0, PTL_NO_ACK_REQ, peer(0), kControlPt, 0, 0, NULL, 0));
    wait_put(control_eq);
  } else if (me.rank == 0) {
    wait_put(control_eq);
    ptl_md_t desc = {.start = buffer,
                     .length = kMaxSize,
                     .options = PTL_MD_EVENT_CT_ACK,
                     .eq_handle = full_ack ? eq : PTL_EQ_NONE,
                     .ct_handle = ct};
    ptl_handle_md_t md;
    CHECK(PtlMDBind(ni, &desc, &md));
    ptl_size_t completed = 0;
    for (ptl_size_t size = 1; size <= kMaxSize; size *= 2) {
      const double start = now_seconds();
      ptl_size_t sent = 0, first = completed;
      ptl_ct_event_t counted = {completed, 0};
      while (now_seconds() - start < duration) {
        while (sent - (counted.success - first) < window) {
          CHECK(PtlPut(md, 0, size, full_ack ? PTL_ACK_REQ : PTL_CT_ACK_REQ, peer(1), kDataPt, 0, 0, NULL, 0));
          ++sent;
        }
        if (full_ack) {
          ptl_event_t event;
          do
            CHECK(PtlEQWait(eq, &event));
          while (event.type != PTL_EVENT_ACK);
        }
        CHECK(PtlCTWait(ct, counted.success + 1, &counted));
      }
      completed = counted.success;
      CHECK(PtlCTWait(ct, first + sent, &counted)); /* drain the window before the next size */
      completed = counted.success;
      printf("%s,%llu,%.1f\n", mode, (unsigned long long)size, (double)(completed - first) / (now_seconds() - start));
    }
    CHECK(PtlPut(signal_md, 0, 0, PTL_NO_ACK_REQ, peer(1), kControlPt, 0, 0, NULL, 0));
  }
  PtlNIFini(ni);
  PtlFini();
  mpisim_shared_free(buffer);
  return 0;
}
