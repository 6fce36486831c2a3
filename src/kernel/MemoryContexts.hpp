// Memory that holds different values for different actors at the same addresses.
//
// The online mode's swap privatization loads the application once: every rank's globals live at the same addresses,
// and only one rank's values can be in place at a time. Each actor names the context it acts for (a rank); before
// an actor runs, the engine puts its context in place. Code that reaches into another context's memory from
// elsewhere (a message delivered into a rank's buffer) opens a MemoryContextScope. Actors spawned by an actor act for
// the same context: a non-blocking collective works on its rank's buffers and calls its rank's operations.
#pragma once

namespace mpisim::kernel {

class Engine;

inline constexpr int kNoMemoryContext = -1;

class MemoryContexts {
public:
  virtual ~MemoryContexts() = default;
  // Puts context `id`'s private memory in place (nothing to do when it is already).
  virtual void enter(int id) = 0;
  // The context whose memory is in place (kNoMemoryContext before the first enter()).
  virtual int current() const = 0;
  // Whether `address` lies in memory whose contents depend on the context.
  virtual bool is_private(const void* address) const = 0;
};

// Context `id` in place for the scope's lifetime. When an actor is running, its own context is put back at the end
// (it continues with its own memory); from the engine's own code there is nothing to restore.
class MemoryContextScope {
public:
  MemoryContextScope(Engine& engine, int id);
  ~MemoryContextScope();
  MemoryContextScope(const MemoryContextScope&) = delete;
  MemoryContextScope& operator=(const MemoryContextScope&) = delete;

private:
  MemoryContexts* contexts_ = nullptr;
  int restore_ = kNoMemoryContext;
};

} // namespace mpisim::kernel
