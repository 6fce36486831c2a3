/* Matched probes, cancellation and statuses. Rank 1 sends to rank 0 (every other rank to its left neighbour too):
 *  - MPI_Mprobe takes the first of two same-tag messages out of matching: a wildcard MPI_Recv gets the second,
 *    MPI_Mrecv the first; MPI_Improbe/MPI_Imrecv likewise; probing MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC;
 *  - MPI_Cancel of a receive nobody sends to cancels it; of a receive already matched does nothing; of a send:
 *    cancelled or not, the receiver sees exactly what was not cancelled;
 *  - MPI_Get_elements counts basic elements of a derived datatype, MPI_Status_set_elements/MPI_Status_set_cancelled
 *    set what MPI_Get_count/MPI_Get_elements/MPI_Test_cancelled read.
 * Each receiving rank prints its checks; with the argument "report", rank 0 also says whether its send was
 * cancelled (implementations may refuse to cancel sends). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static void say(int rank, const char* what, int yes)
{
  printf("rank %d: %s: %s\n", rank, what, yes ? "yes" : "no");
}

static void matched_probes(int rank, int from, int to)
{
  int first = 10 * rank + 1, second = 10 * rank + 2;
  if (to >= 0) {
    MPI_Send(&first, 1, MPI_INT, to, 1, MPI_COMM_WORLD);
    MPI_Send(&second, 1, MPI_INT, to, 1, MPI_COMM_WORLD);
    MPI_Send(&first, 1, MPI_INT, to, 2, MPI_COMM_WORLD);
  }
  if (from < 0)
    return;
  MPI_Message message;
  MPI_Status status;
  MPI_Mprobe(from, 1, MPI_COMM_WORLD, &message, &status);
  int count = -1, a = -1, b = -1, c = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  const int probed = status.MPI_SOURCE == from && status.MPI_TAG == 1 && count == 1 && message != MPI_MESSAGE_NULL;
  MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Mrecv(&a, 1, MPI_INT, &message, &status);
  say(rank, "MPI_Mprobe: the wildcard receive got the second message, MPI_Mrecv the first",
      probed && b == 10 * from + 2 && a == 10 * from + 1 && message == MPI_MESSAGE_NULL && status.MPI_TAG == 1);
  int flag = 1;
  MPI_Improbe(from, 99, MPI_COMM_WORLD, &flag, &message, MPI_STATUS_IGNORE);
  say(rank, "MPI_Improbe finds no message with tag 99", flag == 0);
  do
    MPI_Improbe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &message, &status);
  while (!flag);
  MPI_Request request;
  MPI_Imrecv(&c, 1, MPI_INT, &message, &request);
  MPI_Wait(&request, &status);
  say(rank, "MPI_Improbe and MPI_Imrecv",
      c == 10 * from + 1 && status.MPI_SOURCE == from && message == MPI_MESSAGE_NULL);
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status);
  const int no_proc = message == MPI_MESSAGE_NO_PROC && status.MPI_SOURCE == MPI_PROC_NULL;
  MPI_Mrecv(&c, 1, MPI_INT, &message, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  say(rank, "MPI_Mprobe of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC",
      no_proc && message == MPI_MESSAGE_NULL && status.MPI_SOURCE == MPI_PROC_NULL && count == 0);
}

static void cancellation(int rank, int from, int to, int report)
{
  int value = 77, got = -1, flag = -1;
  MPI_Request request;
  MPI_Status status;
  if (from >= 0) {
    MPI_Irecv(&got, 1, MPI_INT, from, 55, MPI_COMM_WORLD, &request); /* nobody sends tag 55 */
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &flag);
    say(rank, "a receive nobody matched is cancelled", flag == 1 && request == MPI_REQUEST_NULL);
  }
  if (to >= 0)
    MPI_Send(&value, 1, MPI_INT, to, 56, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (from >= 0) {
    MPI_Probe(from, 56, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* the message is here: the receive matches it */
    MPI_Irecv(&got, 1, MPI_INT, from, 56, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &flag);
    say(rank, "a matched receive completes normally", flag == 0 && got == 77 && status.MPI_SOURCE == from);
  }
  /* A send cancelled or not: the receiver learns which, then receives it only if it was not cancelled. */
  int cancelled = 0;
  if (to >= 0) {
    MPI_Isend(&value, 1, MPI_INT, to, 57, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    MPI_Send(&cancelled, 1, MPI_INT, to, 58, MPI_COMM_WORLD);
    if (report)
      printf("rank %d: send cancelled: %s\n", rank, cancelled ? "yes" : "no");
  }
  if (from >= 0) {
    int sender_cancelled;
    MPI_Recv(&sender_cancelled, 1, MPI_INT, from, 58, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!sender_cancelled)
      MPI_Recv(&got, 1, MPI_INT, from, 57, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Iprobe(from, 57, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    say(rank, "the receiver sees exactly the sends not cancelled", flag == 0);
  }
}

static void statuses(int rank, int from, int to)
{
  /* A struct {int, double} and a message of int, double, int: 1 whole element and part of the next. */
  struct pair {
    int i;
    double d;
  } pairs[2];
  int blocklengths[2] = {1, 1};
  MPI_Aint displacements[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair_type, three;
  MPI_Type_create_struct(2, blocklengths, displacements, types, &pair_type);
  MPI_Type_commit(&pair_type);
  int three_lengths[3] = {1, 1, 1};
  MPI_Aint three_displacements[3] = {0, 8, 16};
  MPI_Datatype three_types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(3, three_lengths, three_displacements, three_types, &three);
  MPI_Type_commit(&three);
  char outgoing[24] = {0};
  const int first = 11, last = 33;
  const double middle = 2.5;
  memcpy(outgoing, &first, sizeof first);
  memcpy(outgoing + 8, &middle, sizeof middle);
  memcpy(outgoing + 16, &last, sizeof last);
  if (to >= 0)
    MPI_Send(outgoing, 1, three, to, 60, MPI_COMM_WORLD);
  if (from >= 0) {
    MPI_Status status;
    MPI_Recv(pairs, 2, pair_type, from, 60, MPI_COMM_WORLD, &status);
    int count, elements;
    MPI_Get_count(&status, pair_type, &count);
    MPI_Get_elements(&status, pair_type, &elements);
    MPI_Count elements_x;
    MPI_Get_elements_x(&status, pair_type, &elements_x);
    say(rank, "MPI_Get_elements counts 3 basic elements of a partial struct",
        count == MPI_UNDEFINED && elements == 3 && elements_x == 3);
    say(rank, "the partial struct's basic elements were received",
        pairs[0].i == 11 && pairs[0].d == 2.5 && pairs[1].i == 33);
  }
  MPI_Status status;
  MPI_Datatype triple;
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_commit(&triple);
  MPI_Status_set_elements(&status, MPI_INT, 7);
  int count, elements;
  MPI_Get_count(&status, triple, &count);
  MPI_Get_elements(&status, triple, &elements);
  int ints;
  MPI_Get_count(&status, MPI_INT, &ints);
  MPI_Status_set_elements_x(&status, triple, 6);
  int whole;
  MPI_Get_count(&status, triple, &whole);
  int flag;
  MPI_Status_set_cancelled(&status, 1);
  MPI_Test_cancelled(&status, &flag);
  int unset;
  MPI_Status_set_cancelled(&status, 0);
  MPI_Test_cancelled(&status, &unset);
  say(rank, "MPI_Status_set_elements and MPI_Status_set_cancelled",
      count == MPI_UNDEFINED && elements == 7 && ints == 7 && whole == 2 && flag == 1 && unset == 0);
  MPI_Type_free(&triple);
  MPI_Type_free(&pair_type);
  MPI_Type_free(&three);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Rank r sends to r - 1: rank 0 only receives, the last rank only sends. */
  const int to = rank > 0 ? rank - 1 : -1, from = rank < size - 1 ? rank + 1 : -1;
  matched_probes(rank, from, to);
  MPI_Barrier(MPI_COMM_WORLD);
  cancellation(rank, from, to, argc > 1 && strcmp(argv[1], "report") == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  statuses(rank, from, to);
  MPI_Finalize();
  return 0;
}
