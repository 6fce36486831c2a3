#include "online/objects/ProcessObjects.hpp"

#include <algorithm>
#include <cstdlib>

namespace mpisim::online {

const std::string* InfoObject::find(const std::string& key) const
{
  for (const auto& [k, value] : entries)
    if (k == key)
      return &value;
  return nullptr;
}

void InfoObject::set(const std::string& key, const std::string& value)
{
  for (auto& [k, v] : entries)
    if (k == key) {
      v = value;
      return;
    }
  entries.emplace_back(key, value);
}

bool InfoObject::erase(const std::string& key)
{
  auto found = std::find_if(entries.begin(), entries.end(), [&](const auto& entry) { return entry.first == key; });
  if (found == entries.end())
    return false;
  entries.erase(found);
  return true;
}

void* allocate_memory(MPI_Aint size)
{
  return std::malloc(size > 0 ? static_cast<size_t>(size) : 1);
}

void free_memory(void* base)
{
  std::free(base);
}

int ProcessObjects::add_info(InfoObject info)
{
  return infos_.insert(std::move(info));
}

InfoObject* ProcessObjects::info(int handle)
{
  if (handle == MPI_INFO_ENV && infos_.find(MPI_INFO_ENV) == nullptr) {
    // What the standard suggests MPI_INFO_ENV holds that a simulated run knows of: the thread level it provides.
    InfoObject env;
    env.set("thread_level", "MPI_THREAD_FUNNELED");
    return &infos_.insert_predefined(MPI_INFO_ENV, std::move(env));
  }
  return infos_.find(handle);
}

void ProcessObjects::release_info(int handle)
{
  if (handle != MPI_INFO_ENV)
    infos_.erase(handle);
}

int ProcessObjects::add_errhandler(MPI_Comm_errhandler_function* function)
{
  return errhandlers_.insert(UserErrhandler{function, 1});
}

UserErrhandler* ProcessObjects::errhandler(int handle)
{
  return errhandlers_.find(handle);
}

} // namespace mpisim::online
