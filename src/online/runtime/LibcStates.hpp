// What the C library keeps once per process that each rank of an online run must have its own of (docs/online.md,
// "The C library, rank by rank"): getopt's position, the random generators' states, strtok's position, errno, the
// environment.
//
// Two kinds of state. Variables the program reads or writes directly (errno, optind, optarg, opterr, optopt,
// environ) live in the C library, once: they are swapped, the leaving rank's values saved and the arriving rank's put
// in place, whenever the engine passes control to another rank (LibcStates is the engine's MemoryContexts, wrapping
// the program's own under swap privatization). State only the C library's functions see (getopt's scan within an
// argument and its permutation, the generators, strtok) is kept per rank in RankLibc and used by mpisim's own
// definitions of those functions (online/libc/).
#pragma once

#include "kernel/MemoryContexts.hpp"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::online {

// getopt's state between calls, besides the variables the program sees.
struct GetoptScan {
  bool initialized = false;
  char* next = nullptr;                        // the rest of a cluster of short options (-abc)
  int first_nonoption = 1, last_nonoption = 1; // the non-options skipped so far, moved behind the options
  enum class Order { Permute, RequireOrder, ReturnInOrder } order = Order::Permute;
  int option_character = 0; // what optopt is after each call, as glibc keeps it (0 until an error)
};

// The generators of rand/random (glibc's additive generator, 128 bytes of state as a fresh process has) and of the
// drand48 family, in glibc's reentrant forms.
struct RandomStates {
  RandomStates();
  random_data data{};
  char* buffer = nullptr; // the state array in use (initstate/setstate may give another)
  int32_t table[32]{};    // the default state array (128 bytes)
  drand48_data drand48{}; // zeroed: the defaults of a fresh process
};

// A rank's environment once it changed it (setenv, putenv, unsetenv, clearenv): its own array of entries. Until then
// the rank reads the process's.
struct Environment {
  std::vector<char*> entries;   // null-terminated
  std::deque<std::string> made; // strings setenv made, never freed (a program may keep what getenv returned)
};

struct RankLibc {
  GetoptScan getopt;
  std::unique_ptr<RandomStates> random; // made on first use
  char* strtok_next = nullptr;
  std::unique_ptr<Environment> environment;
};

// The variables swapped between ranks.
struct LibcVariables {
  int error = 0;
  int option_index = 1;
  char* option_argument = nullptr;
  int option_errors = 1;
  int option_character = '?';
  char** environment = nullptr;

  static LibcVariables in_place();
  void put_in_place() const;
};

class LibcStates final : public kernel::MemoryContexts {
public:
  explicit LibcStates(int ranks);
  ~LibcStates() override;

  // Starts swapping: every rank starts from the values in place now; `program` is the program's own per-rank memory
  // (swap privatization), entered along, or null.
  void install(kernel::MemoryContexts* program);
  // The run is over: the process's environment is put back (the ranks' arrays die with this object).
  void uninstall();

  void enter(int rank) override;
  int current() const override { return current_; }
  bool is_private(const void* address) const override { return program_ != nullptr && program_->is_private(address); }

  // A rank's state, made on first use.
  RankLibc& of_rank(int rank);
  // The state of code that runs outside any rank (static constructors, mpisim itself).
  static RankLibc& of_process();

private:
  std::vector<LibcVariables> variables_;
  std::vector<std::unique_ptr<RankLibc>> ranks_;
  kernel::MemoryContexts* program_ = nullptr;
  char** process_environment_ = nullptr;
  int current_ = kernel::kNoMemoryContext;
  bool installed_ = false;
};

} // namespace mpisim::online
