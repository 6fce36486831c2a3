#include "common/InputFiles.hpp"

#include "common/Errors.hpp"

#include <sys/stat.h>

namespace mpisim {

namespace {

const char* kind_of(mode_t mode)
{
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a file";
}

} // namespace

void require_regular_file(const std::string& path, const std::string& what)
{
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode))
    return;
  throw InputError(
      path, 0, std::string("not a regular file (") + kind_of(status.st_mode) + "): the " + what + " must be a file");
}

} // namespace mpisim
