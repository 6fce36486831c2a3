#include "online/runner/SwappedProgram.hpp"

#include "common/Errors.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

// The dynamic thread-local block of a module, allocated for this thread on first use (ld.so, x86-64 ABI).
struct TlsIndex {
  unsigned long module;
  unsigned long offset;
};
extern "C" void* __tls_get_addr(TlsIndex* index); // NOLINT(bugprone-reserved-identifier): the ABI names it

namespace mpisim::online {

namespace {

std::byte* load_base(void* handle, const std::string& program)
{
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr)
    throw InputError(program, 0, std::string("cannot locate the loaded program: ") + dlerror());
  return reinterpret_cast<std::byte*>(map->l_addr); // NOLINT(performance-no-int-to-ptr): ld.so gives an address
}

// The main thread's block of the program's thread-locals (the ranks all run on it).
std::byte* thread_local_block(void* handle, const std::string& program)
{
  size_t module = 0;
  if (dlinfo(handle, RTLD_DI_TLS_MODID, &module) != 0 || module == 0)
    throw InputError(program, 0, "cannot locate the program's thread-local storage");
  TlsIndex index{module, 0};
  return static_cast<std::byte*>(__tls_get_addr(&index));
}

} // namespace

SwappedProgram::SwappedProgram(const std::string& program, const ProgramLayout& layout, int ranks)
{
  void* handle = load_program_file(program, program, 0, ranks);
  main_ = program_main(handle, program);
  handle_ = handle;
  std::byte* base = load_base(handle, program);
  if (layout.data_end > layout.data_start)
    regions_.push_back({base + layout.data_start, layout.data_end - layout.data_start});
  if (layout.tls_size > 0)
    regions_.push_back({thread_local_block(handle, program), layout.tls_size});
  for (const Region& region : regions_)
    image_size_ += region.size;
  initial_.resize(image_size_);
  save(initial_.data());
  images_.reset(new std::byte[static_cast<size_t>(ranks) * image_size_]); // pages touched as ranks first leave
  saved_.assign(static_cast<size_t>(ranks), false);
}

void SwappedProgram::save(std::byte* image) const
{
  for (const Region& region : regions_) {
    std::memcpy(image, region.start, region.size);
    image += region.size;
  }
}

void SwappedProgram::restore(const std::byte* image)
{
  for (const Region& region : regions_) {
    std::memcpy(region.start, image, region.size);
    image += region.size;
  }
}

void SwappedProgram::enter(int rank)
{
  if (rank == current_)
    return;
  if (current_ != kernel::kNoMemoryContext) {
    save(image_of(current_));
    saved_[static_cast<size_t>(current_)] = true;
  }
  restore(saved_[static_cast<size_t>(rank)] ? image_of(rank) : initial_.data());
  current_ = rank;
}

bool SwappedProgram::is_private(const void* address) const
{
  const auto* byte = static_cast<const std::byte*>(address);
  for (const Region& region : regions_)
    if (byte >= region.start && byte < region.start + region.size)
      return true;
  return false;
}

} // namespace mpisim::online
