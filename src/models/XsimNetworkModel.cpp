// `xsim`: the network model of the Extreme-scale Simulator (Engelmann et al., xSim network modeling, ORNL; Sec. 3.1,
// 3.2, 4.1, 4.2). No bandwidth sharing: each message is timed by arithmetic on its dates, at its send.
//
// The platform is a hierarchy of networks: its zones from the root down, and each host (the network of the ranks it
// holds). A message uses the model of the lowest network N holding both ends (Sec. 3.2), with that network's one-way
// 0-byte latency l0 and bandwidth b (zone properties xsim/lat and xsim/bw; without them, the route's latency sum and
// smallest bandwidth), and its rendezvous threshold (xsim/rdv, else the `rdv` parameter). For a payload of s bytes
// sent at the sender's date t (Sec. 3.1):
//   ts1 = max(t + lr, t_previous_s2[sender])   lr = 2 l0 for a rendezvous (s >= threshold), else 0
//   ts2 = ts1 + s / b
// then (Sec. 4.1, 4.2) with (tt1, tt2) = (ts1, ts2) and d = s / b:
//   1. outgoing contention: for each network below N on the sender's side, lowest first, whose members share an
//      access point to the network above (xsim/contention = yes), (tt1, tt2) is placed in its outgoing list;
//   2. capacity of N (xsim/capacity = c): (tx1, tx2) = (tt1, tt1 + d b / c) placed in N's transfer list, then
//      (tt1, tt2) = (tx1, tx1 + d);
//   3. the sender's side is done: ts2 = tt2 (the send completes then), t_previous_s2[sender] = ts2;
//   4. incoming contention: for each network below N on the receiver's side, highest first, with contention,
//      (tt1, tt2) is placed in its incoming list;
//   5. tr1 = tt1 + l0, tr2 = tt2 + l0.
// Placing in a list moves and fragments the transmission to the first free room (TransmissionIntervals.hpp).
// When a receive posted at t_post matches the message (Sec. 3.1, the destination's MPI_Wait):
//   tr1' = max(tr1, t_previous_r2[receiver], t_post), tr2' = tr2 + (tr1' - tr1), t_previous_r2[receiver] = tr2',
// and the receive completes at tr2'. docs/models.md ("xsim") gives the choices made where the paper is silent.
#include "common/Errors.hpp"
#include "common/Units.hpp"
#include "kernel/CacheLines.hpp"
#include "kernel/Engine.hpp"
#include "kernel/Pool.hpp"
#include "models/NetworkModel.hpp"
#include "models/PairTable.hpp"
#include "models/RouteSums.hpp"
#include "models/TransmissionIntervals.hpp"
#include "platform/Zone.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kXsimParameters = {
    {"rdv", ParameterKind::Size, "65536B",
     "rendezvous threshold of the networks that do not set xsim/rdv: from this payload on, a message pays the "
     "round-trip latency first"},
    {"contention", ParameterKind::Bool, "yes",
     "contention at access points as the platform sets it (xsim/contention); no: none anywhere"},
    {"capacity", ParameterKind::Bool, "yes",
     "bandwidth capacity as the platform sets it (xsim/capacity); no: none anywhere"},
};

constexpr uint32_t kNoNetwork = std::numeric_limits<uint32_t>::max();

// One network of the hierarchy: a zone, or a host (the network of the ranks on it).
struct Network {
  uint32_t parent = kNoNetwork;
  uint32_t depth = 0;
  std::optional<double> latency;   // l0, seconds (xsim/lat)
  std::optional<double> bandwidth; // b, bytes per second (xsim/bw)
  double rendezvous = 0;           // bytes
  bool contention = false;         // its members share one access point to the parent network
  double capacity = 0;             // bytes per second; 0: none
};

