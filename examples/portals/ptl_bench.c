/* The five Portals benchmarks of the S4BXI thesis (section 4.6.1), written for mpisim: rank 0 (node A) sends REQUESTS
 * operations per message size to rank 1 (node B) and prints the mean time per operation, as measured on node A.
 *   put-waitack    PtlPut, wait for its ACK before the next one
 *   get-waitreply  PtlGet, wait for its REPLY
 *   put-nowait     every PtlPut at once, then wait for all their ACKs (counted)
 *   get-nowait     every PtlGet at once, then wait for all their REPLYs (counted)
 *   put-waitsend   PtlPut, wait for its SEND (the buffer is free again), the ACKs counted at the end
 * Usage: ptl_bench BENCH [SIZES [REQUESTS]] (defaults: 64 sizes, 10000 requests). The sizes: 1 B, the payload
 * boundaries of the BXI NIC (8/9, 64/65, 408/409, 512/513 B), the rest drawn log2-uniformly up to 1 MiB with a fixed
 * seed, sorted. Output: one CSV line per size: bench,size,us_per_request. The buffers come from SMPI_SHARED_MALLOC
 * (both ranks share one block, as SMPI benchmarks do): the NIC's timings are unchanged, and no payload is copied, which
 * would dominate the simulation's cost at large sizes; set PTL_BENCH_COPY=1 for private buffers really copied. */
#include <mpisim.h>
#include <portals4.h>
#include <stdint.h>
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

enum { kDataPt = 0, kControlPt = 1, kMaxSizes = 256 };
static const ptl_size_t kMaxSize = 1 << 20;

static double now_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare_sizes(const void* a, const void* b)
{
  const ptl_size_t x = *(const ptl_size_t*)a, y = *(const ptl_size_t*)b;
  return x < y ? -1 : x > y;
}

/* The message sizes: the fixed boundaries, then log2-uniform draws (a 64-bit LCG, seed 42), sorted, distinct. */
static int message_sizes(int count, ptl_size_t* sizes)
{
  static const ptl_size_t fixed[] = {1, 8, 9, 64, 65, 408, 409, 512, 513, 4096, 65536, 1 << 20};
  int n = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < count; ++i)
    sizes[n++] = fixed[i];
  uint64_t state = 42;
  while (n < count) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double exponent = (double)(state >> 11) * 0x1.0p-53 * 20.0; /* 2^0 .. 2^20 */
    ptl_size_t size = (ptl_size_t)1 << (int)exponent;
    size += (ptl_size_t)((double)size * (exponent - (int)exponent));
    int seen = 0;
    for (int i = 0; i < n; ++i)
      seen |= sizes[i] == size;
    if (!seen && size <= kMaxSize)
      sizes[n++] = size;
  }
  qsort(sizes, (size_t)n, sizeof sizes[0], compare_sizes);
  return n;
}

static ptl_process_t peer(ptl_rank_t rank)
{
  ptl_process_t p;
  p.rank = rank;
  return p;
}

static void wait_for(ptl_handle_eq_t eq, ptl_event_kind_t type)
{
  ptl_event_t event;
  do
    CHECK(PtlEQWait(eq, &event));
  while (event.type != type);
  if (event.ni_fail_type != PTL_NI_OK) {
    fprintf(stderr, "%s failed: %s\n", mpisim_ptl_event_name(type), mpisim_ptl_fail_name(event.ni_fail_type));
    exit(1);
  }
}

