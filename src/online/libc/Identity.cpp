// Who a rank is: the host name is its simulated host's, and each rank has its own process id, as the processes of a
// real run do (docs/online.md, "The C library, rank by rank").
#include "online/libc/Caller.hpp"
#include "online/runtime/RealLibc.hpp"

#include "platform/Platform.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

using namespace mpisim::online;

namespace {

const std::string& host_name(int rank)
{
  Runtime& runtime = Runtime::get();
  return runtime.world().platform().hosts()[runtime.world().rank(rank).host()].name;
}

} // namespace

extern "C" int gethostname(char* name, size_t length) noexcept
{
  const int rank = Runtime::libc_rank();
  if (rank < 0)
    return real::gethostname(name, length);
  const std::string& host = host_name(rank);
  // As glibc: as much as fits, and ENAMETOOLONG when the name and its terminator do not.
  const size_t copied = std::min(length, host.size() + 1);
  std::memcpy(name, host.c_str(), copied);
  if (host.size() + 1 > length) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

extern "C" int uname(utsname* name) noexcept
{
  const int status = real::uname(name);
  const int rank = Runtime::libc_rank();
  if (status != 0 || rank < 0)
    return status;
  const std::string& host = host_name(rank);
  const size_t copied = std::min(host.size(), sizeof name->nodename - 1);
  std::memcpy(name->nodename, host.data(), copied);
  name->nodename[copied] = '\0';
  return 0;
}

extern "C" pid_t getpid() noexcept
{
  const int rank = Runtime::libc_rank();
  return rank < 0 ? real::getpid() : kFirstRankPid + rank;
}
