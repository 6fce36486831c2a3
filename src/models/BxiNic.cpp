#include "models/BxiNic.hpp"

#include <algorithm>
#include <utility>

namespace mpisim::models::bxi {

namespace {

// Something the CPU waits for (a PCIe write, room in the command queue), completed by the NIC's events.
class NicSignal : public kernel::Activity {
public:
  explicit NicSignal(const char* what) : what_(what) {}
  std::string describe() const override { return what_; }

private:
  const char* what_;
};

// A flow of the max-min solver that runs a callback when its last byte is through.
class NicFlow : public kernel::SharedAction, private kernel::ActivityObserver {
public:
  NicFlow(double bytes, std::function<void()> done) : SharedAction(bytes, 1.0), done_(std::move(done))
  {
    set_observer(this);
  }
  std::string describe() const override { return "BXI transfer"; }

private:
  void activity_done(kernel::Activity&) override
  {
    if (done_) {
      auto done = std::move(done_);
      done();
    }
  }
  std::function<void()> done_;
};

// A NIC step at a date: owns itself until it fires (or the run ends).
class Deferred : public kernel::Event {
public:
  explicit Deferred(std::function<void()> action) : action_(std::move(action)) {}
  void fire() override
  {
    auto action = std::move(action_);
    delete this;
    action();
  }
  void discard() override { delete this; }

private:
  std::function<void()> action_;
};

// splitmix64: the corruption draws, one per message on the wire, in the order they are sent.
double next_uniform(uint64_t& state)
{
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

bool has_response_payload(NicKind kind)
{
  return kind == NicKind::Get || kind == NicKind::FetchAtomic || kind == NicKind::Swap;
}

NicEvent request_event(NicKind kind)
{
  switch (kind) {
  case NicKind::Put: return NicEvent::Put;
  case NicKind::Get: return NicEvent::Get;
  case NicKind::Atomic: return NicEvent::Atomic;
  case NicKind::FetchAtomic: return NicEvent::FetchAtomic;
  case NicKind::Swap: return NicEvent::Swap;
  }
  return NicEvent::Put;
}

} // namespace

const std::vector<ParameterSpec>& bxi_parameters()
{
  static const std::vector<ParameterSpec> kParameters = {
      {"pci-bandwidth",
       ParameterKind::Bandwidth,
       "12.5GBps",
       "PCIe: the cap of one transfer (a link on which congestion is not considered)",
       {},
       ValueRange::Positive},
      {"pci-shared-bandwidth",
       ParameterKind::Bandwidth,
       "15.75GBps",
       "PCIe gen3 x16: shared by the node's concurrent transfers (reads and writes)",
       {},
       ValueRange::Positive},
      {"pci-latency", ParameterKind::Time, "150ns", "latency of one PCIe transfer"},
      {"pci-packet-size", ParameterKind::Size, "512B",
       "PCIe packet: a DMA payload goes on the wire once its first packet is read (pipeline fill)"},
      {"command-size", ParameterKind::Size, "64B", "a command written by the CPU to the NIC"},
      {"pio-fence", ParameterKind::Time, "40ns", "memory fence between PIO's payload write and its command write"},
      {"nic-tx-delay", ParameterKind::Time, "120ns", "processing of a command by the NIC's transmit stage"},
      {"nic-rx-delay", ParameterKind::Time, "120ns", "processing of an incoming message by the receive stage"},
      {"nic-tx-stages",
       ParameterKind::Number,
       "1",
       "transmit servers per virtual network, each taking one command at a time (S4BXI's TX actors per NIC): how "
       "many of a node's messages may be on the wire at once",
       {},
       ValueRange::Positive},
      {"header-size", ParameterKind::Size, "64B", "header of a message on the wire (an ACK is a header alone)"},
      {"inline-threshold-matching", ParameterKind::Size, "8B", "largest inline payload with match bits"},
      {"inline-threshold", ParameterKind::Size, "16B", "largest inline payload without match bits"},
      {"pio-threshold-matching", ParameterKind::Size, "408B", "largest PIO payload with match bits (above: DMA)"},
      {"pio-threshold", ParameterKind::Size, "416B", "largest PIO payload without match bits (above: DMA)"},
      {"early-send-threshold", ParameterKind::Size, "64B",
       "payloads up to this stay in the NIC's E2E context: SEND fires at transmission, else with the ACK"},
      {"tx-queue-depth",
       ParameterKind::Number,
       "89",
       "commands a process may queue on the NIC before the CPU blocks (S4BXI's empirical 89; real queues: 16)",
       {},
       ValueRange::Positive},
      {"model-pci",
       ParameterKind::Bool,
       "yes",
       "model PCIe transfers at all (no: every one is free)",
       {"S4BXI_MODEL_PCI"}},
      {"model-pci-commands",
       ParameterKind::Bool,
       "yes",
       "model the CPU's command and PIO writes",
       {"S4BXI_MODEL_PCI_COMMANDS"}},
      {"quick-acks", ParameterKind::Bool, "no",
       "the ACK event is raised by the target's receive stage, no Portals ACK nor BXI ACK is sent"},
      {"e2e", ParameterKind::Bool, "yes", "end-to-end reliability: BXI ACKs, retransmission after a timeout"},
      {"retry-timeout",
       ParameterKind::Time,
       "1ms",
       "E2E: an unacknowledged message is sent again after this",
       {"RETRY_TIMEOUT"}},
      {"max-retries",
       ParameterKind::Number,
       "5",
       "E2E: retransmissions before the operation fails (undeliverable)",
       {"S4BXI_MAX_RETRIES"}},
      {"max-inflight-process-pair", ParameterKind::Number, "0",
       "flow control: requests in flight between two processes (0: no limit)"},
      {"max-inflight-node-pair", ParameterKind::Number, "0",
       "flow control: requests in flight between two nodes (0: no limit)"},
      {"corruption-rate", ParameterKind::Number, "0", "probability that a message on the wire arrives corrupted"},
      {"corruption-seed", ParameterKind::Number, "1", "seed of the corruption draws (same seed, same losses)"},
      {"link-down-node", ParameterKind::Number, "0", "node (NID) whose cable is off from link-down-start"},
      {"link-down-start", ParameterKind::Time, "0s", "the cable of link-down-node is off from this date ..."},
      {"link-down-end", ParameterKind::Time, "0s", "... until this one (not after link-down-start: no failure)"},
      {"active-polling-delay",
       ParameterKind::Time,
       "100ns",
       "CPU cost of an empty PtlEQGet or PtlCTGet",
       {"S4BXI_ACTIVE_POLLING_DELAY"}},
  };
  return kParameters;
}

BxiSettings read_bxi_settings(const Parameters& p)
{
  BxiSettings s;
  s.pci_bandwidth = p.number("pci-bandwidth");
  s.pci_shared_bandwidth = p.number("pci-shared-bandwidth");
  s.pci_latency = p.number("pci-latency");
  s.pci_packet_size = p.number("pci-packet-size");
  s.command_size = p.number("command-size");
  s.pio_fence = p.number("pio-fence");
  s.tx_delay = p.number("nic-tx-delay");
  s.rx_delay = p.number("nic-rx-delay");
  s.tx_stages = std::max(1, static_cast<int>(p.number("nic-tx-stages")));
  s.header_size = p.number("header-size");
  s.inline_matching = p.number("inline-threshold-matching");
  s.inline_plain = p.number("inline-threshold");
  s.pio_matching = p.number("pio-threshold-matching");
  s.pio_plain = p.number("pio-threshold");
  s.early_send = p.number("early-send-threshold");
  s.tx_queue_depth = std::max(1, static_cast<int>(p.number("tx-queue-depth")));
  s.model_pci = p.flag("model-pci");
  s.model_pci_commands = p.flag("model-pci-commands");
  s.quick_acks = p.flag("quick-acks");
  s.e2e = p.flag("e2e");
  s.retry_timeout = p.number("retry-timeout");
  s.max_retries = static_cast<int>(p.number("max-retries"));
  s.max_inflight_process_pair = static_cast<int>(p.number("max-inflight-process-pair"));
  s.max_inflight_node_pair = static_cast<int>(p.number("max-inflight-node-pair"));
  s.corruption_rate = p.number("corruption-rate");
  s.corruption_seed = static_cast<uint64_t>(p.number("corruption-seed"));
  s.link_down_node = static_cast<int>(p.number("link-down-node"));
  s.link_down_start = p.number("link-down-start");
  s.link_down_end = p.number("link-down-end");
  s.polling_delay = p.number("active-polling-delay");
  return s;
}

PayloadMode payload_mode(const BxiSettings& settings, double payload, bool matching)
{
  if (payload <= (matching ? settings.inline_matching : settings.inline_plain))
    return PayloadMode::Inline;
  if (payload <= (matching ? settings.pio_matching : settings.pio_plain))
    return PayloadMode::Pio;
  return PayloadMode::Dma;
}

BxiFabric::BxiFabric(kernel::Engine& engine, const platform::Platform& platform, BxiSettings settings)
    : engine_(engine), platform_(platform), settings_(settings), sharing_(engine, kernel::EventSource::Network),
      random_state_(settings.corruption_seed)
{
  engine_.add_model(sharing_);
  auto& solver = sharing_.solver();
  for (const auto& link : platform_.links())
    link_constraints_.push_back(solver.add_constraint(link.bandwidth, link.sharing == platform::LinkSharing::Fatpipe
                                                                          ? solver::Sharing::Fatpipe
                                                                          : solver::Sharing::Shared));
  // Each node's PCIe: a transfer crosses a per-transfer cap and the shared link, back to back (thesis section 4.1).
  nodes_.resize(platform_.hosts().size());
  for (Node& node : nodes_) {
    node.pci = {solver.add_constraint(settings_.pci_bandwidth, solver::Sharing::Fatpipe),
                solver.add_constraint(settings_.pci_shared_bandwidth, solver::Sharing::Shared)};
  }
}

BxiFabric::~BxiFabric() = default;

// ---- Time primitives ----------------------------------------------------------------------------------------------

void BxiFabric::after(double delay, std::function<void()> action)
{
  engine_.schedule(*new Deferred(std::move(action)), engine_.now() + delay);
}

void BxiFabric::transfer(double bytes, double latency, const std::vector<solver::CnstId>& constraints,
                         std::function<void()> done)
{
  if (bytes <= 0 || constraints.empty()) {
    if (done)
      after(latency, std::move(done));
    return;
  }
  auto start = [this, bytes, &constraints, done = std::move(done)]() mutable {
    auto& solver = sharing_.solver();
    const solver::VarId variable = solver.add_variable(1.0, -1);
    for (const solver::CnstId constraint : constraints)
      solver.expand(constraint, variable, 1.0);
    sharing_.start(std::make_shared<NicFlow>(bytes, std::move(done)), variable);
  };
  if (latency > 0)
    after(latency, std::move(start)); // the constraints live as long as the fabric (routes are cached)
  else
    start();
}

void BxiFabric::pci_transfer(platform::HostId node, double bytes, std::function<void()> done, NicEvent event,
                             const NicOperation* op)
{
  if (not settings_.model_pci) {
    if (done)
      after(0, std::move(done));
    return;
  }
  ++counters_.pci_transfers;
  // A background write (nobody waits for it) only takes its share of the link: its latency changes nothing.
  const double latency = done ? settings_.pci_latency : 0;
  if (traced())
    done = [this, record = begin_record(event, node, node, op, bytes), done = std::move(done)]() mutable {
      record.end = engine_.now();
      emit(record);
      if (done)
        done();
    };
  transfer(bytes, latency, nodes_[node].pci, std::move(done));
}

// Taken when the step starts: the operation may be gone when it ends (a background write).
NicRecord BxiFabric::begin_record(NicEvent event, platform::HostId node, platform::HostId peer, const NicOperation* op,
                                  double bytes) const
{
  return {
      event, node,          peer,          op != nullptr ? op->src_process : -1, op != nullptr ? op->dst_process : -1,
      bytes, engine_.now(), engine_.now(), op != nullptr ? op->id_ : 0};
}

void BxiFabric::emit(const NicRecord& record)
{
  for (NicObserver* observer : observers_)
    observer->nic(record);
}

double BxiFabric::pci_time(double bytes) const
{
  return settings_.model_pci ? settings_.pci_latency + bytes / settings_.pci_bandwidth : 0;
}

double BxiFabric::dma_fill(double bytes) const
{
  return pci_time(std::min(bytes, settings_.pci_packet_size));
}

const BxiFabric::Route& BxiFabric::route(platform::HostId src, platform::HostId dst)
{
  const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
  auto found = routes_.find(key);
  if (found != routes_.end())
    return found->second;
  Route r;
  platform_.route(src, dst, r.links, r.latency);
  for (const platform::LinkId link : r.links)
    r.constraints.push_back(link_constraints_[link]);
  return routes_.emplace(key, std::move(r)).first->second;
}

// ---- The CPU side -------------------------------------------------------------------------------------------------

void BxiFabric::issue(std::shared_ptr<NicOperation> op)
{
  op->id_ = next_id_++;
  const platform::HostId node = op->src_node;
  auto wait_for_pci = [this, node, &op](double bytes, NicEvent event) {
    auto written = std::make_shared<NicSignal>("a PCIe write to the NIC");
    pci_transfer(
        node, bytes, [written] { written->complete(); }, event, op.get());
    engine_.wait(*written);
  };
  if (settings_.model_pci && settings_.model_pci_commands) {
    if (payload_mode(settings_, op->request_payload, op->matching) == PayloadMode::Pio) {
      // PIO: the payload but its first inline bytes to the NIC's scratch memory, a fence, then the command.
      const double inline_part = op->matching ? settings_.inline_matching : settings_.inline_plain;
      wait_for_pci(op->request_payload - inline_part, NicEvent::PciPioPayload);
      engine_.sleep(settings_.pio_fence);
    }
    wait_for_pci(settings_.command_size, NicEvent::PciCommand);
  }
  const auto process = static_cast<size_t>(op->src_process);
  if (queued_commands_.size() <= process)
    queued_commands_.resize(process + 1, 0);
  while (queued_commands_[process] >= settings_.tx_queue_depth) {
    auto room = std::make_shared<NicSignal>("room in the NIC's command queue");
    nodes_[node].room_waiters.push_back(room);
    engine_.wait(*room);
  }
  ++queued_commands_[process];
  enqueue(node, {std::move(op), false, false});
}

void BxiFabric::post(const std::shared_ptr<NicOperation>& op)
{
  op->id_ = next_id_++;
  const platform::HostId node = op->src_node;
  auto take_command = [this, node, op] {
    const auto process = static_cast<size_t>(op->src_process);
    if (queued_commands_.size() <= process)
      queued_commands_.resize(process + 1, 0);
    ++queued_commands_[process];
    enqueue(node, {op, false, false});
  };
  if (not(settings_.model_pci && settings_.model_pci_commands)) {
    take_command();
    return;
  }
  auto write_command = [this, node, take_command, op = op.get()] {
    pci_transfer(node, settings_.command_size, take_command, NicEvent::PciCommand, op);
  };
  if (payload_mode(settings_, op->request_payload, op->matching) != PayloadMode::Pio) {
    write_command();
    return;
  }
  const double inline_part = op->matching ? settings_.inline_matching : settings_.inline_plain;
  pci_transfer(
      node, op->request_payload - inline_part, [this, write_command] { after(settings_.pio_fence, write_command); },
      NicEvent::PciPioPayload, op.get());
}

void BxiFabric::wake_room_waiters(platform::HostId node)
{
  auto waiters = std::move(nodes_[node].room_waiters);
  nodes_[node].room_waiters.clear();
  for (auto& waiter : waiters)
    waiter->complete();
}

// ---- The transmit stage -------------------------------------------------------------------------------------------

void BxiFabric::enqueue(platform::HostId node, Command command)
{
  const bool responses = command.response;
  TxStage& tx = responses ? nodes_[node].responses : nodes_[node].requests;
  tx.queue.push_back(std::move(command));
  process_next(node, responses);
}

bool BxiFabric::flow_control_allows(const NicOperation& op) const
{
  if (settings_.max_inflight_process_pair > 0) {
    auto found = inflight_processes_.find({op.src_process, op.dst_process});
    if (found != inflight_processes_.end() && found->second >= settings_.max_inflight_process_pair)
      return false;
  }
  if (settings_.max_inflight_node_pair > 0) {
    auto found = inflight_nodes_.find({op.src_node, op.dst_node});
    if (found != inflight_nodes_.end() && found->second >= settings_.max_inflight_node_pair)
      return false;
  }
  return true;
}

void BxiFabric::count_inflight(const NicOperation& op, int delta)
{
  if (settings_.max_inflight_process_pair > 0)
    inflight_processes_[{op.src_process, op.dst_process}] += delta;
  if (settings_.max_inflight_node_pair > 0)
    inflight_nodes_[{op.src_node, op.dst_node}] += delta;
}

void BxiFabric::process_next(platform::HostId node, bool responses)
{
  TxStage& tx = responses ? nodes_[node].responses : nodes_[node].requests;
  while (tx.busy < settings_.tx_stages && not tx.queue.empty()) {
    Command& head = tx.queue.front();
    const bool first_attempt = not head.retransmission && not responses;
    // Flow control holds the head of the request queue until a request of its pair is acknowledged.
    if (first_attempt && not flow_control_allows(*head.operation))
      return;
    Command command = std::move(head);
    tx.queue.pop_front();
    ++tx.busy;
    if (first_attempt) {
      --queued_commands_[static_cast<size_t>(command.operation->src_process)];
      wake_room_waiters(node);
      count_inflight(*command.operation, +1);
    }
    auto free_tx = [this, node, responses] {
      --(responses ? nodes_[node].responses : nodes_[node].requests).busy;
      process_next(node, responses);
    };
    after(settings_.tx_delay, [this, node, responses, op = std::move(command.operation), free_tx]() {
      if (responses)
        transmit_response(node, op, free_tx);
      else
        transmit_request(node, op, free_tx);
    });
  }
}

void BxiFabric::transmit_request(platform::HostId node, const std::shared_ptr<NicOperation>& op,
                                 std::function<void()> free_tx)
{
  const double payload = op->request_payload;
  const double bytes = payload + settings_.header_size;
  arm_retransmission(op);
  if (op->wants_send && not op->send_fired_ && payload <= settings_.early_send)
    fire_send(op, 0); // kept in the NIC's E2E context: the buffer is free at once
  auto processed = [this, op] { request_processed(op); };
  const bool dma = payload_mode(settings_, payload, op->matching) == PayloadMode::Dma;
  const NicEvent event = request_event(op->kind);
  if (not dma) {
    send_on_wire(node, op->dst_node, bytes, std::move(free_tx), std::move(processed), receive_delay(payload, false),
                 event, op.get());
    return;
  }
  send_dma(node, op->dst_node, payload, bytes, std::move(free_tx), std::move(processed), receive_delay(payload, true),
           event, op.get());
}

void BxiFabric::transmit_response(platform::HostId node, const std::shared_ptr<NicOperation>& op,
                                  std::function<void()> free_tx)
{
  const double payload = op->answer_.response_bytes;
  const double bytes = payload + settings_.header_size;
  const platform::HostId initiator = op->src_node;
  auto processed = [this, op] { answer_processed(op); };
  arm_response_retransmission(op);
  if (payload <= 0) { // a Portals ACK, or a response carrying a failure
    send_on_wire(node, initiator, bytes, std::move(free_tx), std::move(processed), receive_delay(0, false),
                 has_response_payload(op->kind) ? NicEvent::GetResponse : NicEvent::Ack, op.get());
    return;
  }
  // Every response payload is read by DMA (thesis section 4.3.3), with the same pipeline fill as a request.
  send_dma(node, initiator, payload, bytes, std::move(free_tx), std::move(processed), receive_delay(payload, true),
           NicEvent::GetResponse, op.get());
}

// DMA: the NIC reads the payload from host memory; the message goes on the wire once the first PCIe packet is in
// (pipeline fill), the transmit stage is free once both the read and the wire's serialization are through, and the
// last byte arrives the route's latency later (thesis Fig. 4.10).
void BxiFabric::send_dma(platform::HostId node, platform::HostId dst, double payload, double bytes,
                         std::function<void()> free_tx, std::function<void()> arrived, double receive, NicEvent event,
                         const NicOperation* op)
{
  struct Join {
    int pending = 2;
    bool lost = false;
    std::function<void()> free_tx, arrived;
  };
  auto join = std::make_shared<Join>();
  join->free_tx = std::move(free_tx);
  join->arrived = std::move(arrived);
  const double latency = route(node, dst).latency + receive;
  auto part_done = [this, join, latency] {
    if (--join->pending > 0)
      return;
    join->free_tx();
    if (not join->lost)
      after(latency, std::move(join->arrived));
  };
  pci_transfer(node, payload, part_done, NicEvent::PciDmaPayload, op);
  NicRecord record = begin_record(event, node, dst, op, bytes); // op may be gone when the wire starts
  after(dma_fill(payload), [this, node, dst, bytes, join, part_done, record]() mutable {
    const Route& r = route(node, dst);
    ++counters_.wire_messages;
    join->lost = lost_on_wire(node, dst);
    if (join->lost)
      ++counters_.lost;
    std::function<void()> serialized = part_done;
    if (traced()) { // the wire's part: from the first byte out to the last byte in
      record.start = engine_.now();
      serialized = [this, record, latency = r.latency, part_done]() mutable {
        record.end = engine_.now() + latency;
        emit(record);
        part_done();
      };
    }
    transfer(bytes, 0, r.constraints, std::move(serialized));
  });
}

// ---- The wire -----------------------------------------------------------------------------------------------------

bool BxiFabric::lost_on_wire(platform::HostId src, platform::HostId dst)
{
  const double now = engine_.now();
  const auto down = static_cast<platform::HostId>(settings_.link_down_node);
  if (settings_.link_down_end > settings_.link_down_start && (src == down || dst == down) && src != dst &&
      now >= settings_.link_down_start && now < settings_.link_down_end)
    return true;
  return settings_.corruption_rate > 0 && next_uniform(random_state_) < settings_.corruption_rate;
}

void BxiFabric::send_on_wire(platform::HostId src, platform::HostId dst, double bytes, std::function<void()> serialized,
                             std::function<void()> arrived, double receive, NicEvent event, const NicOperation* op)
{
  ++counters_.wire_messages;
  const bool lost = lost_on_wire(src, dst);
  if (lost)
    ++counters_.lost;
  const Route& r = route(src, dst);
  // The NIC pushes the message onto the cable (its bytes shared with the other flows of the route), then the last
  // byte travels the route's latency: a lone message takes L + S/B, and the sender is free after S/B.
  if (traced())
    serialized = [this, record = begin_record(event, src, dst, op, bytes), latency = r.latency,
                  serialized = std::move(serialized)]() mutable {
      record.end = engine_.now() + latency;
      emit(record);
      if (serialized)
        serialized();
    };
  transfer(
      bytes, 0, r.constraints,
      [this, latency = r.latency + receive, lost, serialized = std::move(serialized), arrived = std::move(arrived)] {
        if (serialized)
          serialized();
        if (not lost && arrived) // a lost message still took the links; the target drops it (CRC, link down)
          after(latency, arrived);
      });
}

// ---- The receive stage and the E2E unit ---------------------------------------------------------------------------

// Receive processing, plus the last PCIe packet's write before events for a DMA payload (pipeline fill, thesis
// section 4.3.3). Scheduled with the arrival itself (the receive stage is not a queue): one event per message.
double BxiFabric::receive_delay(double payload, bool dma) const
{
  return settings_.rx_delay + (dma ? dma_fill(payload) - (settings_.model_pci ? settings_.pci_latency : 0) : 0);
}

void BxiFabric::request_processed(const std::shared_ptr<NicOperation>& op)
{
  const double payload = op->request_payload;
  op->received_ = true; // the request's E2E is done: a lost answer is the target's to send again
  if (not op->delivered_) {
    op->delivered_ = true;
    op->answer_ = op->on_target();
    if (payload > 0) // the payload's write to host memory, in the background: it only congests the target's PCIe
      pci_transfer(op->dst_node, payload, nullptr, NicEvent::PciPayloadWrite, op.get());
  }
  if (op->answered_)
    return;
  const TargetAnswer& answer = op->answer_;
  const bool fetch = has_response_payload(op->kind);
  if (answer.respond && (fetch || not settings_.quick_acks)) {
    enqueue(op->dst_node, {op, true, false});
  } else if (answer.respond) { // quick ACK: the initiator hears of it at once, no message
    op->answered_ = true;
    acknowledge(op);
    if (op->wants_answer)
      op->on_answer(answer.fail);
    finish(op);
  } else if (settings_.e2e && not settings_.quick_acks) { // nothing asked back: a BXI ACK for the E2E unit
    send_on_wire(
        op->dst_node, op->src_node, settings_.header_size, nullptr, [this, op] { acknowledge(op); }, 0,
        NicEvent::E2eAck, op.get());
  } else {
    acknowledge(op);
  }
}

void BxiFabric::answer_processed(const std::shared_ptr<NicOperation>& op)
{
  const double payload = op->answer_.response_bytes;
  if (op->answered_)
    return;
  op->answered_ = true;
  if (payload > 0)
    pci_transfer(op->src_node, payload, nullptr, NicEvent::PciPayloadWrite, op.get());
  if (settings_.e2e) // the BXI ACK of the answer: unreliable, traffic only
    send_on_wire(op->src_node, op->dst_node, settings_.header_size, nullptr, nullptr, 0, NicEvent::E2eAck, op.get());
  acknowledge(op);
  if (op->wants_answer)
    op->on_answer(op->answer_.fail);
  finish(op);
}

void BxiFabric::acknowledge(const std::shared_ptr<NicOperation>& op)
{
  if (op->acknowledged_)
    return;
  op->acknowledged_ = true;
  count_inflight(*op, -1);
  if (op->wants_send && not op->send_fired_)
    fire_send(op, 0);
  if (not op->wants_answer || (op->delivered_ && not op->answer_.respond)) // no answer will come
    finish(op);
  process_next(op->src_node, false); // a flow-control slot may have freed
}

void BxiFabric::finish(const std::shared_ptr<NicOperation>& op)
{
  if (op->done_)
    return;
  op->done_ = true;
  op->on_done();
}

void BxiFabric::fire_send(const std::shared_ptr<NicOperation>& op, uint32_t fail)
{
  op->send_fired_ = true;
  op->on_send(fail);
}

// The E2E unit of each node keeps its copies in one FIFO: the timeout is constant, so deadlines come out in the order
// the messages left (thesis section 4.2, Fig. 4.3), and one timer per node serves them all.
void BxiFabric::arm_e2e(platform::HostId node, const std::shared_ptr<NicOperation>& op, bool response)
{
  Node& n = nodes_[node];
  n.e2e.push_back({engine_.now() + settings_.retry_timeout, op, response});
  if (not n.e2e_timer_armed) {
    n.e2e_timer_armed = true;
    after(settings_.retry_timeout, [this, node] { e2e_check(node); });
  }
}

void BxiFabric::e2e_check(platform::HostId node)
{
  Node& n = nodes_[node];
  while (not n.e2e.empty() && n.e2e.front().deadline <= engine_.now() + kernel::kTimePrecision) {
    E2eCopy copy = std::move(n.e2e.front());
    n.e2e.pop_front();
    if (copy.response)
      response_timed_out(copy.operation);
    else
      request_timed_out(copy.operation);
  }
  n.e2e_timer_armed = not n.e2e.empty();
  if (n.e2e_timer_armed)
    after(n.e2e.front().deadline - engine_.now(), [this, node] { e2e_check(node); });
}

void BxiFabric::arm_retransmission(const std::shared_ptr<NicOperation>& op)
{
  if (settings_.e2e)
    arm_e2e(op->src_node, op, false);
}

void BxiFabric::request_timed_out(const std::shared_ptr<NicOperation>& op)
{
  if (op->acknowledged_ || op->answered_ || op->received_)
    return;
  if (op->attempts_ >= settings_.max_retries) { // given up: the operation fails at the initiator
    ++counters_.failures;
    op->answered_ = true;
    acknowledge_failed(op);
    return;
  }
  ++op->attempts_;
  ++counters_.retransmissions;
  if (traced())
    emit(begin_record(NicEvent::Retransmission, op->src_node, op->dst_node, op.get(), op->request_payload));
  enqueue(op->src_node, {op, false, true});
}

// The target's E2E unit keeps a copy of each Portals ACK and response until the initiator has it (its BXI ACK).
void BxiFabric::arm_response_retransmission(const std::shared_ptr<NicOperation>& op)
{
  if (settings_.e2e)
    arm_e2e(op->dst_node, op, true);
}

void BxiFabric::response_timed_out(const std::shared_ptr<NicOperation>& op)
{
  if (op->answered_)
    return;
  if (op->response_attempts_ >= settings_.max_retries) {
    ++counters_.failures;
    op->answered_ = true;
    acknowledge_failed(op);
    return;
  }
  ++op->response_attempts_;
  ++counters_.retransmissions;
  if (traced())
    emit(begin_record(NicEvent::Retransmission, op->dst_node, op->src_node, op.get(), op->answer_.response_bytes));
  enqueue(op->dst_node, {op, true, true});
}

void BxiFabric::acknowledge_failed(const std::shared_ptr<NicOperation>& op)
{
  op->acknowledged_ = true;
  count_inflight(*op, -1);
  if (op->wants_send && not op->send_fired_)
    fire_send(op, NicOperation::kUndeliverable);
  if (op->wants_answer)
    op->on_answer(NicOperation::kUndeliverable);
  finish(op);
  process_next(op->src_node, false);
}

} // namespace mpisim::models::bxi
