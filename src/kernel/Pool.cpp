#include "kernel/Pool.hpp"

#include "kernel/CacheLines.hpp"

#include <cassert>

namespace mpisim::kernel {

namespace {
constexpr size_t kSlabBytes = size_t{64} * 1024;
// Slabs start on a cache line, so that blocks whose size is a multiple of one (requests: 256 bytes with their control
// block, messages: 320) start on one too and span no more lines than they must.
constexpr std::align_val_t kSlabAlignment{kCacheLineBytes};
} // namespace

BlockPool::BlockPool(size_t block_bytes)
    : block_bytes_(round_up(block_bytes < sizeof(FreeBlock) ? sizeof(FreeBlock) : block_bytes))
{
}

BlockPool::~BlockPool()
{
  thread_bytes_.reserved -= reserved_bytes_;
  for (std::byte* slab : slabs_)
    ::operator delete(slab, kSlabAlignment);
}

// A new slab, its blocks pushed so that they are handed out in address order.
void BlockPool::refill()
{
  assert(free_ == nullptr);
  const size_t blocks = block_bytes_ >= kSlabBytes ? 1 : kSlabBytes / block_bytes_;
  auto* slab = static_cast<std::byte*>(::operator new(blocks* block_bytes_, kSlabAlignment));
  slabs_.push_back(slab);
  reserved_bytes_ += blocks * block_bytes_;
  thread_bytes_.reserved += blocks * block_bytes_;
  for (size_t i = blocks; i-- > 0;)
    push_free(slab + i * block_bytes_);
}

} // namespace mpisim::kernel
