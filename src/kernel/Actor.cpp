#include "kernel/Actor.hpp"

#include "kernel/Engine.hpp"

#include <boost/context/stack_context.hpp>
#include <boost/context/stack_traits.hpp>

#include "common/Errors.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <new>
#include <string>

#include <sys/mman.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define MPISIM_ASAN_FIBERS 1
#endif

namespace mpisim::kernel {

namespace {

// AddressSanitizer must be told each time execution moves to another stack, or it reports false errors when an
// exception unwinds a fiber. These helpers are empty in other builds.
struct StackBounds {
  const void* bottom = nullptr;
  size_t size = 0;
};

void before_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const StackBounds& to)
{
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#endif
}

void after_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] StackBounds* from)
{
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
#endif
}

// A finished actor's frames stay poisoned in AddressSanitizer's shadow after its stack is unmapped; a new stack
// mapped at the same address would inherit that poison (false stack-buffer-overflow reports), so it is cleared.
void clear_stack_poison([[maybe_unused]] void* base, [[maybe_unused]] size_t bytes)
{
#ifdef MPISIM_ASAN_FIBERS
  __asan_unpoison_memory_region(base, bytes);
#endif
}

// Allocates stacks of `size` bytes (rounded up to pages) above a guard region, and remembers where the actor's stack
// lies (for the sanitizer annotations). Pages are reserved, not touched: a stack costs the pages it uses. Throws
// std::bad_alloc when the guard cannot be set, which happens when the process runs out of memory mappings (a
// guarded stack is two): boost's protected_fixedsize_stack only asserts that in debug builds, so past the limit
// stacks silently lost their guard and an overflow would have overwritten the next rank's stack.
class RecordingStack {
public:
  RecordingStack(size_t size, StackBounds& bounds) : size_(size), bounds_(&bounds) {}
  boost::context::stack_context allocate()
  {
    const size_t page = boost::context::stack_traits::page_size();
    const size_t bytes = (size_ + page - 1) / page * page + stack_guard_bytes();
    void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
      throw std::bad_alloc();
    if (::mprotect(base, stack_guard_bytes(), PROT_NONE) != 0) {
      ::munmap(base, bytes);
      throw std::bad_alloc();
    }
    boost::context::stack_context context;
    context.size = bytes;
    context.sp = static_cast<char*>(base) + bytes;
    clear_stack_poison(base, bytes);
    bounds_->bottom = base;
    bounds_->size = bytes;
    return context;
  }
  void deallocate(boost::context::stack_context& context) noexcept
  {
    void* base = static_cast<char*>(context.sp) - context.size;
    clear_stack_poison(base, context.size);
    ::munmap(base, context.size);
  }

private:
  size_t size_;
  StackBounds* bounds_;
};

long long read_number(const char* path)
{
  std::ifstream in(path);
  long long value = -1;
  return in >> value ? value : -1;
}

long long mappings_in_use()
{
  std::ifstream maps("/proc/self/maps");
  long long lines = 0;
  for (std::string line; std::getline(maps, line);)
    ++lines;
  return lines;
}

// "8 MiB", "1.2e+03 TiB": bytes in the largest binary unit below them.
std::string in_units(double bytes)
{
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && bytes >= 1024) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", bytes, kUnits[unit]);
  return text;
}

} // namespace

size_t stack_guard_bytes()
{
  const size_t page = boost::context::stack_traits::page_size();
  return std::max(page, size_t{64} * 1024) / page * page;
}

