#include "timeline/TimelineWriter.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <cctype>

namespace mpisim::timeline {

namespace {

std::vector<TimelineWriterEntry>& entries()
{
  static std::vector<TimelineWriterEntry> registry; // built by static initializers: keep it function-local
  return registry;
}

std::string lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool ends_with(const std::string& text, const std::string& suffix)
{
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

void TimelineWriterRegistry::add(TimelineWriterEntry entry)
{
  auto& registry = entries();
  auto position = std::lower_bound(registry.begin(), registry.end(), entry.name,
                                   [](const TimelineWriterEntry& e, const std::string& name) { return e.name < name; });
  registry.insert(position, std::move(entry));
}

const TimelineWriterEntry& TimelineWriterRegistry::find(const std::string& name)
{
  for (const TimelineWriterEntry& entry : entries())
    if (entry.name == name)
      return entry;
  std::string valid;
  for (const TimelineWriterEntry& entry : entries())
    valid += (valid.empty() ? "" : ", ") + entry.name;
  throw InputError("unknown timeline format '" + name + "' (valid formats: " + valid + ")");
}

const TimelineWriterEntry& TimelineWriterRegistry::for_path(const std::string& path)
{
  const std::string name = lower(path);
  for (const TimelineWriterEntry& entry : entries())
    for (const std::string& extension : entry.extensions)
      if (ends_with(name, extension))
        return entry;
  std::string valid;
  for (const TimelineWriterEntry& entry : entries())
    for (const std::string& extension : entry.extensions)
      valid += (valid.empty() ? "" : ", ") + extension + " (" + entry.name + ")";
  throw InputError(path, 0,
                   "cannot tell the timeline format from the file name: use one of " + valid +
                       " or name the format (--timeline-format)");
}

const std::vector<TimelineWriterEntry>& TimelineWriterRegistry::all()
{
  return entries();
}

std::unique_ptr<TimelineWriter> open_timeline(const TimelineOptions& options, const std::string& format)
{
  const TimelineWriterEntry& entry =
      format.empty() ? TimelineWriterRegistry::for_path(options.path) : TimelineWriterRegistry::find(format);
  return entry.factory(options);
}

} // namespace mpisim::timeline
