#include "online/runner/HostSpeed.hpp"

#include "online/runtime/Runtime.hpp"

namespace mpisim::online {

double measure_host_speed()
{
  constexpr long kIterations = 20'000'000; // about 20 ms on a current core
  volatile double sink = 0;
  double x = 1.0, y = 0.0;
  const double start = thread_cpu_time();
  for (long i = 0; i < kIterations; ++i)
    y = y * 0.999999 + x; // 2 flops, dependent: one chain as plain application code would run
  sink = y;
  (void)sink;
  const double seconds = thread_cpu_time() - start;
  return seconds > 0 ? 2.0 * static_cast<double>(kIterations) / seconds : 1e9;
}

} // namespace mpisim::online
