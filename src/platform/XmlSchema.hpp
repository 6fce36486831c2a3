// What the platform DTD allows (SimGrid 3.32's platform DTD, versions 4 and 4.1), as
// tables the XML loader checks each element against, plus byte-offset to line conversion.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::platform {

// Byte offset -> 1-based line number.
class LineIndex {
public:
  explicit LineIndex(const std::string& text)
  {
    for (size_t i = 0; i < text.size(); i++)
      if (text[i] == '\n')
        newlines_.push_back(i);
  }
  long line_of(ptrdiff_t offset) const
  {
    if (offset < 0)
      return 0;
    auto before = std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<size_t>(offset));
    return static_cast<long>(before - newlines_.begin()) + 1;
  }

private:
  std::vector<size_t> newlines_;
};

// Attributes of an element: those it must have and those it may have.
struct ElementRule {
  std::vector<std::string_view> required;
  std::vector<std::string_view> optional;
};

// Every element of the DTD, by name.
const std::map<std::string_view, ElementRule>& element_rules();

// Elements SimGrid 3.32 refuses outright (or that need a routing mpisim lacks), with the reason.
const std::map<std::string_view, std::string_view>& removed_elements();

// Which content makes a zone a leaf (hosts and routers) or an inner zone (sub-zones): never both.
enum class ZoneContent { Undecided, Leaf, Inner };
ZoneContent content_kind(std::string_view element);

} // namespace mpisim::platform
