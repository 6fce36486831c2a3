/* The flow-control experiment of the S4BXI thesis (section 7.1, Fig. 7.1-7.2), written for mpisim: one measured pair
 * and one flooding pair of nodes, on either side of a link the pairs share.
 *   rank 0 (node A0) sends MEASURED Puts of SIZE bytes to rank 1 (node B0), one at a time, each waiting for its ACK,
 *     and prints the mean time per Put (its latency) in microseconds: "latency US";
 *   ranks 2 .. 2+P-1 (node A1) each send FLOOD Puts of SIZE bytes at once to ranks 2+P .. 2+2P-1 (node B1), then wait
 *     for their ACKs (as many messages as they can).
 * Usage: ptl_flood P [SIZE [MEASURED [FLOOD]]] (defaults: 8 processes per flooding node, 1 MiB, 10, 128); -np 2+2P,
 * placed so that ranks 0, 1, 2.., 2+P.. are on nodes A0, B0, A1, B1 (mpisim study flow-control writes the
 * hostfile). P = 0: no flooding pair (the reference latency). MPI only synchronises the start (every receive entry is
 * posted before anyone sends, and every rank starts at one common date). Buffers: MPISIM_SHARED_MALLOC (timings
 * only, no copies). */
#include <mpi.h>
#include <mpisim.h>
#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    if (rc_ != PTL_OK) {                                                                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, mpisim_ptl_strerror(rc_));                         \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

enum { kDataPt = 0 };

static ptl_process_t peer(ptl_rank_t rank)
{
  ptl_process_t p;
  p.rank = rank;
  return p;
}

/* Every entry is posted; every rank then starts at the same date. MPI's messages go through the NIC model the study
 * measures, so ranks leave a barrier at different dates (its message tree): a flooding process starting earlier than
 * its neighbour would take every slot of a per-node limit (the NIC queues Puts in order), and a per-process limit L
 * would no longer be a per-node limit 2L. The margin covers the allreduce's own spread. */
static void start_together(int rank)
{
  const double kMarginS = 20e-6;
  double posted = MPI_Wtime(), latest;
  MPI_Allreduce(&posted, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double wait = latest + kMarginS - MPI_Wtime();
  if (wait <= 0) {
    fprintf(stderr, "ptl_flood: rank %d left the start synchronisation after the common start date\n", rank);
    exit(1);
  }
  struct timespec duration = {0, (long)(wait * 1e9 + 0.5)};
  mpisim_nanosleep(&duration, NULL);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const int flooders = argc > 1 ? atoi(argv[1]) : 8;
  const ptl_size_t size = argc > 2 ? (ptl_size_t)atol(argv[2]) : (ptl_size_t)1 << 20;
  const long measured = argc > 3 ? atol(argv[3]) : 10;
  const long flood = argc > 4 ? atol(argv[4]) : 128;
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (flooders < 0 || ranks != 2 + 2 * flooders || measured < 1 || flood < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: ptl_flood P [SIZE [MEASURED [FLOOD]]] with -np 2+2P\n");
    MPI_Finalize();
    return 2;
  }
  const int sender = rank == 0 || (rank >= 2 && rank < 2 + flooders);
  const ptl_rank_t target = rank == 0 ? 1 : (ptl_rank_t)(rank + flooders);

  ptl_handle_ni_t ni;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, NULL, &ni));
  char* buffer = MPISIM_SHARED_MALLOC(size);
  ptl_handle_eq_t eq;
  ptl_handle_ct_t ct;
  ptl_pt_index_t pt;
  CHECK(PtlEQAlloc(ni, 64, &eq));
  CHECK(PtlCTAlloc(ni, &ct));
  if (!sender) { /* one persistent entry over the buffer */
    CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, kDataPt, &pt));
    ptl_me_t data = {.start = buffer,
                     .length = size,
                     .ct_handle = PTL_CT_NONE,
                     .uid = PTL_UID_ANY,
                     .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE,
                     .match_id = peer(PTL_RANK_ANY),
                     .match_bits = 0,
                     .ignore_bits = 0,
                     .min_free = 0};
    ptl_handle_me_t handle;
    CHECK(PtlMEAppend(ni, kDataPt, &data, PTL_PRIORITY_LIST, NULL, &handle));
  }
  start_together(rank);
  if (sender) {
    ptl_md_t desc = {.start = buffer,
                     .length = size,
                     .options = rank == 0 ? 0 : PTL_MD_EVENT_CT_ACK,
                     .eq_handle = rank == 0 ? eq : PTL_EQ_NONE,
                     .ct_handle = rank == 0 ? PTL_CT_NONE : ct};
    ptl_handle_md_t md;
    CHECK(PtlMDBind(ni, &desc, &md));
    if (rank == 0) {
      const double start = MPI_Wtime();
      for (long i = 0; i < measured; ++i) {
        CHECK(PtlPut(md, 0, size, PTL_ACK_REQ, peer(target), kDataPt, 0, 0, NULL, 0));
        ptl_event_t event;
        do
          CHECK(PtlEQWait(eq, &event));
        while (event.type != PTL_EVENT_ACK);
      }
      printf("latency %.3f\n", (MPI_Wtime() - start) * 1e6 / (double)measured);
    } else {
      for (long i = 0; i < flood; ++i)
        CHECK(PtlPut(md, 0, size, PTL_CT_ACK_REQ, peer(target), kDataPt, 0, 0, NULL, 0));
      ptl_ct_event_t counted;
      CHECK(PtlCTWait(ct, (ptl_size_t)flood, &counted));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD); /* the targets keep their entries until every Put is acknowledged */
  PtlNIFini(ni);
  PtlFini();
  mpisim_shared_free(buffer);
  MPI_Finalize();
  return 0;
}
