// MPI objects that belong to one MPI process in a real run, kept for every rank: info objects, user error handlers,
// added error classes, codes and strings, datatype names, communicator hints, the thread level.
//
// Info objects and error handlers get handles of their own (unique across ranks, like derived datatypes): a rank
// only ever sees those it created. What MPI keys by a predefined handle (the name of MPI_INT, the hints of
// MPI_COMM_WORLD) is kept per rank, since each process of a real run has its own.
#pragma once

#include "online/runtime/HandleTable.hpp"

#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::online {

// Keys in the order they were first set (as Open MPI and MPICH return them by MPI_Info_get_nthkey).
struct InfoObject {
  std::vector<std::pair<std::string, std::string>> entries;

  const std::string* find(const std::string& key) const;
  void set(const std::string& key, const std::string& value);
  bool erase(const std::string& key);
};

struct UserErrhandler {
  MPI_Comm_errhandler_function* function = nullptr;
  // Handles the application holds: MPI_Comm_create_errhandler and MPI_Comm_get_errhandler give one, MPI_Errhandler_free
  // takes one back. At 0 the handler can no longer be attached; communicators using it still call it.
  int references = 1;
};

// What one rank has added or named.
struct RankObjects {
  int last_used_code = MPI_ERR_LASTCODE; // the latest class or code added (MPI_LASTUSEDCODE)
  std::map<int, int> class_of_code;      // added codes and classes -> their class
  std::map<int, std::string> error_strings;
  std::map<int, std::string> type_names; // by datatype handle
  // MPI_Type_create_f90_*: the handle of each combiner and parameters, returned again for the same arguments
  std::map<std::vector<int>, int> fortran_kind_types;
  std::map<int, InfoObject> comm_hints; // by communicator handle (MPI_Comm_set_info)
  int thread_level = MPI_THREAD_SINGLE; // provided by MPI_Init_thread
};

// Memory of MPI_Alloc_mem and MPI_Win_allocate (`size` >= 0): simulated hosts have no special memory, so the info
// hints do not apply. Null when it cannot be had.
void* allocate_memory(MPI_Aint size);
void free_memory(void* base);

class ProcessObjects {
public:
  explicit ProcessObjects(int ranks) : ranks_(ranks) {}

  // Made on first use: most ranks of a large run never need any (memory per rank is what limits scale).
  RankObjects& of_rank(int world_rank)
  {
    std::unique_ptr<RankObjects>& objects = ranks_[static_cast<size_t>(world_rank)];
    if (not objects)
      objects = std::make_unique<RankObjects>();
    return *objects;
  }

  // Info objects; MPI_INFO_ENV (handle 1) is built on first use. Null for invalid or freed handles.
  int add_info(InfoObject info);
  InfoObject* info(int handle);
  void release_info(int handle);
  // MPI_ERR_INFO: "invalid info object <handle>", through `comm`'s error handler.
  int raise_invalid_info(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return infos_.raise_invalid(runtime, handle, comm, call);
  }

  // User error handlers, by MPI_Errhandler handle (above MPI_ERRORS_RETURN).
  int add_errhandler(MPI_Comm_errhandler_function* function);
  UserErrhandler* errhandler(int handle);

private:
  std::vector<std::unique_ptr<RankObjects>> ranks_;
  HandleTable<InfoObject> infos_{{MPI_ERR_INFO, "info object"}, MPI_INFO_ENV + 1};
  HandleTable<UserErrhandler> errhandlers_{{MPI_ERR_ARG, "error handler"}, MPI_ERRORS_RETURN + 1};
};

} // namespace mpisim::online
