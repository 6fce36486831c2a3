#include "kernel/Actor.hpp"

#include "kernel/Engine.hpp"
#include "kernel/Pool.hpp"

#include <boost/context/stack_context.hpp>
#include <boost/context/stack_traits.hpp>

#include <algorithm>
#include <cassert>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define MPISIM_ASAN_FIBERS 1
#endif

namespace mpisim::kernel {

namespace {

// AddressSanitizer must be told each time execution moves to another stack, or it reports false errors when an
// exception unwinds a fiber. These helpers are empty in other builds.
void before_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const void* bottom,
                   [[maybe_unused]] size_t size)
{
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

void after_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] const void** from_bottom,
                  [[maybe_unused]] size_t* from_size)
{
#ifdef MPISIM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, from_bottom, from_size);
#endif
}

// A finished actor's frames stay poisoned in AddressSanitizer's shadow after its stack is released; a new stack at the
// same address would inherit that poison (false stack-buffer-overflow reports), so it is cleared.
void clear_stack_poison([[maybe_unused]] void* base, [[maybe_unused]] size_t bytes)
{
#ifdef MPISIM_ASAN_FIBERS
  __asan_unpoison_memory_region(base, bytes);
#endif
}

// The fiber's stack allocator: takes a stack from the engine's provider and notes where it lies in the actor.
class ProvidedStack {
public:
  ProvidedStack(StackProvider& provider, ActorStack& stack) : provider_(&provider), stack_(&stack) {}
  boost::context::stack_context allocate()
  {
    *stack_ = provider_->allocate();
    clear_stack_poison(stack_->bottom, stack_->size);
    boost::context::stack_context context;
    context.size = stack_->size;
    context.sp = static_cast<char*>(stack_->bottom) + stack_->size;
    return context;
  }
  void deallocate(boost::context::stack_context& context) noexcept
  {
    void* bottom = static_cast<char*>(context.sp) - context.size;
    clear_stack_poison(bottom, context.size);
    provider_->release(ActorStack{bottom, context.size, nullptr});
  }

private:
  StackProvider* provider_;
  ActorStack* stack_;
};

} // namespace

Actor::Actor(Engine& engine, int id, std::string name, std::function<void()> body, StackProvider& stacks)
    : id_(id), engine_(engine), name_(std::move(name)), body_(std::move(body))
{
  stacks_.guard_bytes = stacks.guard_bytes();
  if (stacks.shares_stack())
    saved_.stack = static_cast<SharedStack*>(&stacks); // the fiber is made at the first run: making it writes the stack
  else
    start_fiber(stacks);
}

void Actor::start_fiber(StackProvider& stacks)
{
  fiber_ = boost::context::fiber(std::allocator_arg, ProvidedStack(stacks, stacks_.own),
                                 [this](boost::context::fiber&& maestro) {
                                   after_switch(nullptr, &stacks_.maestro_bottom, &stacks_.maestro_size);
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
                                   check_stack();
                                   // this stack is done for good
                                   before_switch(nullptr, stacks_.maestro_bottom, stacks_.maestro_size);
                                   return std::move(maestro_);
                                 });
}

Actor::~Actor()
{
  if (not stopped_mid_body())
    return;
    // A killed actor's fiber is abandoned, not unwound (Engine::kill): its handle is forgotten without being destroyed,
    // so its stack is never released, and what its frames still own stays reachable from there (LeakSanitizer is told
    // so: not a leak).
#ifdef MPISIM_ASAN_FIBERS
  if (saved_.stack == nullptr)
    __lsan_register_root_region(stacks_.own.bottom, stacks_.own.size);
  else if (saved_.frames.bytes() > 0) { // like an own stack, its frames are kept, whole, not destroyed
    auto* whole = new std::byte[saved_.frames.bytes()];
    saved_.frames.restore(whole);
    __lsan_register_root_region(whole, saved_.frames.bytes());
  }
#endif
  if (saved_.stack != nullptr && saved_.stack->occupant() == this)
    saved_.stack->set_occupant(nullptr);
  alignas(boost::context::fiber) std::byte forgotten[sizeof(boost::context::fiber)];
  new (forgotten) boost::context::fiber(std::move(fiber_));
}

namespace {
BlockPool& actor_blocks()
{
  static_assert(sizeof(Actor) % kCacheLineBytes == 0, "a slab's actors all start on a cache line");
  return BlockPool::of_size<sizeof(Actor)>();
}
} // namespace

void* Actor::operator new(size_t bytes, std::align_val_t alignment)
{
  assert(bytes == sizeof(Actor) && static_cast<size_t>(alignment) <= kCacheLineBytes);
  (void)bytes;
  (void)alignment;
  return actor_blocks().allocate();
}

void Actor::operator delete(void* actor, std::align_val_t)
{
  actor_blocks().release(actor);
}

