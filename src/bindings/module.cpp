// Python bindings: the native core as the module mpisim._core. Options come in as plain Python values and results go
// out as dicts, so the Python side stays free of C++ types. The GIL is released while a simulation runs.
#include "common/Errors.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "replay/Replayer.hpp"
#include "study/CollectiveTiming.hpp"
#include "timeline/TimelineWriter.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mpisim;

namespace {

mpi::SimulationOptions simulation_options(const py::dict& o)
{
  mpi::SimulationOptions s;
  s.platform = o["platform"].cast<std::string>();
  if (o.contains("model"))
    s.model = o["model"].cast<std::string>();
  if (o.contains("model_parameter_file"))
    s.model_parameter_file = o["model_parameter_file"].cast<std::string>();
  if (o.contains("model_parameters"))
    s.model_parameters = o["model_parameters"].cast<std::vector<std::pair<std::string, std::string>>>();
  if (o.contains("hostfile"))
    s.hostfile = o["hostfile"].cast<std::string>();
  if (o.contains("placement"))
    s.placement = o["placement"].cast<std::string>() == "sorted" ? mpi::PlacementOrder::Sorted
                                                                 : mpi::PlacementOrder::Platform;
  if (o.contains("coll_selector"))
    s.collective_selector = o["coll_selector"].cast<std::string>();
  if (o.contains("coll"))
    s.collective_algorithms = o["coll"].cast<std::map<std::string, std::string>>();
  return s;
}

py::dict replay_to_python(const replay::ReplayResult& result)
{
  py::list ranks;
  for (const replay::RankStats& r : result.ranks) {
    py::dict rank;
    rank["compute"] = r.compute;
    rank["sleep"] = r.sleep;
    rank["communicate"] = r.communicate;
    rank["wait"] = r.wait;
    rank["finish"] = r.finish;
    rank["actions"] = r.actions;
    ranks.append(rank);
  }
  py::dict out;
  out["simulated_time"] = result.simulated_time;
  out["ranks"] = ranks;
  out["actions"] = result.actions;
  out["fingerprint"] = result.fingerprint;
  out["model_parameters"] = result.model_parameters;
  py::list decisions;
  for (const mpi::AutomaticDecision& d : result.collective_decisions) {
    py::dict decision;
    decision["operation"] = mpi::collective_name(d.op);
    decision["comm_size"] = d.comm_size;
    decision["bytes"] = d.bytes;
    decision["chosen"] = d.chosen;
    decision["calls"] = d.calls;
    decision["candidates"] = d.candidates;
    decisions.append(decision);
  }
  out["collective_decisions"] = decisions;
  return out;
}

bool given(const py::dict& o, const char* key) { return o.contains(key) && not o[key].is_none(); }

// What produced a timeline, written into it: the package version and the replay's inputs as given.
std::vector<std::pair<std::string, std::string>> timeline_provenance(const py::dict& o)
{
  std::vector<std::pair<std::string, std::string>> out;
  try {
    out.emplace_back("mpisim_version", py::module_::import("mpisim").attr("__version__").cast<std::string>());
  } catch (const py::error_already_set&) {
    // the core loaded on its own, outside the package: no version to give
  }
  for (const char* key : {"trace", "platform", "ranks", "model", "model_parameter_file", "hostfile", "placement",
                          "coll_selector"})
    if (given(o, key))
      out.emplace_back(key == std::string("ranks") ? "np" : key, py::str(o[key]).cast<std::string>());
  if (given(o, "model_parameters")) {
    std::string text;
    for (const auto& [name, value] : o["model_parameters"].cast<std::vector<std::pair<std::string, std::string>>>())
      text += (text.empty() ? "" : ",") + name + "=" + value;
    if (not text.empty())
      out.emplace_back("model_parameters", text);
  }
  if (given(o, "coll")) {
    std::string text;
    for (const auto& [op, algorithm] : o["coll"].cast<std::map<std::string, std::string>>())
      text += (text.empty() ? "" : ",") + op + "=" + algorithm;
    if (not text.empty())
      out.emplace_back("coll", text);
  }
  out.emplace_back("timeline_internals", given(o, "timeline_internals") && o["timeline_internals"].cast<bool>()
                                             ? "true"
                                             : "false");
  out.emplace_back("timeline_links", given(o, "timeline_links") && o["timeline_links"].cast<bool>() ? "true" : "false");
  return out;
}

// The writer `timeline` (a path) asks for, or none. Format: `timeline_format` by name, else the path's extension.
std::unique_ptr<timeline::TimelineWriter> open_timeline(const py::dict& o)
{
  if (not given(o, "timeline"))
    return nullptr;
  timeline::TimelineOptions t;
  t.path = o["timeline"].cast<std::string>();
  t.internals = given(o, "timeline_internals") && o["timeline_internals"].cast<bool>();
  t.links = given(o, "timeline_links") && o["timeline_links"].cast<bool>();
  t.provenance = timeline_provenance(o);
  return timeline::open_timeline(t, given(o, "timeline_format") ? o["timeline_format"].cast<std::string>() : "");
}

py::dict run_replay(const py::dict& options)
{
  replay::ReplayOptions o;
  o.trace = options["trace"].cast<std::string>();
  if (options.contains("ranks") && not options["ranks"].is_none())
    o.ranks = options["ranks"].cast<int>();
  o.simulation = simulation_options(options);
  std::unique_ptr<timeline::TimelineWriter> timeline = open_timeline(options);
  if (timeline)
    o.observers.push_back(timeline.get());
  if (timeline && given(options, "timeline_links") && options["timeline_links"].cast<bool>())
    o.link_observers.push_back(timeline.get());
  replay::ReplayResult result;
  {
    py::gil_scoped_release release;
    try {
      result = replay::replay(o);
    } catch (...) {
      // The timeline of a failed run still shows what happened up to the failure (where a deadlock's ranks block).
      if (timeline) {
        try {
          timeline->finish();
        } catch (const std::exception&) {
          // the run's own error is the one to report
        }
      }
      throw;
    }
    if (timeline)
      timeline->finish();
  }
  return replay_to_python(result);
}

py::list timeline_formats()
{
  py::list out;
  for (const timeline::TimelineWriterEntry& entry : timeline::TimelineWriterRegistry::all()) {
    py::dict format;
    format["name"] = entry.name;
    format["extensions"] = entry.extensions;
    format["description"] = entry.description;
    format["reference"] = entry.reference;
    out.append(format);
  }
  return out;
}

py::list network_models()
{
  py::list out;
  for (const models::NetworkModelEntry& entry : models::NetworkModelRegistry::all()) {
    py::list parameters;
    for (const models::ParameterSpec& p : entry.parameters) {
      py::dict parameter;
      parameter["name"] = p.name;
      parameter["unit"] = models::unit_of(p.kind);
      parameter["default"] = p.default_value;
      parameter["description"] = p.description;
      parameter["aliases"] = p.aliases;
      parameters.append(parameter);
    }
    py::dict model;
    model["name"] = entry.name;
    model["description"] = entry.description;
    model["citation"] = entry.citation;
    model["parameters"] = parameters;
    out.append(model);
  }
  return out;
}

// Many collective timings on one platform, loaded once (mpisim study coll).
class CollectiveStudy {
public:
  explicit CollectiveStudy(const py::dict& options)
      : base_(simulation_options(options)), platform_(mpi::load_or_generate_platform(base_.platform))
  {
  }

