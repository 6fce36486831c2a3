#include "online/objects/NameService.hpp"

#include <algorithm>

namespace mpisim::online {

std::string NameService::open_port(int world_rank)
{
  std::string port = "mpisim-port-" + std::to_string(world_rank) + "-" + std::to_string(ports_opened_[world_rank]++);
  open_ports_.emplace(world_rank, port);
  return port;
}

bool NameService::close_port(int world_rank, const std::string& port)
{
  return open_ports_.erase({world_rank, port}) == 1;
}

bool NameService::publish(const std::string& service, const std::string& port)
{
  std::vector<std::string>& ports = names_[service];
  if (std::find(ports.begin(), ports.end(), port) != ports.end())
    return false;
  ports.push_back(port);
  return true;
}

bool NameService::unpublish(const std::string& service, const std::string& port)
{
  auto found = names_.find(service);
  if (found == names_.end())
    return false;
  std::vector<std::string>& ports = found->second;
  auto at = std::find(ports.begin(), ports.end(), port);
  if (at == ports.end())
    return false;
  ports.erase(at);
  if (ports.empty())
    names_.erase(found);
  return true;
}

std::optional<std::string> NameService::lookup(const std::string& service) const
{
  auto found = names_.find(service);
  if (found == names_.end())
    return std::nullopt;
  return found->second.front();
}

} // namespace mpisim::online
