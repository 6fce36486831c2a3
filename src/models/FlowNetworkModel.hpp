// Flow-level network model (SimGrid's CM02 family): each message is a flow along its route; flows share link
// bandwidth by weighted max-min fairness. One mechanism serves the `smpi`, `hybrid` and `fluid` models, which differ
// only in their settings (see their registration files).
//
// Life of a message of `size` bytes (payload + envelope) over links l with latencies lat_l and bandwidths bw_l:
//  1. latency phase: lat = sum(lat_l) * latency_factor(size); the flow holds no bandwidth meanwhile;
//  2. bandwidth phase: a solver variable x with penalty p = sum(lat_l) + sum(weight_s / bw_l) (flows with a long
//     round trip get less: TCP's RTT unfairness), bounded by min(min bw_l, tcp_gamma / (2 sum(lat_l))), using every
//     link of the route with coefficient 1 and every link of the reverse route with coefficient `crosstraffic`
//     (TCP acknowledgements); the flow progresses at x * bandwidth_factor(size).
// A route with no link (latency only) completes after its latency.
#pragma once

#include "kernel/SharingModel.hpp"
#include "models/NetworkModel.hpp"
#include "models/PiecewiseTable.hpp"

namespace mpisim::models {

struct FlowModelSettings {
  PiecewiseTable bandwidth_factor; // empty: 1
  PiecewiseTable latency_factor;   // empty: 1
  double envelope = 0;             // bytes added to every payload (SMPI: 16, tag + source + communicator)
  double weight_s = 0;             // 0: penalty is the route latency only (or 1 if `latency_unfair` is off)
  bool latency_unfair = true;      // penalty includes the route latency (CM02); off: plain max-min (penalty 1)
  double tcp_gamma = 0;            // bytes; 0 disables the window bound
  double crosstraffic = 0;         // coefficient on reverse-route links; 0 disables
  // Re-solve only what SimGrid 3.32's lazy update marks as modified (solver::Marking::SimGridLazy), artefacts
  // included; off: every component a change touches (physically right).
  bool simgrid_lazy_marking = false;

  // MPI protocol thresholds (ProtocolThresholds): Eager if payload < eager_below, else Detached if
  // < detached_below, else Rendezvous. Overheads are affine tables (threshold:a:b).
  double eager_below = 0;
  double detached_below = 0;
  PiecewiseTable send_overhead;
  PiecewiseTable isend_overhead;
  PiecewiseTable receive_overhead;

  // TCP incast (PMBS 2013 paper, Sec. V.B-C): a flow that starts while `incast_threshold` or more flows are already
  // in flight to the same destination host is dropped by the overflowing switch port and resent after the
  // retransmission timeout: its latency phase grows by `incast_rto`. 0 disables it.
  double incast_threshold = 0;
  double incast_rto = 0;

  // Concurrent flows (hybrid model; mpisim calibrate fits both tables from its in-flight and exchange tests): a flow
  // of `size` bytes counts 1 / concurrency_factor(size) of its rate on every link of its route, and is divided by
  // duplex_factor(size) once more on the links its reverse route crosses too (a port's two directions: limiters,
  // SHARED links). So n flows of one size share a link as if it were concurrency_factor times as wide, each still
  // bounded by the route's narrowest link (a lone flow is unchanged). Empty tables: 1, plain max-min sharing.
  PiecewiseTable concurrency_factor;
  PiecewiseTable duplex_factor;
};

// SimGrid 3.32's SMPI factor tables ("computed by data fitting on the Stampede Supercomputer at TACC"), thresholds on
// payload + envelope bytes.
inline constexpr const char* kSmpiBandwidthFactors =
    "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;"
    "0:0.812084";
inline constexpr const char* kSmpiLatencyFactors =
    "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;"
    "0:2.01467";

// Declarations of the parameters the SMPI-like flow models share (factor tables, envelope, RTT unfairness,
// cross-traffic, overhead tables), and the reading of them into settings. Each model adds its own.
std::vector<ParameterSpec> shared_flow_parameters(const std::string& os_default, const std::string& or_default);
void read_shared_flow_parameters(const Parameters& parameters, FlowModelSettings& settings);

class FlowNetworkModel : public NetworkModel {
public:
  FlowNetworkModel(const NetworkModelContext& context, FlowModelSettings settings);

  ProtocolThresholds protocol_thresholds() const override;
  double send_overhead(double payload) const override;
  double isend_overhead(double payload) const override;
  double receive_overhead(double payload, Protocol protocol) const override;
  Transfer transfer(const TransferRequest& request) override;
  // Each link is a solver constraint: its consumption after each solve is the bandwidth it carries.
  void observe_links(LinkObserver& observer) override;

private:
  // What a flow between two hosts needs of its route, which depends on the two hosts only (the platform does not
  // change during a run): computed once, then reused, so the same numbers as computing it each time.
  struct RouteInfo {
    platform::HostId src = kNoHost;
    platform::HostId dst = kNoHost;
    uint32_t forward = 0;  // links[0, forward): the route
    bool has_back = false; // links[forward, end): the route from dst to src (cross traffic, duplex factors)
    double latency = 0;    // sum of the route's latencies
    double penalty = 1;    // the solver variable's penalty (RTT unfairness)
    double bound = 0;      // the narrowest link, or the TCP window over the round trip
    std::vector<platform::LinkId> links; // both ways in one block: one cache miss less per flow
  };
  static constexpr platform::HostId kNoHost = UINT32_MAX;
  // A direct-mapped cache: bounded memory however many hosts the platform has (replays of millions of ranks), and a
  // lookup of one slot. Online LU on 64 hosts uses a few hundred pairs.
  static constexpr size_t kRouteCacheSlots = 1024;
  RouteInfo& route_info(platform::HostId src, platform::HostId dst);
  void fill_route_info(RouteInfo& info, platform::HostId src, platform::HostId dst) const;
  void fill_back_route(RouteInfo& info);

  kernel::Engine& engine_;
  const platform::Platform& platform_;
  FlowModelSettings settings_;
  kernel::SharingModel sharing_;
  std::vector<solver::CnstId> link_constraints_;
  std::vector<platform::LinkId> link_of_constraint_;
  std::vector<LinkObserver*> link_observers_;
  std::vector<RouteInfo> routes_;            // the cache, kRouteCacheSlots slots once the first flow starts
  std::vector<platform::LinkId> back_route_; // scratch
  std::vector<uint32_t> flows_to_host_;      // flows in flight per destination host (incast option only)
};

} // namespace mpisim::models