  // `choice` is a selector name or an algorithm name of `operation`.
  double time(const std::string& operation, int ranks, double bytes, const std::string& choice, bool is_selector,
              double element_bytes, int root)
  {
    study::CollectiveTiming timing;
    timing.simulation = base_;
    if (is_selector)
      timing.simulation.collective_selector = choice;
    else
      timing.simulation.collective_algorithms[operation] = choice;
    timing.operation = operation;
    timing.ranks = ranks;
    timing.bytes = bytes;
    timing.element_bytes = element_bytes;
    timing.root = root;
    py::gil_scoped_release release;
    return study::time_collective(timing, platform_);
  }

private:
  mpi::SimulationOptions base_;
  std::shared_ptr<const platform::Platform> platform_;
};

py::list collective_algorithms()
{
  py::list out;
  for (size_t op = 0; op < mpi::kCollectiveCount; ++op)
    for (const mpi::AlgorithmEntry* entry : mpi::AlgorithmRegistry::of(static_cast<mpi::Collective>(op))) {
      py::dict algorithm;
      algorithm["operation"] = mpi::collective_name(entry->op);
      algorithm["name"] = entry->name;
      algorithm["description"] = entry->description;
      algorithm["origin"] = entry->origin;
      out.append(algorithm);
    }
  return out;
}

py::list collective_selectors()
{
  py::list out;
  for (const mpi::SelectorEntry* entry : mpi::SelectorRegistry::all()) {
    py::dict selector;
    selector["name"] = entry->name;
    selector["description"] = entry->description;
    out.append(selector);
  }
  return out;
}

py::dict describe_platform(const std::string& text)
{
  auto platform = mpi::load_or_generate_platform(text);
  py::list hosts;
  for (const platform::HostSpec& host : platform->hosts()) {
    py::dict h;
    h["name"] = host.name;
    h["speed"] = host.speed;
    h["cores"] = host.cores;
    hosts.append(h);
  }
  py::list links;
  for (const platform::LinkSpec& link : platform->links()) {
    py::dict l;
    l["name"] = link.name;
    l["bandwidth"] = link.bandwidth;
    l["latency"] = link.latency;
    l["sharing"] = link.sharing == platform::LinkSharing::Fatpipe ? "FATPIPE" : "SHARED";
    links.append(l);
  }
  py::dict out;
  out["hosts"] = hosts;
  out["links"] = links;
  return out;
}

py::dict route(const std::string& text, const std::string& src, const std::string& dst)
{
  auto platform = mpi::load_or_generate_platform(text);
  auto a = platform->find_host(src);
  auto b = platform->find_host(dst);
  if (not a || not b)
    throw InputError(text, 0, "unknown host '" + (a ? dst : src) + "'");
  std::vector<platform::LinkId> links;
  double latency = 0;
  platform->route(*a, *b, links, latency);
  py::list names;
  for (platform::LinkId link : links)
    names.append(platform->links()[link].name);
  py::dict out;
  out["links"] = names;
  out["latency"] = latency;
  return out;
}

} // namespace

