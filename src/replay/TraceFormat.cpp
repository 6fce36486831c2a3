#include "replay/TraceFormat.hpp"

#include <algorithm>
#include <stdexcept>

namespace mpisim::replay {

namespace {

std::vector<TraceFormatEntry>& entries()
{
  static std::vector<TraceFormatEntry> registered;
  return registered;
}

} // namespace

void TraceFormatRegistry::add(TraceFormatEntry entry)
{
  auto& all = entries();
  const auto at = std::lower_bound(all.begin(), all.end(), entry.name,
                                   [](const TraceFormatEntry& e, const std::string& name) { return e.name < name; });
  all.insert(at, std::move(entry));
}

const TraceFormatEntry& TraceFormatRegistry::for_path(const std::string& path)
{
  const TraceFormatEntry* fallback = nullptr;
  for (const TraceFormatEntry& entry : entries()) {
    if (entry.fallback)
      fallback = &entry;
    else if (entry.recognises(path))
      return entry;
  }
  if (fallback == nullptr)
    throw std::logic_error("no fallback trace format registered");
  return *fallback;
}

const std::vector<TraceFormatEntry>& TraceFormatRegistry::all()
{
  return entries();
}

TraceSet open_trace(const std::string& path, int np, const TraceFormatOptions& options)
{
  return TraceFormatRegistry::for_path(path).open(path, np, options);
}

} // namespace mpisim::replay