// Reads the xsim/ properties of a zone or host into `network`; bad values are bad input naming the owner.
// `owner` is made only for an error message: a platform of many hosts has one network per host.
void read_properties(Network& network, const std::map<std::string, std::string>& properties, std::string_view kind,
                     const std::string& name, double default_rendezvous)
{
  network.rendezvous = default_rendezvous;
  if (properties.empty())
    return;
  const std::string owner = std::string(kind) + " '" + name + "'";
  auto value = [&](const char* key) -> const std::string* {
    auto found = properties.find(key);
    return found == properties.end() ? nullptr : &found->second;
  };
  auto parsed = [&](const char* key, const std::string& text,
                    double (*parse)(std::string_view, const units::WarningHandler&)) {
    try {
      return parse(text, {});
    } catch (const InputError& error) {
      throw InputError("", 0, owner + ": property " + key + ": " + error.message());
    }
  };
  if (const std::string* text = value("xsim/lat"))
    network.latency = parsed("xsim/lat", *text, units::parse_time);
  if (const std::string* text = value("xsim/bw")) {
    network.bandwidth = parsed("xsim/bw", *text, units::parse_bandwidth);
    if (*network.bandwidth <= 0)
      throw InputError("", 0, owner + ": property xsim/bw: '" + *text + "' is not a bandwidth > 0");
  }
  if (const std::string* text = value("xsim/rdv"))
    network.rendezvous = parsed("xsim/rdv", *text, units::parse_size);
  if (const std::string* text = value("xsim/contention")) {
    if (*text != "yes" && *text != "no")
      throw InputError("", 0, owner + ": property xsim/contention: '" + *text + "' is not yes or no");
    network.contention = *text == "yes";
  }
  if (const std::string* text = value("xsim/capacity"); text != nullptr && *text != "-") {
    network.capacity = parsed("xsim/capacity", *text, units::parse_bandwidth);
    if (network.bandwidth && network.capacity < *network.bandwidth)
      throw InputError("", 0,
                       owner + ": property xsim/capacity: '" + *text +
                           "' is below the network's point-to-point bandwidth (xsim/bw): one message alone would "
                           "exceed the network's total");
  }
}

// The model's dated ends: a sender's release (ts2) or a receive's completion (tr2'). One rank's ends of one kind come
// in date order (t_previous_s2 and t_previous_r2 serialize them), so they wait in a list per rank and kind, its lane,
// and only the lane is in the engine's queue, at the date of its first end: the queue holds about an event per rank
// instead of one per message in flight, and the events it moves while it sifts are the lanes, side by side in memory,
// rather than ends scattered over the pools. Each end keeps the date of the one behind it, and the lane keeps its
// second end's date and the observer of its first (the message, set once the end's caller has returned): when the lane
// fires, it asks for the end and the message at once and reschedules itself while they come in, rather than waiting
// for the end to say where the message is and when the next end is. The next end is scheduled when the one before it
// fires, as a chain of timers would be: same-date ends fire in another order than with one queue entry each (the
// engine's fingerprint differs, the dates do not). An end that would come before the last of its lane (it cannot, but
// dates are rounded) takes its place in date order.
enum class TimerKind : uint8_t { Release, Arrival };

class TimerLane;

class DatedEnd : public kernel::Activity {
public:
  explicit DatedEnd(TimerKind kind) : kind_(kind) {}
  std::string describe() const override { return kind_ == TimerKind::Release ? "xsim: sent" : "xsim: received"; }

private:
  friend class TimerLane;
  std::shared_ptr<DatedEnd> keep_alive_; // until it fires
  DatedEnd* next_ = nullptr;             // behind it in its lane
  double date_ = 0;
  double next_date_ = 0; // next_'s date
  TimerKind kind_;
};

// A lane is one cache line, the one the engine's queue asks the processor for one event ahead: what fire() needs
// before the end itself, where the end and the message observing it lie and when the lane goes next, is found there.
class alignas(kernel::kCacheLineBytes) TimerLane final : private kernel::Event {
public:
  TimerLane() { set_source(kernel::EventSource::Network); } // as Engine::start_timer's
  TimerLane(const TimerLane&) = delete;
  TimerLane& operator=(const TimerLane&) = delete;
  ~TimerLane() override { discard(); }
  // The model goes before the engine: the lane leaves its queue (once the engine is gone, nothing is queued).
  void leave(kernel::Engine& engine)
  {
    if (scheduled())
      engine.cancel(*this);
    discard();
  }

