#include "models/FlowNetworkModel.hpp"

#include <algorithm>
#include <limits>

namespace mpisim::models {

namespace {

// A flow: SharedAction for the bandwidth phase, plus the event that ends its latency phase.
class Flow : public kernel::SharedAction {
public:
  // The description is built only when asked (deadlock reports), never on the hot path.
  Flow(double size, double rate_factor, const platform::Platform& platform, platform::HostId src, platform::HostId dst)
      : SharedAction(size, rate_factor), platform_(platform), src_(src), dst_(dst), latency_end_(*this)
  {
  }
  std::string describe() const override { return describe_message(platform_, src_, dst_); }

  // Counted among the flows in flight to its destination until its last byte arrives (incast option).
  void count_in(uint32_t& flows_to_destination)
  {
    ++flows_to_destination;
    flows_to_destination_ = &flows_to_destination;
  }

  void start_after_latency(kernel::Engine& engine, kernel::SharingModel& sharing, double latency, double penalty)
  {
    latency_end_.sharing = &sharing;
    latency_end_.penalty = penalty;
    latency_end_.keep_alive = std::static_pointer_cast<Flow>(shared_from_this());
    engine.schedule(latency_end_, engine.now() + latency);
  }

private:
  void on_complete() override
  {
    if (flows_to_destination_)
      --*flows_to_destination_;
  }

  struct LatencyEnd : kernel::Event {
    explicit LatencyEnd(Flow& flow) : flow(flow) { set_source(kernel::EventSource::Network); }
    void fire() override
    {
      auto self = std::move(keep_alive);
      sharing->solver().set_penalty(flow.variable(), penalty);
      sharing->mark_dirty();
    }
    void discard() override { keep_alive.reset(); }
    Flow& flow;
    kernel::SharingModel* sharing = nullptr;
    double penalty = 1;
    std::shared_ptr<Flow> keep_alive;
  };

