// `bxi`: the BXI NIC model of the S4BXI thesis (BxiNic.hpp, docs/bxi.md). Portals 4 programs (include/portals4.h) are
// timed by it, and so are MPI messages: point to point runs the way an MPI library's Portals transport does, each
// step an operation of the NIC model (the thesis's chapter 5 runs an MPI library over its Portals layer):
//  - eager (payload below `rendezvous-threshold`): one Put of the payload with an ACK asked, inline, PIO or DMA by
//    size; the send completes at its SEND event, the message has arrived at the target's PUT (into the posted
//    receive's entry, or the overflow list when the receive is not posted yet: an unexpected message);
//  - rendezvous (and every synchronous send, from its post): a Put of the header alone (the sender exposes its
//    buffer), then, once the receive has matched it, a Get of the payload from the receiver; the send completes at
//    the Get's arrival at the sender's NIC (its GET event: the receiver's answer to the match), the receive at the
//    REPLY.
// The NIC matches: a message reaches the MPI layer's matching queues (the priority list of posted receives, the
// overflow list's unexpected headers) when the target's NIC processes its Put (Transfer::at_receiver). The overflow
// list is bounded (overflow_buffers(): `overflow-buffers` of `overflow-buffer-size`, mpi::OverflowList keeps the room).
// The sender's CPU writes each command (and a PIO payload) to the NIC, held for those PCIe writes (BxiFabric::issue).
// One fabric per run: the Portals runtime of online programs takes this model's (fabric_of), so both kinds of traffic
// contend.
#include "common/Errors.hpp"
#include "models/BxiNic.hpp"
#include "models/NetworkModel.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace mpisim::models {

namespace {

// A date of the NIC model that the MPI layer waits for (SEND, PUT, GET, REPLY).
class PortalsEvent : public kernel::Activity {
public:
  explicit PortalsEvent(const char* what) : what_(what) {}
  std::string describe() const override { return what_; }

private:
  const char* what_;
};

// One Portals operation of the MPI transport: callbacks complete MPI-level events.
class MpiOperation : public bxi::NicOperation {
public:
  std::function<void()> at_send, at_target, at_answer;
  void on_send(uint32_t) override
  {
    if (at_send)
      at_send();
  }
  bxi::TargetAnswer on_target() override
  {
    if (at_target)
      at_target();
    return {0, wants_answer, kind == bxi::NicKind::Get ? get_bytes : 0};
  }
  void on_answer(uint32_t) override
  {
    if (at_answer)
      at_answer();
  }
  double get_bytes = 0;
};

constexpr double kMostOverflowBuffers = 1e6; // per rank: beyond, a typo rather than a library's setting

class BxiMpiNetworkModel final : public NetworkModel {
public:
  BxiMpiNetworkModel(const NetworkModelContext& context)
      : engine_(context.engine), fabric_(std::make_unique<bxi::BxiFabric>(context.engine, context.platform,
                                                                          bxi::read_bxi_settings(context.parameters))),
        rendezvous_threshold_(context.parameters.number("rendezvous-threshold")),
        overflow_{
            static_cast<int>(std::clamp(context.parameters.number("overflow-buffers"), 0.0, kMostOverflowBuffers)),
            context.parameters.number("overflow-buffer-size"), rendezvous_threshold_,
            context.parameters.number("overflow-copy-bandwidth")}
  {
    const double buffers = context.parameters.number("overflow-buffers");
    if (buffers < 1 || buffers != static_cast<double>(overflow_.buffers))
      throw InputError("overflow-buffers must be a whole number from 1 to 1000000 (got " + std::to_string(buffers) +
                       ")");
    if (not(overflow_.copy_bandwidth > 0))
      throw InputError("overflow-copy-bandwidth must be above 0");
    if (overflow_.buffer_size < overflow_.min_free)
      throw InputError("overflow-buffer-size must be at least rendezvous-threshold (" +
                       std::to_string(static_cast<long long>(overflow_.min_free)) +
                       " B): an overflow buffer keeps that much room for the largest eager message");
  }

