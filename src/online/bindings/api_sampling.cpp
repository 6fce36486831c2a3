// SMPI's annotations for large studies (include/mpisim.h): injected computation and sleeps, sampled loops, shared
// buffers. The rules are SimGrid 3.32's (docs/online.md states them); the state is in
// Sampling.hpp. Each function is reached by its mpisim_ name and by SMPI's.
#include "online/bindings/Api.hpp"
#include "online/runtime/Sampling.hpp"

#include "platform/Platform.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

using namespace mpisim::online;

namespace {

// The runtime of the calling rank, obtained once per entry point; null when no simulation runs (the program run on
// its own, a static constructor) or when no rank calls.
Runtime* calling_runtime()
{
  if (not Runtime::active())
    return nullptr;
  Runtime& runtime = Runtime::get();
  return runtime.current_rank() >= 0 ? &runtime : nullptr;
}

[[noreturn]] void fail(Runtime* runtime, const std::string& what)
{
  if (runtime == nullptr) {
    std::fprintf(stderr, "mpisim: %s (outside a simulated rank)\n", what.c_str());
    std::abort();
  }
  terminate_on_mpi_error(*runtime, what);
}

// Runs `simulate` as an annotation: the computation measured before it is injected first, its own real time is not.
template <class Simulate> void annotate(Runtime& runtime, Simulate simulate)
{
  runtime.flush_computation();
  simulate(runtime);
  runtime.restart_computation();
}

// Real seconds as flops, as the computation measured between MPI calls (bursts under --cpu-threshold are dropped).
void execute_real_seconds(Runtime& runtime, double seconds)
{
  if (seconds >= runtime.options().cpu_threshold)
    runtime.execute_flops(seconds * runtime.options().host_speed);
}

void check_amount(Runtime& runtime, double amount, const char* call, const char* unit)
{
  if (not(amount >= 0) || std::isinf(amount))
    fail(&runtime, std::string(call) + ": invalid " + unit + " " + std::to_string(amount));
}

void simulated_sleep(Runtime& runtime, double seconds)
{
  annotate(runtime, [&](Runtime& runtime) {
    runtime.rank().note_clock_read(); // a loop that sleeps between polls is not fast-forwarded past its sleeps
    runtime.sleep(seconds);
  });
}

} // namespace

// Injected computation and sleeps ------------------------------------------------------------------------------------

extern "C" void mpisim_execute_flops(double flops)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return;
  check_amount(*runtime, flops, "SMPI_SAMPLE_FLOPS/smpi_execute_flops", "flop count");
  annotate(*runtime, [&](Runtime& runtime) {
    if (flops > 0)
      runtime.execute_flops(flops);
  });
}

extern "C" void mpisim_execute(double seconds)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return;
  check_amount(*runtime, seconds, "SMPI_SAMPLE_DELAY/smpi_execute", "duration");
  annotate(*runtime, [&](Runtime& runtime) { execute_real_seconds(runtime, seconds); });
}

extern "C" void mpisim_execute_benched(double seconds)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return;
  check_amount(*runtime, seconds, "smpi_execute_benched", "duration");
  annotate(*runtime, [&](Runtime& runtime) {
    const double speed = runtime.world().platform().hosts()[runtime.rank().host()].speed;
    if (seconds > 0)
      runtime.execute_flops(seconds * speed);
  });
}

extern "C" unsigned int mpisim_sleep(unsigned int seconds)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return sleep(seconds);
  simulated_sleep(*runtime, seconds);
  return 0;
}

extern "C" int mpisim_usleep(unsigned int microseconds)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return usleep(microseconds);
  simulated_sleep(*runtime, static_cast<double>(microseconds) * 1e-6);
  return 0;
}

extern "C" int mpisim_nanosleep(const struct timespec* duration, struct timespec* remaining)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return nanosleep(duration, remaining);
  if (duration == nullptr || duration->tv_sec < 0 || duration->tv_nsec < 0 || duration->tv_nsec > 999999999) {
    errno = EINVAL;
    return -1;
  }
  simulated_sleep(*runtime, static_cast<double>(duration->tv_sec) + 1e-9 * static_cast<double>(duration->tv_nsec));
  if (remaining != nullptr)
    *remaining = timespec{};
  return 0;
}

// Sampled loops ------------------------------------------------------------------------------------------------------

namespace {

SamplePass& pass_of(Runtime* runtime, mpisim_sample_pass* visible)
{
  if (runtime == nullptr)
    fail(runtime, "SMPI_SAMPLE_* called outside a simulated rank");
  SamplePass& pass = runtime->sampling().pass(runtime->current_rank());
  if (visible != &pass.visible || pass.statistics == nullptr)
    fail(runtime, "a sampled loop's state was used outside its loop (use the SMPI_SAMPLE_* macros)");
  return pass;
}

} // namespace

extern "C" mpisim_sample_pass* mpisim_sample_open(int global, const char* file, int line, const char* tag,
                                                  int iterations, double threshold)
{
  Runtime* calling = calling_runtime();
  if (calling == nullptr)
    fail(calling, "SMPI_SAMPLE_* called outside a simulated rank");
  Runtime& runtime = *calling;
  const std::string where = std::string(file) + ":" + std::to_string(line);
  const int rank = runtime.current_rank();
  SamplePass& pass = runtime.sampling().pass(rank);
  if (pass.statistics != nullptr)
    fail(&runtime,
         "sampled loop at " + where + " entered while the one at " + pass.where +
             " is in progress (sampled loops do not nest, and a sampled body must not return or jump out of its loop)");
  if (iterations <= 0 && threshold <= 0)
    fail(&runtime, "sampled loop at " + where +
                       ": give a positive number of iterations to sample, a positive threshold, or both");
  SampleStatistics& statistics =
      runtime.sampling().statistics(file, line, tag, global ? -1 : rank, iterations, threshold);
  if (not statistics.same_settings(iterations, threshold))
    fail(&runtime, "sampled loop at " + where + " with " + std::to_string(iterations) + " iterations and threshold " +
                       std::to_string(threshold) + ", but it was first sampled with " +
                       std::to_string(statistics.wanted()) + " and " + std::to_string(statistics.threshold()));
  runtime.flush_computation(); // the computation before the loop is the program's, not the loop's
  pass.statistics = &statistics;
  pass.where = where;
  pass.visible = mpisim_sample_pass{0, statistics.needs_more() ? 0 : 1, 0};
  return &pass.visible;
}

