// `smpi`: SimGrid 3.32's default SMPI network model, as `smpirun` configures it.
//
// Facts (from SimGrid 3.32, see shared/reference/simgrid-smpi.md sec. 3): piecewise bandwidth and latency factors
// fitted on TACC's Stampede, applied to payload + 16 bytes with intervals (t_i, t_i+1]; weight-S 8775; TCP-gamma
// 4194304 bytes; cross-traffic 0.05 on the reverse route; sends below 65536 payload bytes are detached; no eager
// mailbox (async-small-thresh 0); overheads os/ois/or zero.
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kSmpiParameters = {
    {"bw-factor", ParameterKind::Table,
     "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;"
     "0:0.812084",
     "bandwidth factor by message size (payload + envelope), threshold:factor", {"smpi/bw-factor",
                                                                                   "network/bandwidth-factor"}},
    {"lat-factor", ParameterKind::Table,
     "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;"
     "0:2.01467",
     "latency factor by message size (payload + envelope), threshold:factor", {"smpi/lat-factor",
                                                                                 "network/latency-factor"}},
    {"envelope", ParameterKind::Size, "16B", "bytes added to every message (tag, source, communicator)"},
    {"weight-S", ParameterKind::Number, "8775", "RTT-unfairness weight: flow penalty adds weight-S / bw per link",
     {"network/weight-S"}},
    {"tcp-gamma", ParameterKind::Size, "4194304B", "TCP window: flow rate <= tcp-gamma / (2 x route latency)",
     {"network/TCP-gamma", "network/TCP_gamma"}},
    {"crosstraffic", ParameterKind::Bool, "yes", "flows use 5% of the reverse route (acknowledgements)",
     {"network/crosstraffic"}},
    {"async-small-thresh", ParameterKind::Size, "0B", "payloads below this are sent eagerly (before the receive)",
     {"smpi/async-small-thresh"}},
    {"send-is-detached-thresh", ParameterKind::Size, "65536B",
     "payloads below this are detached: the sender does not wait", {"smpi/send-is-detached-thresh"}},
    {"os", ParameterKind::Table, "0:0:0:0:0", "blocking send overhead, threshold:seconds:seconds-per-byte",
     {"smpi/os"}},
    {"ois", ParameterKind::Table, "0:0:0:0:0", "non-blocking send overhead, threshold:seconds:seconds-per-byte",
     {"smpi/ois"}},
    {"or", ParameterKind::Table, "0:0:0:0:0", "receive overhead, threshold:seconds:seconds-per-byte", {"smpi/or"}},
};

FlowModelSettings smpi_settings(const Parameters& p)
{
  FlowModelSettings s;
  s.bandwidth_factor = PiecewiseTable::parse(p.text("bw-factor"));
  s.latency_factor = PiecewiseTable::parse(p.text("lat-factor"));
  s.envelope = p.number("envelope");
  s.weight_s = p.number("weight-S");
  s.latency_unfair = true;
  s.tcp_gamma = p.number("tcp-gamma");
  s.crosstraffic = p.flag("crosstraffic") ? 0.05 : 0.0;
  s.eager_below = p.number("async-small-thresh");
  s.detached_below = p.number("send-is-detached-thresh");
  s.send_overhead = PiecewiseTable::parse(p.text("os"));
  s.isend_overhead = PiecewiseTable::parse(p.text("ois"));
  s.receive_overhead = PiecewiseTable::parse(p.text("or"));
  return s;
}

const RegisterNetworkModel kRegisterSmpi({
    "smpi",
    "SimGrid 3.32's SMPI model: flow-level, piecewise factors, RTT-unfair sharing, cross-traffic",
    "Degomme et al., Simulating MPI applications: the SMPI approach, IEEE TPDS 2017; SimGrid 3.32 defaults",
    kSmpiParameters,
    [](const NetworkModelContext& context) {
      return std::make_unique<FlowNetworkModel>(context, smpi_settings(context.parameters));
    },
});

} // namespace
} // namespace mpisim::models
