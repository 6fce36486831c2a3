/* MPI_BOTTOM: buffers described by absolute addresses (MPI_Get_address) in a struct datatype, sent and received
 * with MPI_BOTTOM as the buffer, blocking and non-blocking, one and two elements. Rank 0 sends to rank 1. */
#include <mpi.h>

#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, a = 0, pair[2] = {0, 0};
  double b = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* The struct {a, b} at their absolute addresses on this rank. */
  int lengths[2] = {1, 1};
  MPI_Aint where[2];
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, scattered, two_ints;
  MPI_Get_address(&a, &where[0]);
  MPI_Get_address(&b, &where[1]);
  MPI_Type_create_struct(2, lengths, where, types, &scattered);
  MPI_Type_commit(&scattered);
  /* Two ints from pair[0]: one element of a type whose only block is at pair's address, sent twice over. */
  MPI_Aint first;
  int one = 1;
  MPI_Datatype int_type = MPI_INT;
  MPI_Get_address(&pair[0], &first);
  MPI_Datatype at_pair;
  MPI_Type_create_struct(1, &one, &first, &int_type, &at_pair);
  MPI_Type_create_resized(at_pair, first, sizeof(int), &two_ints);
  MPI_Type_commit(&two_ints);
  if (rank == 0) {
    a = 7;
    b = 2.5;
    pair[0] = 11;
    pair[1] = 13;
    MPI_Send(MPI_BOTTOM, 1, scattered, 1, 0, MPI_COMM_WORLD);
    MPI_Request request;
    MPI_Isend(MPI_BOTTOM, 2, two_ints, 1, 1, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Status status;
    int count;
    MPI_Recv(MPI_BOTTOM, 1, scattered, 0, 0, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, scattered, &count);
    printf("blocking: a = %d, b = %.1f, count %d\n", a, b, count);
    MPI_Request request;
    MPI_Irecv(MPI_BOTTOM, 2, two_ints, 0, 1, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, &status);
    MPI_Get_count(&status, two_ints, &count);
    printf("non-blocking: pair = %d %d, count %d\n", pair[0], pair[1], count);
  }
  MPI_Type_free(&scattered);
  MPI_Type_free(&at_pair);
  MPI_Type_free(&two_ints);
  MPI_Finalize();
  return 0;
}
