/* mpisim's annotations for large studies (docs/online.md, "Sampling and shared memory"): sampled loops, injected
 * computation and sleeps, buffers shared by all ranks. Each MPISIM_ name has its SMPI_ twin (SimGrid 3.32's names and
 * signatures), so code annotated for SMPI builds unchanged. Included by mpi.h (as SMPI's mpi.h includes smpi.h) and
 * by smpi/smpi.h; usable on its own. The functions live in libmpisim-mpi.so and act on the calling rank. */
#ifndef MPISIM_H
#define MPISIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timespec;

/* ---- Injected computation and sleeps ------------------------------------------------------------------------
 * Each first injects the computation measured since the rank's last MPI call, then simulates, then measures anew:
 * the real time an annotation takes is never injected as computation. */

/* `flops` on the rank's simulated host. */
void mpisim_execute_flops(double flops);
/* `seconds` of the real machine: seconds x --host-speed flops, dropped under --cpu-threshold (as measured
 * computation). */
void mpisim_execute(double seconds);
/* `seconds` of the simulated host: seconds x its speed flops. */
void mpisim_execute_benched(double seconds);
/* Simulated sleeps: the rank waits without computing. */
unsigned int mpisim_sleep(unsigned int seconds);
int mpisim_usleep(unsigned int microseconds);
int mpisim_nanosleep(const struct timespec* duration, struct timespec* remaining);

/* ---- Shared memory --------------------------------------------------------------------------------------------
 * One buffer per call site (file:line), shared by every rank allocating there: every rank gets the same address.
 * Reference counted: freed when the last rank holding it frees it. Pointers not from mpisim_shared_malloc are given
 * to free(). */
void* mpisim_shared_malloc(size_t size, const char* file, int line);
void mpisim_shared_free(void* pointer);
/* Results of SMPI_SHARED_CALL, by function name and input string. */
int mpisim_shared_known_call(const char* function, const char* input);
void* mpisim_shared_get_call(const char* function, const char* input);
void* mpisim_shared_set_call(const char* function, const char* input, void* data);

/* ---- Sampled loops --------------------------------------------------------------------------------------------
 * A pass of a sampled loop on the calling rank, held by the library; the macros below read its fields. */
typedef struct mpisim_sample_pass {
  int running;          /* the current iteration runs its body (and is timed) */
  int skipping;         /* the site has enough samples: the remaining iterations only count */
  long long iterations; /* iterations of this pass so far */
} mpisim_sample_pass;

/* Starts a pass over the site file:line:tag (per rank unless `global`). */
mpisim_sample_pass* mpisim_sample_open(int global, const char* file, int line, const char* tag, int iterations,
                                       double threshold);
/* Whether the iteration just begun runs (then its timing starts). */
int mpisim_sample_start(mpisim_sample_pass* pass);
/* Ends the timing of an iteration that ran: one more sample of the site. */
void mpisim_sample_stop(mpisim_sample_pass* pass);
/* Injects mean x iterations of the pass; returns NULL. */
mpisim_sample_pass* mpisim_sample_close(mpisim_sample_pass* pass);

static inline int mpisim_sample_next_(mpisim_sample_pass* pass, int more)
{
  if (!more)
    return 0;
  ++pass->iterations;
  pass->running = pass->skipping ? 0 : mpisim_sample_start(pass);
  return 1;
}

/* Two nested loops so that the macro is one statement taking the body that follows it: the outer one holds the pass
 * and closes it however the inner one ends (condition false or `break`); the body runs only in sampled iterations.
 * The `if (...) {} else` form leaves no dangling `else` for the code around. */
#define MPISIM_SAMPLE_LOOP_(global, loop_init, loop_end, loop_iter, iters, thres, tag)                              \
  for (mpisim_sample_pass* mpisim_pass_ = mpisim_sample_open((global), __FILE__, __LINE__, (tag), (iters), (thres)); \
       mpisim_pass_ != NULL; mpisim_pass_ = mpisim_sample_close(mpisim_pass_))                                     \
    for (loop_init; mpisim_sample_next_(mpisim_pass_, (loop_end) ? 1 : 0);                                           \
         mpisim_pass_->running ? mpisim_sample_stop(mpisim_pass_) : (void)0, (loop_iter))                            \
      if (!mpisim_pass_->running) {                                                                                  \
      } else