int main(int argc, char** argv)
{
  const char* bench = argc > 1 ? argv[1] : "put-waitack";
  const int size_count = argc > 2 ? atoi(argv[2]) : 64;
  const long requests = argc > 3 ? atol(argv[3]) : 10000;
  const int put = strncmp(bench, "put", 3) == 0;
  const int no_wait = strstr(bench, "nowait") != NULL;
  const int wait_send = strcmp(bench, "put-waitsend") == 0;
  if (size_count < 1 || size_count > kMaxSizes || requests < 1 ||
      (strcmp(bench, "put-waitack") != 0 && strcmp(bench, "get-waitreply") != 0 && !no_wait && !wait_send)) {
    fprintf(stderr,
            "usage: ptl_bench put-waitack|get-waitreply|put-nowait|get-nowait|put-waitsend [SIZES [REQUESTS]]\n");
    return 2;
  }
  ptl_size_t sizes[kMaxSizes];
  const int n = message_sizes(size_count, sizes);

  ptl_handle_ni_t ni;
  ptl_process_t me;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetId(ni, &me));
  const char* copy = getenv("PTL_BENCH_COPY");
  const int private_buffers = copy != NULL && atoi(copy) != 0;
  char* buffer = private_buffers ? malloc(kMaxSize) : MPISIM_SHARED_MALLOC(kMaxSize);
  memset(buffer, 1, kMaxSize);
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
  ptl_handle_me_t control_handle;
  CHECK(PtlMEAppend(ni, kControlPt, &control, PTL_PRIORITY_LIST, NULL, &control_handle));

  if (me.rank == 1) { /* the target: one persistent entry over the whole buffer, then wait for "done" */
    CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, kDataPt, &pt));
    ptl_me_t data = {.start = buffer,
                     .length = kMaxSize,
                     .ct_handle = PTL_CT_NONE,
                     .uid = PTL_UID_ANY,
                     .options = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE,
                     .match_id = peer(PTL_RANK_ANY),
                     .match_bits = 0,
                     .ignore_bits = 0,
                     .min_free = 0};
    ptl_handle_me_t handle;
    CHECK(PtlMEAppend(ni, kDataPt, &data, PTL_PRIORITY_LIST, NULL, &handle));
    ptl_md_t signal = {.start = NULL, .length = 0, .options = 0, .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE};
    ptl_handle_md_t signal_md;
    CHECK(PtlMDBind(ni, &signal, &signal_md));
    CHECK(PtlPut(signal_md, 0, 0, PTL_NO_ACK_REQ, peer(0), kControlPt, 0, 0, NULL, 0)); /* ready */
    wait_for(control_eq, PTL_EVENT_PUT);                                                /* done */
  } else if (me.rank == 0) {
    wait_for(control_eq, PTL_EVENT_PUT); /* the target's entry is posted */
    /* Events only where the benchmark waits for them; completions are counted otherwise. */
    ptl_md_t desc = {.start = buffer, .length = kMaxSize, .options = 0, .eq_handle = eq, .ct_handle = ct};
    desc.options = put ? PTL_MD_EVENT_CT_ACK : PTL_MD_EVENT_CT_REPLY;
    if (no_wait)
      desc.eq_handle = PTL_EQ_NONE;
    ptl_handle_md_t md;
    CHECK(PtlMDBind(ni, &desc, &md));
    const ptl_ack_req_t ack = wait_send || no_wait ? PTL_CT_ACK_REQ : PTL_ACK_REQ;
    ptl_size_t done = 0;
    for (int s = 0; s < n; ++s) {
      const ptl_size_t size = sizes[s];
      const double start = now_seconds();
      for (long r = 0; r < requests; ++r) {
        if (put)
          CHECK(PtlPut(md, 0, size, ack, peer(1), kDataPt, 0, 0, NULL, 0));
        else
          CHECK(PtlGet(md, 0, size, peer(1), kDataPt, 0, 0, NULL));
        if (wait_send)
          wait_for(eq, PTL_EVENT_SEND);
        else if (!no_wait)
          wait_for(eq, put ? PTL_EVENT_ACK : PTL_EVENT_REPLY);
      }
      done += (ptl_size_t)requests;
      ptl_ct_event_t counted;
      CHECK(PtlCTWait(ct, done, &counted)); /* every operation of this size completed */
      printf("%s,%llu,%.6f\n", bench, (unsigned long long)size, (now_seconds() - start) * 1e6 / (double)requests);
    }
    ptl_md_t signal = {.start = NULL, .length = 0, .options = 0, .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE};
    ptl_handle_md_t signal_md;
    CHECK(PtlMDBind(ni, &signal, &signal_md));
    CHECK(PtlPut(signal_md, 0, 0, PTL_NO_ACK_REQ, peer(1), kControlPt, 0, 0, NULL, 0));
  }
  PtlNIFini(ni);
  PtlFini();
  if (private_buffers)
    free(buffer);
  else
    mpisim_shared_free(buffer);
  return 0;
}
