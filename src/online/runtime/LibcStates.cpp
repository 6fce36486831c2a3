#include "online/runtime/LibcStates.hpp"

#include <getopt.h>
#include <unistd.h>

#include <cerrno>

namespace mpisim::online {

RandomStates::RandomStates()
{
  // A fresh process's rand() state is glibc's as if from initstate(1, table, 128).
  buffer = reinterpret_cast<char*>(table);
  initstate_r(1, buffer, sizeof table, &data);
}

LibcVariables LibcVariables::in_place()
{
  return {errno, optind, optarg, opterr, optopt, environ};
}

void LibcVariables::put_in_place() const
{
  errno = error;
  optind = option_index;
  optarg = option_argument;
  opterr = option_errors;
  optopt = option_character;
  environ = environment;
}

LibcStates::LibcStates(int ranks) : ranks_(static_cast<size_t>(ranks)) {}

LibcStates::~LibcStates()
{
  uninstall();
}

void LibcStates::install(kernel::MemoryContexts* program)
{
  program_ = program;
  LibcVariables start = LibcVariables::in_place();
  start.error = 0;
  variables_.assign(ranks_.size(), start);
  process_environment_ = environ;
  installed_ = true;
}

void LibcStates::uninstall()
{
  if (not installed_)
    return;
  environ = process_environment_;
  installed_ = false;
}

void LibcStates::enter(int rank)
{
  if (rank != current_) {
    if (current_ != kernel::kNoMemoryContext)
      variables_[static_cast<size_t>(current_)] = LibcVariables::in_place();
    variables_[static_cast<size_t>(rank)].put_in_place();
    current_ = rank;
  }
  if (program_ != nullptr)
    program_->enter(rank);
}

RankLibc& LibcStates::of_rank(int rank)
{
  std::unique_ptr<RankLibc>& state = ranks_[static_cast<size_t>(rank)];
  if (not state)
    state = std::make_unique<RankLibc>();
  return *state;
}

RankLibc& LibcStates::of_process()
{
  static RankLibc process;
  return process;
}

} // namespace mpisim::online
