#include "kernel/Actor.hpp"

#include "kernel/Engine.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

#if defined(__SANITIZE_ADDRESS__)
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

// Allocates guarded stacks and remembers where the actor's stack lies (for the sanitizer annotations).
class RecordingStack {
public:
  RecordingStack(size_t size, StackBounds& bounds) : inner_(size), bounds_(&bounds) {}
  boost::context::stack_context allocate()
  {
    boost::context::stack_context context = inner_.allocate();
    bounds_->bottom = static_cast<char*>(context.sp) - context.size;
    bounds_->size = context.size;
    return context;
  }
  void deallocate(boost::context::stack_context& context) noexcept { inner_.deallocate(context); }

private:
  boost::context::protected_fixedsize_stack inner_;
  StackBounds* bounds_;
};

} // namespace

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

Actor::~Actor() = default;

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
