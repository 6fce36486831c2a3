// Actors: cooperative fibers (Boost.Context) run one at a time by the engine.
//
// An actor runs until it blocks on an activity, then control returns to the engine (the "maestro"). Stacks are
// mmap-ed with a guard page, so untouched stack pages cost no memory: hundreds of thousands of actors fit.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/MemoryContexts.hpp"

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::kernel {

// Throws InputError, before any is created, when `actors` stacks of `stack_size` bytes cannot all be mapped: each
// takes two memory mappings (the stack and its guard page), counted against vm.max_map_count with the mappings the
// process already has, and its size in address space. The message says which limit and how to raise it.
void check_stack_capacity(long long actors, size_t stack_size);

// The inaccessible region under each actor's stack: an overflow faults there instead of writing into whatever lies
// below. Larger than a page, so that a frame of a few kilobytes (a local array) cannot jump over it; address space
// only (one mapping, no memory).
size_t stack_guard_bytes();

class Actor {
public:
  enum class State : uint8_t { Created, Ready, Running, Blocked, Finished };

  Actor(Engine& engine, int id, std::string name, std::function<void()> body, size_t stack_size);
  ~Actor();
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;

  int id() const { return id_; }
  const std::string& name() const { return name_; }
  State state() const { return state_; }
  // What the actor is blocked on (null when it is not blocked on an activity).
  const Activity* blocked_on() const { return blocked_on_; }
  // Whether a memory fault at `address`, with the stack pointer at `stack_pointer` (0 when unknown), is this
  // actor overflowing its stack: the address lies in the guard region under the stack, or the stack pointer has
  // gone below the stack's usable bottom (a frame larger than the guard jumps over it).
  bool overflows_stack(const void* address, uintptr_t stack_pointer) const;
  // The memory context the actor acts for (kernel/MemoryContexts.hpp); inherited from the actor that spawned it.
  int memory_context() const { return memory_context_; }
  void set_memory_context(int id) { memory_context_ = id; }

private:
  friend class Engine;
  void resume();  // from the engine: run until the actor blocks or ends
  void suspend(); // from the actor itself: give control back to the engine
  // Ends an actor that will never be resumed (engine teardown): its stack unwinds through a Cancelled exception
  // thrown from the point where it is blocked, so destructors run and the fiber ends normally.
  void cancel();
  struct Cancelled {};

  Engine& engine_;
  int id_;
  std::string name_;
  std::function<void()> body_;
  State state_ = State::Created;
  const Activity* blocked_on_ = nullptr;
  int memory_context_ = kNoMemoryContext;
  struct Stacks; // where the actor's and the engine's stacks lie (for AddressSanitizer builds)
  std::unique_ptr<Stacks> stacks_;
  boost::context::fiber fiber_;
  boost::context::fiber maestro_;
  std::exception_ptr failure_;
  bool cancelled_ = false;
  bool killed_ = false; // Engine::kill: finished without unwinding; its fiber is left as it is
  std::vector<std::function<void()>> interrupts_; // Engine::interrupt: handlers to run when the actor resumes
};

} // namespace mpisim::kernel
