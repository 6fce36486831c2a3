#include "online/runner/RunTimeline.hpp"

#include "common/Errors.hpp"

#include <iostream>
#include <sstream>

namespace mpisim::online {

std::vector<std::pair<std::string, std::string>> timeline_provenance(const RunnerOptions& options)
{
  std::vector<std::pair<std::string, std::string>> out{{"mode", "online"}, {"program", options.program}};
  std::string arguments;
  for (const std::string& argument : options.arguments)
    arguments += (arguments.empty() ? "" : " ") + argument;
  out.emplace_back("arguments", arguments);
  out.emplace_back("np", std::to_string(options.ranks));
  out.emplace_back("platform", options.simulation.platform);
  if (not options.simulation.hostfile.empty())
    out.emplace_back("hostfile", options.simulation.hostfile);
  out.emplace_back("model", options.simulation.model);
  for (const auto& [name, value] : options.simulation.model_parameters)
    out.emplace_back("param " + name, value);
  out.emplace_back("coll_selector", options.simulation.collective_selector);
  for (const auto& [op, algorithm] : options.simulation.collective_algorithms)
    out.emplace_back("coll " + op, algorithm);
  // A measured host speed differs from run to run: written only when it matters (computation is injected).
  if (options.online.compute_time) {
    std::ostringstream speed;
    speed << options.online.host_speed;
    out.emplace_back("host_speed", speed.str() + (options.host_speed_given ? "" : " (measured)"));
  } else {
    out.emplace_back("compute_time", "false");
  }
  out.emplace_back("timeline_internals", options.timeline.internals ? "true" : "false");
  out.emplace_back("timeline_links", options.timeline.links ? "true" : "false");
  return out;
}

namespace {

void report_attempts(timeline::TimelineWriter& writer, const std::vector<Attempt>& previous, double start)
{
  if (previous.empty())
    return;
  for (size_t i = 0; i < previous.size(); ++i) {
    for (const mpi::FailureAt& failure : previous[i].failures)
      writer.failure({failure.rank, failure.date});
    writer.attempt({static_cast<int>(i) + 1, previous[i].start, previous[i].end, previous[i].outcome.c_str()});
  }
  writer.attempt({static_cast<int>(previous.size()) + 1, start, -1, ""});
}

} // namespace

RunTimeline::RunTimeline(const RunnerOptions& options, mpi::Simulation& simulation, Runtime& runtime,
                         const std::vector<Attempt>& previous, double start)
    : runtime_(runtime)
{
  timeline::TimelineOptions settings = options.timeline;
  if (not settings.portals_csv.empty()) {
    portals_csv_ = std::make_unique<timeline::PortalsCsvWriter>(settings.portals_csv);
    simulation.observe_nic(*portals_csv_);
  }
  if (settings.path.empty())
    return;
  settings.provenance = timeline_provenance(options);
  writer_ = timeline::open_timeline(settings, settings.format);
  report_attempts(*writer_, previous, start);
  simulation.world().add_observer(*writer_);
  if (settings.links)
    simulation.observe_links(*writer_);
  simulation.observe_nic(*writer_);
  reporter_ = std::make_unique<CallReporter>(simulation.world());
  reporter_->set_on_abrupt_end([this] { finish(); });
  runtime.set_call_reporter(reporter_.get());
}

void RunTimeline::finish()
{
  if (portals_csv_ != nullptr) {
    try {
      portals_csv_->finish();
    } catch (const std::exception& error) {
      std::cerr << "mpisim run: --portals-csv: " << printable_text(error.what()) << "\n";
    }
    portals_csv_.reset();
  }
  if (writer_ == nullptr)
    return;
  runtime_.set_call_reporter(nullptr);
  try {
    writer_->finish();
  } catch (const std::exception& error) {
    std::cerr << "mpisim run: timeline: " << printable_text(error.what()) << "\n";
  }
  writer_.reset();
}

} // namespace mpisim::online
