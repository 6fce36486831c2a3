#include "replay/FolderListing.hpp"

#include <dirent.h>

namespace mpisim::replay {

FolderListing::FolderListing(const std::string& folder, size_t most_entries)
{
  DIR* directory = ::opendir(folder.empty() ? "." : folder.c_str());
  if (directory == nullptr)
    return;
  regular_files_.reserve(most_entries);
  size_t read = 0;
  while (const dirent* entry = ::readdir(directory)) {
    if (entry->d_type == DT_REG)
      regular_files_.emplace(entry->d_name);
    if (++read >= most_entries)
      break;
  }
  ::closedir(directory);
}

} // namespace mpisim::replay
