#include "record/ComputeMeter.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>

#include <cstdint>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace mpisim::record {

namespace {

// User-space instructions of the calling thread, on whatever CPU it runs. Returns the descriptor or -errno.
int open_instruction_counter()
{
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0 /* this thread */, -1 /* any cpu */, -1 /* no group */, 0);
  return fd < 0 ? -errno : static_cast<int>(fd);
}

uint64_t thread_cpu_ns()
{
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ULL + static_cast<uint64_t>(now.tv_nsec);
}

} // namespace

ComputeMeter::~ComputeMeter()
{
  if (perf_fd_ >= 0)
    close(perf_fd_);
}

void ComputeMeter::calibrate()
{
  bias_ = 0;
  uint64_t smallest = UINT64_MAX;
  for (int i = 0; i < 200; ++i) {
    uint64_t first = read();
    uint64_t second = read();
    if (second >= first && second - first < smallest)
      smallest = second - first;
  }
  bias_ = smallest == UINT64_MAX ? 0 : smallest;
}

std::string ComputeMeter::open(Counter wanted, double speed)
{
  std::string fallback = open_counter(wanted, speed);
  calibrate();
  return fallback;
}

std::string ComputeMeter::open_counter(Counter wanted, double speed)
{
  speed_ = speed;
  counter_ = Counter::CpuTime;
  if (wanted != Counter::Instructions)
    return {};
  int fd = open_instruction_counter();
  if (fd < 0)
    return std::string("perf_event_open: ") + std::strerror(-fd);
  // Some virtual machines accept the event but never count: check that a little work moves the counter.
  uint64_t before = 0;
  uint64_t after = 0;
  volatile uint64_t sink = 0;
  bool readable = ::read(fd, &before, sizeof(before)) == sizeof(before);
  for (int i = 0; i < 10000; ++i)
    sink = sink + static_cast<uint64_t>(i);
  readable = readable && ::read(fd, &after, sizeof(after)) == sizeof(after);
  if (not readable || after <= before) {
    close(fd);
    return "the instruction counter opens but does not count (virtual machine without a virtual PMU?)";
  }
  perf_fd_ = fd;
  counter_ = Counter::Instructions;
  return {};
}

uint64_t ComputeMeter::read() const
{
  if (counter_ == Counter::Instructions) {
    uint64_t value = 0;
    if (::read(perf_fd_, &value, sizeof(value)) == sizeof(value))
      return value;
    return 0;
  }
  return thread_cpu_ns();
}

double ComputeMeter::flops(uint64_t delta) const
{
  if (counter_ == Counter::Instructions)
    return static_cast<double>(delta);
  return static_cast<double>(delta) * 1e-9 * speed_;
}

double ComputeMeter::seconds(uint64_t delta) const
{
  if (counter_ == Counter::Instructions)
    return static_cast<double>(delta) / speed_;
  return static_cast<double>(delta) * 1e-9;
}

} // namespace mpisim::record
