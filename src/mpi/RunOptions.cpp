#include "mpi/RunOptions.hpp"

#include "common/Errors.hpp"

namespace mpisim::mpi {

namespace {

using options::Assignments;
using options::OptionValue;
using options::ValueType;

const std::string& text(const OptionValue& value)
{
  return std::get<std::string>(value);
}
const Assignments& assignments(const OptionValue& value)
{
  return std::get<Assignments>(value);
}

options::OptionTable<SimulationOptions> make_table()
{
  using Target = SimulationOptions;
  options::OptionTable<Target> table;
  table.push_back({{.name = "--platform",
                    .spellings = {"-platform"},
                    .type = ValueType::Text,
                    .metavar = "P",
                    .help = "SimGrid platform XML file, or a generator spec such as torus:8x8x8,bw=10Gbps or "
                            "cluster:16,io_servers=4,disk=nvme (docs/platforms.md)",
                    .keyword = "platform",
                    .required = true},
                   [](Target& o, const OptionValue& v) { o.platform = text(v); }});
  table.push_back({{.name = "--model",
                    .type = ValueType::Text,
                    .metavar = "M",
                    .default_value = "smpi",
                    .help = "network model (see `mpisim models`)",
                    .keyword = "model"},
                   [](Target& o, const OptionValue& v) { o.model = text(v); }});
  table.push_back({{.name = "--param",
                    .type = ValueType::Assignment,
                    .metavar = "NAME=VALUE",
                    .help = "override a model parameter (repeatable); SimGrid --cfg names are accepted",
                    .keyword = "params"},
                   [](Target& o, const OptionValue& v) {
                     const Assignments& given = assignments(v);
                     o.model_parameters.insert(o.model_parameters.end(), given.begin(), given.end());
                   }});
  table.push_back({{.name = "--model-params",
                    .type = ValueType::Text,
                    .metavar = "FILE",
                    .help = "file of 'name = value' model parameters",
                    .keyword = "params_file"},
                   [](Target& o, const OptionValue& v) { o.model_parameter_file = text(v); }});
  table.push_back({{.name = "--switch",
                    .type = ValueType::Text,
                    .metavar = "RULE[,RULE]",
                    .help = "automatic model switches: a message below a size, or whose send is posted in a window of "
                            "simulated time, uses model M, the others the current model; the first rule that holds "
                            "wins (size<4KiB=bxi, time<1.5s=bxi, 1s<=time<2s=bxi, size>=1MiB=smpi; docs/bxi.md)",
                    .keyword = "switch"},
                   [](Target& o, const OptionValue& v) {
                     o.switch_rules = models::parse_switch_rules(text(v));
                     for (const models::SwitchRule& rule : o.switch_rules)
                       o.switch_models.push_back(rule.model);
                   }});
  table.push_back({{.name = "--hostfile",
                    .spellings = {"-hostfile", "-machinefile"},
                    .type = ValueType::Text,
                    .metavar = "F",
                    .help = "one host per line: rank i runs on line i (host:N counts N lines)",
                    .keyword = "hostfile"},
                   [](Target& o, const OptionValue& v) { o.hostfile = text(v); }});
  table.push_back({{.name = "--map",
                    .type = ValueType::Choice,
                    .metavar = "ORDER",
                    .default_value = "platform",
                    .help = "rank placement without a hostfile: platform order, or sorted host names (what smpirun "
                            "does)",
                    .keyword = "placement",
                    .choices = {"platform", "sorted"}},
                   [](Target& o, const OptionValue& v) {
                     o.placement = text(v) == "sorted" ? PlacementOrder::Sorted : PlacementOrder::Platform;
                   }});
  table.push_back({{.name = "--coll-selector",
                    .type = ValueType::Text,
                    .metavar = "S",
                    .default_value = "default",
                    .help = "collective selection logic (see `mpisim collectives`; `default` is SimGrid 3.32's)",
                    .simgrid = {"smpi/coll-selector"},
                    .keyword = "coll_selector"},
                   [](Target& o, const OptionValue& v) { o.collective_selector = text(v); }});
  table.push_back({{.name = "--coll",
                    .type = ValueType::AssignmentList,
                    .metavar = "OP=ALGO[,...]",
                    .help = "force algorithms per collective (repeatable), e.g. alltoall=bruck,bcast=binomial_tree",
                    .simgrid = {"smpi/OP"},
                    .keyword = "coll"},
                   [](Target& o, const OptionValue& v) {
                     for (const auto& [op, algorithm] : assignments(v))
                       o.collective_algorithms[op] = algorithm; // the last one given wins
                   }});
  table.push_back({{.name = "--fail",
                    .type = ValueType::Text,
                    .metavar = "RANK@TIME[,...]",
                    .help = "kill these ranks at these simulated times, e.g. 3@1.5s,0@20ms (docs/failures.md)",
                    .keyword = "fail"},
                   [](Target& o, const OptionValue& v) {
                     const std::vector<FailureAt> given = parse_failure_list(text(v));
                     o.failures.at.insert(o.failures.at.end(), given.begin(), given.end());
                   }});
  table.push_back(
      {{.name = "--fail-mtbf",
        .type = ValueType::Time,
        .metavar = "T",
        .help = "each rank fails after an exponentially distributed time of mean T (reproducible by --seed)",
        .keyword = "fail_mtbf"},
       [](Target& o, const OptionValue& v) {
         const double mtbf = std::get<double>(v);
         if (not(mtbf > 0))
           throw InputError("--fail-mtbf: the mean time between failures must be positive");
         o.failures.mtbf = mtbf;
       }});
  table.push_back(
      {{.name = "--seed",
        .type = ValueType::Integer,
        .metavar = "N",
        .default_value = "1",
        .help = "seed of the failure times drawn by --fail-mtbf",
        .keyword = "seed",
        .minimum = "0"},
       [](Target& o, const OptionValue& v) { o.failures.seed = static_cast<uint64_t>(std::get<long long>(v)); }});
  return table;
}

} // namespace

const options::OptionTable<SimulationOptions>& simulation_option_table()
{
  static const options::OptionTable<SimulationOptions> table = make_table();
  return table;
}

} // namespace mpisim::mpi
