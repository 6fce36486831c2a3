#include "models/NetworkModel.hpp"

#include "common/Errors.hpp"

#include <algorithm>

namespace mpisim::models {

namespace {
std::vector<NetworkModelEntry>& entries()
{
  static std::vector<NetworkModelEntry> registry; // built by static initializers: keep it function-local
  return registry;
}
} // namespace

std::string describe_message(const platform::Platform& platform, platform::HostId src, platform::HostId dst)
{
  return "message from " + platform.hosts()[src].name + " to " + platform.hosts()[dst].name;
}

namespace {
std::string write_message(const void* platform, uint32_t src, uint32_t dst)
{
  return describe_message(*static_cast<const platform::Platform*>(platform), src, dst);
}
} // namespace

kernel::TimerDescription message_timer_description(const platform::Platform& platform, platform::HostId src,
                                                   platform::HostId dst)
{
  return {write_message, &platform, src, dst};
}

void NetworkModelRegistry::add(NetworkModelEntry entry)
{
  auto& registry = entries();
  auto position = std::lower_bound(registry.begin(), registry.end(), entry.name,
                                   [](const NetworkModelEntry& e, const std::string& name) { return e.name < name; });
  registry.insert(position, std::move(entry));
}

const NetworkModelEntry& NetworkModelRegistry::find(const std::string& name)
{
  for (const NetworkModelEntry& entry : entries())
    if (entry.name == name)
      return entry;
  std::string valid;
  for (const NetworkModelEntry& entry : entries())
    valid += (valid.empty() ? "" : ", ") + entry.name;
  throw InputError("unknown network model '" + name + "' (valid models: " + valid + ")");
}

const std::vector<NetworkModelEntry>& NetworkModelRegistry::all()
{
  return entries();
}

} // namespace mpisim::models
