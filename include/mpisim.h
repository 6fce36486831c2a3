/* mpisim's annotations for large studies, under their mpisim names and SMPI's: sampled loops, injected
 * computation, buffers and calls shared by all ranks. Valid C (C99 on) and C++; included by mpi.h and smpi/smpi.h.
 * The functions are implemented by libmpisim-mpi.so (src/online/api_sampling.cpp); what each macro does, and in which
 * order it calls them, is specified in docs/specifications/annotation-macros.md. */
#ifndef MPISIM_H
#define MPISIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timespec;

/* Network models ------------------------------------------------------------------------------------------------- */
/* From now on, messages use the network model NAME ("smpi", "bxi", ... as `mpisim models` lists them); messages posted
 * before complete under their model. Every rank switches (a phase boundary). An unknown name ends the run (status 2).
 * MPI_Pcontrol(level) does the same for the levels --pcontrol-models maps (1=bxi,0=smpi). */
void mpisim_use_model(const char* name);

/* Computation and sleeps ------------------------------------------------------------------------------------------ */

void mpisim_execute_flops(double flops);
void mpisim_execute(double seconds);
void mpisim_execute_benched(double seconds);
unsigned int mpisim_sleep(unsigned int seconds);
int mpisim_usleep(unsigned int microseconds);
int mpisim_nanosleep(const struct timespec* duration, struct timespec* remaining);

/* Shared buffers and shared call results -------------------------------------------------------------------------- */

void* mpisim_shared_malloc(size_t size, const char* file, int line);
void mpisim_shared_free(void* pointer);
int mpisim_shared_known_call(const char* function, const char* input);
void* mpisim_shared_get_call(const char* function, const char* input);
void* mpisim_shared_set_call(const char* function, const char* input, void* data);

/* Sampled loops --------------------------------------------------------------------------------------------------- */

/* One pass of a rank over a sampled loop. The library owns it and reads and writes these fields (keep their order). */
typedef struct mpisim_sample_pass {
  int running;          /* the current iteration runs its body (and is timed) */
  int skipping;         /* the site has enough samples: no further iteration runs its body */
  long long iterations; /* iterations of this pass so far */
} mpisim_sample_pass;

mpisim_sample_pass* mpisim_sample_open(int global, const char* file, int line, const char* tag, int iterations,
                                       double threshold);
int mpisim_sample_start(mpisim_sample_pass* pass);
void mpisim_sample_stop(mpisim_sample_pass* pass);
mpisim_sample_pass* mpisim_sample_close(mpisim_sample_pass* pass);

/* SMPI's names of the same functions (aliases in the library), with SimGrid 3.32's signatures ------------------- */

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

/* Helpers of the sampled-loop macros (names ending in '_' are the header's own) ----------------------------------- */

/* Entering an iteration whose condition held: count it, and run its body only while the site still needs samples
 * (the library then starts the body's timing). Always true: skipped iterations still run the loop's step. */
static inline int mpisim_sample_enter_iteration_(mpisim_sample_pass* pass)
{
  ++pass->iterations;
  pass->running = pass->skipping ? 0 : mpisim_sample_start(pass);
  return 1;
}

/* Leaving an iteration (its body finished or did `continue`): a body that ran is one more sample. */
static inline void mpisim_sample_leave_iteration_(mpisim_sample_pass* pass)
{
  if (pass->running)
    mpisim_sample_stop(pass);
}

#ifdef __cplusplus
}
#endif

/* Sampled loop: `for (init; cond; step) BODY`, where BODY runs only in the iterations the site needs as samples and
 * the loop's end injects their mean time x the iterations. The outer `for` holds the pass for exactly one round: its
 * step closes the pass (NULL ends it), whether the inner loop ended by its condition or by `break` in BODY. The
 * `if (!running) {} else BODY` form keeps a user's `else` after BODY bound to the user's `if`. */
#define MPISIM_SAMPLE_LOOP_(global, init, cond, step, iters, thres, tag)                                               \
  for (mpisim_sample_pass* mpisim_site_pass_ =                                                                         \
           mpisim_sample_open((global), __FILE__, __LINE__, (tag), (int)(iters), (double)(thres));                     \
       mpisim_site_pass_ != NULL; mpisim_site_pass_ = mpisim_sample_close(mpisim_site_pass_))                          \
    for (init; (cond) && mpisim_sample_enter_iteration_(mpisim_site_pass_);                                            \
         mpisim_sample_leave_iteration_(mpisim_site_pass_), step)                                                      \
      if (!mpisim_site_pass_->running) {                                                                               \
      } else

#define MPISIM_SAMPLE_LOCAL(init, cond, step, iters, thres) MPISIM_SAMPLE_LOOP_(0, init, cond, step, iters, thres, "")
#define MPISIM_SAMPLE_LOCAL_TAG(init, cond, step, iters, thres, tag)                                                   \
  MPISIM_SAMPLE_LOOP_(0, init, cond, step, iters, thres, tag)
#define MPISIM_SAMPLE_GLOBAL(init, cond, step, iters, thres) MPISIM_SAMPLE_LOOP_(1, init, cond, step, iters, thres, "")
#define MPISIM_SAMPLE_GLOBAL_TAG(init, cond, step, iters, thres, tag)                                                  \
  MPISIM_SAMPLE_LOOP_(1, init, cond, step, iters, thres, tag)

/* Injected computation in place of the following block, which is compiled but never run: the loop's condition
 * injects the time and is false (a loop, not an `if`, so that no `else` can bind to the macro). */
static inline int mpisim_inject_seconds_(double seconds)
{
  mpisim_execute(seconds);
  return 0;
}
static inline int mpisim_inject_flops_(double flops)
{
  mpisim_execute_flops(flops);
  return 0;
}
#define MPISIM_SAMPLE_DELAY(seconds) while (mpisim_inject_seconds_((double)(seconds)))
#define MPISIM_SAMPLE_FLOPS(flops) while (mpisim_inject_flops_((double)(flops)))

/* One buffer per call site, shared by every rank allocating there. */
#define MPISIM_SHARED_MALLOC(size) mpisim_shared_malloc((size), __FILE__, __LINE__)
#define MPISIM_SHARED_FREE(pointer) mpisim_shared_free(pointer)

/* func(args...) runs on the first rank to get here for this `input`; every rank gets that result. */
#define MPISIM_SHARED_CALL(func, input, ...)                                                                           \
  (mpisim_shared_known_call(#func, (input)) ? mpisim_shared_get_call(#func, (input))                                   \
                                            : mpisim_shared_set_call(#func, (input), (void*)func(__VA_ARGS__)))

/* SMPI's names for the same macros. */
#define SMPI_SAMPLE_LOCAL MPISIM_SAMPLE_LOCAL
#define SMPI_SAMPLE_LOCAL_TAG MPISIM_SAMPLE_LOCAL_TAG
#define SMPI_SAMPLE_GLOBAL MPISIM_SAMPLE_GLOBAL
#define SMPI_SAMPLE_GLOBAL_TAG MPISIM_SAMPLE_GLOBAL_TAG
#define SMPI_SAMPLE_DELAY MPISIM_SAMPLE_DELAY
#define SMPI_SAMPLE_FLOPS MPISIM_SAMPLE_FLOPS
#define SMPI_SHARED_MALLOC MPISIM_SHARED_MALLOC
#define SMPI_SHARED_FREE MPISIM_SHARED_FREE
#define SMPI_SHARED_CALL MPISIM_SHARED_CALL

#endif /* MPISIM_H */
