/* Writes a 4-rank OTF2 archive through the OTF2 writer API, and next to it the SimGrid time-independent trace that
 * docs/otf2.md says it maps to (so that both replay to the same simulated time). Usage:
 *   write_fixture DIR NAME SPEED [rma|no-regions|communicators]
 * DIR/NAME.otf2 (the archive) and DIR/ti/index.txt (the TI trace; computation in flops = seconds x SPEED).
 * Scenario, every MPI call lasting 10 us (time inside MPI, not computation), gaps between calls being computation:
 * init; compute (r+1) ms; rank 0 sends 1000 B to rank 1 (tag 7), ranks 2 and 3 exchange 100000 B through
 * MPI_Sendrecv on a communicator of their own; compute 2 ms; rank 0 isends 5000 B to rank 2, which irecvs it, both
 * wait after 0.5 ms; bcast 4096 B from rank 1; allreduce 800 B; alltoall 256 B per peer; gatherv of (r+1) x 100 B to
 * rank 0; barrier; compute 1 ms; finalize. `rma` adds a one-sided MpiPut (unsupported); `no-regions` writes the MPI
 * records without Enter/Leave (each record is then a call of no duration); `communicators` adds, before the barrier, a
 * bcast of 2048 B on communicator 1 = {2, 3} from its rank 1 (world rank 3: in TI, the one message 3 -> 2 it is on
 * two ranks), an allreduce on MPI_COMM_SELF (communicator 2: nothing to replay), and an alltoallv on MPI_COMM_WORLD
 * whose totals (rank r sends 100 (r+1) B, receives 100 (4-r) B) give the per-peer sizes s_j v_i / 1000 exactly. */
#include <otf2/otf2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4 };
enum {
  R_INIT,
  R_FINALIZE,
  R_SEND,
  R_RECV,
  R_SENDRECV,
  R_ISEND,
  R_IRECV,
  R_WAIT,
  R_BCAST,
  R_ALLREDUCE,
  R_ALLTOALL,
  R_GATHERV,
  R_BARRIER,
  R_ALLTOALLV,
  R_MAIN,
  R_COUNT
};
static const char* region_names[R_COUNT] = {"MPI_Init",     "MPI_Finalize",  "MPI_Send",     "MPI_Recv",
                                            "MPI_Sendrecv", "MPI_Isend",     "MPI_Irecv",    "MPI_Wait",
                                            "MPI_Bcast",    "MPI_Allreduce", "MPI_Alltoall", "MPI_Gatherv",
                                            "MPI_Barrier",  "MPI_Alltoallv", "main"};

static const double call_seconds = 10e-6;
static double speed;
static int regions = 1;
static double now[N];
static FILE* ti[N];
static OTF2_EvtWriter* writer[N];

static OTF2_TimeStamp ticks(double seconds)
{
  return (OTF2_TimeStamp)llround(seconds * 1e6);
}

static void enter(int r, int region)
{
  if (regions)
    OTF2_EvtWriter_Enter(writer[r], NULL, ticks(now[r]), region);
}
static void leave(int r, int region)
{
  if (regions) {
    now[r] += call_seconds;
    OTF2_EvtWriter_Leave(writer[r], NULL, ticks(now[r]), region);
  }
}
static void compute(int r, double seconds)
{
  now[r] += seconds;
  fprintf(ti[r], "%d compute %.0f\n", r, seconds * speed);
}
static OTF2_TimeStamp at(int r)
{
  return ticks(now[r]);
}
/* The end of a collective: a tick after its begin inside a call; without regions, calls take no time. */
static OTF2_TimeStamp end_at(int r)
{
  return at(r) + (regions ? 1 : 0);
}

