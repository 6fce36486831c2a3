// Where actors' stacks come from. The engine asks its stack provider for one stack per actor and gives it back when
// the actor ends; the front end picks the provider:
//  - GuardedStacks: a mapping per stack with an inaccessible guard region under it, so that an overflow faults
//    instead of writing into memory below (ranks running user code: online mode). Two memory mappings per actor,
//    counted against Linux's vm.max_map_count.
//  - StackArena: slices of a few large reservations, reused when an actor ends, no guard (ranks running only
//    mpisim's own code, of bounded depth: replay). The number of actors does not depend on vm.max_map_count; an
//    overflow is caught by a canary word right under each stack, checked each time the actor suspends or ends.
// In both, pages are reserved, not touched: a stack costs the pages its actor has used.
#pragma once

#include "kernel/CacheLines.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace mpisim::kernel {

// One actor's stack: usable bytes [bottom, bottom + size), growing down from the top.
struct ActorStack {
  void* bottom = nullptr;
  size_t size = 0;
  // The word right under an unguarded stack, which an overflow overwrites first (null under a guard region).
  uint64_t* canary = nullptr;
};

inline constexpr uint64_t kStackCanary = 0x6d7069736d21a5c3ULL;

// Whether the actor using `stack` has overflowed it: its canary is no longer intact (always false when guarded).
inline bool canary_broken(const ActorStack& stack)
{
  return stack.canary != nullptr && *stack.canary != kStackCanary;
}

class StackProvider {
public:
  virtual ~StackProvider() = default;
  // Throws InputError, before any is made, when `actors` stacks cannot all be had; the message names the limit that
  // is hit and how to raise it.
  virtual void check_capacity(long long actors) const = 0;
  // Throws std::bad_alloc when the system refuses memory.
  virtual ActorStack allocate() = 0;
  virtual void release(const ActorStack& stack) noexcept = 0;
  // The usable bytes of each stack.
  virtual size_t stack_bytes() const = 0;
  // The bytes of inaccessible memory right under each stack (0: none, the canary watches instead).
  virtual size_t guard_bytes() const = 0;
  // Whether every actor gets the same stack (SharedStack): the actors then save and restore their part of it.
  virtual bool shares_stack() const { return false; }
};

// The inaccessible region under each guarded stack: larger than a page, so that a frame of a few kilobytes (a local
// array) cannot jump over it; address space only (one mapping, no memory).
size_t stack_guard_bytes();

// The memory mappings the process has now (lines of /proc/self/maps).
long long mappings_in_use();

class GuardedStacks final : public StackProvider {
public:
  explicit GuardedStacks(size_t stack_bytes);
  // Each stack takes two memory mappings (the stack and its guard), counted against vm.max_map_count with the
  // mappings the process already has, and its size plus the guard in address space.
  void check_capacity(long long actors) const override;
  ActorStack allocate() override;
  void release(const ActorStack& stack) noexcept override;
  size_t stack_bytes() const override { return stack_bytes_; }
  size_t guard_bytes() const override { return stack_guard_bytes(); }

private:
  size_t stack_bytes_; // whole pages
};

class StackArena final : public StackProvider {
public:
  // Slices of `slice_bytes` (rounded up to whole pages, so that a shallow actor touches one page of its own), the
  // top 16 bytes of which are not stack (see Stacks.cpp).
  explicit StackArena(size_t slice_bytes);
  ~StackArena() override;
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;

  // Address space only: the reservations grow by doubling, a few dozen mappings whatever the number of actors.
  void check_capacity(long long actors) const override;
  ActorStack allocate() override;
  void release(const ActorStack& stack) noexcept override;
  size_t stack_bytes() const override;
  size_t guard_bytes() const override { return 0; }

  // Measurement of the stack depth actors reach (for sizing slices; tests): while on, each released slice is scanned
  // for the lowest word ever written above its canary, and the deepest use in any arena is kept.
  static void measure_depth(bool on) { measuring_.store(on); }
  static size_t deepest_use() { return deepest_use_.load(); }

private:
  void reserve_more();
  char* next_free_link(char* bottom) const;

  size_t slice_bytes_;
  struct Reservation {
    char* base;
    size_t bytes;
    size_t slices;
  };
  std::vector<Reservation> reservations_;
  char* next_ = nullptr; // the first slice never handed out, in the last reservation
  char* end_ = nullptr;
  char* free_ = nullptr; // released slices, linked, reused last in, first out (their touched pages are warm)
  static std::atomic<bool> measuring_;
  static std::atomic<size_t> deepest_use_;
};

class Actor;
class SharedStack;

