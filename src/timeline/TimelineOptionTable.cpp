#include "timeline/TimelineOptionTable.hpp"

#include "common/Errors.hpp"

namespace mpisim::timeline {

namespace {

options::OptionTable<TimelineOptions> make_table()
{
  using options::OptionValue;
  using options::ValueType;
  using Target = TimelineOptions;
  options::OptionTable<Target> table;
  table.push_back(
      {{.name = "--timeline",
        .type = ValueType::Text,
        .metavar = "FILE",
        .help = "write the run's timeline to FILE: .json (Chrome trace events: Perfetto, "
                "chrome://tracing), .paje or .trace (Paje: ViTE, pj_dump), .csv, .otf2 (Vampir, otf2-print) (see "
                "docs/timelines.md, docs/otf2.md)",
        .keyword = "timeline"},
       [](Target& o, const OptionValue& v) { o.path = std::get<std::string>(v); }});
  table.push_back({{.name = "--timeline-format",
                    .type = ValueType::Text,
                    .metavar = "NAME",
                    .help = "timeline format by name (chrome, paje, csv, otf2) instead of by FILE's extension",
                    .keyword = "timeline_format"},
                   [](Target& o, const OptionValue& v) { o.format = std::get<std::string>(v); }});
  table.push_back({{.name = "--timeline-internals",
                    .type = ValueType::Flag,
                    .help = "timeline: also the point-to-point messages collective algorithms send",
                    .keyword = "timeline_internals"},
                   [](Target& o, const OptionValue& v) { o.internals = std::get<bool>(v); }});
  table.push_back({{.name = "--timeline-links",
                    .type = ValueType::Flag,
                    .help = "timeline: also the bandwidth each link carries over time (flow models: smpi, hybrid, "
                            "fluid)",
                    .keyword = "timeline_links"},
                   [](Target& o, const OptionValue& v) { o.links = std::get<bool>(v); }});
  table.push_back({{.name = "--portals-csv",
                    .type = ValueType::Text,
                    .metavar = "FILE",
                    .help = "write the BXI NIC model's Portals-level operations (PCIe transfers, messages on the wire, "
                            "ACKs, retransmissions) to FILE as CSV (docs/bxi.md)",
                    .front_ends = options::Run,
                    .keyword = "portals_csv"},
                   [](Target& o, const OptionValue& v) { o.portals_csv = std::get<std::string>(v); }});
  return table;
}

} // namespace

const options::OptionTable<TimelineOptions>& timeline_option_table()
{
  static const options::OptionTable<TimelineOptions> table = make_table();
  return table;
}

void check_timeline_options(const TimelineOptions& options)
{
  if (options.path.empty() && (not options.format.empty() || options.internals || options.links))
    throw InputError("--timeline-format, --timeline-internals and --timeline-links need --timeline FILE");
}

} // namespace mpisim::timeline
