// `loggps`: the LogGPS delay model (Ino et al., PPoPP 2001) as summarised in Fig. 1 of Bedaride et al.,
// "Toward Better Simulation of MPI Applications on Ethernet/TCP Networks" (PMBS 2013). No contention and no
// topology: each message costs a fixed delay, the only shared resource is the sender's network card (single port).
//
// For a payload of k bytes:
//   T1 = o + k*Os (send overhead)        T3 = o + k*Or (receive overhead)
//   T2 = L + k*g            if k < s     (transmission)
//      = L + s*g + (k-s)*G  otherwise
// k <= S is sent asynchronously: the sender pays T1, the data arrives T2 later, the receiver pays T3 on arrival.
// k > S uses a rendezvous. With ts, tr the dates the send and the receive are posted, the request reaches a ready
// receiver at m = max(ts + L + o, tr) (T4 = m - ts + o); the sender is released at m + o + T5 + T1 (T5 = 2o + L)
// and the data arrives T2 later; the receiver then pays T3. Non-blocking sends cost o.
// Single port: a card sends one message at a time, busy for T2 - L; later messages wait for it.
// By default L and G come from the route between the two hosts (sum of latencies, 1 / smallest bandwidth), so the
// model needs no calibration to run; set `use-route = no` to use the L, g and G given here.
#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "models/RouteSums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kLogGpsParameters = {
    {"use-route", ParameterKind::Bool, "yes", "take L and G from the route (latency sum, 1 / min bandwidth)"},
    {"L", ParameterKind::Time, "0s", "latency (added to the route's when use-route = yes)"},
    {"o", ParameterKind::Time, "0s", "CPU overhead per message, sender and receiver"},
    {"g", ParameterKind::Number, "0", "seconds per byte for payloads below s (0: same as G)"},
    {"G", ParameterKind::Number, "0", "seconds per byte for long payloads (0 with use-route: 1 / route bandwidth)"},
    {"Os", ParameterKind::Number, "0", "sender overhead per byte (seconds)"},
    {"Or", ParameterKind::Number, "0", "receiver overhead per byte (seconds)"},
    {"s", ParameterKind::Size, "1420B", "payload size where the per-byte cost switches from g to G"},
    {"S", ParameterKind::Size, "65536B", "largest payload sent asynchronously; above it, rendezvous"},
};

class LogGpsNetworkModel : public NetworkModel {
public:
  explicit LogGpsNetworkModel(const NetworkModelContext& context)
      : engine_(context.engine), platform_(context.platform), nic_free_(context.platform.hosts().size(), 0.0)
  {
    const Parameters& p = context.parameters;
    use_route_ = p.flag("use-route");
    L_ = p.number("L");
    o_ = p.number("o");
    g_ = p.number("g");
    G_ = p.number("G");
    Os_ = p.number("Os");
    Or_ = p.number("Or");
    s_ = p.number("s");
    S_ = p.number("S");
    if (use_route_)
      routes_.emplace(platform_);
  }

  // Eager for k <= S, rendezvous above: never detached.
  ProtocolThresholds protocol_thresholds() const override
  {
    const double above_S = std::nextafter(S_, std::numeric_limits<double>::infinity());
    return ProtocolThresholds{above_S, above_S};
  }
  double send_overhead(double k) const override { return o_ + k * Os_; }
  double isend_overhead(double) const override { return o_; }
  double receive_overhead(double k, Protocol) const override { return o_ + k * Or_; }

  Transfer transfer(const TransferRequest& request) override
  {
    const platform::HostId src = request.src;
    const platform::HostId dst = request.dst;
    const double k = request.payload;
    const double send_posted_at = request.send_posted_at;
    double latency = L_;
    double G = G_;
    if (use_route_) {
      const RouteSums route = routes_->between(src, dst);
      latency += route.latency;
      if (G <= 0)
        G = std::isinf(route.bandwidth) ? 0.0 : 1.0 / route.bandwidth;
    }
    const double g = g_ > 0 ? g_ : G;
    const double serialization = k < s_ ? k * g : s_ * g + (k - s_) * G;
    const double now = engine_.now();
    std::shared_ptr<kernel::Activity> release;
    double departure = now; // eager: the sender paid T1 before posting
    if (k > S_) {
      const double ready = std::max(send_posted_at + latency + o_, now); // m
      departure = ready + o_ + (2 * o_ + latency) + (o_ + k * Os_);      // m + o + T5 + T1
      release = engine_.start_timer(departure - now, "rendezvous handshake");
    }
    // Single port: the card serializes one message at a time.
    const double start = std::max(departure, nic_free_[src]);
    nic_free_[src] = start + serialization;
    auto arrival =
        engine_.start_timer(start + latency + serialization - now, message_timer_description(platform_, src, dst));
    return {std::move(arrival), std::move(release), std::nullopt};
  }

private:
  kernel::Engine& engine_;
  const platform::Platform& platform_;
  std::optional<RouteSumsTable> routes_; // with use-route
  std::vector<double> nic_free_;
  bool use_route_;
  double L_, o_, g_, G_, Os_, Or_, s_, S_;
};

const RegisterNetworkModel kRegisterLogGps({
    "loggps",
    "LogGPS delay model: affine overheads, piecewise-linear transmission, single port, no contention",
    "Ino, Fujimoto, Hagihara, LogGPS, PPoPP 2001; as summarised in Bedaride et al., PMBS 2013, Fig. 1",
    kLogGpsParameters,
    [](const NetworkModelContext& context) { return std::make_unique<LogGpsNetworkModel>(context); },
});

} // namespace
} // namespace mpisim::models