/* A loop `for (loop_init; loop_end; loop_iter) BODY` whose body runs while the site needs samples: until `iters`
 * runs, or earlier once at least 2 and the relative standard error of their mean is below `thres` (ignored when
 * negative). The other iterations skip the body; at the end of the loop mean x iterations of real time is injected
 * (as mpisim_execute). LOCAL: samples per rank; GLOBAL: shared by all ranks. The body must not make MPI calls. */
#define MPISIM_SAMPLE_LOCAL(loop_init, loop_end, loop_iter, iters, thres)                                           \
  MPISIM_SAMPLE_LOOP_(0, loop_init, loop_end, loop_iter, iters, thres, "")
#define MPISIM_SAMPLE_LOCAL_TAG(loop_init, loop_end, loop_iter, iters, thres, tag)                                  \
  MPISIM_SAMPLE_LOOP_(0, loop_init, loop_end, loop_iter, iters, thres, tag)
#define MPISIM_SAMPLE_GLOBAL(loop_init, loop_end, loop_iter, iters, thres)                                          \
  MPISIM_SAMPLE_LOOP_(1, loop_init, loop_end, loop_iter, iters, thres, "")
#define MPISIM_SAMPLE_GLOBAL_TAG(loop_init, loop_end, loop_iter, iters, thres, tag)                                 \
  MPISIM_SAMPLE_LOOP_(1, loop_init, loop_end, loop_iter, iters, thres, tag)
/* The block that follows never runs: `seconds` of real time (as mpisim_execute) or `flops` are injected instead. */
#define MPISIM_SAMPLE_DELAY(seconds) for (mpisim_execute(seconds); 0;)
#define MPISIM_SAMPLE_FLOPS(flops) for (mpisim_execute_flops(flops); 0;)
#define MPISIM_SHARED_MALLOC(size) mpisim_shared_malloc((size), __FILE__, __LINE__)
#define MPISIM_SHARED_FREE(pointer) mpisim_shared_free(pointer)
/* func(...) is called by the first rank only; the others get its result (a pointer), keyed by func and `input`. */
#define MPISIM_SHARED_CALL(func, input, ...)                                                                         \
  (mpisim_shared_known_call(#func, (input)) ? mpisim_shared_get_call(#func, (input))                                 \
                                            : mpisim_shared_set_call(#func, (input), (void*)((func)(__VA_ARGS__))))

/* ---- SMPI's names (SimGrid 3.32) ------------------------------------------------------------------------------ */
#define SMPI_SAMPLE_LOCAL MPISIM_SAMPLE_LOCAL
#define SMPI_SAMPLE_LOCAL_TAG MPISIM_SAMPLE_LOCAL_TAG
#define SMPI_SAMPLE_GLOBAL MPISIM_SAMPLE_GLOBAL
#define SMPI_SAMPLE_GLOBAL_TAG MPISIM_SAMPLE_GLOBAL_TAG
#define SMPI_SAMPLE_DELAY MPISIM_SAMPLE_DELAY
#define SMPI_SAMPLE_FLOPS MPISIM_SAMPLE_FLOPS
#define SMPI_SHARED_MALLOC MPISIM_SHARED_MALLOC
#define SMPI_SHARED_FREE MPISIM_SHARED_FREE
#define SMPI_SHARED_CALL MPISIM_SHARED_CALL

void smpi_execute_flops(double flops);
void smpi_execute_flops_benched(double flops);
void smpi_execute(double seconds);
void smpi_execute_benched(double seconds);
unsigned int smpi_sleep(unsigned int seconds);
int smpi_usleep(unsigned int microseconds);
int smpi_nanosleep(const struct timespec* duration, struct timespec* remaining);
void* smpi_shared_malloc(size_t size, const char* file, int line);
void smpi_shared_free(void* pointer);
int smpi_shared_known_call(const char* function, const char* input);
void* smpi_shared_get_call(const char* function, const char* input);
void* smpi_shared_set_call(const char* function, const char* input, void* data);

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_H */