void WaitList::reserve(size_t count)
{
  if (count <= capacity_)
    return;
  auto* grown = new Activity*[count];
  std::copy_n(data(), size_, grown);
  release();
  heap_ = grown;
  capacity_ = static_cast<uint32_t>(count);
}

void WaitList::take(WaitList& other)
{
  size_ = other.size_;
  capacity_ = other.capacity_;
  heap_ = other.heap_;
  if (not on_heap())
    std::copy_n(other.inline_, size_, inline_);
  other.heap_ = nullptr;
  other.capacity_ = kInline;
  other.size_ = 0;
}

bool Actor::overflows_stack(const void* address, uintptr_t stack_pointer) const
{
  const auto bottom = reinterpret_cast<uintptr_t>(stacks_.own.bottom);
  if (bottom == 0)
    return false;
  const auto fault = reinterpret_cast<uintptr_t>(address);
  const uintptr_t sp = stack_pointer;
  const bool in_guard = fault < bottom && bottom - fault <= stacks_.guard_bytes;
  // A stack pointer below the bottom (within a bound that keeps out values that are no stack pointer).
  constexpr uintptr_t kLargestFrame = uintptr_t{1} << 30;
  const bool sp_below = sp != 0 && sp < bottom && bottom - sp <= kLargestFrame;
  return in_guard || sp_below;
}

void Actor::check_stack() const
{
  if (not canary_broken(stacks_.own))
    return;
  std::fprintf(stderr,
               "mpisim: internal error: actor '%s' overflowed its stack of %zu KiB (an unguarded arena slice: the "
               "canary word under it was overwritten, so memory under it is corrupt); stopping\n",
               name_.c_str(), (stacks_.own.size + 1023) >> 10);
  std::fflush(stderr);
  std::abort();
}

namespace {

// Where a suspended fiber's frames begin: its handle holds only the address of the registers it saved, the lowest
// byte it uses (Boost.Context's fcontext).
const std::byte* suspended_stack_pointer(const boost::context::fiber& fiber)
{
  static_assert(sizeof(boost::context::fiber) == sizeof(void*));
  const std::byte* sp = nullptr;
  std::memcpy(static_cast<void*>(&sp), static_cast<const void*>(&fiber), sizeof sp);
  return sp;
}

} // namespace

void Actor::save_stack()
{
  const std::byte* top = static_cast<const std::byte*>(stacks_.own.bottom) + stacks_.own.size;
  const std::byte* sp = suspended_stack_pointer(fiber_);
  const auto bytes = static_cast<size_t>(top - sp);
  // The frames' redzones are poisoned in AddressSanitizer builds: cleared so that the copy may read them (the frames
  // lose that protection until they return).
  clear_stack_poison(const_cast<std::byte*>(sp), bytes);
  saved_.frames.save(*saved_.stack, sp, bytes);
  saved_.stack->note_saved(bytes);
}

void Actor::take_shared_stack()
{
  Actor* occupant = saved_.stack->occupant();
  if (occupant == this)
    return; // its frames are still there: no copy
  if (occupant != nullptr)
    occupant->save_stack();
  saved_.stack->set_occupant(this);
  if (not saved_.started) {
    saved_.started = true;
    start_fiber(*saved_.stack);
    return;
  }
  std::byte* top = static_cast<std::byte*>(stacks_.own.bottom) + stacks_.own.size;
  saved_.frames.restore(top - saved_.frames.bytes());
}

void Actor::leave_shared_stack_if_finished()
{
  if (state_ != State::Finished || stopped_mid_body())
    return; // a killed actor's frames are kept (~Actor), until unwound (Engine::unwind_killed_actors_at_teardown)
  saved_.stack->set_occupant(nullptr);
  saved_.frames.clear();
}

void Actor::resume()
{
  if (saved_.stack != nullptr)
    take_shared_stack();
  state_ = State::Running;
  before_switch(&stacks_.maestro_fake_stack, stacks_.own.bottom, stacks_.own.size);
  fiber_ = std::move(fiber_).resume();
  after_switch(stacks_.maestro_fake_stack, nullptr, nullptr);
  if (saved_.stack != nullptr)
    leave_shared_stack_if_finished();
}

void Actor::suspend()
{
  if (cancelled_) // blocking again while being torn down: keep unwinding
    throw Cancelled{};
  check_stack();
  before_switch(&stacks_.own_fake_stack, stacks_.maestro_bottom, stacks_.maestro_size);
  maestro_ = std::move(maestro_).resume();
  after_switch(stacks_.own_fake_stack, &stacks_.maestro_bottom, &stacks_.maestro_size);
  if (cancelled_)
    throw Cancelled{};
}

void Actor::cancel(bool even_killed)
{
  if (state_ == State::Finished && not(even_killed && stopped_mid_body()))
    return;
  cancelled_ = true;
  resume();
}

} // namespace mpisim::kernel
