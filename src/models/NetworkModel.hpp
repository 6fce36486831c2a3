// The network model extension point: how long a message takes, and which MPI protocol carries it.
//
// Adding a model is adding one file that defines a NetworkModel and registers it with RegisterNetworkModel; the
// command line (--model NAME), --help-models and the docs all read the registry.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/Engine.hpp"
#include "models/Parameters.hpp"
#include "platform/Platform.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
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
  // How the model times a message. false (flow models, loggps): the transfer of a detached or rendezvous message
  // starts once a receive has matched it, and an eager or detached send completes at its post. true (xsim): every
  // message is timed from its send, by the sender's clock alone (a rendezvous only adds the model's handshake
  // latency; xSim paper Sec. 3.1), and every send completes when the model releases the sender (its last byte sent).
  // mpi/SendProtocol.hpp draws the consequences.
  bool timed_from_send = false;
  // bxi: a synchronous send starts at its post too (its header travels at once; the model releases the sender once
  // the receiver has answered the match). Only with timed_from_send.
  bool synchronous_at_post = false;
};

// A message to move, as the MPI layer knows it when the transfer starts.
struct TransferRequest {
  platform::HostId src;
  platform::HostId dst;
  int src_rank; // world ranks: models keeping per-process state (xsim) key it by rank, not host
  int dst_rank;
  double payload;        // bytes
  double send_posted_at; // date the send was posted (delay models use it for handshakes)
  Protocol protocol;     // as mpi::choose_send_protocol decided
};

// The dates a model that times messages at the send gives the payload at the destination before the receive is
// known (xsim: tr1, tr2); the receive's own rules apply at the match (NetworkModel::arrival_at_match).
struct ArrivalWindow {
  double first_byte;
  double last_byte;
  int dst_rank;
  // Which of a switching model's models gave the window (SwitchingNetworkModel): carried with the message, so that
  // no table keyed by message is needed. Next to dst_rank: no padding (the window is part of every message).
  uint32_t model = 0;
  uint64_t token = 0; // the model's own key for the message (bxi: its rendezvous)
};

// What a started transfer gives the MPI layer.
struct Transfer {
  // Completes when the last byte has arrived. Null when the model dates the arrival only once a receive has matched
  // the message (then `window` is set and NetworkModel::arrival_at_match gives the activity).
  std::shared_ptr<kernel::Activity> arrival;
  // When the sender may go (rendezvous, and every send of a model timed from the send); null means at arrival.
  std::shared_ptr<kernel::Activity> sender_release;
  std::optional<ArrivalWindow> window;
  // When the message reaches the receiver's matching (bxi: the target's NIC processes its Put, thesis section 4.3):
  // until then receives and probes do not see it. Null: at the post, as the MPI layer decides. May be `arrival`.
  std::shared_ptr<kernel::Activity> at_receiver;
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

// What a NIC model (bxi) did, for Portals-level traces (--timeline NIC tracks, --portals-csv): the types of the S4BXI
// thesis's CSV log (its section 4.4), each an interval of simulated time on one node's NIC.
enum class NicEvent : uint8_t {
  PciCommand,      // the CPU writes a command to the NIC
  PciPioPayload,   // the CPU writes a PIO payload to the NIC
  PciDmaPayload,   // the NIC reads a DMA payload from host memory
  PciPayloadWrite, // the target's NIC writes a payload into host memory (in the background)
  Put,             // a request on the wire (from `node` to `peer`)
  Get,
  Atomic,
  FetchAtomic,
  Swap,
  Ack,            // a Portals ACK on the wire
  GetResponse,    // a response carrying data (Get, FetchAtomic, Swap)
  E2eAck,         // a BXI ACK (end-to-end reliability)
  Retransmission, // the E2E unit sends a request or an answer again (an instant: start == end)
};
// "PTL_PUT", "PCI_DMA_PAYLOAD", ...: the thesis's names without S4BXILOG_ (inline: the timeline writers use it).
inline const char* nic_event_name(NicEvent event)
{
  switch (event) {
  case NicEvent::PciCommand: return "PCI_COMMAND";
  case NicEvent::PciPioPayload: return "PCI_PIO_PAYLOAD";
  case NicEvent::PciDmaPayload: return "PCI_DMA_PAYLOAD";
  case NicEvent::PciPayloadWrite: return "PCI_PAYLOAD_WRITE";
  case NicEvent::Put: return "PTL_PUT";
  case NicEvent::Get: return "PTL_GET";
  case NicEvent::Atomic: return "PTL_ATOMIC";
  case NicEvent::FetchAtomic: return "PTL_FETCH_ATOMIC";
  case NicEvent::Swap: return "PTL_SWAP";
  case NicEvent::Ack: return "PTL_ACK";
  case NicEvent::GetResponse: return "PTL_GET_RESPONSE";
  case NicEvent::E2eAck: return "E2E_ACK";
  case NicEvent::Retransmission: return "RETRANSMISSION";
  }
  return "?";
}

struct NicRecord {
  NicEvent event;
  platform::HostId node; // the NIC doing it (the sender, for what is on the wire)
  platform::HostId peer; // the other end (the destination on the wire; the node itself for PCIe)
  int process;           // world ranks of the initiator and the target of the operation (-1: none)
  int peer_process;
  double bytes; // on the wire: header included; PCIe: the bytes moved
  double start, end;
  uint64_t operation; // the operation's id in its NIC model (0: none)
};

class NicObserver {
public:
  virtual ~NicObserver() = default;
  virtual void nic(const NicRecord&) = 0;
};

// The overflow list of a NIC that matches (bxi, docs/bxi.md): `buffers` locally managed entries of `buffer_size`
// bytes per receiver, each unlinked once less than `min_free` is left in it; a receive copies a message out of its
// buffer at `copy_bandwidth` (bytes/s).
struct OverflowSettings {
  int buffers = 0;
  double buffer_size = 0;
  double min_free = 0;
  double copy_bandwidth = 0;
};

// "message from A to B": how a deadlock report names a message in flight, in every model.
std::string describe_message(const platform::Platform& platform, platform::HostId src, platform::HostId dst);
// The same as a timer's description (kernel::TimerDescription), written only when a report asks.
kernel::TimerDescription message_timer_description(const platform::Platform& platform, platform::HostId src,
                                                   platform::HostId dst);

class NetworkModel {
public:
  virtual ~NetworkModel() = default;

