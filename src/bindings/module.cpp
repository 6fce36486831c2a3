// Python bindings: the native core as the module mpisim._core. Options come in as plain Python values and results go
// out as dicts, so the Python side stays free of C++ types. The GIL is released while a simulation runs.
#include "bindings/RanksJson.hpp"
#include "common/Errors.hpp"
#include "common/OptionTable.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/RunOptions.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "online/options/RunnerOptions.hpp"
#include "replay/CheckpointOptionTable.hpp"
#include "replay/Replayer.hpp"
#include "replay/TiWriter.hpp"
#include "replay/TraceFormatOptionTable.hpp"
#include "study/CollectiveTiming.hpp"
#include "timeline/TimelineOptionTable.hpp"
#include "timeline/TimelineWriter.hpp"

#include <climits>
#include <cstdio>
#include <functional>
#include <type_traits>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mpisim;

namespace {

bool given(const py::dict& o, const char* key)
{
  return o.contains(key) && not o[key].is_none();
}

// What a keyword of a given type takes, for the error that names it.
const char* expected_python_value(options::ValueType type)
{
  switch (type) {
  case options::ValueType::Flag: return "True or False";
  case options::ValueType::Integer: return "an integer";
  case options::ValueType::Time: return "seconds, or a time with its unit such as '1us'";
  case options::ValueType::Speed: return "flop/s, or a speed with its unit such as '2Gf'";
  case options::ValueType::Size: return "bytes, or a size with its unit such as '8MiB'";
  case options::ValueType::Assignment:
  case options::ValueType::AssignmentList: return "a dict, pairs, or 'NAME=VALUE' texts";
  case options::ValueType::Text:
  case options::ValueType::Choice: return "text";
  }
  return "text";
}

// A keyword argument's value, typed as its option declares: text is parsed as on the command line; numbers, booleans,
// dicts and pairs are taken as they are. Errors name the keyword.
options::OptionValue typed_from_python(const options::OptionInfo& option, const py::handle& value)
{
  const std::string& keyword = option.keyword;
  using options::ValueType;
  if (py::isinstance<py::str>(value) && option.type != ValueType::Flag)
    return options::parse_value(option, value.cast<std::string>(), keyword);
  switch (option.type) {
  case ValueType::Flag:
    if (py::isinstance<py::bool_>(value))
      return value.cast<bool>();
    break;
  case ValueType::Integer: // int, or anything that is one (numpy's integers)
    if (not py::isinstance<py::bool_>(value) && py::hasattr(value, "__index__")) {
      try {
        return py::int_(value.attr("__index__")()).cast<long long>();
      } catch (const py::cast_error&) { // beyond 64 bits
        throw InputError(keyword + " expects a 64-bit integer, got " + py::repr(value).cast<std::string>());
      }
    }
    break;
  case ValueType::Time:
  case ValueType::Speed:
  case ValueType::Size:
    if ((py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) && not py::isinstance<py::bool_>(value))
      return value.cast<double>();
    break;
  case ValueType::Assignment:
  case ValueType::AssignmentList: {
    options::Assignments pairs;
    if (py::isinstance<py::dict>(value)) {
      for (const auto& [name, text] : value.cast<py::dict>())
        pairs.emplace_back(py::str(name).cast<std::string>(), py::str(text).cast<std::string>());
      return pairs;
    }
    if (py::isinstance<py::sequence>(value)) {
      for (const py::handle& item : value.cast<py::sequence>()) {
        if (py::isinstance<py::str>(item)) {
          const auto parsed =
              std::get<options::Assignments>(options::parse_value(option, item.cast<std::string>(), keyword));
          pairs.insert(pairs.end(), parsed.begin(), parsed.end());
        } else {
          const auto pair = item.cast<std::pair<py::object, py::object>>();
          pairs.emplace_back(py::str(pair.first).cast<std::string>(), py::str(pair.second).cast<std::string>());
        }
      }
      return pairs;
    }
    break;
  }
  case ValueType::Text:
  case ValueType::Choice: break;
  }
  throw InputError(keyword + " expects " + expected_python_value(option.type) + ", got " +
                   py::repr(value).cast<std::string>());
}

// The same, within the option's bounds (text was checked as it was parsed).
options::OptionValue value_from_python(const options::OptionInfo& option, const py::handle& value)
{
  options::OptionValue typed = typed_from_python(option, value);
  options::check_bounds(option, typed, option.keyword);
  return typed;
}

// Applies the keywords of `o` that options of `table` declare (others are left to the caller).
template <class Target>
void apply_keywords(const options::OptionTable<Target>& table, const py::dict& o, Target& target)
{
  for (const options::Option<Target>& option : table)
    if (not option.info.keyword.empty() && given(o, option.info.keyword.c_str()))
      option.apply(target, value_from_python(option.info, o[option.info.keyword.c_str()]));
}

// The shared simulation options (mpi/RunOptions.cpp), by their keywords: platform, model, params, params_file,
// hostfile, placement, coll_selector, coll.
mpi::SimulationOptions simulation_options(const py::dict& o)
{
  mpi::SimulationOptions s;
  apply_keywords(mpi::simulation_option_table(), o, s);
  return s;
}

// One key of the dicts records_to_python makes: a member of the record, or a function of it.
template <class Record> struct PythonField {
  const char* key;
  std::function<py::object(const Record&)> read;

  template <class Value>
  PythonField(const char* key, Value Record::*member)
      : key(key), read([member](const Record& record) { return py::cast(record.*member); })
  {
  }
  template <class Read, class = std::enable_if_t<std::is_invocable_v<Read, const Record&>>>
  PythonField(const char* key, Read read) : key(key), read(std::move(read))
  {
  }
};

// A list of dicts, one per record, with the fields' keys in their order.
template <class Record>
py::list records_to_python(const std::vector<Record>& records, const std::vector<PythonField<Record>>& fields)
{
  py::list out;
  for (const Record& record : records) {
    py::dict item;
    for (const PythonField<Record>& field : fields)
      item[field.key] = field.read(record);
    out.append(item);
  }
  return out;
}

// Each rank's figures as a tuple in the order of mpisim.api.RankStats's fields after the rank (compute, sleep,
// communicate, wait, finish, actions, failed, and checkpoint with checkpoint/restart): built and read positionally,
// cheaper than a dict per rank.
py::list rank_rows(const replay::ReplayResult& result)
{
  const bool checkpointing = not result.attempts.empty();
  py::list ranks(result.ranks.size());
  for (size_t i = 0; i < result.ranks.size(); ++i) {
    const replay::RankStats& r = result.ranks[i];
    if (checkpointing)
      ranks[i] = py::make_tuple(r.compute, r.sleep, r.communicate, r.wait, r.finish, r.actions, r.failed, r.checkpoint);
    else
      ranks[i] = py::make_tuple(r.compute, r.sleep, r.communicate, r.wait, r.finish, r.actions, r.failed);
  }
  return ranks;
}

// `with_rank_rows` false: the "ranks" list is left empty (the caller reads the per-rank figures from the JSON text).
py::dict replay_to_python(const replay::ReplayResult& result, bool with_ranks_json, bool with_rank_rows)
{
  const py::list ranks = with_rank_rows ? rank_rows(result) : py::list();
  py::dict out;
  out["np"] = result.ranks.size();
  if (with_ranks_json) // `mpisim replay --json`: the per-rank list as text (RanksJson.hpp)
    out["ranks_json"] = bindings::ranks_json(result);
  out["simulated_time"] = result.simulated_time;
  out["ranks"] = ranks;
  out["actions"] = result.actions;
  out["fingerprint"] = result.fingerprint;
  out["model_parameters"] = result.model_parameters;
  out["collective_decisions"] = records_to_python<mpi::AutomaticDecision>(
      result.collective_decisions,
      {{"operation", [](const mpi::AutomaticDecision& d) { return py::str(mpi::collective_name(d.op)); }},
       {"comm_size", &mpi::AutomaticDecision::comm_size},
       {"bytes", &mpi::AutomaticDecision::bytes},
       {"chosen", &mpi::AutomaticDecision::chosen},
       {"calls", &mpi::AutomaticDecision::calls},
       {"candidates", &mpi::AutomaticDecision::candidates}});
  const bool checkpointing = not result.attempts.empty(); // checkpoint/restart asked for
  std::vector<PythonField<replay::ReplayFailure>> failure_fields = {{"rank", &replay::ReplayFailure::rank},
                                                                    {"time", &replay::ReplayFailure::date}};
  if (checkpointing)
    failure_fields.push_back({"attempt", &replay::ReplayFailure::attempt});
  out["failures"] = records_to_python(result.failures, failure_fields);
  if (checkpointing) {
    out["attempts"] =
        records_to_python<replay::ReplayAttempt>(result.attempts, {{"attempt", &replay::ReplayAttempt::attempt},
                                                                   {"start", &replay::ReplayAttempt::start},
                                                                   {"end", &replay::ReplayAttempt::end},
                                                                   {"outcome", &replay::ReplayAttempt::outcome},
                                                                   {"checkpoint", &replay::ReplayAttempt::checkpoint}});
    out["checkpoints"] = records_to_python<replay::ReplayCheckpoint>(result.checkpoints,
                                                                     {{"attempt", &replay::ReplayCheckpoint::attempt},
                                                                      {"cut", &replay::ReplayCheckpoint::cut},
                                                                      {"date", &replay::ReplayCheckpoint::committed}});
    out["time_lost"] = result.time_lost;
  }
  py::dict spent;
  for (const auto& [model, seconds] : result.time_under_models)
    spent[py::str(model)] = seconds;
  out["time_under_models"] = spent;
  return out;
}

// What produced a timeline, written into it: the package version and the replay's inputs as given.
std::vector<std::pair<std::string, std::string>> timeline_provenance(const py::dict& o)
{
  std::vector<std::pair<std::string, std::string>> out;
  try {
    out.emplace_back("mpisim_version", py::module_::import("mpisim").attr("__version__").cast<std::string>());
  } catch (const py::error_already_set&) {
    // the core loaded on its own, outside the package: no version to give
  }
  // keyword -> the name timelines have always carried
  const std::pair<const char*, const char*> named[] = {{"trace", "trace"},
                                                       {"platform", "platform"},
                                                       {"ranks", "np"},
                                                       {"model", "model"},
                                                       {"params_file", "model_parameter_file"},
                                                       {"hostfile", "hostfile"},
                                                       {"placement", "placement"},
                                                       {"coll_selector", "coll_selector"}};
  for (const auto& [key, name] : named)
    if (given(o, key))
      out.emplace_back(name, py::str(o[key]).cast<std::string>());
  const mpi::SimulationOptions simulation = simulation_options(o);
  std::string text;
  for (const auto& [name, value] : simulation.model_parameters)
    text += (text.empty() ? "" : ",") + name + "=" + value;
  if (not text.empty())
    out.emplace_back("model_parameters", text);
  text.clear();
  for (const auto& [op, algorithm] : simulation.collective_algorithms)
    text += (text.empty() ? "" : ",") + op + "=" + algorithm;
  if (not text.empty())
    out.emplace_back("coll", text);
  out.emplace_back("timeline_internals",
                   given(o, "timeline_internals") && o["timeline_internals"].cast<bool>() ? "true" : "false");
  out.emplace_back("timeline_links", given(o, "timeline_links") && o["timeline_links"].cast<bool>() ? "true" : "false");
  return out;
}

// The writer `timeline` (a path) asks for, or none. Format: `timeline_format` by name, else the path's extension.
std::unique_ptr<timeline::TimelineWriter> open_timeline(const py::dict& o)
{
  timeline::TimelineOptions t;
  apply_keywords(timeline::timeline_option_table(), o, t);
  timeline::check_timeline_options(t);
  if (t.path.empty())
    return nullptr;
  t.provenance = timeline_provenance(o);
  return timeline::open_timeline(t, t.format);
}

// An option of `mpisim run`'s table (which holds the simulation and timeline options too) or of the trace formats'.
const options::OptionInfo& run_option_named(const std::string& name)
{
  if (const auto* option = options::find_option(online::runner_option_table(), name))
    return option->info;
  if (const auto* option = options::find_option(replay::trace_format_option_table(), name))
    return option->info;
  if (const auto* option = options::find_option(replay::checkpoint_option_table(), name))
    return option->info;
  throw std::invalid_argument("no run option " + name);
}

// The trace formats' options (replay/TraceFormatOptionTable.cpp), by their keywords: otf2_host_speed (absent: each
// rank's host speed).
replay::TraceFormatOptions trace_format_options(const py::dict& o)
{
  replay::TraceFormatOptions format;
  apply_keywords(replay::trace_format_option_table(), o, format);
  return format;
}

// mpisim convert TRACE -o DIR: any trace format as SimGrid's time-independent trace.
uint64_t convert_trace(const py::dict& options)
{
  const replay::TraceFormatOptions format = trace_format_options(options);
  const std::string trace = options["trace"].cast<std::string>();
  const std::string output = options["output"].cast<std::string>();
  py::gil_scoped_release release;
  return replay::convert_to_ti(trace, output, format);
}

py::dict run_replay(const py::dict& options)
{
  replay::ReplayOptions o;
  o.trace = options["trace"].cast<std::string>();
  if (given(options, "ranks")) // typed and bounded as `mpisim run`'s -np
    o.ranks = static_cast<int>(std::get<long long>(value_from_python(run_option_named("-np"), options["ranks"])));
  o.simulation = simulation_options(options);
  o.format = trace_format_options(options);
  apply_keywords(replay::checkpoint_option_table(), options, o.checkpoints);
  if (given(options, "restart")) // the runner's options, which replay takes too
    o.checkpoints.restarts = static_cast<int>(std::min<long long>(
        std::get<long long>(value_from_python(run_option_named("--restart"), options["restart"])), INT_MAX));
  if (given(options, "restart_cost"))
    o.checkpoints.restart_cost =
        std::get<double>(value_from_python(run_option_named("--restart-cost"), options["restart_cost"]));
  if (o.checkpoints.cost > 0 && not o.checkpoints.checkpointing())
    throw InputError("--checkpoint-cost needs --checkpoint-interval");
  if (given(options, "teardown"))
    o.teardown = options["teardown"].cast<bool>();
  std::unique_ptr<timeline::TimelineWriter> timeline = open_timeline(options);
  if (timeline) {
    o.observers.push_back(timeline.get());
    o.nic_observers.push_back(timeline.get()); // NIC tracks under --model bxi
  }
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
  return replay_to_python(result, given(options, "ranks_json") && options["ranks_json"].cast<bool>(),
                          not given(options, "rank_stats") || options["rank_stats"].cast<bool>());
}

// Test hook of RanksJson.hpp: the text of each float as Python's repr writes it.
std::vector<std::string> python_float_texts(const std::vector<double>& values)
{
  std::vector<std::string> out;
  out.reserve(values.size());
  for (const double value : values) {
    std::string text;
    bindings::append_python_float(text, value);
    out.push_back(std::move(text));
  }
  return out;
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
      parameter["range"] = p.kind == models::ParameterKind::Bool ? "" : models::range_of(p.range);
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
    h["name"] = printable_text(host.name); // names are the file's bytes
    h["speed"] = host.speed;
    h["cores"] = host.cores;
    hosts.append(h);
  }
  py::list links;
  for (const platform::LinkSpec& link : platform->links()) {
    py::dict l;
    l["name"] = printable_text(link.name);
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
    names.append(printable_text(platform->links()[link].name));
  py::dict out;
  out["links"] = names;
  out["latency"] = latency;
  return out;
}

py::object to_python(const options::OptionValue& value)
{
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

// Which table declares an option: "simulation" (mpi/RunOptions.cpp), "timeline", "trace_format"
// (replay/TraceFormatOptionTable.cpp), "checkpoint" (replay/CheckpointOptionTable.cpp), or "run" (the runner's own).
const char* group_of(const std::string& name)
{
  if (options::find_option(mpi::simulation_option_table(), name))
    return "simulation";
  if (options::find_option(timeline::timeline_option_table(), name))
    return "timeline";
  if (options::find_option(replay::trace_format_option_table(), name))
    return "trace_format";
  if (options::find_option(replay::checkpoint_option_table(), name))
    return "checkpoint";
  return "run";
}

py::dict option_to_python(const options::OptionInfo& o)
{
  py::dict option;
  option["name"] = o.name;
  option["spellings"] = o.spellings;
  option["type"] = options::type_name(o.type);
  option["metavar"] = o.metavar;
  option["default"] = o.default_value.empty() ? py::none() : to_python(options::parse_value(o, o.default_value));
  option["default_text"] = o.default_value;
  option["help"] = o.help;
  option["description"] = options::describe(o);
  option["simgrid"] = o.simgrid;
  py::list front_ends;
  if (o.front_ends & options::Replay)
    front_ends.append("replay");
  if (o.front_ends & options::Run)
    front_ends.append("run");
  option["front_ends"] = front_ends;
  option["keyword"] = o.keyword.empty() ? py::object(py::none()) : py::str(o.keyword);
  option["choices"] = o.choices;
  option["group"] = group_of(o.name);
  option["required"] = o.required;
  option["minimum"] = o.minimum;
  option["maximum"] = o.maximum;
  return option;
}

// The run options (online/options/RunnerOptions.cpp gathers them: the shared ones and the runner's own), then the
// trace formats' (replay only), as plain dicts.
py::list run_options()
{
  py::list out;
  for (const options::Option<online::RunnerOptions>& entry : online::runner_option_table())
    out.append(option_to_python(entry.info));
  for (const options::Option<replay::TraceFormatOptions>& entry : replay::trace_format_option_table())
    out.append(option_to_python(entry.info));
  for (const options::Option<replay::CheckpointOptions>& entry : replay::checkpoint_option_table())
    out.append(option_to_python(entry.info));
  return out;
}

// The text given to an option on the command line, typed by the table (errors name the option).
py::object parse_run_option(const std::string& name, const std::string& text)
{
  return to_python(options::parse_value(run_option_named(name), text, name));
}

// A typed value as the runner's command line writes it: quantities in their base unit, at full precision.
std::vector<std::string> as_arguments(const options::OptionInfo& option, const options::OptionValue& value)
{
  if (const bool* flag = std::get_if<bool>(&value))
    return *flag ? std::vector<std::string>{option.name} : std::vector<std::string>{};
  if (const long long* integer = std::get_if<long long>(&value))
    return {option.name, std::to_string(*integer)};
  if (const double* number = std::get_if<double>(&value)) {
    char text[64];
    const char* unit = option.type == options::ValueType::Time    ? "s"
                       : option.type == options::ValueType::Speed ? "f"
                                                                  : "B";
    std::snprintf(text, sizeof text, "%.17g%s", *number, unit);
    return {option.name, text};
  }
  if (const std::string* text = std::get_if<std::string>(&value))
    return {option.name, *text};
  std::vector<std::string> out;
  for (const auto& [name, text] : std::get<options::Assignments>(value))
    out.insert(out.end(), {option.name, name + "=" + text});
  return out;
}

// mpisim.run's keywords as the runner's options, checked by the runner's own parser: TypeError for a keyword the
// table does not have, InputError for a bad value (naming the keyword) or combination.
std::vector<std::string> run_arguments(const py::dict& keywords)
{
  const options::OptionTable<online::RunnerOptions>& table = online::runner_option_table();
  std::vector<std::string> out;
  for (const auto& [key, value] : keywords) {
    const std::string keyword = py::str(key).cast<std::string>();
    const auto found =
        std::find_if(table.begin(), table.end(), [&](const auto& o) { return o.info.keyword == keyword; });
    if (found == table.end() || not(found->info.front_ends & options::Run))
      throw py::type_error("run() got an unexpected keyword argument '" + keyword + "'");
    if (value.is_none())
      continue;
    const std::vector<std::string> arguments = as_arguments(found->info, value_from_python(found->info, value));
    out.insert(out.end(), arguments.begin(), arguments.end());
  }
  std::vector<std::string> check = out;
  check.emplace_back("PROGRAM");
  online::parse_runner_options(check);
  return out;
}

} // namespace

PYBIND11_MODULE(_core, m)
{
  m.doc() = "mpisim native core";
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<DeadlockError> deadlock_error(m, "DeadlockError", PyExc_RuntimeError);
  static py::exception<SimulationError> simulation_error(m, "SimulationError", PyExc_RuntimeError);
  // Messages quote input bytes, which Python would fail to decode as UTF-8 (losing the message): printable_text.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(printable_text(e.what()).c_str());
    } catch (const DeadlockError& e) {
      deadlock_error(printable_text(e.what()).c_str());
    } catch (const SimulationError& e) {
      simulation_error(printable_text(e.what()).c_str());
    } catch (const std::bad_alloc&) {
      throw; // pybind11's MemoryError
    } catch (const std::exception& e) {
      if (printable_text(e.what()) == e.what())
        throw; // pybind11's own mapping (ValueError, IndexError, ...)
      PyErr_SetString(PyExc_RuntimeError, printable_text(e.what()).c_str());
    }
  });
  m.def("convert", &convert_trace,
        "Write a trace (any format) as a SimGrid time-independent trace; returns the actions");
  m.def("replay", &run_replay, "Replay a time-independent trace; returns a dict of results");
  m.def("_python_float_texts", &python_float_texts, "Floats as repr() writes them, by the writer of replay's JSON");
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
  m.def("run_options", &run_options,
        "The run options of both front ends, declared once: name, type, default, help, ...");
  m.def("parse_run_option", &parse_run_option, "An option's text as the command line gives it, typed by the table");
  m.def("run_arguments", &run_arguments, "mpisim.run's keywords as mpisim-run's arguments, checked");
  m.def("unknown_option_message", &options::unknown_option_message, "What a front end says about an unknown option");
}
