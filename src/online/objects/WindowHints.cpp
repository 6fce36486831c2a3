#include "online/objects/WindowHints.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <sstream>

namespace mpisim::online {

namespace {

bool is_boolean(const std::string& value)
{
  return value == "true" || value == "false";
}

// "none", or a comma-separated list of the orderings rar, raw, war, waw.
bool is_ordering(const std::string& value)
{
  if (value == "none")
    return true;
  static constexpr std::array<const char*, 4> kOrderings{"rar", "raw", "war", "waw"};
  std::istringstream items(value);
  std::string item;
  int count = 0;
  while (std::getline(items, item, ',')) {
    if (std::find(kOrderings.begin(), kOrderings.end(), item) == kOrderings.end())
      return false;
    ++count;
  }
  return count > 0 && value.back() != ',';
}

bool is_accumulate_ops(const std::string& value)
{
  return value == "same_op" || value == "same_op_no_op";
}

bool valid_value(const std::string& key, const std::string& value)
{
  if (key == "accumulate_ordering")
    return is_ordering(value);
  if (key == "accumulate_ops")
    return is_accumulate_ops(value);
  return is_boolean(value); // no_locks, same_size, same_disp_unit, alloc_shared_noncontig
}

} // namespace

InfoObject default_window_hints(int flavor)
{
  InfoObject hints;
  hints.set("no_locks", "false");
  hints.set("accumulate_ordering", "rar,raw,war,waw");
  hints.set("accumulate_ops", "same_op_no_op");
  hints.set("same_size", "false");
  hints.set("same_disp_unit", "false");
  if (flavor == MPI_WIN_FLAVOR_SHARED)
    hints.set("alloc_shared_noncontig", "false");
  return hints;
}

void apply_window_hints(InfoObject& hints, const InfoObject& given)
{
  for (const auto& [key, value] : given.entries)
    if (hints.find(key) != nullptr && valid_value(key, value))
      hints.set(key, value);
}

} // namespace mpisim::online
