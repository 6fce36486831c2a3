// swap privatization: the application is loaded once, and every rank's globals, statics and thread-locals live at
// the same addresses; only the running rank's values are in place. When the engine passes control to another rank
// (kernel/MemoryContexts.hpp), the writable data and the thread-local block are saved into the leaving rank's image
// and the arriving rank's image is put in place. A rank costs the size of that data (often under a kilobyte)
// instead of a copy's pages and link map, so many more ranks fit in memory; a switch costs two copies of it.
//
// Messages reach into other ranks' data through MemoryContextScope (mpi/Message.cpp): a buffer in the program's
// data is read with its sender's values in place and written with its receiver's.
#pragma once

#include "online/runner/PrivatizedProgram.hpp"
#include "online/runner/ProgramLayout.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace mpisim::online {

class SwappedProgram final : public PrivatizedProgram, public kernel::MemoryContexts {
public:
  // Throws like load_program_file().
  SwappedProgram(const std::string& program, const ProgramLayout& layout, int ranks);

  ProgramMain main_of(int) const override { return main_; }
  void* handle_of(int) const override { return handle_; }
  kernel::MemoryContexts* memory_contexts() override { return this; }
  const char* name() const override { return "swap"; }

  void enter(int rank) override;
  int current() const override { return current_; }
  bool is_private(const void* address) const override;

  size_t image_size() const { return image_size_; }

private:
  struct Region {
    std::byte* start;
    size_t size;
  };
  std::byte* image_of(int rank) { return images_.get() + static_cast<size_t>(rank) * image_size_; }
  void save(std::byte* image) const;
  void restore(const std::byte* image);

  ProgramMain main_ = nullptr;
  void* handle_ = nullptr;
  std::vector<Region> regions_; // the writable data, the thread-local block
  size_t image_size_ = 0;
  std::vector<std::byte> initial_; // the values after loading: each rank's until it first runs
  std::unique_ptr<std::byte[]> images_;
  std::vector<bool> saved_; // images_ holds the rank's values
  int current_ = kernel::kNoMemoryContext;
};

} // namespace mpisim::online
