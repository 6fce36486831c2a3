// Lookup by name of things kept in a vector (hosts, links, net points), without a second copy of their names.
//
// An open-addressing hash table of ids: a name is hashed, and the slots probed in turn hold ids whose names are read
// from where the things themselves keep them (`name_of(id)`). 8 to 16 bytes per name, against a node of a std::map
// or std::unordered_map with its own copy of the key (about 100 bytes, and a malloc per long name): a platform of a
// million hosts holds several million names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace mpisim::platform {

class NameIndex {
public:
  // The id named `name`, if any. `name_of(id)` gives the name of every id added.
  template <class NameOf> std::optional<uint32_t> find(std::string_view name, const NameOf& name_of) const
  {
    if (slots_.empty())
      return std::nullopt;
    for (size_t slot = first_slot(name);; slot = next_slot(slot)) {
      const uint32_t held = slots_[slot];
      if (held == kEmpty)
        return std::nullopt;
      if (name_of(held - 1) == name)
        return held - 1;
    }
  }

  // Adds `id` under `name`, which no id has yet (the caller checks: names are unique).
  template <class NameOf> void add(uint32_t id, std::string_view name, const NameOf& name_of)
  {
    if (2 * (count_ + 1) > slots_.size())
      grow(name_of);
    place(id, name);
    ++count_;
  }

  size_t size() const { return count_; }

private:
  static constexpr uint32_t kEmpty = 0; // slots hold id + 1

  size_t first_slot(std::string_view name) const { return std::hash<std::string_view>{}(name) & (slots_.size() - 1); }
  size_t next_slot(size_t slot) const { return (slot + 1) & (slots_.size() - 1); }

  void place(uint32_t id, std::string_view name)
  {
    size_t slot = first_slot(name);
    while (slots_[slot] != kEmpty)
      slot = next_slot(slot);
    slots_[slot] = id + 1;
  }

  // Doubles the table (at most half full) and puts every id back.
  template <class NameOf> void grow(const NameOf& name_of)
  {
    std::vector<uint32_t> old(slots_.empty() ? 16 : 2 * slots_.size(), kEmpty);
    old.swap(slots_);
    for (const uint32_t held : old)
      if (held != kEmpty)
        place(held - 1, name_of(held - 1));
  }

  std::vector<uint32_t> slots_;
  size_t count_ = 0;
};

} // namespace mpisim::platform
