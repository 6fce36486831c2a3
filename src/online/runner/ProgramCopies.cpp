#include "online/runner/ProgramCopies.hpp"

#include "common/Errors.hpp"

#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace mpisim::online {

namespace fs = std::filesystem;

std::string mapping_limit_hint()
{
  std::ifstream limit("/proc/sys/vm/max_map_count");
  long count = 0;
  return "out of memory mappings? vm.max_map_count is " + (limit >> count ? std::to_string(count) : "unknown") +
         "; raise it with `sysctl -w vm.max_map_count=N`, as root";
}

namespace {

// The first copy failing means the program itself cannot be loaded; a later one, that the process ran out of
// something per copy: usually memory mappings (each copy maps its segments, each rank's stack two more).
std::string load_failure(int rank, int ranks, const std::string& reason)
{
  if (rank == 0)
    return "cannot load the program (build it with `mpisim cc`): " + reason;
  return "cannot load the copy of the program for rank " + std::to_string(rank) + " of " + std::to_string(ranks) +
         ": " + reason + " (" + mapping_limit_hint() + ")";
}

// The MPI function named by a loader error "...: undefined symbol: MPI_Win_create", or "".
std::string missing_mpi_function(const std::string& error)
{
  const std::string marker = "undefined symbol: ";
  const size_t at = error.find(marker);
  if (at == std::string::npos)
    return "";
  const std::string symbol = error.substr(at + marker.size());
  const bool mpi = symbol.rfind("MPI_", 0) == 0 || symbol.rfind("PMPI_", 0) == 0;
  return mpi ? symbol.substr(0, symbol.find_first_of(" \t\n(")) : "";
}

} // namespace

ProgramCopies::ProgramCopies(const std::string& program, int ranks, const std::string& tmpdir)
{
  if (not fs::exists(program))
    throw InputError(program, 0, "no such program");
  std::string pattern = (fs::path(tmpdir) / "mpisim-run-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw InputError(tmpdir, 0, "cannot create a temporary directory for the ranks' copies of the program");
  const fs::path directory = pattern;
  const std::string name = fs::path(program).filename().string();
  for (int rank = 0; rank < ranks; ++rank) {
    const fs::path copy = directory / ("rank" + std::to_string(rank) + "-" + name);
    fs::copy_file(program, copy);
    void* handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
    fs::remove(copy);
    if (handle == nullptr) {
      const std::string error = dlerror();
      fs::remove_all(directory);
      const std::string function = missing_mpi_function(error);
      if (not function.empty())
        throw UnsupportedMpiCall("mpisim: " + program + " uses " + function + ", which mpisim does not support");
      throw InputError(program, 0, load_failure(rank, ranks, error));
    }
    auto main = reinterpret_cast<ProgramMain>(dlsym(handle, "main"));
    if (main == nullptr) {
      fs::remove_all(directory);
      throw InputError(program, 0, "the program has no main function");
    }
    handles_.push_back(handle);
    mains_.push_back(main);
  }
  fs::remove_all(directory);
}

ProgramCopies::~ProgramCopies()
{
  // The copies stay loaded: their atexit handlers and static destructors may still run at process exit.
}

} // namespace mpisim::online
