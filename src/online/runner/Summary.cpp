#include "online/runner/Summary.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <sstream>

namespace mpisim::online {

namespace {
std::string fixed(double value)
{
  char text[64];
  std::snprintf(text, sizeof text, "%.9f", value);
  return text;
}

// The shortest text that reads back as the same double, as Python's json writes it: `mpisim.run` and `mpisim run
// --json` give the simulated time bit for bit, as `mpisim replay --json` does.
std::string exact(double value)
{
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  std::string out(text, end);
  if (out.find_first_of(".e") == std::string::npos)
    out += ".0"; // still a JSON float
  return out;
}

// As `mpisim replay --json` writes it: 16 hexadecimal digits, quoted.
std::string fingerprint_text(uint64_t fingerprint)
{
  char text[20];
  std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(fingerprint));
  return text;
}

std::string quoted(const std::string& text)
{
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20) { // other control bytes, as JSON requires
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}
bool failed_in_last_attempt(const RunOutcome& outcome, size_t rank)
{
  if (outcome.attempts.empty())
    return false;
  const std::vector<mpi::FailureAt>& failures = outcome.attempts.back().failures;
  return std::any_of(failures.begin(), failures.end(),
                     [rank](const mpi::FailureAt& f) { return f.rank == static_cast<int>(rank); });
}

// The failures and attempts (--fail, --fail-mtbf, --restart), one line each, when there were any.
std::string attempts_text(const RunnerOptions& options, const RunOutcome& outcome)
{
  std::ostringstream out;
  const std::vector<Attempt>& attempts = outcome.attempts;
  for (size_t a = 0; a < attempts.size(); ++a)
    for (const mpi::FailureAt& failure : attempts[a].failures)
      out << "Process failure: rank " << failure.rank << " at " << fixed(failure.date) << " s (attempt " << a + 1
          << ")\n";
  if (attempts.size() > 1) {
    for (size_t a = 0; a < attempts.size(); ++a)
      out << "Attempt " << a + 1 << ": " << fixed(attempts[a].start) << " s to " << fixed(attempts[a].end) << " s, "
          << attempts[a].outcome << "\n";
    out << "Time lost to failures: " << fixed(time_lost(attempts, options.restart_cost)) << " s (restart cost "
        << fixed(options.restart_cost) << " s each)\n";
  }
  return out.str();
}

std::string attempts_json(const RunnerOptions& options, const RunOutcome& outcome)
{
  std::ostringstream out;
  out << "  \"failures\": [";
  bool first = true;
  for (size_t a = 0; a < outcome.attempts.size(); ++a)
    for (const mpi::FailureAt& failure : outcome.attempts[a].failures) {
      out << (first ? "" : ", ") << "{\"rank\": " << failure.rank << ", \"time\": " << exact(failure.date)
          << ", \"attempt\": " << a + 1 << "}";
      first = false;
    }
  out << "],\n  \"attempts\": [";
  for (size_t a = 0; a < outcome.attempts.size(); ++a)
    out << (a ? ", " : "") << "{\"attempt\": " << a + 1 << ", \"start\": " << exact(outcome.attempts[a].start)
        << ", \"end\": " << exact(outcome.attempts[a].end) << ", \"outcome\": " << quoted(outcome.attempts[a].outcome)
        << "}";
  out << "],\n  \"time_lost\": " << exact(time_lost(outcome.attempts, options.restart_cost)) << ",\n";
  return out.str();
}

// The simulated time spent under each network model, when the run switched models (mpisim_use_model, MPI_Pcontrol).
std::vector<std::pair<std::string, double>> time_under_models(const Runtime& runtime, const RunOutcome& outcome)
{
  const models::SwitchingNetworkModel* models = const_cast<Runtime&>(runtime).simulation().switcher();
  if (models == nullptr || not models->switched())
    return {};
  return models->time_under_each(outcome.simulated_time);
}

std::string models_text(const Runtime& runtime, const RunOutcome& outcome)
{
  std::ostringstream out;
  const auto spent = time_under_models(runtime, outcome);
  if (spent.empty())
    return "";
  out << "Time under each model:";
  for (const auto& [name, seconds] : spent)
    out << " " << name << " " << fixed(seconds) << " s";
  out << "\n";
  return out.str();
}

} // namespace

