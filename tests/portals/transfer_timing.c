/* One operation from rank 0 to rank 1, its event dates printed in microseconds (simulated): what the tests compare
 * with the BXI model's equations (docs/bxi.md). Usage: transfer_timing put|get SIZE [COUNT [noack]]: COUNT operations
 * issued back to back (default 1), then every event waited for. */
#include "portals_common.h"

#include <string.h>

int main(int argc, char** argv)
{
  const int get = argc > 1 && strcmp(argv[1], "get") == 0;
  const ptl_size_t size = argc > 2 ? strtoull(argv[2], NULL, 10) : 8;
  const int count = argc > 3 ? atoi(argv[3]) : 1;
  const int no_ack = argc > 4 && strcmp(argv[4], "noack") == 0;
  ptl_rank_t rank;
  ptl_size_t ranks;
  ptl_handle_ni_t ni = open_ni(&rank, &ranks);
  char* buffer = calloc(size + 1, 1);
  ptl_handle_eq_t eq;
  CHECK(PtlEQAlloc(ni, 64, &eq));
  if (rank == 1) {
    ptl_pt_index_t pt;
    CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt));
    for (ptl_size_t i = 0; i < size; ++i)
      buffer[i] = (char)('a' + i % 26);
    ptl_me_t me = {.start = buffer,
                   .length = size,
                   .ct_handle = PTL_CT_NONE,
                   .uid = PTL_UID_ANY,
                   .options = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE,
                   .match_id = rank_id(PTL_RANK_ANY),
                   .match_bits = 7,
                   .ignore_bits = 0,
                   .min_free = 0};
    ptl_handle_me_t handle;
    CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &handle));
    ptl_event_t event;
    for (int i = 0; i < count; ++i) {
      event = wait_event(eq, get ? PTL_EVENT_GET : PTL_EVENT_PUT);
      printf("target %s %.4f mlength %llu\n", mpisim_ptl_event_name(event.type), now_us(),
             (unsigned long long)event.mlength);
    }
    if (!get)
      printf("data %s\n", size > 0 && buffer[0] == 'x' && buffer[size - 1] == 'x' ? "ok" : "wrong");
  } else if (rank == 0) {
    for (ptl_size_t i = 0; i < size; ++i)
      buffer[i] = 'x';
    ptl_md_t md = {.start = buffer, .length = size, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
    ptl_handle_md_t md_handle;
    CHECK(PtlMDBind(ni, &md, &md_handle));
    const double start = now_us();
    printf("start %.4f\n", start);
    for (int i = 0; i < count; ++i) {
      if (get)
        CHECK(PtlGet(md_handle, 0, size, rank_id(1), 0, 7, 0, NULL));
      else
        CHECK(PtlPut(md_handle, 0, size, no_ack ? PTL_NO_ACK_REQ : PTL_ACK_REQ, rank_id(1), 0, 7, 0, NULL, 0));
      printf("returned %.4f\n", now_us() - start);
    }
    const int expected = count * (get ? 1 : (no_ack ? 1 : 2));
    for (int i = 0; i < expected; ++i) {
      ptl_event_t event;
      CHECK(PtlEQWait(eq, &event));
      printf("initiator %s %.4f %s\n", mpisim_ptl_event_name(event.type), now_us() - start,
             mpisim_ptl_fail_name(event.ni_fail_type));
    }
    if (get)
      printf("data %s\n",
             size > 0 && buffer[0] == 'a' && buffer[size - 1] == (char)('a' + (size - 1) % 26) ? "ok" : "wrong");
  }
  PtlNIFini(ni);
  PtlFini();
  return 0;
}
