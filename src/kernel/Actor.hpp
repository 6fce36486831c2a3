// Actors: cooperative fibers (Boost.Context) run one at a time by the engine.
//
// An actor runs until it blocks on an activity, then control returns to the engine (the "maestro"). Its stack comes
// from the engine's stack provider (kernel/Stacks.hpp): a mapping with a guard region, or a slice of an arena watched
// by a canary. Untouched stack pages cost no memory: millions of actors fit.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/CacheLines.hpp"
#include "kernel/MemoryContexts.hpp"
#include "kernel/Stacks.hpp"

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace mpisim::kernel {

// The activities a wait_all() waits for, in order: the first kInline in the actor's own lines (a rank's waits are
// mostly short, and every wake reads the list: held elsewhere it is one more cold line to load), the others on the
// heap.
class WaitList {
public:
  static constexpr uint32_t kInline = 12;
  WaitList() = default;
  ~WaitList() { release(); }
  WaitList(WaitList&& other) noexcept { take(other); }
  WaitList& operator=(WaitList&& other) noexcept
  {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;

  size_t size() const { return size_; }
  bool on_heap() const { return capacity_ > kInline; }
  Activity* const* data() const { return on_heap() ? heap_ : inline_; }
  Activity* operator[](size_t index) const { return data()[index]; }
  void reserve(size_t count);
  void push_back(Activity* activity)
  {
    if (size_ == capacity_)
      reserve(size_t{capacity_} * 2);
    (on_heap() ? heap_ : inline_)[size_++] = activity;
  }
  // Empties the list and gives its heap block back (only lists longer than kInline have one).
  void clear()
  {
    release();
    size_ = 0;
  }

private:
  void release()
  {
    if (on_heap())
      delete[] heap_;
    heap_ = nullptr;
    capacity_ = kInline;
  }
  void take(WaitList& other);

  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;
  Activity* inline_[kInline] = {};
  Activity** heap_ = nullptr; // owned when on_heap()
};

class alignas(kCacheLineBytes) Actor {
public:
  enum class State : uint8_t { Created, Ready, Running, Blocked, Finished };

  Actor(Engine& engine, int id, std::string name, std::function<void()> body, StackProvider& stacks);
  ~Actor();
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;
  // Actors are carved from slabs (kernel/Pool.hpp): starting on a cache line as the class asks, without the padding
  // that malloc's aligned allocation leaves around each (up to a line per rank).
  static void* operator new(size_t bytes, std::align_val_t alignment);
  static void operator delete(void* actor, std::align_val_t alignment);

  int id() const { return id_; }
  const std::string& name() const { return name_; }
  State state() const { return state_; }
  // What the actor is blocked on (null when it is not blocked on an activity).
  const Activity* blocked_on() const { return blocked_on_; }
  // Whether a memory fault at `address`, with the stack pointer at `stack_pointer` (0 when unknown), is this
  // actor overflowing its stack: the address lies in the guard region under the stack, or the stack pointer has
  // gone below the stack's bottom (a frame larger than the guard jumps over it).
  bool overflows_stack(const void* address, uintptr_t stack_pointer) const;
  // The memory context the actor acts for (kernel/MemoryContexts.hpp); inherited from the actor that spawned it.
  int memory_context() const { return memory_context_; }
  void set_memory_context(int id) { memory_context_ = id; }

private:
  friend class Engine;
  // Asks the processor to load what resuming the actor reads (the engine calls it for the actor that runs next): the
  // actor itself and, on a shared stack, its saved frames. Only loads: nothing changes.
  void prefetch() const
  {
    prefetch_lines(this, (sizeof(Actor) + kCacheLineBytes - 1) / kCacheLineBytes);
    if (saved_.stack != nullptr)
      saved_.frames.prefetch();
  }
  void resume();  // from the engine: run until the actor blocks or ends
  void suspend(); // from the actor itself: give control back to the engine
  // Ends an actor that will never be resumed (engine teardown): its stack unwinds through a Cancelled exception
  // thrown from the point where it is blocked, so destructors run and the fiber ends normally. A killed actor is
  // unwound too when `even_killed` (from where it was when killed), left as it is otherwise.
  void cancel(bool even_killed);
  struct Cancelled {};
  // Stops the process when the actor has overflowed an unguarded stack: the memory under it is corrupt.
  void check_stack() const;
  void start_fiber(StackProvider& stacks);
  // On a SharedStack: puts this actor's frames on the stack (saving the occupant's first), starting its fiber on its
  // first run; saves its frames into its buffer; gives up the stack once it has ended.
  void take_shared_stack();
  void save_stack();
  void leave_shared_stack_if_finished();
  // Killed (Engine::kill) while its body was still running: its fiber is suspended where the kill found it, not
  // unwound yet (until Engine::unwind_killed_actors_at_teardown).
  bool stopped_mid_body() const { return killed_ && fiber_; }

  // First, in the actor's first two cache lines (it is aligned on one): what a wake and a wait_all()'s reblocking read
  // and write (Engine::wake, Engine::run_ready_actors), so that waking a rank gone cold costs one miss, not one per
  // member scattered over the record.
  State state_ = State::Created;
  bool interrupted_ = false; // interrupts_ is not empty: read on every wake, without loading the vector
  int id_;
  const Activity* blocked_on_ = nullptr;
  // Engine::wait_all: the activities waited for, in order; `next` is the first not known done, `registered` whether
  // the actor is among its waiters. While `active`, a wake that leaves some undone is answered by the engine.
  struct WaitAll {
    uint32_t next = 0;
    bool registered = false;
    bool active = false;
    WaitList activities;
    Activity* next_unfinished();  // moves `next` past the done ones (their waiters are gone)
    void prefetch_states() const; // asks for the states next_unfinished() reads after the next one. Only loads.
    static constexpr size_t kPrefetchAhead = 8; // states loaded at once by next_unfinished()
  };
  WaitAll wait_all_;
  const Activity* woken_by_ = nullptr; // the activity whose completion made it ready, if one did (written only)
  Engine& engine_;
  std::string name_;
  std::function<void()> body_;
  int memory_context_ = kNoMemoryContext;
  // Where the actor's stack lies, and the engine's (for AddressSanitizer builds).
  struct Stacks {
    ActorStack own;
    size_t guard_bytes = 0;
    const void* maestro_bottom = nullptr;
    size_t maestro_size = 0;
    void* maestro_fake_stack = nullptr;
    void* own_fake_stack = nullptr;
  };
  Stacks stacks_;
  // Copy-on-switch (SharedStack): the actor's frames while another actor uses the stack (kept as their differences
  // from a copy of the same depth: FrameCopy). Empty until the actor first leaves the stack to another.
  struct SavedFrames {
    SharedStack* stack = nullptr; // null: the actor has a stack of its own
    FrameCopy frames;
    bool started = false; // the fiber exists (made at the first run, when the stack is free)
  };
  SavedFrames saved_;
  boost::context::fiber fiber_;
  boost::context::fiber maestro_;
  std::exception_ptr failure_;
  bool cancelled_ = false;
  bool killed_ = false; // Engine::kill: finished without unwinding; its fiber is left as it is
  std::vector<std::function<void()>> interrupts_; // Engine::interrupt: handlers to run when the actor resumes
};

} // namespace mpisim::kernel
