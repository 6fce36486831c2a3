// `hybrid`: the hybrid model of Degomme et al., TPDS 2017 (Fig. 4) and Bedaride et al., PMBS 2013 (Sec. IV): flow-level
// sharing over the platform's links (limiter links included), with the three MPI modes observed on real clusters, by
// payload size k:
//   asynchronous  k <= Sa (65536):          data leaves at the send, before the receive is posted (eager);
//   detached      Sa < k <= Sd (327680):    the sender returns at once, data flows once the receive is posted;
//   synchronous   k > Sd:                   rendezvous, the sender waits for the data to arrive.
// Within each size interval the model is affine: send overhead T1 = os + k*Os, receive overhead T3 = or + k*Or,
// transfer T2 = L*lat-factor + k / (B*bw-factor). The interval bounds 1420, 32768, 65536 and 327680 are the papers'.
// Default factors are SimGrid's calibrated SMPI tables and overheads are zero: calibrate them for your cluster from
// ping and ping-pong runs (PMBS 2013 paper, Sec. IV.A; `mpisim calibrate` does it) and pass them with --model-params.
// Option: TCP incast timeouts (PMBS 2013 paper, Sec. V.B-C: packets dropped when too many flows converge on one
// port, resent after Linux's 200 ms retransmission timeout): with incast-threshold = T > 0, a flow that starts while
// T or more flows are in flight to its destination host (latency phase included, until their last byte) pays
// incast-rto more latency.
// Concurrent messages: `concurrency-factor` and `duplex-factor` (threshold:factor, 1 by default) make flows of a size
// share links more (or less) efficiently than max-min fairness says: FlowModelSettings::concurrency_factor.
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

std::vector<ParameterSpec> hybrid_parameters()
{
  // T1 and T3 tables per interval of the papers (threshold:o:O), zero until calibrated.
  const std::string per_interval = "0:0:0;1420:0:0;32768:0:0;65536:0:0;327680:0:0";
  std::vector<ParameterSpec> specs = shared_flow_parameters(per_interval, per_interval);
  specs.push_back({"Sa", ParameterKind::Size, "65536B", "largest payload sent asynchronously (eagerly)"});
  specs.push_back({"Sd", ParameterKind::Size, "327680B", "largest payload sent detached; above it, rendezvous"});
  // TCP incast (PMBS 2013, Sec. V.B-C): off unless a threshold is given.
  specs.push_back({"incast-threshold", ParameterKind::Number, "0",
                   "TCP incast: a flow starting while this many flows are in flight to its destination host waits "
                   "incast-rto more (0: off)"});
  specs.push_back({"incast-rto", ParameterKind::Time, "200ms", "TCP retransmission timeout paid by an incast flow"});
  // Concurrent messages (mpisim calibrate's in-flight and exchange tests); 1: plain max-min sharing.
  specs.push_back({"concurrency-factor",
                   ParameterKind::Table,
                   "0:1",
                   "flows of this size share a link as if it were this many times as wide (each still bounded by "
                   "the route's narrowest link), threshold:factor",
                   {},
                   ValueRange::Positive});
  specs.push_back({"duplex-factor",
                   ParameterKind::Table,
                   "0:1",
                   "on links crossed both ways (limiters, SHARED links), flows of this size count this many times "
                   "less again, threshold:factor",
                   {},
                   ValueRange::Positive});
  return specs;
}

FlowModelSettings hybrid_settings(const Parameters& p)
{
  FlowModelSettings s;
  read_shared_flow_parameters(p, s);
  s.eager_below = p.number("Sa") + 1; // "k <= Sa" on integral sizes
  s.detached_below = p.number("Sd") + 1;
  s.incast_threshold = p.number("incast-threshold");
  s.incast_rto = p.number("incast-rto");
  s.concurrency_factor = PiecewiseTable::parse(p.text("concurrency-factor"));
  s.duplex_factor = PiecewiseTable::parse(p.text("duplex-factor"));
  return s;
}

const RegisterNetworkModel kRegisterHybrid({
    "hybrid",
    "the papers' hybrid model: asynchronous / detached / synchronous modes, affine costs per size interval",
    "Degomme et al., IEEE TPDS 2017, Fig. 4; Bedaride et al., PMBS 2013, Sec. IV",
    hybrid_parameters(),
    [](const NetworkModelContext& context) {
      return std::make_unique<FlowNetworkModel>(context, hybrid_settings(context.parameters));
    },
});

} // namespace
} // namespace mpisim::models
