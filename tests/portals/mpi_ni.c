/* MPI's NI seen from a Portals program (tests/python/test_portals.py): after MPI_Init under --model bxi, the
 * program's PtlNIInit of a matching, logical NI gets MPI's NI (mpisim_ptl_mpi_interface), with the same limits;
 * MPI's portal index is taken, the program's PTL_PT_ANY gets another, and a Put on the program's entry works while
 * MPI messages go both ways. Prints "mpi ni: ..." (rank 0), then each rank whether its data is right. */
#include "portals_common.h"

#include <mpi.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ptl_handle_ni_t mpi_ni;
  ptl_pt_index_t mpi_pt;
  const int mpi_rc = mpisim_ptl_mpi_interface(&mpi_ni, &mpi_pt);
  CHECK(PtlInit());
  ptl_handle_ni_t ni;
  ptl_ni_limits_t limits, again_limits;
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, &limits, &ni));
  ptl_handle_ni_t again;
  const int again_rc =
      PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, &again_limits, &again);
  ptl_handle_eq_t eq;
  CHECK(PtlEQAlloc(ni, 64, &eq));
  ptl_pt_index_t taken = 0;
  const int taken_rc = mpi_rc == PTL_OK ? PtlPTAlloc(ni, 0, eq, mpi_pt, &taken) : PTL_OK;
  ptl_pt_index_t pt;
  CHECK(PtlPTAlloc(ni, 0, eq, PTL_PT_ANY, &pt));
  if (rank == 0)
    printf("mpi ni: %s %s, %s, %s, pt %s, own pt %u\n", mpisim_ptl_strerror(mpi_rc),
           mpi_rc == PTL_OK && mpi_ni == ni ? "same handle" : "other handle", mpisim_ptl_strerror(again_rc),
           again == ni && memcmp(&limits, &again_limits, sizeof limits) == 0 ? "same limits" : "other limits",
           mpi_rc == PTL_OK ? mpisim_ptl_strerror(taken_rc) : "-", (unsigned)pt);

  /* Rank 0 Puts 8 B on rank 1's own entry and sends it 8 B by MPI; rank 1 answers 8 B by MPI. */
  char buffer[8] = {0}, message[8] = {0};
  if (rank == 1) {
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
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    strcpy(buffer, "portals");
    strcpy(message, "mpi-msg");
    ptl_md_t md = {.start = buffer, .length = sizeof buffer, .options = 0, .eq_handle = eq, .ct_handle = PTL_CT_NONE};
    ptl_handle_md_t md_handle;
    CHECK(PtlMDBind(ni, &md, &md_handle));
    CHECK(PtlPut(md_handle, 0, sizeof buffer, PTL_ACK_REQ, rank_id(1), pt, 7, 0, NULL, 0));
    MPI_Send(message, 8, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
    MPI_Recv(message, 8, MPI_BYTE, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    wait_event(eq, PTL_EVENT_SEND);
    wait_event(eq, PTL_EVENT_ACK);
    printf("rank 0: %s\n", strcmp(message, "answer!") == 0 ? "data right" : "data wrong");
  } else if (rank == 1) {
    MPI_Recv(message, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    wait_event(eq, PTL_EVENT_PUT);
    MPI_Send("answer!", 8, MPI_BYTE, 0, 10, MPI_COMM_WORLD);
    printf("rank 1: %s\n",
           strcmp(buffer, "portals") == 0 && strcmp(message, "mpi-msg") == 0 ? "data right" : "data wrong");
  }
  PtlNIFini(ni);
  PtlNIFini(ni);
  PtlFini();
  MPI_Finalize();
  return 0;
}