  // An end at `date`; it keeps itself alive until it fires.
  std::shared_ptr<kernel::Activity> start(kernel::Engine& engine, TimerKind kind, double date)
  {
    auto end = kernel::make_pooled<DatedEnd>(kind);
    end->keep_alive_ = end;
    end->date_ = date;
    if (tail_ == nullptr) {
      head_ = tail_ = end.get();
      head_observer_ = nullptr; // set once the caller has returned (Activity::set_observer)
      engine.schedule(*this, date);
      return end;
    }
    if (head_observer_ == nullptr) // the head was started last (the lane was empty): its caller has set it since
      head_observer_ = head_->observer();
    if (date >= tail_->date_) {
      if (tail_ == head_)
        second_date_ = date;
      tail_->next_ = end.get();
      tail_->next_date_ = date;
      tail_ = end.get();
    } else {
      insert_in_order(engine, *end);
    }
    return end;
  }

private:
  void insert_in_order(kernel::Engine& engine, DatedEnd& end)
  {
    if (end.date_ < head_->date_) {
      end.next_ = head_;
      end.next_date_ = head_->date_;
      head_ = &end;
      head_observer_ = nullptr;
      second_date_ = end.next_date_;
      engine.schedule(*this, end.date_);
      return;
    }
    DatedEnd* before = head_;
    while (before->next_ != nullptr && before->next_date_ <= end.date_)
      before = before->next_;
    end.next_ = before->next_;
    end.next_date_ = before->next_date_;
    before->next_ = &end;
    before->next_date_ = end.date_;
    second_date_ = head_->next_date_;
  }

  void fire() override
  {
    DatedEnd* end = head_;
    // The end's two cache lines (its Activity part, what complete() reads, and its lane part) and the message that
    // observes it are cold (made long ago). The lane says where the end and the message are and when it goes next:
    // all are asked for at once, and the lane is rescheduled while they come in.
    kernel::prefetch_lines(end, 2);
    if (head_observer_ != nullptr)
      kernel::prefetch_lines(head_observer_, kObserverLines);
    else
      end->prefetch_observer(kObserverLines);
    assert(end == tail_ || second_date_ == end->next_date_);
    if (end != tail_)
      kernel::Engine::current().schedule(*this, second_date_);
    else
      tail_ = nullptr;
    auto self = std::move(end->keep_alive_); // released when this function returns
    head_ = std::exchange(end->next_, nullptr);
    if (head_ != nullptr)
      kernel::prefetch_lines(head_, 2); // read once this end is complete
    end->complete();
    // The next end's observer (null if it has none yet; a hint: only loaded, never followed) and successor's date.
    if (head_ != nullptr) {
      head_observer_ = head_->observer();
      second_date_ = head_->next_date_;
    } else {
      head_observer_ = nullptr;
    }
  }
  // The run ended first: the ends go with it.
  void discard() override
  {
    for (DatedEnd* end = std::exchange(head_, nullptr); end != nullptr;) {
      DatedEnd* next = std::exchange(end->next_, nullptr);
      end->keep_alive_.reset(); // may free it
      end = next;
    }
    tail_ = nullptr;
    head_observer_ = nullptr;
  }

  static constexpr size_t kObserverLines = 5; // a message's pooled block (mpi/Message.hpp)
  DatedEnd* head_ = nullptr;
  DatedEnd* tail_ = nullptr;
  const kernel::ActivityObserver* head_observer_ = nullptr; // head_'s, when known
  double second_date_ = 0;                                  // head_->next_date_ (head_ has a next end)
};
static_assert(sizeof(TimerLane) == kernel::kCacheLineBytes);

// The lanes of one kind, by world rank. A deque keeps them in place as it grows, and a vector of their addresses finds
// one in two instructions, where the deque's own indexing (a block, then a slot in it) and size cost tens per end.
class LaneTable {
public:
  LaneTable() = default;
  LaneTable(const LaneTable&) = delete;
  LaneTable& operator=(const LaneTable&) = delete;
  TimerLane& operator[](size_t rank)
  {
    if (rank >= by_rank_.size()) [[unlikely]]
      grow_to(rank + 1);
    return *by_rank_[rank];
  }
  std::deque<TimerLane>& lanes() { return lanes_; }

private:
  void grow_to(size_t count)
  {
    while (lanes_.size() < count)
      by_rank_.push_back(&lanes_.emplace_back());
  }
  std::deque<TimerLane> lanes_;
  std::vector<TimerLane*> by_rank_; // &lanes_[rank]
};

