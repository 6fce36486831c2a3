/* Checkpoint/restart. Ten steps of 100 ms (a pause, then an allreduce); after each step rank 0 writes the step and the
 * running total to checkpoint.txt in the working directory, and at start every rank resumes after the step written
 * there. Run with --fail 1@350ms --restart 1 --restart-cost 500ms: rank 1 fails in the fourth step's pause, the
 * fourth allreduce (at 400 ms) aborts the job; the second attempt starts at 900 ms, reads step 3 from the file and
 * does steps 4 to 10: the total is the same as without failure (10 steps of 1 + 2 = 30), the end at 1.6 s. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static const char* kCheckpoint = "checkpoint.txt";

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int done = 0, total = 0;
  FILE* in = fopen(kCheckpoint, "r");
  if (in != NULL) {
    if (fscanf(in, "%d %d", &done, &total) != 2)
      done = total = 0;
    fclose(in);
  }
  if (me == 0)
    printf("starting after step %d at %.3f s\n", done, MPI_Wtime());
  for (int step = done + 1; step <= 10; ++step) {
    usleep(100000);
    int value = me + 1, sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
    if (me == 0) {
      FILE* out = fopen(kCheckpoint, "w");
      fprintf(out, "%d %d\n", step, total);
      fclose(out);
    }
  }
  if (me == 0)
    printf("total %d at %.3f s\n", total, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