  // Registers an observer (not owned, must outlive the simulation) of what NIC models do (bxi); the other models have
  // no NIC and report nothing.
  virtual void observe_nic(NicObserver& observer) { (void)observer; }

  // Registers an observer (not owned, must outlive the simulation) of link bandwidth over time. Models that share
  // link bandwidth (the flow models) report each link whose use changed after each re-sharing; delay models
  // (loggps) have no shared links and report nothing. With no observer registered the models keep no usage data.
  virtual void observe_links(LinkObserver& observer) { (void)observer; }

  // The sizes where the MPI protocol changes (the model's parameters); the MPI layer decides from them.
  virtual ProtocolThresholds protocol_thresholds() const = 0;
  // The thresholds for a message between two hosts: the MPI layer asks this one. Models whose thresholds depend on
  // where the ends are (xsim: per level of the hierarchy) override it.
  virtual ProtocolThresholds protocol_thresholds(platform::HostId src, platform::HostId dst) const
  {
    (void)src;
    (void)dst;
    return protocol_thresholds();
  }
  // ... for a message of `payload` bytes: the MPI layer asks this one (the switching model picks a model by size).
  virtual ProtocolThresholds thresholds_for(platform::HostId src, platform::HostId dst, double payload) const
  {
    (void)payload;
    return protocol_thresholds(src, dst);
  }

  // CPU-side costs, in seconds, of a message of `payload` bytes (MPI payload, no envelope): what the sender spends in
  // a blocking send and in a non-blocking one (when it pays them: mpi/SendProtocol.hpp), and what the receiver
  // spends once a message carried by `protocol` has arrived.
  virtual double send_overhead(double payload) const = 0;
  virtual double isend_overhead(double payload) const = 0;
  virtual double receive_overhead(double payload, Protocol protocol) const = 0;

  // Starts moving a message, now: at the send for eager messages (and every message of a model timed from the send),
  // at the match otherwise.
  virtual Transfer transfer(const TransferRequest& request) = 0;

  // The receiver's buffers for messages that find no posted receive, when the model's NIC holds them in a bounded
  // space (bxi: the overflow list of MPI's portal table entry); none: the MPI layer's queues are unbounded.
  virtual std::optional<OverflowSettings> overflow_buffers() const { return std::nullopt; }

  // A receive posted at `receive_posted_at` has matched a message whose transfer gave an arrival window: the
  // activity that completes when the receive may complete. Only models that give windows are asked.
  virtual std::shared_ptr<kernel::Activity> arrival_at_match(const ArrivalWindow& window, double receive_posted_at)
  {
    (void)window;
    (void)receive_posted_at;
    throw std::logic_error("network model gave an arrival window without dating arrivals at the match");
  }
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