class XsimNetworkModel : public NetworkModel {
public:
  explicit XsimNetworkModel(const NetworkModelContext& context)
      : engine_(context.engine), platform_(context.platform), routes_(context.platform),
        pair_costs_(context.platform.hosts().size())
  {
    const Parameters& p = context.parameters;
    default_rendezvous_ = p.number("rdv");
    const bool contention = p.flag("contention");
    const bool capacity = p.flag("capacity");
    // Zones first (in the order met), then one network per host.
    std::unordered_map<const platform::Zone*, uint32_t> zone_network; // into networks_
    const auto& hosts = platform_.hosts();
    host_network_.resize(hosts.size());
    const platform::Zone* last_zone = nullptr; // a cluster's hosts share their zone: its path is walked once
    uint32_t parent = kNoNetwork;
    for (platform::HostId host = 0; host < hosts.size(); ++host) {
      if (const platform::Zone* zone = platform_.zone_of(host); zone == nullptr || zone != last_zone) {
        last_zone = zone;
        parent = zone_path_network(platform_.zones_of(host), zone_network);
      }
      host_network_[host] = static_cast<uint32_t>(networks_.size());
      networks_.push_back(make_network(hosts[host].properties, "host", hosts[host].name, parent));
    }
    for (Network& network : networks_) {
      network.contention = network.contention && contention && network.parent != kNoNetwork;
      network.capacity = capacity ? network.capacity : 0;
      any_contention_ = any_contention_ || network.contention;
      uniform_rendezvous_ = uniform_rendezvous_ && network.rendezvous == default_rendezvous_;
    }
    set_member_costs();
  }

  XsimNetworkModel(const XsimNetworkModel&) = delete;
  XsimNetworkModel& operator=(const XsimNetworkModel&) = delete;
  ~XsimNetworkModel() override
  {
    for (LaneTable* table : {&release_lanes_, &arrival_lanes_})
      for (TimerLane& lane : table->lanes())
        lane.leave(engine_);
  }

  ProtocolThresholds protocol_thresholds() const override
  {
    return ProtocolThresholds{default_rendezvous_, default_rendezvous_, true};
  }
  // Eager below the rendezvous threshold of the lowest network holding both hosts, rendezvous from it on.
  ProtocolThresholds protocol_thresholds(platform::HostId src, platform::HostId dst) const override
  {
    if (uniform_rendezvous_) // no xsim/rdv anywhere (or all alike): no pair to look up, once per message
      return protocol_thresholds();
    const double threshold = networks_[pair_cost(src, dst).common].rendezvous;
    return ProtocolThresholds{threshold, threshold, true};
  }
  double send_overhead(double) const override { return 0; }
  double isend_overhead(double) const override { return 0; }
  double receive_overhead(double, Protocol) const override { return 0; }

  Transfer transfer(const TransferRequest& request) override
  {
    const double now = engine_.now();
    const PairCost cost = pair_cost(request.src, request.dst);
    const uint32_t common = cost.common;
    const Network& network = networks_[common];
    const double latency = cost.latency;
    const double bandwidth = cost.bandwidth;
    const double duration = std::isinf(bandwidth) ? 0.0 : request.payload / bandwidth;
    const double round_trip = request.protocol == Protocol::Rendezvous ? 2 * latency : 0.0;

    double& previous_sent = per_rank(previous_sent_, request.src_rank);
    Transmission t{std::max(now + round_trip, previous_sent), 0};
    t.last_byte = t.first_byte + duration;
    // The walks up from each host read a network per level (cache misses on many hosts): only when some has
    // contention.
    if (any_contention_)
      for (uint32_t n = host_network_[request.src]; n != common; n = networks_[n].parent)
        if (networks_[n].contention)
          t = place(outgoing_, n, t.first_byte, duration);
    if (network.capacity > 0) {
      const Transmission scaled = place(transfers_, common, t.first_byte, duration * bandwidth / network.capacity);
      t = {scaled.first_byte, scaled.first_byte + duration};
    }
    previous_sent = t.last_byte;
    auto release = start_timer(TimerKind::Release, request.src_rank, t.last_byte - now);
    // Incoming contention, from the highest network below the common one down to the receiver's host.
    if (any_contention_) {
      below_.clear();
      for (uint32_t n = host_network_[request.dst]; n != common; n = networks_[n].parent)
        below_.push_back(n);
      for (auto n = below_.rbegin(); n != below_.rend(); ++n)
        if (networks_[*n].contention)
          t = place(incoming_, *n, t.first_byte, duration);
    }
    return {nullptr, std::move(release),
            ArrivalWindow{t.first_byte + latency, t.last_byte + latency, request.dst_rank}};
  }