std::string summary_text(const RunnerOptions& options, const Runtime& runtime, const RunOutcome& outcome)
{
  std::ostringstream out;
  const auto& accounts = runtime.accounts();
  out << "Simulated time: " << fixed(outcome.simulated_time) << " s (" << accounts.size() << " ranks, model "
      << options.simulation.model << ", host speed " << outcome.host_speed / 1e9 << " Gf/s"
      << (options.online.compute_time ? "" : ", computation not timed") << ", " << outcome.wall_seconds
      << " s of real time)\n";
  char line[160];
  std::snprintf(line, sizeof line, "%6s %14s %14s %14s %10s\n", "rank", "compute", "mpi", "finish", "calls");
  out << line;
  const size_t shown = accounts.size();
  for (size_t r = 0; r < shown; ++r) {
    if (shown > 16 && r == 8) {
      out << "   ...\n";
      r = shown - 8;
    }
    const RankAccount& a = accounts[r];
    std::snprintf(line, sizeof line, "%6zu %14.9f %14.9f %14.9f %10llu%s\n", r, a.compute, a.mpi, a.finish,
                  static_cast<unsigned long long>(a.calls), failed_in_last_attempt(outcome, r) ? "  failed" : "");
    out << line;
  }
  out << attempts_text(options, outcome);
  out << models_text(runtime, outcome);
  return out.str();
}

std::string summary_json(const RunnerOptions& options, const Runtime* runtime, const RunOutcome& outcome)
{
  const RunEnd& end = outcome.end;
  std::ostringstream out;
  // Everything but "host" depends only on the inputs: two runs of the same inputs give the same text, byte for byte
  // (tests/python/test_determinism.py). "host" holds what the machine and the moment add: the real time taken, and
  // the host speed used (measured at start unless --host-speed gave it, which inputs.host_speed then records), and
  // whether the heap asked for huge pages (--huge-pages and the kernel's mode: no simulated figure depends on them).
  out << "{\n  \"outcome\": " << quoted(outcome_name(end.outcome)) << ",\n  \"exit_status\": " << end.exit_status
      << ",\n  \"application_status\": "
      << (end.outcome == Outcome::Ok           ? std::string("0")
          : end.application_status.has_value() ? std::to_string(*end.application_status)
                                               : std::string("null"))
      << ",\n  \"report\": " << (end.report.empty() ? std::string("null") : quoted(end.report))
      << ",\n  \"warnings\": [";
  if (runtime != nullptr)
    for (size_t i = 0; i < runtime->warnings().size(); ++i)
      out << (i ? ", " : "") << quoted(runtime->warnings()[i]);
  out << "],\n  \"simulated_time\": " << exact(outcome.simulated_time)
      << ",\n  \"fingerprint\": " << fingerprint_text(outcome.fingerprint)
      << ",\n  \"inputs\": {\"program\": " << quoted(options.program)
      << ", \"platform\": " << quoted(options.simulation.platform)
      << ", \"model\": " << quoted(options.simulation.model)
      << ", \"collective_selector\": " << quoted(options.simulation.collective_selector)
      << ", \"ranks\": " << options.ranks
      << ", \"host_speed\": " << (options.host_speed_given ? exact(outcome.host_speed) : std::string("null"))
      << ", \"compute_time\": " << (options.online.compute_time ? "true" : "false")
      << ", \"privatization\": " << quoted(outcome.privatization) << "},\n  \"model_parameters\": {";
  bool first = true;
  if (runtime != nullptr)
    for (const auto& [name, value] : const_cast<Runtime*>(runtime)->simulation().model_parameters()) {
      out << (first ? "" : ", ") << quoted(name) << ": " << quoted(value);
      first = false;
    }
  out << "},\n  \"time_under_models\": {";
  if (runtime != nullptr) {
    first = true;
    for (const auto& [name, seconds] : time_under_models(*runtime, outcome)) {
      out << (first ? "" : ", ") << quoted(name) << ": " << exact(seconds);
      first = false;
    }
  }
  out << "},\n  \"ranks\": [";
  const size_t ranks = runtime != nullptr ? runtime->accounts().size() : 0;
  for (size_t r = 0; r < ranks; ++r) {
    const RankAccount& a = runtime->accounts()[r];
    out << (r ? ",\n    " : "\n    ") << "{\"rank\": " << r << ", \"compute\": " << exact(a.compute)
        << ", \"mpi\": " << exact(a.mpi) << ", \"finish\": " << exact(a.finish) << ", \"calls\": " << a.calls
        << ", \"failed\": " << (failed_in_last_attempt(outcome, r) ? "true" : "false") << "}";
  }
  out << (ranks ? "\n  ],\n" : "],\n") << attempts_json(options, outcome)
      << "  \"host\": {\"wall_seconds\": " << exact(outcome.wall_seconds)
      << ", \"host_speed\": " << exact(outcome.host_speed)
      << ", \"huge_pages\": " << (outcome.huge_pages ? "true" : "false") << "}\n}\n";
  return out.str();
}

} // namespace mpisim::online