void check_stack_capacity(long long actors, size_t stack_size)
{
  const long long needed = 2 * actors; // stack and guard page
  const long long limit = read_number("/proc/sys/vm/max_map_count");
  const long long in_use = mappings_in_use();
  if (limit > 0 && needed + in_use > limit) {
    const long long suggested = (needed + in_use) * 5 / 4 / 65536 * 65536 + 65536;
    throw InputError(std::to_string(actors) + " ranks need " + std::to_string(needed) +
                     " memory mappings (a stack and its guard page each), more than vm.max_map_count allows (" +
                     std::to_string(limit) + ", " + std::to_string(in_use) + " in use): raise it, as root, with " +
                     "`sysctl -w vm.max_map_count=" + std::to_string(suggested) + "`, or simulate fewer ranks");
  }
  const size_t page = boost::context::stack_traits::page_size();
  const size_t mapped_per_actor = (stack_size + page - 1) / page * page + stack_guard_bytes(); // whole pages
  const double bytes = static_cast<double>(actors) * static_cast<double>(mapped_per_actor);
  double address_space = 128.0 * 1024 * 1024 * 1024 * 1024; // 47-bit user space (x86-64, AArch64 by default)
  struct rlimit limit_as {};
  if (::getrlimit(RLIMIT_AS, &limit_as) == 0 && limit_as.rlim_cur != RLIM_INFINITY)
    address_space = std::min(address_space, static_cast<double>(limit_as.rlim_cur));
  if (bytes > address_space)
    throw InputError(std::to_string(actors) + " ranks with stacks of " + in_units(static_cast<double>(stack_size)) +
                     " need " + in_units(bytes) + " of address space, more than the process has (" +
                     in_units(address_space) + "): use a smaller stack size or fewer ranks");
}

struct Actor::Stacks {
  StackBounds own;
  StackBounds maestro;
  void* maestro_fake_stack = nullptr;
  void* own_fake_stack = nullptr;
};

Actor::Actor(Engine& engine, int id, std::string name, std::function<void()> body, size_t stack_size)
    : engine_(engine), id_(id), name_(std::move(name)), body_(std::move(body)), stacks_(std::make_unique<Stacks>())
{
  fiber_ = boost::context::fiber(std::allocator_arg, RecordingStack(stack_size, stacks_->own),
                                 [this](boost::context::fiber&& maestro) {
                                   after_switch(nullptr, &stacks_->maestro);
                                   maestro_ = std::move(maestro);
                                   try {
                                     if (not cancelled_)
                                       body_();
                                   } catch (const Cancelled&) {
                                     // torn down by the engine: not a failure of the actor
                                   } catch (...) {
                                     failure_ = std::current_exception();
                                   }
                                   state_ = State::Finished;
                                   body_ = nullptr; // release captured state now, not at engine teardown
                                   before_switch(nullptr, stacks_->maestro); // this stack is done for good
                                   return std::move(maestro_);
                                 });
}

Actor::~Actor()
{
  // A killed actor's fiber is abandoned, not unwound (Engine::kill): its stack stays mapped until the process ends.
  if (killed_)
    new boost::context::fiber(std::move(fiber_)); // NOLINT(cppcoreguidelines-owning-memory): deliberately leaked
}

bool Actor::overflows_stack(const void* address, uintptr_t stack_pointer) const
{
  const auto bottom = reinterpret_cast<uintptr_t>(stacks_->own.bottom);
  if (bottom == 0)
    return false;
  const uintptr_t usable = bottom + stack_guard_bytes();
  const auto fault = reinterpret_cast<uintptr_t>(address);
  const uintptr_t sp = stack_pointer;
  const bool in_guard = fault >= bottom && fault < usable;
  // A stack pointer below the usable bottom (within a bound that keeps out values that are no stack pointer).
  constexpr uintptr_t kLargestFrame = uintptr_t{1} << 30;
  const bool sp_below = sp != 0 && sp < usable && usable - sp <= kLargestFrame;
  return in_guard || sp_below;
}

void Actor::resume()
{
  state_ = State::Running;
  before_switch(&stacks_->maestro_fake_stack, stacks_->own);
  fiber_ = std::move(fiber_).resume();
  after_switch(stacks_->maestro_fake_stack, nullptr);
}

void Actor::suspend()
{
  if (cancelled_) // blocking again while being torn down: keep unwinding
    throw Cancelled{};
  before_switch(&stacks_->own_fake_stack, stacks_->maestro);
  maestro_ = std::move(maestro_).resume();
  after_switch(stacks_->own_fake_stack, &stacks_->maestro);
  if (cancelled_)
    throw Cancelled{};
}

void Actor::cancel()
{
  if (state_ == State::Finished)
    return;
  cancelled_ = true;
  resume();
}

} // namespace mpisim::kernel