  std::shared_ptr<kernel::Activity> arrival_at_match(const ArrivalWindow& window, double receive_posted_at) override
  {
    double& previous_received = per_rank(previous_received_, window.dst_rank);
    const double first_byte = std::max({window.first_byte, previous_received, receive_posted_at});
    previous_received = window.last_byte + (first_byte - window.first_byte);
    return start_timer(TimerKind::Arrival, window.dst_rank, std::max(previous_received - engine_.now(), 0.0));
  }

private:
  Network make_network(const std::map<std::string, std::string>& properties, std::string_view kind,
                       const std::string& name, uint32_t parent) const
  {
    Network network;
    network.parent = parent;
    network.depth = parent == kNoNetwork ? 0 : networks_[parent].depth + 1;
    read_properties(network, properties, kind, name, default_rendezvous_);
    return network;
  }

  // The network of the last zone of `path` (root first), the zones' networks made the first time they are met.
  uint32_t zone_path_network(const std::vector<const platform::Zone*>& path,
                             std::unordered_map<const platform::Zone*, uint32_t>& zone_network)
  {
    uint32_t parent = kNoNetwork;
    for (const platform::Zone* zone : path) {
      auto [found, added] = zone_network.try_emplace(zone, static_cast<uint32_t>(networks_.size()));
      if (added)
        networks_.push_back(make_network(zone->properties(), "zone", zone->name(), parent));
      parent = found->second;
    }
    return parent;
  }

  // The lowest network holding both hosts.
  uint32_t common_network(platform::HostId src, platform::HostId dst) const
  {
    uint32_t a = host_network_[src];
    uint32_t b = host_network_[dst];
    while (networks_[a].depth > networks_[b].depth)
      a = networks_[a].parent;
    while (networks_[b].depth > networks_[a].depth)
      b = networks_[b].parent;
    while (a != b) {
      a = networks_[a].parent;
      b = networks_[b].parent;
    }
    return a;
  }

  // The lowest network holding both hosts, with its l0 and b: from its properties, or else from the route (latency
  // sum, smallest bandwidth: the paper's rule for networks whose dimensions have different links).
  struct PairCost {
    uint32_t common = kNoNetwork;
    double latency = 0;
    double bandwidth = 0;
  };
  // A zone declaring hosts (RouteSumsTable's numbering), and the cost of every pair of distinct hosts of it when it is
  // the same for all.
  struct ZoneCost {
    uint32_t network = kNoNetwork;
    bool uniform = false;
    double latency = 0;
    double bandwidth = 0;
  };

  // Ranks exchange with the same peers again and again, and finding the common network and the route costs more than
  // the rest of the model: the answers are kept by pair (PairTable).
  PairCost pair_cost(platform::HostId src, platform::HostId dst) const
  {
    // Two hosts of a zone whose pairs all cost the same: neither the table nor the route.
    if (const uint32_t zone = routes_.zone_of(src);
        zone == routes_.zone_of(dst) && zone != RouteSumsTable::kNoZone && src != dst && zone_costs_[zone].uniform) {
      const ZoneCost& same = zone_costs_[zone];
      return PairCost{same.network, same.latency, same.bandwidth};
    }
    return pair_costs_.find(src, dst, [&] { return compute_pair_cost(src, dst); });
  }