static OTF2_FlushType pre_flush(void* u, OTF2_FileType t, OTF2_LocationRef l, void* c, bool f)
{
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_FlushCallbacks flush_callbacks = {pre_flush, NULL};

int main(int argc, char** argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: write_fixture DIR NAME SPEED [rma|no-regions]\n");
    return 2;
  }
  speed = atof(argv[3]);
  const int rma = argc > 4 && strcmp(argv[4], "rma") == 0;
  const int communicators = argc > 4 && strcmp(argv[4], "communicators") == 0;
  regions = !(argc > 4 && strcmp(argv[4], "no-regions") == 0);
  char path[4096];
  snprintf(path, sizeof path, "%s/ti", argv[1]);
  char command[4200];
  snprintf(command, sizeof command, "mkdir -p '%s'", path);
  if (system(command) != 0)
    return 1;
  snprintf(path, sizeof path, "%s/ti/index.txt", argv[1]);
  FILE* index = fopen(path, "w");
  for (int r = 0; r < N; ++r) {
    snprintf(path, sizeof path, "%s/ti/rank%d.txt", argv[1], r);
    ti[r] = fopen(path, "w");
    fprintf(index, "rank%d.txt\n", r);
  }
  fclose(index);

  OTF2_Archive* archive = OTF2_Archive_Open(argv[1], argv[2], OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                            OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  OTF2_Archive_OpenEvtFiles(archive);
  for (int r = 0; r < N; ++r)
    writer[r] = OTF2_Archive_GetEvtWriter(archive, r);

  for (int r = 0; r < N; ++r) {
    OTF2_EvtWriter_Enter(writer[r], NULL, 0, R_MAIN); /* a user region around everything: not MPI */
    enter(r, R_INIT);
    leave(r, R_INIT);
    fprintf(ti[r], "%d init\n", r);
    compute(r, 0.001 * (r + 1));
  }
  /* point-to-point, blocking; ranks 2 and 3 on communicator 1 = {2, 3} */
  enter(0, R_SEND);
  OTF2_EvtWriter_MpiSend(writer[0], NULL, at(0), 1, 0, 7, 1000);
  leave(0, R_SEND);
  fprintf(ti[0], "0 send 1 7 1000\n");
  enter(1, R_RECV);
  OTF2_EvtWriter_MpiRecv(writer[1], NULL, at(1), 0, 0, 7, 1000);
  leave(1, R_RECV);
  fprintf(ti[1], "1 recv 0 7 1000\n");
  for (int r = 2; r < 4; ++r) {
    const int peer = 5 - r, peer_in_comm = 3 - r;
    enter(r, R_SENDRECV);
    OTF2_EvtWriter_MpiSend(writer[r], NULL, at(r), peer_in_comm, 1, 3, 100000);
    OTF2_EvtWriter_MpiRecv(writer[r], NULL, at(r), peer_in_comm, 1, 3, 100000);
    leave(r, R_SENDRECV);
    if (!regions) /* without regions the two records are two calls: a blocking send, then a receive */
      fprintf(ti[r], "%d send %d 3 100000\n%d recv %d 3 100000\n", r, peer, r, peer);
    else
      fprintf(ti[r], "%d isend %d 3 100000\n%d irecv %d 3 100000\n%d wait %d %d 3\n%d wait %d %d 3\n", r, peer, r, peer,
              r, r, peer, r, peer, r);
  }
  if (!regions) { /* ranks 2 and 3 would both send first: 3 receives first instead */
  }
  for (int r = 0; r < N; ++r)
    compute(r, 0.002);
  /* non-blocking */
  enter(0, R_ISEND);
  OTF2_EvtWriter_MpiIsend(writer[0], NULL, at(0), 2, 0, 1, 5000, 11);
  leave(0, R_ISEND);
  fprintf(ti[0], "0 isend 2 1 5000\n");
  enter(2, R_IRECV);
  OTF2_EvtWriter_MpiIrecvRequest(writer[2], NULL, at(2), 22);
  leave(2, R_IRECV);
  fprintf(ti[2], "2 irecv 0 1 5000\n");
  for (int r = 0; r < N; ++r)
    compute(r, 0.0005);
  enter(0, R_WAIT);
  OTF2_EvtWriter_MpiIsendComplete(writer[0], NULL, at(0), 11);
  leave(0, R_WAIT);
  fprintf(ti[0], "0 wait 0 2 1\n");
  enter(2, R_WAIT);
  OTF2_EvtWriter_MpiIrecv(writer[2], NULL, at(2), 0, 0, 1, 5000, 22);
  leave(2, R_WAIT);
  fprintf(ti[2], "2 wait 0 2 1\n");
  if (rma)
    OTF2_EvtWriter_RmaPut(writer[0], NULL, at(0), 0, 1, 64, 1);
  /* collectives on MPI_COMM_WORLD, sizes as Score-P counts them */
  for (int r = 0; r < N; ++r) {
    compute(r, 0.0001);
    enter(r, R_BCAST);
    OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
    OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_BCAST, 0, 1, r == 1 ? N * 4096 : 0,
                                    4096);
    leave(r, R_BCAST);
    fprintf(ti[r], "%d bcast 4096 1\n", r);
    compute(r, 0.0001);
    enter(r, R_ALLREDUCE);
    OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
    OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32,
                                    N * 800, N * 800);
    leave(r, R_ALLREDUCE);
    fprintf(ti[r], "%d allreduce 800 0\n", r);
    enter(r, R_ALLTOALL);
    OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
    OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_ALLTOALL, 0, OTF2_UNDEFINED_UINT32,
                                    N * 256, N * 256);
    leave(r, R_ALLTOALL);
    fprintf(ti[r], "%d alltoall 256 256\n", r);
    compute(r, 0.0002);
    enter(r, R_GATHERV);
    OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
    OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_GATHERV, 0, 0, (r + 1) * 100,
                                    r == 0 ? 1000 : 0);
    leave(r, R_GATHERV);
    fprintf(ti[r], "%d gatherv %d 100 200 300 400 0\n", r, (r + 1) * 100);
    if (communicators) {
      if (r >= 2) {
        enter(r, R_BCAST);
        OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
        OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_BCAST, 1, 1,
                                        r == 3 ? 2 * 2048 : 0, 2048);
        leave(r, R_BCAST);
        fprintf(ti[r], r == 3 ? "3 send 2 0 2048\n" : "2 recv 3 0 2048\n");
      }
      enter(r, R_ALLREDUCE);
      OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
      OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_ALLREDUCE, 2,
                                      OTF2_UNDEFINED_UINT32, 64, 64);
      leave(r, R_ALLREDUCE);
      enter(r, R_ALLTOALLV);
      OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
      OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_ALLTOALLV, 0,
                                      OTF2_UNDEFINED_UINT32, 100 * (r + 1), 100 * (N - r));
      leave(r, R_ALLTOALLV);
      /* to peer i: s_r v_i / 1000; from peer j: s_j v_r / 1000 */
      fprintf(ti[r], "%d alltoallv %d", r, 100 * (r + 1));
      for (int i = 0; i < N; ++i)
        fprintf(ti[r], " %d", (r + 1) * (N - i) * 10);
      fprintf(ti[r], " %d", 100 * (N - r));
      for (int j = 0; j < N; ++j)
        fprintf(ti[r], " %d", (j + 1) * (N - r) * 10);
      fprintf(ti[r], "\n");
    }
    enter(r, R_BARRIER);
    OTF2_EvtWriter_MpiCollectiveBegin(writer[r], NULL, at(r));
    OTF2_EvtWriter_MpiCollectiveEnd(writer[r], NULL, end_at(r), OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0,
                                    0);
    leave(r, R_BARRIER);
    fprintf(ti[r], "%d barrier\n", r);
    compute(r, 0.001);
    enter(r, R_FINALIZE);
    leave(r, R_FINALIZE);
    fprintf(ti[r], "%d finalize\n", r);
    OTF2_EvtWriter_Leave(writer[r], NULL, at(r) + 5, R_MAIN);
    OTF2_Archive_CloseEvtWriter(archive, writer[r]);
    fclose(ti[r]);
  }
  OTF2_Archive_CloseEvtFiles(archive);
  OTF2_Archive_OpenDefFiles(archive);
  for (int r = 0; r < N; ++r)
    OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, r));
  OTF2_Archive_CloseDefFiles(archive);

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 0, ticks(1.0), OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(g, 0, "");
  for (int i = 0; i < R_COUNT; ++i) {
    OTF2_GlobalDefWriter_WriteString(g, 1 + i, region_names[i]);
    OTF2_GlobalDefWriter_WriteRegion(g, i, 1 + i, 1 + i, 0, OTF2_REGION_ROLE_FUNCTION,
                                     i == R_MAIN ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0,
                                     0);
  }
  OTF2_GlobalDefWriter_WriteString(g, 100, "node");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 100, 100, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (int r = 0; r < N; ++r) {
    char name[32];
    snprintf(name, sizeof name, "MPI rank %d", r);
    OTF2_GlobalDefWriter_WriteString(g, 200 + r, name);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 200 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, r, 200 + r, OTF2_LOCATION_TYPE_CPU_THREAD, 0, r);
  }
  const uint64_t locations[N] = {0, 1, 2, 3}, world[N] = {0, 1, 2, 3}, pair[2] = {2, 3};
  OTF2_GlobalDefWriter_WriteString(g, 300, "locations");
  OTF2_GlobalDefWriter_WriteString(g, 301, "MPI_COMM_WORLD");
  OTF2_GlobalDefWriter_WriteString(g, 302, "pair");
  OTF2_GlobalDefWriter_WriteString(g, 303, "MPI_COMM_SELF");
  OTF2_GlobalDefWriter_WriteGroup(g, 0, 300, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, N,
                                  locations);
  OTF2_GlobalDefWriter_WriteGroup(g, 1, 301, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, N,
                                  world);
  OTF2_GlobalDefWriter_WriteGroup(g, 2, 302, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                  pair);
  OTF2_GlobalDefWriter_WriteComm(g, 0, 301, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(g, 1, 302, 2, 0, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteGroup(g, 3, 303, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0,
                                  NULL);
  OTF2_GlobalDefWriter_WriteComm(g, 2, 303, 3, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  const OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
  if (closed != OTF2_SUCCESS) {
    fprintf(stderr, "write_fixture: %s\n", OTF2_Error_GetDescription(closed));
    return 1;
  }
  return 0;
}
