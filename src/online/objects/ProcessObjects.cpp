#include "online/objects/ProcessObjects.hpp"

#include <algorithm>

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

int ProcessObjects::add_info(InfoObject info)
{
  infos_.emplace(next_info_, std::move(info));
  return next_info_++;
}

InfoObject* ProcessObjects::info(int handle)
{
  if (handle == MPI_INFO_ENV && infos_.count(MPI_INFO_ENV) == 0) {
    // What the standard suggests MPI_INFO_ENV holds that a simulated run knows of: the thread level it provides.
    InfoObject env;
    env.set("thread_level", "MPI_THREAD_FUNNELED");
    infos_.emplace(MPI_INFO_ENV, std::move(env));
  }
  auto found = infos_.find(handle);
  return found == infos_.end() ? nullptr : &found->second;
}

void ProcessObjects::release_info(int handle)
{
  if (handle != MPI_INFO_ENV)
    infos_.erase(handle);
}

int ProcessObjects::add_errhandler(MPI_Comm_errhandler_function* function)
{
  errhandlers_.emplace(next_errhandler_, UserErrhandler{function, 1});
  return next_errhandler_++;
}

UserErrhandler* ProcessObjects::errhandler(int handle)
{
  auto found = errhandlers_.find(handle);
  return found == errhandlers_.end() ? nullptr : &found->second;
}

} // namespace mpisim::online
