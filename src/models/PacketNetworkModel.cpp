// `packet`: the store-and-forward packet network of Kunkel et al.'s PIOsimHD paper (simulation to validate MPI-IO
// performance), Sec. 4; packet sizes of Sec. 4.1. Messages are cut into packets that cross the route's links one after
// the other, nodes relaying one packet at a time onto each link, each stream keeping its bandwidth-delay product in
// flight; the rules and the window are in PacketNetwork.hpp. Event-driven, no solver: the engine holds one event, at
// the next date a packet reaches a node; streams that start meanwhile join the queues at their start date.
//
// The MPI layer's side (docs/models.md "packet"): payloads below `eager-thresh` are eager (the data leaves at the
// send), larger ones rendezvous (the data leaves when the receive has matched, the sender is held until it has
// arrived); no envelope. Posting a send costs the sender `send-overhead` (which sends pay it: mpi/SendProtocol.hpp,
// rule 4), a message costs the receiver `receive-overhead` once its data is there.
#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "models/PacketNetwork.hpp"

#include <memory>
#include <string>
#include <vector>

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kPacketParameters = {
    {"packet-size",
     ParameterKind::Size,
     "102400B",
     "largest packet: messages are cut into packets of this size (the paper's 100 KiB; it also tries 10 KiB)",
     {},
     ValueRange::Positive},
    {"eager-thresh", ParameterKind::Size, "65536B",
     "payloads below this are eager (the data leaves at the send); from it on, rendezvous (the data leaves at the "
     "match, the sender waits for its arrival)"},
    {"send-overhead", ParameterKind::Time, "0s",
     "CPU time the sender spends posting a send, blocking or not (a blocking rendezvous send pays its wait instead)"},
    {"receive-overhead", ParameterKind::Time, "0s", "CPU time the receiver spends on each message once it has arrived"},
};

// A message on its way: completes when its last packet has arrived.
class PacketStream : public kernel::Activity {
public:
  PacketStream(const platform::Platform& platform, platform::HostId src, platform::HostId dst)
      : platform_(platform), src_(src), dst_(dst)
  {
  }
  std::string describe() const override { return write_description(&platform_, src_, dst_); }
  // A stream's description from the platform and its hosts (a kernel::TimerDescription writer).
  static std::string write_description(const void* platform, uint32_t src, uint32_t dst)
  {
    return describe_message(*static_cast<const platform::Platform*>(platform), src, dst) + " (packets)";
  }

private:
  const platform::Platform& platform_;
  platform::HostId src_, dst_;
};

class PacketNetworkModel : public NetworkModel, private kernel::Event {
public:
  explicit PacketNetworkModel(const NetworkModelContext& context)
      : engine_(context.engine), platform_(context.platform),
        packets_(context.platform.links().size(), context.parameters.number("packet-size")),
        eager_below_(context.parameters.number("eager-thresh")),
        send_overhead_(context.parameters.number("send-overhead")),
        receive_overhead_(context.parameters.number("receive-overhead"))
  {
  }
  ~PacketNetworkModel() override
  {
    if (scheduled())
      engine_.cancel(*this);
  }
  PacketNetworkModel(const PacketNetworkModel&) = delete;
  PacketNetworkModel& operator=(const PacketNetworkModel&) = delete;

  // Eager below the threshold, rendezvous from it on: never detached.
  ProtocolThresholds protocol_thresholds() const override { return ProtocolThresholds{eager_below_, eager_below_}; }
  double send_overhead(double) const override { return send_overhead_; }
  double isend_overhead(double) const override { return send_overhead_; }
  double receive_overhead(double, Protocol) const override { return receive_overhead_; }

  Transfer transfer(const TransferRequest& request) override
  {
    route_.clear();
    double route_latency = 0;
    platform_.route(request.src, request.dst, route_, route_latency);
    if (route_.empty()) { // no link to cross: here at once
      auto arrival = engine_.start_timer(0, {PacketStream::write_description, &platform_, request.src, request.dst});
      return {arrival, nullptr, std::nullopt};
    }
    auto stream = std::make_shared<PacketStream>(platform_, request.src, request.dst);
    hops_.clear();
    for (platform::LinkId link : route_) {
      const platform::LinkSpec& spec = platform_.links()[link];
      hops_.push_back({link, spec.bandwidth, spec.latency, spec.sharing == platform::LinkSharing::Shared});
    }
    const StreamId id = packets_.start(hops_, request.payload, engine_.now());
    if (id >= waiting_.size())
      waiting_.resize(id + 1);
    waiting_[id] = stream;
    schedule_next();
    return {stream, nullptr, std::nullopt};
  }

private:
  // The engine fires the model at the next date a packet reaches a node: move every packet due then, and complete
  // the messages whose last packet arrived (after rescheduling, as completing may start new transfers).
  void fire() override
  {
    delivered_.clear();
    packets_.advance_to(date(), delivered_);
    finished_.clear();
    for (const DeliveredStream& done : delivered_)
      finished_.push_back(std::move(waiting_[done.stream]));
    schedule_next();
    for (const std::shared_ptr<PacketStream>& stream : finished_)
      stream->complete();
  }

  void schedule_next()
  {
    const double next = packets_.next_date();
    if (next == kernel::kNever) {
      if (scheduled())
        engine_.cancel(*this);
    } else if (not scheduled() or date() != next) {
      engine_.schedule(*this, next);
    }
  }

  kernel::Engine& engine_;
  const platform::Platform& platform_;
  PacketNetwork packets_;
  double eager_below_, send_overhead_, receive_overhead_;
  std::vector<std::shared_ptr<PacketStream>> waiting_; // by stream id
  std::vector<platform::LinkId> route_;                // scratch, reused across calls
  std::vector<PacketHop> hops_;                        // scratch
  std::vector<DeliveredStream> delivered_;             // scratch
  std::vector<std::shared_ptr<PacketStream>> finished_;
};

const RegisterNetworkModel kRegisterPacket({
    "packet",
    "store-and-forward packets: hop by hop, one packet at a time per link, FIFO across streams, a bandwidth-delay "
    "product in flight per stream; no solver",
    "Kunkel et al., PIOsimHD: simulation to validate MPI-IO performance, Sec. 4 (network flow model) and 4.1 (packet "
    "sizes)",
    kPacketParameters,
    [](const NetworkModelContext& context) { return std::make_unique<PacketNetworkModel>(context); },
});

} // namespace
} // namespace mpisim::models
