#include "online/runner/Attempts.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace mpisim::online {

namespace {

constexpr const char* kHistoryVariable = "MPISIM_RESTART_HISTORY";
char** g_arguments = nullptr;

// One attempt a line: "start end outcome rank@date rank@date ...", dates as exact hexadecimal floats.
std::string history_text(const std::vector<Attempt>& attempts)
{
  std::ostringstream out;
  for (const Attempt& attempt : attempts) {
    char line[128];
    std::snprintf(line, sizeof line, "%a %a %s", attempt.start, attempt.end, attempt.outcome.c_str());
    out << line;
    for (const mpi::FailureAt& failure : attempt.failures) {
      std::snprintf(line, sizeof line, " %d@%a", failure.rank, failure.date);
      out << line;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace

std::vector<Attempt> previous_attempts()
{
  std::vector<Attempt> attempts;
  const char* text = std::getenv(kHistoryVariable);
  if (text == nullptr)
    return attempts;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string start, end;
    Attempt attempt;
    if (not(fields >> start >> end >> attempt.outcome))
      continue;
    attempt.start = std::strtod(start.c_str(), nullptr);
    attempt.end = std::strtod(end.c_str(), nullptr);
    std::string failure;
    while (fields >> failure) {
      const size_t at = failure.find('@');
      if (at != std::string::npos)
        attempt.failures.push_back(
            {std::atoi(failure.substr(0, at).c_str()), std::strtod(failure.substr(at + 1).c_str(), nullptr)});
    }
    attempts.push_back(std::move(attempt));
  }
  unsetenv(kHistoryVariable); // the application does not see it
  return attempts;
}

void remember_arguments(char** argv)
{
  g_arguments = argv;
}

void start_next_attempt(const std::vector<Attempt>& attempts)
{
  if (g_arguments == nullptr)
    return;
  setenv(kHistoryVariable, history_text(attempts).c_str(), 1);
  std::fflush(nullptr);
  execv("/proc/self/exe", g_arguments);
}

double time_lost(const std::vector<Attempt>& attempts, double restart_cost)
{
  double lost = 0;
  for (size_t i = 0; i + 1 < attempts.size(); ++i)
    lost += attempts[i].end - attempts[i].start + restart_cost;
  return lost;
}

} // namespace mpisim::online
