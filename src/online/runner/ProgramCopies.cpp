#include "online/runner/ProgramCopies.hpp"

#include "common/Errors.hpp"

#include <filesystem>
#include <unistd.h>

namespace mpisim::online {

namespace fs = std::filesystem;

namespace {

// Removes the directory of the copies however loading ends.
struct CopiesDirectory {
  fs::path path;
  ~CopiesDirectory()
  {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

} // namespace

ProgramCopies::ProgramCopies(const std::string& program, int ranks, const std::string& tmpdir)
{
  if (not fs::exists(program))
    throw InputError(program, 0, "no such program");
  std::string pattern = (fs::path(tmpdir) / "mpisim-run-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw InputError(tmpdir, 0, "cannot create a temporary directory for the ranks' copies of the program");
  const CopiesDirectory directory{pattern};
  const std::string name = fs::path(program).filename().string();
  mains_.reserve(static_cast<size_t>(ranks));
  handles_.reserve(static_cast<size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) {
    const fs::path copy = directory.path / ("rank" + std::to_string(rank) + "-" + name);
    fs::copy_file(program, copy);
    void* handle = nullptr;
    try {
      handle = load_program_file(copy.string(), program, rank, ranks);
    } catch (...) {
      fs::remove(copy);
      throw;
    }
    fs::remove(copy);
    mains_.push_back(program_main(handle, program));
    handles_.push_back(handle);
  }
}

} // namespace mpisim::online