  // The l0 and b of every pair of distinct hosts declared in a zone, when they are the same for all: from the zone's
  // properties, or from the sums of its routes when they are all alike (a FLAT cluster's). As compute_pair_cost
  // computes them.
  void set_member_costs()
  {
    for (platform::HostId host = 0; host < host_network_.size(); ++host) {
      const uint32_t zone = routes_.zone_of(host);
      if (zone == RouteSumsTable::kNoZone)
        continue;
      if (zone >= zone_costs_.size())
        zone_costs_.resize(zone + 1);
      ZoneCost& cost = zone_costs_[zone];
      if (cost.network != kNoNetwork)
        continue;
      cost.network = networks_[host_network_[host]].parent; // the zone's network
      const Network& network = networks_[cost.network];
      if (network.latency && network.bandwidth)
        cost = {cost.network, true, *network.latency, *network.bandwidth};
      else if (const RouteSums* route = routes_.uniform_sums(zone))
        cost = {cost.network, true, network.latency.value_or(route->latency),
                network.bandwidth.value_or(route->bandwidth)};
    }
  }

  PairCost compute_pair_cost(platform::HostId src, platform::HostId dst) const
  {
    PairCost cost;
    cost.common = common_network(src, dst);
    const Network& network = networks_[cost.common];
    if (network.latency && network.bandwidth) {
      cost.latency = *network.latency;
      cost.bandwidth = *network.bandwidth;
      return cost;
    }
    const RouteSums route = routes_.route(src, dst);
    cost.latency = network.latency.value_or(route.latency);
    cost.bandwidth = network.bandwidth.value_or(route.bandwidth);
    return cost;
  }

  // Places a transmission in the list of `network` in `lists`, after dropping what every rank has passed: no new
  // transmission starts before now.
  Transmission place(std::unordered_map<uint32_t, TransmissionIntervals>& lists, uint32_t network, double start,
                     double duration)
  {
    TransmissionIntervals& list = lists[network];
    list.prune(engine_.now());
    return list.insert(start, duration);
  }

  template <class T> static T& per_rank(std::vector<T>& values, int rank)
  {
    const auto index = static_cast<size_t>(rank);
    if (index >= values.size())
      values.resize(index + 1, T{});
    return values[index];
  }

  // The date as Engine::start_timer computes it, the end in the rank's lane.
  std::shared_ptr<kernel::Activity> start_timer(TimerKind kind, int rank, double delay)
  {
    LaneTable& lanes = kind == TimerKind::Release ? release_lanes_ : arrival_lanes_;
    return lanes[static_cast<size_t>(rank)].start(engine_, kind, engine_.now() + std::max(delay, 0.0));
  }

  kernel::Engine& engine_;
  const platform::Platform& platform_;
  double default_rendezvous_ = 0;
  bool uniform_rendezvous_ = true; // every network's threshold is default_rendezvous_
  bool any_contention_ = false;    // some network has contention (else no outgoing or incoming list is used)
  std::vector<Network> networks_;
  std::vector<uint32_t> host_network_;
  mutable RouteSumsTable routes_;    // the zones declaring hosts, and the routes' sums
  std::vector<ZoneCost> zone_costs_; // by RouteSumsTable zone
  std::unordered_map<uint32_t, TransmissionIntervals> outgoing_, incoming_, transfers_;
  std::vector<double> previous_sent_, previous_received_; // t_previous_s2, t_previous_r2 by world rank
  LaneTable release_lanes_, arrival_lanes_;               // by world rank
  std::vector<uint32_t> below_;
  mutable PairTable<PairCost> pair_costs_;
};

const RegisterNetworkModel kRegisterXsim({
    "xsim",
    "xSim's hierarchical model: per-message timestamps, per-process serialization, contention at access points, "
    "bandwidth capacity; no bandwidth solver",
    "Engelmann et al., the Extreme-scale Simulator (xSim) network model with contention and bandwidth capacity "
    "modeling (ORNL), Sec. 3.1, 3.2, 4.1, 4.2",
    kXsimParameters,
    [](const NetworkModelContext& context) { return std::make_unique<XsimNetworkModel>(context); },
});

} // namespace
} // namespace mpisim::models
