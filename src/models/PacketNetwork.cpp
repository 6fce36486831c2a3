#include "models/PacketNetwork.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mpisim::models {

namespace {

// A ratio within this of an integer counts as that integer when rounded up: B D / P is a product of doubles, and a
// window must not grow by one packet because of its last bit.
constexpr double kWindowSlack = 1e-9;

double sending_time(double bytes, double bandwidth)
{
  return std::isinf(bandwidth) ? 0.0 : bytes / bandwidth;
}

} // namespace

PacketNetwork::PacketNetwork(size_t links, double packet_size) : packet_size_(packet_size), link_free_(links, 0.0)
{
  if (not(packet_size > 0) or std::isinf(packet_size))
    throw std::invalid_argument("packet size must be finite and > 0");
}

uint64_t PacketNetwork::window(std::span<const PacketHop> hops) const
{
  double bottleneck = std::numeric_limits<double>::infinity();
  double delay = 0;
  for (const PacketHop& hop : hops) {
    bottleneck = std::min(bottleneck, hop.bandwidth);
    delay += hop.latency + sending_time(packet_size_, hop.bandwidth);
  }
  const double packets = bottleneck * delay / packet_size_;
  if (std::isinf(bottleneck) or not(packets < 1e18)) // nothing limits the stream: every packet at once
    return std::numeric_limits<uint64_t>::max();
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(packets - kWindowSlack)));
}

StreamId PacketNetwork::start(std::span<const PacketHop> hops, double bytes, double date)
{
  if (hops.empty())
    throw std::invalid_argument("a packet stream needs a route of at least one link");
  StreamId id;
  if (free_ids_.empty()) {
    id = static_cast<StreamId>(streams_.size());
    streams_.emplace_back();
  } else {
    id = free_ids_.back();
    free_ids_.pop_back();
  }
  Stream& stream = streams_[id];
  const double full_packets = std::ceil(bytes / packet_size_);
  stream.packets = std::max<uint64_t>(1, static_cast<uint64_t>(full_packets));
  const double last_size = bytes - static_cast<double>(stream.packets - 1) * packet_size_;
  stream.injected = 0;
  stream.arrived = 0;
  stream.hops.clear();
  for (const PacketHop& hop : hops) {
    if (hop.link >= link_free_.size())
      throw std::out_of_range("packet hop names an unknown link");
    stream.hops.push_back(Hop{hop.link, hop.shared, hop.latency, sending_time(packet_size_, hop.bandwidth),
                              sending_time(last_size, hop.bandwidth), 0.0});
  }
  const uint64_t first = std::min(window(hops), stream.packets);
  for (uint64_t i = 0; i < first; ++i)
    inject(id, date);
  return id;
}

double PacketNetwork::next_date() const
{
  return arrivals_.empty() ? std::numeric_limits<double>::infinity() : arrivals_.front().date;
}

void PacketNetwork::advance_to(double date, std::vector<DeliveredStream>& delivered)
{
  while (not arrivals_.empty() and arrivals_.front().date <= date) {
    std::pop_heap(arrivals_.begin(), arrivals_.end(), later);
    const Arrival arrival = arrivals_.back();
    arrivals_.pop_back();
    arrive(arrival, delivered);
  }
}

void PacketNetwork::inject(StreamId id, double date)
{
  Stream& stream = streams_[id];
  send_on(id, stream.injected++, 0, date);
}

// The packet is at the node before `hop` at `date`: it waits for the node's output onto the link, crosses the link
// whole, and reaches the next node.
void PacketNetwork::send_on(StreamId id, uint64_t packet, uint32_t hop_index, double date)
{
  Stream& stream = streams_[id];
  Hop& hop = stream.hops[hop_index];
  double& output_free = hop.shared ? link_free_[hop.link] : hop.lane_free;
  const double start = std::max(date, output_free);
  output_free = start + (packet + 1 == stream.packets ? hop.send_last : hop.send_full);
  arrivals_.push_back(Arrival{output_free + hop.latency, next_sequence_++, packet, id, hop_index + 1});
  std::push_heap(arrivals_.begin(), arrivals_.end(), later);
}

void PacketNetwork::arrive(const Arrival& arrival, std::vector<DeliveredStream>& delivered)
{
  ++packet_hops_;
  Stream& stream = streams_[arrival.stream];
  if (arrival.hop < stream.hops.size()) {
    send_on(arrival.stream, arrival.packet, arrival.hop, arrival.date);
    return;
  }
  ++stream.arrived;
  if (stream.injected < stream.packets)
    inject(arrival.stream, arrival.date);
  if (stream.arrived == stream.packets) {
    free_ids_.push_back(arrival.stream);
    delivered.push_back({arrival.stream, arrival.date});
  }
}

} // namespace mpisim::models
