// Each rank's own environment (docs/online.md, "The C library, rank by rank"). Every rank starts with the process's;
// the first change a rank makes (setenv, putenv, unsetenv, clearenv) gives it its own array of entries, which
// `environ` points to whenever the rank runs (runtime/LibcStates.hpp swaps it), so getenv, and whatever reads
// `environ`, see the rank's own. Outside a rank, the changes are the process's, made by the C library.
#include "online/libc/Caller.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace mpisim::online;

namespace {

template <class Function> Function* c_library(const char* name)
{
  return reinterpret_cast<Function*>(dlsym(RTLD_NEXT, name));
}

// The calling rank's own environment, made from the one it reads now on its first change.
Environment& own_environment()
{
  std::unique_ptr<Environment>& environment = caller_libc().environment;
  if (not environment) {
    environment = std::make_unique<Environment>();
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
      environment->entries.push_back(*entry);
    environment->entries.push_back(nullptr);
  }
  environ = environment->entries.data();
  return *environment;
}

bool valid_name(const char* name)
{
  return name != nullptr && *name != '\0' && std::strchr(name, '=') == nullptr;
}

// The entry `NAME=...` for the first `length` characters of `name`, or entries.end() - 1 (the terminator).
std::vector<char*>::iterator find_entry(Environment& environment, const char* name, size_t length)
{
  auto entry = environment.entries.begin();
  for (; *entry != nullptr; ++entry)
    if (std::strncmp(*entry, name, length) == 0 && (*entry)[length] == '=')
      break;
  return entry;
}

void set_entry(Environment& environment, const char* name, size_t length, char* entry)
{
  const auto at = find_entry(environment, name, length);
  if (*at != nullptr) {
    *at = entry;
    return;
  }
  environment.entries.insert(environment.entries.end() - 1, entry);
  environ = environment.entries.data();
}

void remove_entries(Environment& environment, const char* name)
{
  const size_t length = std::strlen(name);
  for (auto at = find_entry(environment, name, length); *at != nullptr; at = find_entry(environment, name, length))
    environment.entries.erase(at);
  environ = environment.entries.data();
}

} // namespace

extern "C" int setenv(const char* name, const char* value, int overwrite) noexcept
{
  if (Runtime::libc_rank() < 0)
    return c_library<decltype(::setenv)>("setenv")(name, value, overwrite);
  if (not valid_name(name)) {
    errno = EINVAL;
    return -1;
  }
  Environment& environment = own_environment();
  const size_t length = std::strlen(name);
  if (not overwrite && *find_entry(environment, name, length) != nullptr)
    return 0;
  std::string& made = environment.made.emplace_back(std::string(name) + "=" + value);
  set_entry(environment, name, length, made.data());
  return 0;
}

extern "C" int unsetenv(const char* name) noexcept
{
  if (Runtime::libc_rank() < 0)
    return c_library<decltype(::unsetenv)>("unsetenv")(name);
  if (not valid_name(name)) {
    errno = EINVAL;
    return -1;
  }
  remove_entries(own_environment(), name);
  return 0;
}

extern "C" int putenv(char* entry) noexcept
{
  if (Runtime::libc_rank() < 0)
    return c_library<decltype(::putenv)>("putenv")(entry);
  const char* equals = std::strchr(entry, '=');
  if (equals == nullptr) { // glibc: a name alone removes the variable
    remove_entries(own_environment(), entry);
    return 0;
  }
  set_entry(own_environment(), entry, static_cast<size_t>(equals - entry), entry); // the program's string itself
  return 0;
}

extern "C" int clearenv() noexcept
{
  if (Runtime::libc_rank() < 0)
    return c_library<decltype(::clearenv)>("clearenv")();
  Environment& environment = own_environment();
  environment.entries.assign(1, nullptr);
  environ = environment.entries.data();
  return 0;
}
