// Packets over store-and-forward routes, packet by packet: the network flow model of Kunkel et al.'s PIOsimHD paper
// (simulation to validate MPI-IO performance), Sec. 4. No simulator types: streams are started at dates and advanced to
// dates, and `PacketNetworkModel` ties them to the engine (the split keeps the rules testable without an MPI job).
//
// A stream of b bytes is cut into n = max(1, ceil(b / P)) packets, all of P bytes but the last (b - (n - 1) P). Over
// a route of hops i = 1..h (link i: bandwidth bw_i, latency lat_i), a packet that reaches the node before hop i at
// date t crosses it entirely before going on (store and forward):
//   start_i = max(t, free_i)          free_i: when the node's output onto link i has sent its previous packet
//   free_i  = start_i + size / bw_i   the output sends one packet at a time, whole (a node relays at its link's rate)
//   t_next  = free_i + lat_i          the packet is at the next node (latencies overlap: a link holds many packets)
// Packets take an output in the order they reached its node (FIFO across streams; ties in the order processed,
// which is deterministic), so streams meeting at a node share its output packet by packet. A FATPIPE link has one
// output per stream (streams do not share it; a stream's own packets still go one at a time).
// A stream keeps at most W packets in flight (injected at the source, not yet arrived):
//   W = max(1, ceil(B D / P)), B = min bw_i (the route's bottleneck), D = sum(lat_i + P / bw_i)
// the bandwidth-delay product of the route in packets, where the delay D is one packet's time over the empty route:
// exactly what keeps the bottleneck busy when the stream is alone. A packet arriving at the destination lets the next
// one start at the source at that date. No packet is lost. The stream arrives when its last packet does.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace mpisim::models {

// One hop of a route: the link it crosses.
struct PacketHop {
  uint32_t link;    // index into the network's links (the platform's LinkId)
  double bandwidth; // bytes per second (infinite: sending takes no time)
  double latency;   // seconds
  bool shared;      // false: a FATPIPE link, one output per stream
};

using StreamId = uint32_t;

struct DeliveredStream {
  StreamId stream;
  double date;
};

class PacketNetwork {
public:
  // `links`: how many links the routes may name; `packet_size` P in bytes (> 0).
  PacketNetwork(size_t links, double packet_size);

  // Starts a stream of `bytes` over `hops` (at least one) at `date`: its first W packets reach the source's output at
  // `date`. Dates given to start() and advance_to() do not decrease (within the engine's precision).
  StreamId start(std::span<const PacketHop> hops, double bytes, double date);

  // The date of the next packet arrival at a node; infinity when no packet is on its way.
  double next_date() const;
  // Moves every packet arrival dated <= `date`, in date order; appends each stream whose last packet arrived, with
  // its date, to `delivered`. A delivered stream's id may be reused by the next start().
  void advance_to(double date, std::vector<DeliveredStream>& delivered);

  // W of a stream started over `hops`, for the docs' rule and the tests.
  uint64_t window(std::span<const PacketHop> hops) const;
  double packet_size() const { return packet_size_; }
  // Packet arrivals at nodes processed so far (the work done: n h for a stream of n packets over h hops).
  uint64_t packet_hops() const { return packet_hops_; }

private:
  struct Hop {
    uint32_t link;
    bool shared;
    double latency;
    double send_full; // P / bw
    double send_last; // last packet's size / bw
    double lane_free; // a FATPIPE hop: when this stream's own output is free
  };
  struct Stream {
    std::vector<Hop> hops;
    uint64_t packets = 0;
    uint64_t injected = 0;
    uint64_t arrived = 0;
  };
  // Packet `packet` of `stream` reaches the node before hop `hop` (hop == hops.size(): the destination) at `date`.
  struct Arrival {
    double date;
    uint64_t sequence;
    uint64_t packet;
    StreamId stream;
    uint32_t hop;
  };
  static bool later(const Arrival& a, const Arrival& b)
  {
    return a.date != b.date ? a.date > b.date : a.sequence > b.sequence;
  }

  void inject(StreamId id, double date);
  void send_on(StreamId id, uint64_t packet, uint32_t hop, double date);
  void arrive(const Arrival& arrival, std::vector<DeliveredStream>& delivered);

  double packet_size_;
  std::vector<double> link_free_;
  std::vector<Stream> streams_;
  std::vector<StreamId> free_ids_;
  std::vector<Arrival> arrivals_; // a min-heap on (date, sequence)
  uint64_t next_sequence_ = 0;
  uint64_t packet_hops_ = 0;
};

} // namespace mpisim::models
