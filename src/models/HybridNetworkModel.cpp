// `hybrid`: the hybrid model of seed 000 (Fig. 4) and seed 001 (Sec. IV): flow-level sharing over the platform's
// links (limiter links included), with the three MPI modes observed on real clusters, by payload size k:
//   asynchronous  k <= Sa (65536):          data leaves at the send, before the receive is posted (eager);
//   detached      Sa < k <= Sd (327680):    the sender returns at once, data flows once the receive is posted;
//   synchronous   k > Sd:                   rendezvous, the sender waits for the data to arrive.
// Within each size interval the model is affine: send overhead T1 = os + k*Os, receive overhead T3 = or + k*Or,
// transfer T2 = L*lat-factor + k / (B*bw-factor). The interval bounds 1420, 32768, 65536 and 327680 are the seeds'.
// Default factors are SimGrid's calibrated SMPI tables and overheads are zero: calibrate them for your cluster from
// ping and ping-pong runs (seed 001 Sec. IV.A) and pass them with --model-params.
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kHybridParameters = {
    {"Sa", ParameterKind::Size, "65536B", "largest payload sent asynchronously (eagerly)"},
    {"Sd", ParameterKind::Size, "327680B", "largest payload sent detached; above it, rendezvous"},
    {"bw-factor", ParameterKind::Table,
     "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;"
     "0:0.812084",
     "bandwidth factor by message size interval, threshold:factor", {"smpi/bw-factor"}},
    {"lat-factor", ParameterKind::Table,
     "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;"
     "0:2.01467",
     "latency factor by message size interval, threshold:factor", {"smpi/lat-factor"}},
    {"os", ParameterKind::Table, "0:0:0;1420:0:0;32768:0:0;65536:0:0;327680:0:0",
     "send overhead T1 by interval, threshold:os:Os (seconds, seconds per byte)", {"smpi/os"}},
    {"ois", ParameterKind::Table, "0:0:0", "non-blocking send overhead, threshold:seconds:seconds-per-byte",
     {"smpi/ois"}},
    {"or", ParameterKind::Table, "0:0:0;1420:0:0;32768:0:0;65536:0:0;327680:0:0",
     "receive overhead T3 by interval, threshold:or:Or", {"smpi/or"}},
    {"envelope", ParameterKind::Size, "16B", "bytes added to every message"},
    {"weight-S", ParameterKind::Number, "8775", "RTT-unfairness weight (as SMPI)", {"network/weight-S"}},
    {"crosstraffic", ParameterKind::Bool, "yes", "flows use 5% of the reverse route", {"network/crosstraffic"}},
};

FlowModelSettings hybrid_settings(const Parameters& p)
{
  FlowModelSettings s;
  s.bandwidth_factor = PiecewiseTable::parse(p.text("bw-factor"));
  s.latency_factor = PiecewiseTable::parse(p.text("lat-factor"));
  s.envelope = p.number("envelope");
  s.weight_s = p.number("weight-S");
  s.crosstraffic = p.flag("crosstraffic") ? 0.05 : 0.0;
  s.eager_below = p.number("Sa") + 1; // "k <= Sa" on integral sizes
  s.detached_below = p.number("Sd") + 1;
  s.send_overhead = PiecewiseTable::parse(p.text("os"));
  s.isend_overhead = PiecewiseTable::parse(p.text("ois"));
  s.receive_overhead = PiecewiseTable::parse(p.text("or"));
  return s;
}

const RegisterNetworkModel kRegisterHybrid({
    "hybrid",
    "the papers' hybrid model: asynchronous / detached / synchronous modes, affine costs per size interval",
    "Degomme et al., IEEE TPDS 2017, Fig. 4; Bedaride et al., PMBS 2013, Sec. IV",
    kHybridParameters,
    [](const NetworkModelContext& context) {
      return std::make_unique<FlowNetworkModel>(context, hybrid_settings(context.parameters));
    },
});

} // namespace
} // namespace mpisim::models
