// The regular files of one folder, listed by a single directory read: what lets an index of 16 384 trace files be
// checked without a stat() per file (a replay's fixed cost, bench/README.md, session 15).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>

namespace mpisim::replay {

class FolderListing {
public:
  // Lists `folder` ("" for the current directory), reading at most `most_entries` entries: a huge folder holding a
  // few of the files wanted is not read whole. An unreadable folder lists nothing.
  FolderListing(const std::string& folder, size_t most_entries);

  // True when `name` (a bare file name) is in the folder as a regular file. False says nothing: not listed, not
  // read that far, or of a type the listing does not tell (a symbolic link, a file system without entry types):
  // the caller then asks stat().
  bool lists_regular_file(std::string_view name) const { return regular_files_.contains(std::string(name)); }

private:
  std::unordered_set<std::string> regular_files_;
};

} // namespace mpisim::replay