PYBIND11_MODULE(_core, m)
{
  m.doc() = "mpisim native core";
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<DeadlockError> deadlock_error(m, "DeadlockError", PyExc_RuntimeError);
  static py::exception<SimulationError> simulation_error(m, "SimulationError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(e.what());
    } catch (const DeadlockError& e) {
      deadlock_error(e.what());
    } catch (const SimulationError& e) {
      simulation_error(e.what());
    }
  });
  m.def("replay", &run_replay, "Replay a time-independent trace; returns a dict of results");
  m.def("network_models", &network_models);
  m.def("describe_platform", &describe_platform, "Hosts and links of a platform file or generator spec");
  m.def("route", &route, "Links and latency of the route between two hosts");
  m.def("collective_algorithms", &collective_algorithms);
  py::class_<CollectiveStudy>(m, "CollectiveStudy", "Times one collective call on a platform loaded once")
      .def(py::init<const py::dict&>())
      .def("time", &CollectiveStudy::time, py::arg("operation"), py::arg("ranks"), py::arg("bytes"), py::arg("choice"),
           py::arg("is_selector"), py::arg("element_bytes") = 1.0, py::arg("root") = 0);
  m.def("collective_selectors", &collective_selectors);
  m.def("timeline_formats", &timeline_formats, "Timeline writers: name, extensions, description, reference");
}
