#include "kernel/Actor.hpp"

#include "kernel/Engine.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

namespace mpisim::kernel {

Actor::Actor(Engine& engine, int id, std::string name, std::function<void()> body, size_t stack_size)
    : engine_(engine), id_(id), name_(std::move(name)), body_(std::move(body))
{
  fiber_ = boost::context::fiber(std::allocator_arg, boost::context::protected_fixedsize_stack(stack_size),
                                 [this](boost::context::fiber&& maestro) {
                                   maestro_ = std::move(maestro);
                                   try {
                                     body_();
                                   } catch (const boost::context::detail::forced_unwind&) {
                                     throw; // the engine is tearing this fiber down: let the unwinding proceed
                                   } catch (...) {
                                     failure_ = std::current_exception();
                                   }
                                   state_ = State::Finished;
                                   body_ = nullptr; // release captured state now, not at engine teardown
                                   return std::move(maestro_);
                                 });
}

void Actor::resume()
{
  state_ = State::Running;
  fiber_ = std::move(fiber_).resume();
}

void Actor::suspend()
{
  maestro_ = std::move(maestro_).resume();
}

} // namespace mpisim::kernel
