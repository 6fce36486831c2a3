/* A program that follows mpisim study resilience's contract (docs/failures.md, "mpisim study resilience"): it does
 * WORK seconds of simulated work (argv[1], default 10) in steps of MPISIM_CHECKPOINT_INTERVAL seconds, and after each
 * step every rank spends MPISIM_CHECKPOINT_COST seconds on a coordinated checkpoint; rank 0 then records the work
 * done in resilience.ckpt in the working directory. At start every rank resumes after the work recorded there.
 * A failure is detected at the next collective: the allreduce that ends a step (work since the last checkpoint is
 * lost) or the barrier that ends a checkpoint (that checkpoint is not recorded). Rank 0 prints the completion date. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char* kCheckpoint = "resilience.ckpt";

static double seconds_from_environment(const char* name, double fallback)
{
  const char* text = getenv(name);
  return text != NULL ? atof(text) : fallback;
}

/* Simulated time passing (nanosleep: usleep takes at most about an hour). */
static void pause_for(double seconds)
{
  struct timespec span = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
  nanosleep(&span, NULL);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const double work = argc > 1 ? atof(argv[1]) : 10.0;
  const double interval = seconds_from_environment("MPISIM_CHECKPOINT_INTERVAL", work);
  const double cost = seconds_from_environment("MPISIM_CHECKPOINT_COST", 0.0);
  double done = 0;
  FILE* in = fopen(kCheckpoint, "r");
  if (in != NULL) {
    if (fscanf(in, "%lf", &done) != 1)
      done = 0;
    fclose(in);
  }
  while (done < work) {
    const double step = fmin(interval, work - done);
    pause_for(step);
    int one = 1, ranks = 0;
    MPI_Allreduce(&one, &ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    done += step;
    if (done >= work)
      break; /* finished: no checkpoint needed */
    pause_for(cost);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      FILE* out = fopen(kCheckpoint, "w");
      fprintf(out, "%.17g\n", done);
      fclose(out);
    }
  }
  if (me == 0)
    printf("completed %.3f s of work at %.6f s\n", work, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
