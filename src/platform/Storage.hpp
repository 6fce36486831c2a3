// What a platform says about storage: disks on hosts, file servers and their caches, and the parallel file system's
// defaults (docs/io.md). Plain description, like the rest of Platform; the io layer (src/io) simulates it.
//
// In a platform file: SimGrid's <disk read_bw= write_bw=> on a host, with mpisim's <prop>s on the disk (its kind and
// head-movement parameters), on the host (its cache, when it is a file server) and on a zone (which hosts are file
// servers, striping and metadata costs). SimGrid 3.32 reads such files unchanged: it keeps unknown <prop>s.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mpisim::platform {

using HostId = uint32_t;

// hdd: the PIOsimHD paper's hard disk (Kunkel et al., Sec. 4): transfer rate, average seek, track-to-track seek, RPM,
// no seek for an access continuing the previous one, a track-to-track seek within seek_window of it in the same file,
// an average seek otherwise. ssd: bandwidth and a fixed latency per access (a <disk> without props: latency 0, as
// SimGrid times it).
enum class DiskKind : uint8_t { Hdd, Ssd };

struct DiskSpec {
  std::string name;
  DiskKind kind = DiskKind::Ssd;
  double read_bandwidth = 0;      // byte/s
  double write_bandwidth = 0;     // byte/s
  double average_seek = 0;        // s (hdd)
  double track_to_track_seek = 0; // s (hdd)
  double rpm = 0;                 // revolutions per minute (hdd): half a revolution of rotational delay per seek
  double seek_window = 1 << 20;   // bytes (hdd)
  double latency = 0;             // s per access (ssd)
};

// A file server's cache: write-behind (a write completes once copied into the cache when it has room, and is
// written to disk in the background) and read-ahead (a sequential read also fetches the next read_ahead bytes).
struct CacheSpec {
  double size = 0;                // bytes; 0: no cache, every access goes to the disk
  double memory_bandwidth = 10e9; // byte/s, copies into and out of the cache
  bool write_behind = true;
  double read_ahead = 0; // bytes; 0: none
};

struct FileServerSpec {
  HostId host = 0;
  CacheSpec cache;
};

struct StorageSpec {
  // Disks of each host that has some (SimGrid's <disk>), in declaration order.
  std::map<HostId, std::vector<DiskSpec>> disks;
  // File servers in the order io/servers names them; empty: files live on the disk of the host that accesses them.
  std::vector<FileServerSpec> servers;
  // Caches declared on hosts (io/cache-* props), given to those hosts when they are servers.
  std::map<HostId, CacheSpec> caches;
  double stripe_size = 64 * 1024; // bytes
  int stripe_count = 0;           // servers a file is striped over; 0: all of them
  double open_cost = 0;           // s, on the server holding the file's metadata (the first of its stripe)
  double close_cost = 0;          // s
  double request_overhead = 0;    // s, each request a server handles
  double request_size = 256;      // bytes of a request message (and of a reply without data)
};

} // namespace mpisim::platform