  // The overflow list of MPI's portal table entry: unexpected eager messages take room there (mpi::OverflowList).
  std::optional<OverflowSettings> overflow_buffers() const override { return overflow_; }

  // The MPI layer posts every transfer at the send (synchronous ones too) and lets the model release the sender
  // (its SEND, or its GET for a rendezvous); a rendezvous's data moves once the receive is known (arrival_at_match).
  ProtocolThresholds protocol_thresholds() const override
  {
    return {rendezvous_threshold_, rendezvous_threshold_, true, true};
  }
  void observe_nic(NicObserver& observer) override { fabric_->observe(observer); }
  // The CPU's command writes are the NIC model's (the PCIe writes before the transmit stage, BxiFabric::issue).
  double send_overhead(double) const override { return 0; }
  double isend_overhead(double) const override { return 0; }
  double receive_overhead(double, Protocol) const override { return 0; }

  Transfer transfer(const TransferRequest& request) override
  {
    if (request.protocol == Protocol::Eager)
      return eager_put(request);
    return rendezvous_header(request);
  }

  std::shared_ptr<kernel::Activity> arrival_at_match(const ArrivalWindow& window, double) override
  {
    auto found = rendezvous_.find(window.token);
    Rendezvous& r = found->second;
    auto reply = std::make_shared<PortalsEvent>("the REPLY of a rendezvous Get");
    r.reply = reply;
    r.matched = true;
    if (r.header_arrived)
      start_get(window.token); // forgets r
    return reply;
  }

  bxi::BxiFabric& fabric() { return *fabric_; }

private:
  struct Rendezvous {
    TransferRequest request;
    std::shared_ptr<PortalsEvent> get_at_sender; // GET at the sender's exposed buffer: its send may complete
    std::shared_ptr<PortalsEvent> reply;         // REPLY at the receiver: the data is in
    bool header_arrived = false;
    bool matched = false;
  };

  std::shared_ptr<MpiOperation> operation(const TransferRequest& r, bxi::NicKind kind, bool from_receiver) const
  {
    auto op = std::make_shared<MpiOperation>();
    op->kind = kind;
    op->src_node = from_receiver ? r.dst : r.src;
    op->dst_node = from_receiver ? r.src : r.dst;
    op->src_process = from_receiver ? r.dst_rank : r.src_rank;
    op->dst_process = from_receiver ? r.src_rank : r.dst_rank;
    op->matching = true;
    return op;
  }

  Transfer eager_put(const TransferRequest& request)
  {
    auto sent = std::make_shared<PortalsEvent>("the SEND of an eager Put");
    auto put = std::make_shared<PortalsEvent>("the PUT of an eager Put");
    auto op = operation(request, bxi::NicKind::Put, false);
    op->request_payload = request.payload;
    op->at_send = [sent] { sent->complete(); };
    op->at_target = [put] { put->complete(); };
    op->at_answer = [put] { // an undeliverable Put (retries exhausted) is not reported to MPI: it ends here
      if (not put->done())
        put->complete();
    };
    write_command(op);
    return {put, sent, std::nullopt, put};
  }

  // The sender's CPU writes the command: held for it when called in the sender's actor (at the post); otherwise the
  // writes run in the background (a transfer started outside any actor).
  void write_command(const std::shared_ptr<MpiOperation>& op)
  {
    if (engine_.running() != nullptr)
      fabric_->issue(op);
    else
      fabric_->post(op);
  }

