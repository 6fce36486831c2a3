// Fuzz target: model parameters as a simulation reads them (mpi/Simulation.cpp): a parameter file (`name = value`
// lines, models/Parameters.hpp), then `--param NAME=VALUE` arguments (common/OptionTable.hpp), values in SimGrid's
// units (common/Units.hpp) and piecewise tables (models/PiecewiseTable.hpp), for every model. The input is the file,
// optionally followed by a line "%%" and one --param argument per line. What the parameters accept must then give
// the model finite, non-negative costs for any message size.
#include "FuzzInput.hpp"
#include "common/OptionTable.hpp"
#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "platform/Platform.hpp"

#include <cmath>

namespace {

// The --param option as the simulation's option table declares it (mpi/RunOptions.cpp, not linked here).
const mpisim::options::OptionInfo kParamOption{
    .name = "--param", .type = mpisim::options::ValueType::Assignment, .metavar = "NAME=VALUE"};

// Message sizes from none to the largest an MPI count of doubles reaches.
constexpr double kPayloads[] = {0, 1, 64, 65536, 1e6, 1e9, 2147483647.0 * 8};

void apply_param_arguments(mpisim::models::Parameters& parameters, std::string_view lines)
{
  for (size_t start = 0; start < lines.size();) {
    const size_t end = std::min(lines.find('\n', start), lines.size());
    const std::string_view argument = lines.substr(start, end - start);
    start = end + 1;
    const auto value = mpisim::options::parse_value(kParamOption, argument);
    for (const auto& [name, text] : std::get<mpisim::options::Assignments>(value))
      parameters.set(name, text, "--param " + name);
  }
}

void check_costs(const std::string& model_name, const mpisim::models::NetworkModel& model)
{
  using mpisim::models::Protocol;
  const auto check = [&](const char* what, double payload, double value) {
    if (not std::isfinite(value) || value < 0)
      mpisim::fuzz::finding(model_name + ": " + what + " of " + std::to_string(payload) + " bytes is " +
                            std::to_string(value));
  };
  for (double payload : kPayloads) {
    check("send overhead", payload, model.send_overhead(payload));
    check("isend overhead", payload, model.isend_overhead(payload));
    for (Protocol protocol : {Protocol::Eager, Protocol::Detached, Protocol::Rendezvous})
      check("receive overhead", payload, model.receive_overhead(payload, protocol));
  }
  const mpisim::models::ProtocolThresholds thresholds = model.protocol_thresholds();
  if (std::isnan(thresholds.eager_below) || std::isnan(thresholds.detached_below))
    mpisim::fuzz::finding(model_name + ": protocol threshold NaN");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  static const std::unique_ptr<platform::Platform> cluster = platform::generate_platform("cluster:2");
  const std::vector<std::string_view> parts = fuzz::split_files(fuzz::input_text(data, size));
  if (parts.size() > 2)
    return 0;
  const std::string path = fuzz::write_scratch_file("parameters", parts[0]);
  for (const models::NetworkModelEntry& entry : models::NetworkModelRegistry::all())
    fuzz::read_input([&] {
      models::Parameters parameters(entry.parameters);
      parameters.load_file(path);
      if (parts.size() == 2)
        apply_param_arguments(parameters, parts[1]);
      kernel::Engine engine;
      const std::unique_ptr<models::NetworkModel> model =
          entry.factory(models::NetworkModelContext{engine, *cluster, parameters});
      check_costs(entry.name, *model);
    });
  return 0;
}
