#include "online/runner/HugePages.hpp"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace mpisim::online {

namespace {

constexpr const char* kHugetlbTunable = "glibc.malloc.hugetlb";

// The value the last `glibc.malloc.hugetlb=` of a colon-separated GLIBC_TUNABLES gives, if any.
std::optional<std::string> hugetlb_setting(const std::string& tunables)
{
  std::optional<std::string> value;
  const std::string prefix = std::string(kHugetlbTunable) + "=";
  size_t start = 0;
  while (start <= tunables.size()) {
    size_t end = tunables.find(':', start);
    if (end == std::string::npos)
      end = tunables.size();
    if (tunables.compare(start, prefix.size(), prefix) == 0 && end - start >= prefix.size())
      value = tunables.substr(start + prefix.size(), end - start - prefix.size());
    start = end + 1;
  }
  return value;
}

std::string environment_tunables()
{
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr ? tunables : "";
}

// /sys/kernel/mm/transparent_hugepage/enabled reads "always [madvise] never": the bracketed word is the mode.
bool transparent_huge_pages_never()
{
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return not std::getline(file, modes) || modes.find("[never]") != std::string::npos;
}

} // namespace

std::string tunables_with_huge_pages(const std::string& tunables)
{
  if (hugetlb_setting(tunables).has_value())
    return tunables;
  const std::string setting = std::string(kHugetlbTunable) + "=1";
  return tunables.empty() ? setting : tunables + ":" + setting;
}

bool heap_huge_pages_in_effect()
{
  const std::optional<std::string> value = hugetlb_setting(environment_tunables());
  if (value == "2")
    return true;
  return value == "1" && not transparent_huge_pages_never();
}

void restart_with_huge_pages(bool wanted, char** argv)
{
  const std::string tunables = environment_tunables();
  if (not wanted || hugetlb_setting(tunables).has_value())
    return;
  if (::setenv("GLIBC_TUNABLES", tunables_with_huge_pages(tunables).c_str(), 1) != 0)
    return;
  ::execv("/proc/self/exe", argv);
  // The exec failed: the run goes on with 4 KiB pages, and the environment says what it had.
  if (tunables.empty())
    ::unsetenv("GLIBC_TUNABLES");
  else
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
}

} // namespace mpisim::online
