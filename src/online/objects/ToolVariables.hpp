// The variables of the tool information interface (MPI-3.1 chapter 14) and what each rank holds of it. Control
// variables are the run's options, fixed for the run; performance variables are the calling rank's statistics, read
// when asked, continuous and read-only. Each simulated rank is a process: its initialization count, its handles and
// its sessions are its own.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mpisim::online {

class Runtime;

// A value as a variable gives it: an integer (MPI_INT, MPI_UNSIGNED, MPI_UNSIGNED_LONG_LONG), a double, a string.
using ToolValue = std::variant<int64_t, double, std::string>;

struct ToolEnum {
  std::string name;
  std::vector<std::pair<int, std::string>> items; // value, name
};

struct ControlVariable {
  std::string name, description;
  MPI_Datatype datatype;
  int enumtype; // 0, or 1 + index in tool_enums()
  int scope;
  std::function<ToolValue(Runtime&)> value;
};

struct PerformanceVariable {
  std::string name, description;
  int var_class;
  MPI_Datatype datatype;
  std::function<ToolValue(Runtime&, int world_rank)> value;
};

struct ToolCategory {
  std::string name, description;
  std::vector<int> cvars, pvars;
};

const std::vector<ToolEnum>& tool_enums();
const std::vector<ControlVariable>& control_variables();
const std::vector<PerformanceVariable>& performance_variables();
const std::vector<ToolCategory>& tool_categories();

// What one rank holds: how many times it initialized the interface (minus its finalizations), its control variable
// handles (handle -> variable index), its sessions and their performance variable handles (session -> handle ->
// variable index). Handles and sessions are numbered from 1 per rank (0 is the null handle).
struct RankToolState {
  int initializations = 0;
  int next_handle = 1;
  std::map<int, int> cvar_handles;
  std::map<int, std::map<int, int>> sessions;
};

class ToolInterface {
public:
  RankToolState& of_rank(int world_rank) { return ranks_[world_rank]; }

private:
  std::map<int, RankToolState> ranks_;
};

} // namespace mpisim::online
