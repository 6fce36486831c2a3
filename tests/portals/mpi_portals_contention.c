/* MPI and Portals traffic of one program on one NIC (tests/python/test_portals.py): rank 0 Puts 8 B to rank 1 with
 * Portals, then at once sends it 8 B with MPI_Send; both commands go through node 0's one transmit stage, so the MPI
 * message waits for the Put to leave. Usage: mpi_portals_contention [ssend RECEIVE_AT_US]: instead, an MPI_Ssend of
 * 8 B alone, whose receive rank 1 posts at RECEIVE_AT_US. Lines "t NAME DATE": dates in microseconds after MPI_Init. */
#include "portals_common.h"

#include <mpi.h>
#include <string.h>
#include <unistd.h>

static void synchronous_send(int rank, double start, double receive_at)
{
  char byte8[8] = "ssend!!";
  if (rank == 0) {
    MPI_Ssend(byte8, 8, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    printf("t ssend %.4f\n", now_us() - start);
  } else if (rank == 1) {
    usleep((useconds_t)receive_at);
    char got[8] = {0};
    MPI_Recv(got, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("t received %.4f %s\n", now_us() - start, strcmp(got, byte8) == 0 ? "data right" : "data wrong");
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const double start = now_us();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 2 && strcmp(argv[1], "ssend") == 0) {
    synchronous_send(rank, start, atof(argv[2]));
    MPI_Finalize();
    return 0;
  }
  ptl_rank_t ptl_rank;
  ptl_size_t ranks;
  ptl_handle_ni_t ni = open_ni(&ptl_rank, &ranks);
  ptl_handle_eq_t eq;
  CHECK(PtlEQAlloc(ni, 64, &eq));
  char buffer[8] = {0};
  char message[8] = {0};
  if (rank == 1) {
    ptl_pt_index_t pt;
    CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt));
    ptl_me_t me = {.start = buffer,
                   .length = sizeof buffer,
                   .ct_handle = PTL_CT_NONE,
                   .uid = PTL_UID_ANY,
                   .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                   .match_id = rank_id(PTL_RANK_ANY),
                   .match_bits = 7,
                   .ignore_bits = 0,
                   .min_free = 0};
    ptl_handle_me_t handle;
    CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &handle));
    MPI_Request request;
    MPI_Irecv(message, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &request);
    wait_event(eq, PTL_EVENT_PUT);
    printf("t put %.4f\n", now_us() - start);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("t mpi %.4f\n", now_us() - start);
    printf("data %s\n", strcmp(buffer, "portals") == 0 && strcmp(message, "mpi-msg") == 0 ? "right" : "wrong");
  } else if (rank == 0) {
    strcpy(buffer, "portals");
    strcpy(message, "mpi-msg");
    ptl_md_t md = {.start = buffer, .length = sizeof buffer, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
    ptl_handle_md_t md_handle;
    CHECK(PtlMDBind(ni, &md, &md_handle));
    CHECK(PtlPut(md_handle, 0, sizeof buffer, PTL_ACK_REQ, rank_id(1), 0, 7, 0, NULL, 0));
    printf("t ptlput %.4f\n", now_us() - start);
    MPI_Send(message, 8, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
    printf("t send %.4f\n", now_us() - start);
    wait_event(eq, PTL_EVENT_SEND);
    wait_event(eq, PTL_EVENT_ACK);
  }
  PtlNIFini(ni);
  PtlFini();
  MPI_Finalize();
  return 0;
}
