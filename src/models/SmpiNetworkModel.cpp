// `smpi`: SimGrid 3.32's default SMPI network model, as `smpirun` configures it.
//
// Facts (from SimGrid 3.32, as documented in docs/model-parameters.md): piecewise bandwidth and latency factors
// fitted on TACC's Stampede, applied to payload + 16 bytes with intervals (t_i, t_i+1]; weight-S 8775; TCP-gamma
// 4194304 bytes; cross-traffic 0.05 on the reverse route; sends below 65536 payload bytes are detached; no eager
// mailbox (async-small-thresh 0); overheads os/ois/or zero. Shares are recomputed as SimGrid's lazy update
// (network/optim:Lazy) does, including the re-sharings it misses (docs/models.md).
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

std::vector<ParameterSpec> smpi_parameters()
{
  std::vector<ParameterSpec> specs = shared_flow_parameters("0:0:0:0:0", "0:0:0:0:0");
  specs.push_back({"tcp-gamma",
                   ParameterKind::Size,
                   "4194304B",
                   "TCP window: flow rate <= tcp-gamma / (2 x route latency)",
                   {"network/TCP-gamma", "network/TCP_gamma"}});
  specs.push_back({"async-small-thresh",
                   ParameterKind::Size,
                   "0B",
                   "payloads below this are sent eagerly (before the receive)",
                   {"smpi/async-small-thresh"}});
  specs.push_back({"send-is-detached-thresh",
                   ParameterKind::Size,
                   "65536B",
                   "payloads below this are detached: the sender does not wait",
                   {"smpi/send-is-detached-thresh"}});
  specs.push_back({"selective-update", ParameterKind::Bool, "yes",
                   "re-share only the flows SimGrid's lazy update marks as changed, as it does (it misses a flow that "
                   "ends its latency after another one, in the same round, on its first link); no: every flow a "
                   "change reaches (as network/optim:Full)"});
  return specs;
}

FlowModelSettings smpi_settings(const Parameters& p)
{
  FlowModelSettings s;
  read_shared_flow_parameters(p, s);
  s.tcp_gamma = p.number("tcp-gamma");
  s.eager_below = p.number("async-small-thresh");
  s.detached_below = p.number("send-is-detached-thresh");
  s.simgrid_lazy_marking = p.flag("selective-update");
  return s;
}

const RegisterNetworkModel kRegisterSmpi({
    "smpi",
    "SimGrid 3.32's SMPI model: flow-level, piecewise factors, RTT-unfair sharing, cross-traffic",
    "Degomme et al., Simulating MPI applications: the SMPI approach, IEEE TPDS 2017; SimGrid 3.32 defaults",
    smpi_parameters(),
    [](const NetworkModelContext& context) {
      return std::make_unique<FlowNetworkModel>(context, smpi_settings(context.parameters));
    },
});

} // namespace
} // namespace mpisim::models