// A suspended actor's frames while another actor has the shared stack. Frames saved at one depth by different actors
// hold mostly the same words (return addresses, spilled constants, the same code's locals); what differs is chiefly
// the addresses of each actor's own objects and its counters. So a copy keeps only the words where it differs from
// a reference copy of that depth, shared (SharedStack::references): a bitmap of them and their XORs with it, in 32
// bits when they fit (Stacks.cpp). When half of the words or more differ from each of the depth's references (up to
// 4, for the different paths that reach one depth), the frames become its newest reference (the copies made against
// the one that goes keep it). That search costs some 18 instructions a word where a plain copy costs under one, and
// it only pays at millions of actors: so while the stack's budget of plain copies lasts (SharedStack), a copy is the
// frames themselves, in a buffer the actor keeps.
class FrameCopy {
public:
  // Keeps `bytes` bytes of frames from `frames` (any alignment); the buffer is reused when the differences fit.
  void save(SharedStack& stack, const std::byte* frames, size_t bytes);
  // Writes the frames back to `frames` (bytes() bytes).
  void restore(std::byte* frames) const;
  size_t bytes() const { return bytes_; }
  // Asks the processor to load the first lines of the differences (the engine calls it for the actor that runs
  // next, whose copy has gone cold while the others ran).
  void prefetch() const
  {
    constexpr uint32_t kWordsPerLine = kCacheLineBytes / sizeof(uint64_t);
    const uint32_t lines = plain_ ? 16 : 6;
    const uint32_t words = plain_ ? (bytes_ + sizeof(uint64_t) - 1) / sizeof(uint64_t) : differing_;
    for (uint32_t word = 0; word < words && word < capacity_ && word < lines * kWordsPerLine; word += kWordsPerLine)
      __builtin_prefetch(differences_.get() + word);
  }
  void clear();
  // The heap bytes this copy holds on its own (the shared reference not counted): tests, measurements.
  size_t own_bytes() const { return size_t{capacity_} * sizeof(uint64_t); }

private:
  // Keeps the frames as they are, if the buffer holds them or the stack's budget grants a larger one.
  bool save_plain(SharedStack& stack, const std::byte* frames, size_t bytes);

  std::shared_ptr<const uint64_t[]> reference_;
  std::unique_ptr<uint64_t[]> differences_; // the bitmaps and XORs (differences_words() in Stacks.cpp), or the frames
  uint32_t capacity_ = 0;                   // of differences_, in words
  uint32_t differing_ = 0;                  // words that differ from the reference (0: differences_ unused)
  uint32_t bytes_ = 0;
  bool plain_ = false; // differences_ holds the frames themselves (no reference)
};

// One guarded stack that all actors run on, one at a time, with copy-on-switch (ranks running only mpisim's own code,
// which keeps no pointer into a suspended rank's stack: replay). When another actor needs the stack, the one on it
// copies the used part (from its saved stack pointer to the top) into a heap buffer of its own, copied back before it
// runs again (kernel/Actor.cpp). A suspended actor then costs the bytes it had in use, not a page; one never started
// costs nothing.
//
// Copies are plain until the buffers granted for plain copies reach `plain_copy_budget` bytes, then kept as their
// differences from a reference (FrameCopy): the budget bounds what plain copies cost at millions of actors, and below
// it (tens of thousands of ranks) the switches cost a memcpy each.
class SharedStack final : public StackProvider {
public:
  static constexpr size_t kDefaultPlainCopyBudget = size_t{64} << 20;
  explicit SharedStack(size_t stack_bytes, size_t plain_copy_budget = kDefaultPlainCopyBudget);
  ~SharedStack() override;
  SharedStack(const SharedStack&) = delete;
  SharedStack& operator=(const SharedStack&) = delete;

  void check_capacity(long long) const override {} // one mapping whatever the number of actors
  ActorStack allocate() override { return stack_; }
  void release(const ActorStack&) noexcept override {}
  size_t stack_bytes() const override { return stack_.size; }
  size_t guard_bytes() const override { return guarded_.guard_bytes(); }
  bool shares_stack() const override { return true; }

  // The actor whose frames are on the stack now (null: none, or they are no longer needed).
  Actor* occupant() const { return occupant_; }
  void set_occupant(Actor* actor) { occupant_ = actor; }
  // Copies made when an actor leaves the stack to another, and their bytes (measurement, tests).
  void note_saved(size_t bytes)
  {
    ++saves_;
    bytes_saved_ += bytes;
  }
  long long saves() const { return saves_; }
  unsigned long long bytes_saved() const { return bytes_saved_; }
  // The words of those copies that differed from their reference, and the references made (measurement, tests).
  unsigned long long words_differing() const { return words_differing_; }
  long long references_made() const { return references_made_; }
  // The bytes granted to plain copies so far (never given back: the budget bounds their total).
  size_t plain_bytes_granted() const { return plain_bytes_granted_; }

private:
  friend class FrameCopy;
  // The reference copies of frames `bytes` deep, newest first (null: none yet).
  using References = std::array<std::shared_ptr<const uint64_t[]>, 4>;
  References& references(size_t bytes);

  GuardedStacks guarded_;
  ActorStack stack_;
  Actor* occupant_ = nullptr;
  long long saves_ = 0;
  unsigned long long bytes_saved_ = 0;
  unsigned long long words_differing_ = 0;
  long long references_made_ = 0;
  size_t plain_copy_budget_;
  size_t plain_bytes_granted_ = 0;
  std::unordered_map<uint32_t, References> references_; // by depth in words
  std::vector<uint64_t> scratch_;                       // a copy's differences, before they are kept
};

} // namespace mpisim::kernel
