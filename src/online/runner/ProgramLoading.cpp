#include "online/runner/ProgramLoading.hpp"

#include "common/Errors.hpp"

#include <dlfcn.h>
#include <fstream>

namespace mpisim::online {

std::string mapping_limit_hint()
{
  std::ifstream limit("/proc/sys/vm/max_map_count");
  long count = 0;
  return "out of memory mappings? vm.max_map_count is " + (limit >> count ? std::to_string(count) : "unknown") +
         "; raise it with `sysctl -w vm.max_map_count=N`, as root";
}

namespace {

// The first load failing means the program itself cannot be loaded; a later one (a rank's copy), that the process
// ran out of something per copy: usually memory mappings.
std::string load_failure(int rank, int ranks, const std::string& reason)
{
  if (rank == 0)
    return "cannot load the program (build it with `mpisim cc`): " + reason;
  return "cannot load the copy of the program for rank " + std::to_string(rank) + " of " + std::to_string(ranks) +
         ": " + reason + " (" + mapping_limit_hint() + ")";
}

// The MPI function named by a loader error "...: undefined symbol: MPI_Win_lock", or "".
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

void* load_program_file(const std::string& file, const std::string& program, int rank, int ranks)
{
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr)
    return handle;
  const std::string error = dlerror();
  const std::string function = missing_mpi_function(error);
  if (not function.empty())
    throw UnsupportedMpiCall("mpisim: " + program + " uses " + function + ", which mpisim does not support");
  throw InputError(program, 0, load_failure(rank, ranks, error));
}

ProgramMain program_main(void* handle, const std::string& program)
{
  auto main = reinterpret_cast<ProgramMain>(dlsym(handle, "main"));
  if (main == nullptr)
    throw InputError(program, 0, "the program has no main function");
  return main;
}

} // namespace mpisim::online
