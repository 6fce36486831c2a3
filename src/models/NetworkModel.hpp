// The network model extension point: how long a message takes, and which MPI protocol carries it.
//
// Adding a model is adding one file that defines a NetworkModel and registers it with RegisterNetworkModel; the
// command line (--model NAME), --help-models and the docs all read the registry.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/Engine.hpp"
#include "models/Parameters.hpp"
#include "platform/Platform.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::models {

// How the MPI layer moves a message (SMPI paper, Degomme et al., TPDS 2017, Fig. 4; PMBS 2013 paper, Bedaride et al.,
// Sec. IV.A):
//  Eager      - "asynchronous": data leaves at the send, whether or not the receive is posted.
//  Detached   - the sender returns at once, but data flows only once the receive is matched.
//  Rendezvous - "synchronous": the sender is held until the data has arrived.
// Which one carries a message is decided in one place, mpi::choose_send_protocol (mpi/SendProtocol.hpp), from the
// send's mode and the model's thresholds below.
enum class Protocol : uint8_t { Eager, Detached, Rendezvous };

// The payload sizes where a model's protocol changes: eager if payload < eager_below, else detached if
// payload < detached_below, else rendezvous. An inclusive bound "k <= S" is given as the next double above S.
struct ProtocolThresholds {
  double eager_below;
  double detached_below;
};

// What a started transfer gives the MPI layer.
struct Transfer {
  std::shared_ptr<kernel::Activity> arrival;        // completes when the last byte has arrived
  std::shared_ptr<kernel::Activity> sender_release; // rendezvous: when the sender may go; null means at arrival
};

// The bandwidth a link carries, reported when it changes (observation outside the models: the timeline writers
// subscribe through the layers above, which register a LinkObserver; the model never calls upward on its own).
struct LinkUsage {
  platform::LinkId link;
  std::string_view name; // the platform's name of the link (lives as long as the platform)
  double time;           // simulated seconds: the date of the solve that changed the shares
  double used;           // bytes per second of the link's capacity in use: sum of the flows' shares (a fatpipe:
                         // the largest), acknowledgement traffic (cross-traffic) included
  double capacity;       // the link's bandwidth, bytes per second
  uint32_t flows;        // flows holding a share of it (latency phases excluded)
};

class LinkObserver {
public:
  virtual ~LinkObserver() = default;
  virtual void link_usage(const LinkUsage&) = 0;
};

class NetworkModel {
public:
  virtual ~NetworkModel() = default;

  // Registers an observer (not owned, must outlive the simulation) of link bandwidth over time. Models that share
  // link bandwidth (the flow models) report each link whose use changed after each re-sharing; delay models
  // (loggps) have no shared links and report nothing. With no observer registered the models keep no usage data.
  virtual void observe_links(LinkObserver& observer) { (void)observer; }

  // The sizes where the MPI protocol changes (the model's parameters); the MPI layer decides from them.
  virtual ProtocolThresholds protocol_thresholds() const = 0;

  // CPU-side costs, in seconds, of a message of `payload` bytes (MPI payload, no envelope): what the sender spends in
  // a blocking send and in a non-blocking one (when it pays them: mpi/SendProtocol.hpp), and what the receiver
  // spends once a message carried by `protocol` has arrived.
  virtual double send_overhead(double payload) const = 0;
  virtual double isend_overhead(double payload) const = 0;
  virtual double receive_overhead(double payload, Protocol protocol) const = 0;

  // Starts moving a message of `payload` bytes from host src to host dst, now: at the send for eager messages, at
  // the match otherwise. `send_posted_at` is the date the send was posted (delay models use it for handshakes).
  virtual Transfer transfer(platform::HostId src, platform::HostId dst, double payload, double send_posted_at) = 0;
};

struct NetworkModelContext {
  kernel::Engine& engine;
  const platform::Platform& platform;
  const Parameters& parameters;
};

struct NetworkModelEntry {
  std::string name;
  std::string description; // one line
  std::string citation;
  std::vector<ParameterSpec> parameters;
  std::function<std::unique_ptr<NetworkModel>(const NetworkModelContext&)> factory;
};

class NetworkModelRegistry {
public:
  static void add(NetworkModelEntry entry);
  // Throws InputError listing the valid names when `name` is unknown.
  static const NetworkModelEntry& find(const std::string& name);
  static const std::vector<NetworkModelEntry>& all();
};

struct RegisterNetworkModel {
  explicit RegisterNetworkModel(NetworkModelEntry entry) { NetworkModelRegistry::add(std::move(entry)); }
};

} // namespace mpisim::models