  const platform::Platform& platform_;
  platform::HostId src_, dst_;
  LatencyEnd latency_end_;
  uint32_t* flows_to_destination_ = nullptr; // the model's counter; the model outlives its flows
};

} // namespace

std::vector<ParameterSpec> shared_flow_parameters(const std::string& os_default, const std::string& or_default)
{
  return {
      {"bw-factor",
       ParameterKind::Table,
       kSmpiBandwidthFactors,
       "bandwidth factor by message size (payload + envelope), threshold:factor",
       {"smpi/bw-factor", "network/bandwidth-factor"},
       ValueRange::Positive},
      {"lat-factor",
       ParameterKind::Table,
       kSmpiLatencyFactors,
       "latency factor by message size (payload + envelope), threshold:factor",
       {"smpi/lat-factor", "network/latency-factor"}},
      {"envelope", ParameterKind::Size, "16B", "bytes added to every message (tag, source, communicator)"},
      {"weight-S",
       ParameterKind::Number,
       "8775",
       "RTT-unfairness weight: flow penalty adds weight-S / bw per link",
       {"network/weight-S"}},
      {"crosstraffic",
       ParameterKind::Bool,
       "yes",
       "flows use 5% of the reverse route (acknowledgements)",
       {"network/crosstraffic"}},
      {"os",
       ParameterKind::Table,
       os_default,
       "blocking send overhead, threshold:seconds:seconds-per-byte",
       {"smpi/os"}},
      {"ois",
       ParameterKind::Table,
       "0:0:0",
       "non-blocking send overhead, threshold:seconds:seconds-per-byte",
       {"smpi/ois"}},
      {"or", ParameterKind::Table, or_default, "receive overhead, threshold:seconds:seconds-per-byte", {"smpi/or"}},
  };
}

void read_shared_flow_parameters(const Parameters& p, FlowModelSettings& s)
{
  s.bandwidth_factor = PiecewiseTable::parse(p.text("bw-factor"));
  s.latency_factor = PiecewiseTable::parse(p.text("lat-factor"));
  s.envelope = p.number("envelope");
  s.weight_s = p.number("weight-S");
  s.latency_unfair = true;
  s.crosstraffic = p.flag("crosstraffic") ? 0.05 : 0.0;
  s.send_overhead = PiecewiseTable::parse(p.text("os"));
  s.isend_overhead = PiecewiseTable::parse(p.text("ois"));
  s.receive_overhead = PiecewiseTable::parse(p.text("or"));
}

FlowNetworkModel::FlowNetworkModel(const NetworkModelContext& context, FlowModelSettings settings)
    : engine_(context.engine), platform_(context.platform), settings_(std::move(settings)),
      sharing_(context.engine, kernel::EventSource::Network)
{
  auto& solver = sharing_.solver();
  if (settings_.simgrid_lazy_marking)
    solver.set_marking(solver::Marking::SimGridLazy);
  for (const platform::LinkSpec& link : platform_.links()) {
    const solver::CnstId constraint =
        solver.add_constraint(link.bandwidth, link.sharing == platform::LinkSharing::Fatpipe ? solver::Sharing::Fatpipe
                                                                                             : solver::Sharing::Shared);
    link_constraints_.push_back(constraint);
    if (link_of_constraint_.size() <= constraint)
      link_of_constraint_.resize(constraint + 1);
    link_of_constraint_[constraint] = static_cast<platform::LinkId>(link_constraints_.size() - 1);
  }
  if (settings_.incast_threshold > 0)
    flows_to_host_.assign(platform_.hosts().size(), 0);
}

void FlowNetworkModel::observe_links(LinkObserver& observer)
{
  link_observers_.push_back(&observer);
  if (link_observers_.size() > 1)
    return;
  sharing_.watch_usage([this](solver::CnstId constraint, double used, uint32_t flows, kernel::SimTime now) {
    const platform::LinkId link = link_of_constraint_[constraint];
    const platform::LinkSpec& spec = platform_.links()[link];
    const LinkUsage usage{link, spec.name, now, used, spec.bandwidth, flows};
    for (LinkObserver* o : link_observers_)
      o->link_usage(usage);
  });
}

ProtocolThresholds FlowNetworkModel::protocol_thresholds() const
{
  return ProtocolThresholds{settings_.eager_below, settings_.detached_below};
}

double FlowNetworkModel::send_overhead(double payload) const
{
  return settings_.send_overhead.affine(payload);
}

double FlowNetworkModel::isend_overhead(double payload) const
{
  return settings_.isend_overhead.affine(payload);
}

double FlowNetworkModel::receive_overhead(double payload, Protocol protocol) const
{
  // As SMPI, the receive overhead is paid only for data the sender did not wait for (eager or detached).
  return protocol == Protocol::Rendezvous ? 0.0 : settings_.receive_overhead.affine(payload);
}

FlowNetworkModel::RouteInfo& FlowNetworkModel::route_info(platform::HostId src, platform::HostId dst)
{
  if (routes_.empty())
    routes_.resize(kRouteCacheSlots);
  const uint64_t key = (uint64_t{src} << 32) | dst;
  RouteInfo& info = routes_[((key * 0x9E3779B97F4A7C15ULL) >> 32) % kRouteCacheSlots];
  if (info.src != src || info.dst != dst)
    fill_route_info(info, src, dst);
  return info;
}

// Throws like Platform::route, leaving the slot empty.
void FlowNetworkModel::fill_route_info(RouteInfo& info, platform::HostId src, platform::HostId dst) const
{
  info.src = kNoHost;
  info.has_back = false;
  double route_latency = 0;
  platform_.route(src, dst, info.links, route_latency);
  info.forward = static_cast<uint32_t>(info.links.size());
  const auto& links = platform_.links();
  double penalty = settings_.latency_unfair ? route_latency : 0.0;
  double min_bandwidth = std::numeric_limits<double>::infinity();
  for (platform::LinkId link : info.links) {
    if (settings_.weight_s > 0)
      penalty += settings_.weight_s / links[link].bandwidth;
    min_bandwidth = std::min(min_bandwidth, links[link].bandwidth);
  }
  if (penalty <= 0)
    penalty = 1.0;
  double bound = min_bandwidth;
  if (settings_.tcp_gamma > 0 && route_latency > 0)
    bound = std::min(bound, settings_.tcp_gamma / (2.0 * route_latency));
  info.latency = route_latency;
  info.penalty = penalty;
  info.bound = bound;
  info.src = src;
  info.dst = dst;
}

// Only when a flow needs it, as a platform may lack the way back where nothing uses it.
void FlowNetworkModel::fill_back_route(RouteInfo& info)
{
  double ignored = 0;
  platform_.route(info.dst, info.src, back_route_, ignored);
  info.links.insert(info.links.end(), back_route_.begin(), back_route_.end());
  info.has_back = true;
}

Transfer FlowNetworkModel::transfer(const TransferRequest& request)
{
  const platform::HostId src = request.src;
  const platform::HostId dst = request.dst;
  const double payload = request.payload;
  const double size = payload + settings_.envelope;
  RouteInfo& info = route_info(src, dst);
  double latency = info.latency * settings_.latency_factor.factor(size);

  if (info.forward == 0) // nothing to share: only the latency
    return {engine_.start_timer(latency, message_timer_description(platform_, src, dst)), nullptr, std::nullopt};

  const double penalty = info.penalty;
  auto flow = std::make_shared<Flow>(size, settings_.bandwidth_factor.factor(size), platform_, src, dst);
  if (not flows_to_host_.empty()) {
    if (flows_to_host_[dst] >= settings_.incast_threshold)
      latency += settings_.incast_rto; // dropped at the destination's port, resent after the timeout
    flow->count_in(flows_to_host_[dst]);
  }
  auto& solver = sharing_.solver();
  // A flow paying its latency is disabled (penalty 0): it holds no bandwidth yet.
  solver::VarId variable = solver.add_variable(latency > 0 ? 0.0 : penalty, info.bound);
  const double share = 1.0 / settings_.concurrency_factor.factor(size);
  const double duplex = settings_.duplex_factor.factor(size);
  if ((settings_.crosstraffic > 0 || duplex != 1.0) && !info.has_back)
    fill_back_route(info);
  const auto forward_end = info.links.begin() + info.forward;
  for (auto link = info.links.begin(); link != forward_end; ++link) {
    const bool both_ways = duplex != 1.0 && std::find(forward_end, info.links.end(), *link) != info.links.end();
    solver.expand(link_constraints_[*link], variable, both_ways ? share / duplex : share);
  }
  if (settings_.crosstraffic > 0) {
    for (auto link = forward_end; link != info.links.end(); ++link)
      solver.expand(link_constraints_[*link], variable, settings_.crosstraffic * share);
  }
  sharing_.start(flow, variable);
  if (latency > 0)
    flow->start_after_latency(engine_, sharing_, latency, penalty);
  return {flow, nullptr, std::nullopt};
}

} // namespace mpisim::models
