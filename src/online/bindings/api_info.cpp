// Info objects (MPI_Info_create/set/get/get_valuelen/get_nkeys/get_nthkey/delete/dup/free, MPI_INFO_ENV) and
// communicator hints (MPI_Comm_set_info/get_info: stored and returned; none changes how mpisim simulates).
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/ProcessObjects.hpp"

#include <algorithm>
#include <cstring>

using namespace mpisim::online;

namespace {

int resolve_info(Runtime& runtime, MPI_Info info, const char* call, InfoObject*& out)
{
  out = info == MPI_INFO_NULL ? nullptr : runtime.process_objects().info(info);
  return out != nullptr ? MPI_SUCCESS
                        : runtime.process_objects().raise_invalid_info(runtime, info, MPI_COMM_WORLD, call);
}

int check_key(Runtime& runtime, const char* key, const char* call)
{
  if (key == nullptr || key[0] == '\0' || std::strlen(key) > MPI_MAX_INFO_KEY)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_INFO_KEY, call,
                       "info keys have 1 to MPI_MAX_INFO_KEY (" + std::to_string(MPI_MAX_INFO_KEY) + ") characters");
  return MPI_SUCCESS;
}

// Copies `text` into `out`, which holds `capacity` characters and the terminating zero.
void copy_out(const std::string& text, char* out, int capacity)
{
  const size_t length = std::min(text.size(), static_cast<size_t>(std::max(capacity, 0)));
  std::memcpy(out, text.data(), length);
  out[length] = '\0';
}

} // namespace

extern "C" int PMPI_Info_create(MPI_Info* info)
{
  Runtime& runtime = Runtime::get();
  *info = runtime.process_objects().add_info({});
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_set(MPI_Info info, const char* key, const char* value)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_set", object));
  MPISIM_CHECK(runtime, info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  MPISIM_TRY(check_key(runtime, key, "MPI_Info_set"));
  MPISIM_CHECK(runtime, value != nullptr && value[0] != '\0' && std::strlen(value) <= MPI_MAX_INFO_VAL, MPI_COMM_WORLD,
               MPI_ERR_INFO_VALUE,
               "info values have 1 to MPI_MAX_INFO_VAL (" + std::to_string(MPI_MAX_INFO_VAL) + ") characters");
  object->set(key, value);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_get", object));
  MPISIM_TRY(check_key(runtime, key, "MPI_Info_get"));
  MPISIM_CHECK(runtime, valuelen >= 0, MPI_COMM_WORLD, MPI_ERR_ARG, "negative valuelen " + std::to_string(valuelen));
  const std::string* found = object->find(key);
  *flag = found != nullptr;
  if (found != nullptr) // truncated to valuelen characters, as the standard says
    copy_out(*found, value, valuelen);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_get_valuelen", object));
  MPISIM_TRY(check_key(runtime, key, "MPI_Info_get_valuelen"));
  const std::string* found = object->find(key);
  *flag = found != nullptr;
  if (found != nullptr)
    *valuelen = static_cast<int>(found->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_get_nkeys", object));
  *nkeys = static_cast<int>(object->entries.size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_get_nthkey", object));
  const int keys = static_cast<int>(object->entries.size());
  MPISIM_CHECK(runtime, n >= 0 && n < keys, MPI_COMM_WORLD, MPI_ERR_ARG,
               "key " + std::to_string(n) + " of an info object holding " + std::to_string(keys));
  copy_out(object->entries[n].first, key, MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_delete(MPI_Info info, const char* key)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_delete", object));
  MPISIM_CHECK(runtime, info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  MPISIM_TRY(check_key(runtime, key, "MPI_Info_delete"));
  MPISIM_CHECK(runtime, object->erase(key), MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, std::string("no key '") + key + "'");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Info_dup", object));
  *newinfo = runtime.process_objects().add_info(*object);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_free(MPI_Info* info)
{
  Runtime& runtime = Runtime::get();
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, *info, "MPI_Info_free", object));
  MPISIM_CHECK(runtime, *info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
  runtime.process_objects().release_info(*info);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_set_info", c));
  InfoObject* object = nullptr;
  MPISIM_TRY(resolve_info(runtime, info, "MPI_Comm_set_info", object));
  InfoObject& hints = runtime.process_objects().of_rank(runtime.current_rank()).comm_hints[comm];
  for (const auto& [key, value] : object->entries)
    hints.set(key, value);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_get_info", c));
  const auto& hints = runtime.process_objects().of_rank(runtime.current_rank()).comm_hints;
  auto found = hints.find(comm);
  *info_used = runtime.process_objects().add_info(found == hints.end() ? InfoObject{} : found->second);
  return MPI_SUCCESS;
}

// A duplicate (attributes copied as by MPI_Comm_dup) whose hints are those of `info` only (MPI-3.1 section 6.4.2).
extern "C" int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  InfoObject* object = nullptr;
  if (info != MPI_INFO_NULL)
    MPISIM_TRY(resolve_info(runtime, info, "MPI_Comm_dup_with_info", object));
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_dup", parent)); // named as by the MPI_Comm_dup it used to make
  MPISIM_TRY(dup_comm(runtime, comm, *parent, newcomm));
  InfoObject& hints = runtime.process_objects().of_rank(runtime.current_rank()).comm_hints[*newcomm];
  hints = InfoObject{};
  if (object != nullptr)
    for (const auto& [key, value] : object->entries)
      hints.set(key, value);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Info_create)
MPISIM_ALIAS(Info_set)
MPISIM_ALIAS(Info_get)
MPISIM_ALIAS(Info_get_valuelen)
MPISIM_ALIAS(Info_get_nkeys)
MPISIM_ALIAS(Info_get_nthkey)
MPISIM_ALIAS(Info_delete)
MPISIM_ALIAS(Info_dup)
MPISIM_ALIAS(Info_free)
MPISIM_ALIAS(Comm_set_info)
MPISIM_ALIAS(Comm_get_info)
MPISIM_ALIAS(Comm_dup_with_info)