  Transfer rendezvous_header(const TransferRequest& request)
  {
    const uint64_t token = next_token_++;
    Rendezvous& r = rendezvous_[token];
    r.request = request;
    // A buffered send (carried detached) has returned already; its request, the room its data takes in the attached
    // buffer, is released by the GET as a rendezvous send is.
    r.get_at_sender = std::make_shared<PortalsEvent>("the GET of a rendezvous at the sender");
    auto header = std::make_shared<PortalsEvent>("the PUT of a rendezvous header");
    auto op = operation(request, bxi::NicKind::Put, false);
    op->wants_answer = false;
    op->wants_send = false;
    op->at_target = [this, token, header] {
      Rendezvous& arrived = rendezvous_.at(token);
      arrived.header_arrived = true;
      if (arrived.matched) // matched before its header arrived (a transfer started at the match)
        start_get(token);
      else
        header->complete(); // into the receiver's matching: a posted receive matches it now (arrival_at_match)
    };
    write_command(op);
    const double far = std::numeric_limits<double>::infinity();
    return {nullptr, r.get_at_sender,
            ArrivalWindow{.first_byte = far, .last_byte = far, .dst_rank = request.dst_rank, .token = token}, header};
  }

  void start_get(uint64_t token)
  {
    auto found = rendezvous_.find(token);
    Rendezvous r = std::move(found->second);
    rendezvous_.erase(found);
    auto op = operation(r.request, bxi::NicKind::Get, true);
    op->get_bytes = r.request.payload;
    op->wants_send = false;
    op->at_target = [at_sender = r.get_at_sender] {
      if (not at_sender->done())
        at_sender->complete();
    };
    op->at_answer = [reply = r.reply] { reply->complete(); };
    fabric_->post(op);
  }

  kernel::Engine& engine_;
  std::unique_ptr<bxi::BxiFabric> fabric_;
  double rendezvous_threshold_;
  OverflowSettings overflow_;
  uint64_t next_token_ = 1;
  std::unordered_map<uint64_t, Rendezvous> rendezvous_;
};

std::vector<ParameterSpec> all_bxi_parameters()
{
  std::vector<ParameterSpec> specs = bxi::bxi_parameters();
  specs.push_back({"rendezvous-threshold",
                   ParameterKind::Size,
                   "2048B",
                   "MPI over Portals: messages from this size go by rendezvous (a header Put, then a Get from the "
                   "receiver), smaller ones by one eager Put",
                   {}});
  // Open MPI's Portals 4 transport posts 32 blocks of 2 MiB for unexpected short messages by default; MPICH's Portals
  // netmod fewer, smaller ones. The larger figure: a run should not end for want of room a real library would have.
  specs.push_back({"overflow-buffers",
                   ParameterKind::Number,
                   "32",
                   "MPI over Portals: overflow buffers per rank (locally managed MEs on the overflow list) holding "
                   "unexpected eager messages; all full: the run ends (raise this or overflow-buffer-size)",
                   {}});
  specs.push_back({"overflow-buffer-size",
                   ParameterKind::Size,
                   "2MiB",
                   "MPI over Portals: bytes of each overflow buffer; one is unlinked when less than "
                   "rendezvous-threshold is left, and appended again once its last message is received",
                   {}});
  specs.push_back({"overflow-copy-bandwidth",
                   ParameterKind::Bandwidth,
                   "10GBps",
                   "MPI over Portals: the receiver's copy of an unexpected eager message out of its overflow buffer "
                   "(one core's memcpy, of the order of 10 GB/s; this project's choice)",
                   {}});
  return specs;
}

const RegisterNetworkModel kRegisterBxi({
    "bxi",
    "BXI NIC model: Portals 4 and MPI over it; NIC stages, PCIe cap + shared link, inline/PIO/DMA, E2E, flow control",
    "J. Emmanuel, A full stack simulator for HPC: multi-level modelling of the BXI interconnect, PhD thesis, Univ. "
    "Lyon 1, 2023, ch. 2 and 4",
    all_bxi_parameters(),
    [](const NetworkModelContext& context) { return std::make_unique<BxiMpiNetworkModel>(context); },
});

} // namespace

bxi::BxiFabric* bxi::fabric_of(NetworkModel* model)
{
  auto* bxi_model = dynamic_cast<BxiMpiNetworkModel*>(model);
  return bxi_model != nullptr ? &bxi_model->fabric() : nullptr;
}

} // namespace mpisim::models
