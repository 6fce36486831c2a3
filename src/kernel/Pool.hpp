// Free lists for the small objects a simulation makes and drops by the million (requests, messages, timers: several
// per simulated message).
//
// Blocks of one size are carved from slabs of 64 KiB and handed back to a free list of that size, never to malloc:
// no malloc header per block (16 bytes on glibc), no bin search, and the block freed last is the next one handed out
// (still in the cache). Every size class is a list per thread (the core runs one simulation at a time per thread);
// its slabs live as long as the process, so a block may outlive the simulation, or the thread, that made it. Nothing
// in a simulation depends on where its objects lie, so runs stay reproducible bit for bit.
//
// Use: std::allocate_shared<T>(PoolAllocator<T>{}, args...) puts the object and its shared_ptr control block in one
// pooled block.
#pragma once

#include "kernel/CacheLines.hpp"

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace mpisim::kernel {

// Bytes of pools: taken from the system, in objects now, and the most ever in objects at once (what the free lists
// hold beyond that is the cost of never returning blocks).
struct PoolBytes {
  size_t reserved = 0;
  size_t in_use = 0;
  size_t peak_in_use = 0;
};

class BlockPool {
public:
  explicit BlockPool(size_t block_bytes);
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool();

  void* allocate()
  {
    if (free_ == nullptr)
      refill();
    FreeBlock* block = free_;
    free_ = block->next;
    // The next block handed out may have been freed long ago (a burst of allocations goes deep into the list): its
    // link is read by the next allocate() and its lines written by the next constructor. Asked for now, with intent
    // to write, it arrives while this block is used. Only loads (a null head is not dereferenced).
    if (free_ != nullptr)
      prefetch_bytes_for_write(free_, block_bytes_);
    thread_bytes_.in_use += block_bytes_;
    if (thread_bytes_.in_use > thread_bytes_.peak_in_use)
      thread_bytes_.peak_in_use = thread_bytes_.in_use;
    return block;
  }
  void release(void* pointer)
  {
    thread_bytes_.in_use -= block_bytes_;
    push_free(pointer);
  }

  size_t block_bytes() const { return block_bytes_; }
  // Bytes taken from the system so far (slabs), for memory reports and tests.
  size_t reserved_bytes() const { return reserved_bytes_; }

  // All of this thread's pools together (measurements, tests).
  static const PoolBytes& thread_bytes() { return thread_bytes_; }

  // This thread's pool of blocks of `Bytes` bytes (a multiple of kAlignment: one pool per rounded size).
  template <size_t Bytes> static BlockPool& of_size()
  {
    // Never destroyed: blocks may come back after the thread's own objects are gone.
    static_assert(Bytes % kAlignment == 0);
    thread_local BlockPool* pool = new BlockPool(Bytes);
    return *pool;
  }

  static constexpr size_t kAlignment = alignof(std::max_align_t);
  static constexpr size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

private:
  struct FreeBlock {
    FreeBlock* next;
  };
  void refill();
  void push_free(void* pointer)
  {
    auto* block = static_cast<FreeBlock*>(pointer);
    block->next = free_;
    free_ = block;
  }

  static inline thread_local PoolBytes thread_bytes_;
  size_t block_bytes_;
  FreeBlock* free_ = nullptr;
  size_t reserved_bytes_ = 0;
  std::vector<std::byte*> slabs_; // returned at destruction (the per-thread pools of of_size() never are)
};

// A standard allocator over BlockPool: single objects come from the pool of their size, arrays from operator new.
template <class T> class PoolAllocator {
public:
  using value_type = T;
  static_assert(alignof(T) <= BlockPool::kAlignment, "over-aligned types are not pooled");

  PoolAllocator() = default;
  template <class U> PoolAllocator(const PoolAllocator<U>&) noexcept {}

  T* allocate(size_t count)
  {
    if (count == 1)
      return static_cast<T*>(BlockPool::of_size<BlockPool::round_up(sizeof(T))>().allocate());
    return static_cast<T*>(::operator new(count * sizeof(T)));
  }
  void deallocate(T* pointer, size_t count) noexcept
  {
    if (count == 1)
      BlockPool::of_size<BlockPool::round_up(sizeof(T))>().release(pointer);
    else
      ::operator delete(pointer);
  }

  template <class U> bool operator==(const PoolAllocator<U>&) const noexcept { return true; }
};

// std::make_shared with the object and its control block in one pooled block.
template <class T, class... Args> std::shared_ptr<T> make_pooled(Args&&... args)
{
  return std::allocate_shared<T>(PoolAllocator<T>{}, std::forward<Args>(args)...);
}

} // namespace mpisim::kernel