extern "C" int mpisim_sample_start(mpisim_sample_pass* visible)
{
  Runtime* runtime = calling_runtime();
  SamplePass& pass = pass_of(runtime, visible);
  if (not pass.statistics->needs_more()) {
    visible->skipping = 1; // for good: samples are only added by running iterations, and none runs from now on
    return 0;
  }
  pass.calls_before = runtime->account(runtime->current_rank()).calls;
  pass.started = thread_cpu_time();
  return 1;
}

extern "C" void mpisim_sample_stop(mpisim_sample_pass* visible)
{
  const double stopped = thread_cpu_time();
  Runtime* runtime = calling_runtime();
  SamplePass& pass = pass_of(runtime, visible);
  if (runtime->account(runtime->current_rank()).calls != pass.calls_before)
    fail(runtime,
         "MPI call inside the body of the sampled loop at " + pass.where + " (a sampled body must not call MPI)");
  pass.statistics->add(stopped - pass.started);
  visible->running = 0;
}

extern "C" mpisim_sample_pass* mpisim_sample_close(mpisim_sample_pass* visible)
{
  Runtime* runtime = calling_runtime();
  SamplePass& pass = pass_of(runtime, visible);
  if (visible->running) // left by `break`: the iteration counts as a sample up to there
    mpisim_sample_stop(visible);
  const double seconds = pass.statistics->mean() * static_cast<double>(visible->iterations);
  pass.statistics = nullptr;
  execute_real_seconds(*runtime, seconds);
  runtime->restart_computation(); // the loop's own real time is replaced by the injected mean
  return nullptr;
}

// Shared memory ------------------------------------------------------------------------------------------------------

extern "C" void* mpisim_shared_malloc(size_t size, const char* file, int line)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr || size == 0)
    return std::malloc(size);
  const std::string site = std::string(file) + ":" + std::to_string(line);
  Sampling& sampling = runtime->sampling();
  const SharedBlock* block = sampling.block_of(site);
  if (block != nullptr && size > block->size)
    fail(runtime, "SMPI_SHARED_MALLOC at " + site + ": " + std::to_string(size) +
                      " bytes asked, but the block shared there has " + std::to_string(block->size) +
                      " (its first allocation sets its size)");
  void* address = sampling.share(site, size);
  if (address == nullptr)
    fail(runtime, "SMPI_SHARED_MALLOC at " + site + ": cannot map " + std::to_string(size) + " bytes");
  return address;
}

extern "C" void mpisim_shared_free(void* pointer)
{
  if (Runtime* runtime = calling_runtime(); runtime != nullptr && runtime->sampling().release(pointer))
    return;
  std::free(pointer);
}

namespace {
std::string call_key(const char* function, const char* input)
{
  return std::string(function) + ":" + input;
}
} // namespace

extern "C" int mpisim_shared_known_call(const char* function, const char* input)
{
  Runtime* runtime = calling_runtime();
  if (runtime == nullptr)
    return 0;
  return runtime->sampling().call_result(call_key(function, input)) != nullptr;
}

extern "C" void* mpisim_shared_get_call(const char* function, const char* input)
{
  Runtime* runtime = calling_runtime();
  void** result = runtime == nullptr ? nullptr : runtime->sampling().call_result(call_key(function, input));
  if (result == nullptr)
    fail(runtime, std::string("SMPI_SHARED_CALL: no result for ") + call_key(function, input));
  return *result;
}

extern "C" void* mpisim_shared_set_call(const char* function, const char* input, void* data)
{
  if (Runtime* runtime = calling_runtime())
    runtime->sampling().set_call_result(call_key(function, input), data);
  return data;
}

// SMPI's names -------------------------------------------------------------------------------------------------------

#define MPISIM_SMPI_NAME(smpi_name, mpisim_name)                                                                       \
  extern "C" __attribute__((alias(#mpisim_name))) decltype(mpisim_name) smpi_name; // NOLINT(bugprone-macro-parentheses)

MPISIM_SMPI_NAME(smpi_execute_flops, mpisim_execute_flops)
MPISIM_SMPI_NAME(smpi_execute_flops_benched, mpisim_execute_flops)
MPISIM_SMPI_NAME(smpi_execute, mpisim_execute)
MPISIM_SMPI_NAME(smpi_execute_benched, mpisim_execute_benched)
MPISIM_SMPI_NAME(smpi_sleep, mpisim_sleep)
MPISIM_SMPI_NAME(smpi_usleep, mpisim_usleep)
MPISIM_SMPI_NAME(smpi_nanosleep, mpisim_nanosleep)
MPISIM_SMPI_NAME(smpi_shared_malloc, mpisim_shared_malloc)
MPISIM_SMPI_NAME(smpi_shared_free, mpisim_shared_free)
MPISIM_SMPI_NAME(smpi_shared_known_call, mpisim_shared_known_call)
MPISIM_SMPI_NAME(smpi_shared_get_call, mpisim_shared_get_call)
MPISIM_SMPI_NAME(smpi_shared_set_call, mpisim_shared_set_call)
