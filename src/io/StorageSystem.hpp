// The parallel file system: the one entry point the MPI layer calls to time file operations (docs/io.md).
//
// With file servers (the platform's io/servers), a file is striped round-robin over `count` of them, in units of
// `unit` bytes, starting at server (file number mod servers); the server of the first stripe holds its metadata. A
// client's access is cut into one request per server (each server's part of a contiguous range is contiguous in
// the data it holds). Each request: a request message client -> server, then on a write the data client -> server,
// the server's work (per-request overhead, cache, disk), and an acknowledgement server -> client; on a read the
// data server -> client; the data and the server's work go in 1 MiB pieces, pipelined (a piece on the disk while
// the one before crosses the network). Messages go through the network model. The access completes with its last
// request; a write then updates the file's size. Without file servers, a file lives on the first disk of the host that
// accesses it (SimGrid's <disk>, as SMPI times MPI-IO) and accesses take that disk's time; a host without a disk
// does I/O in no time.
#pragma once

#include "io/Disk.hpp"
#include "io/FileServer.hpp"
#include "io/IoOperation.hpp"
#include "models/NetworkModel.hpp"
#include "platform/Platform.hpp"

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::io {

// How a file is striped: `unit` bytes per stripe, over `count` servers. Zeros ask for the platform's defaults
// (MPI info hints striping_unit, striping_factor).
struct Striping {
  double unit = 0;
  int count = 0;
};

// Who does the I/O: the client's host, and its rank (models keeping per-process state key it by rank).
struct Client {
  platform::HostId host = 0;
  int rank = 0;
};

class StorageSystem {
public:
  // `first_server_rank`: the rank numbers the network model sees for the servers (server i is first_server_rank +
  // i); pass the number of ranks of the job.
  StorageSystem(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
                int first_server_rank);
  StorageSystem(const StorageSystem&) = delete;
  StorageSystem& operator=(const StorageSystem&) = delete;

  // The file's number (the same path, the same file). Its striping is fixed by the first call that names it.
  FileId file(const std::string& path, Striping hints = {});
  Striping striping(FileId file) const { return files_.at(file).striping; }
  bool has_servers() const { return !servers_.empty(); }

  // Metadata: open and close cost their time on the file's metadata server (a request and a reply over the
  // network), or on the client without servers.
  ActivityPtr open(const Client& client, FileId file);
  ActivityPtr close(const Client& client, FileId file);
  // Writes behind of the file reach the disks of its servers.
  ActivityPtr sync(const Client& client, FileId file);
  // Sets the size the file system records (truncate or extend): a metadata request.
  ActivityPtr set_size(const Client& client, FileId file, double size);
  // Reads or writes `size` bytes at `offset`; completes when done.
  ActivityPtr access(const Client& client, FileId file, double offset, double size, Direction direction);
  // Accesses each (offset, size) piece after the previous one has completed (a POSIX loop over a noncontiguous
  // request); completes with the last.
  ActivityPtr access_each(const Client& client, FileId file, std::vector<std::pair<double, double>> pieces,
                          Direction direction);
  // access_each under a byte-range lock of the file over the pieces' covering extent (MPI atomic mode, as ROMIO
  // locks that extent around the access): it starts when no access holding or waiting earlier for an overlapping
  // range remains, and releases the range when it completes. Disjoint ranges do not wait for each other.
  ActivityPtr access_each_atomically(const Client& client, FileId file, std::vector<std::pair<double, double>> pieces,
                                     Direction direction);
  // Data sieving's write (docs/specifications/data-sieving.md): [begin, end) in consecutive chunks of at most `buffer`
  // bytes, each read then written back whole under a byte-range lock of the chunk; in atomic mode under one lock of
  // [begin, end) for the whole access instead.
  ActivityPtr read_modify_write(const Client& client, FileId file, double begin, double end, double buffer,
                                bool atomic);
  // [begin, end) cut from its start into consecutive chunks of at most `buffer` bytes: (offset, size).
  static std::vector<std::pair<double, double>> chunks_of(double begin, double end, double buffer);
  // One request to the file's metadata server and its reply, `io/request-overhead` there (a shared file pointer's
  // update); no time without servers.
  ActivityPtr metadata_request(const Client& client, FileId file);
  // Runs `next` when `activity` completes (the MPI layer chains its requests to the storage model's activities).
  void when_done(const ActivityPtr& activity, std::function<void()> next)
  {
    continuations_.after(activity, std::move(next));
  }

  // The file's size as the file system knows it: the end of the farthest finished write, or the last set_size.
  double size(FileId file) const { return files_.at(file).size; }

  // Where the byte at `offset` of a file lives: the server index (into the platform's io/servers) and the offset in
  // that server's data of the file.
  struct Placement {
    size_t server;
    double local_offset;
  };
  Placement place(FileId file, double offset) const;

private:
  // [begin, end) bytes of a file.
  struct ByteRange {
    double begin = 0;
    double end = 0;
    bool overlaps(const ByteRange& other) const { return begin < other.end && other.begin < end; }
  };
  struct LockWaiter {
    ByteRange range;
    std::function<void()> start;
  };
  struct FileState {
    Striping striping;
    double size = 0;
    size_t first_server = 0;
    std::vector<ByteRange> locked; // ranges of the atomic accesses in progress
    std::list<LockWaiter> waiting; // atomic accesses waiting for their range, in arrival order
  };
  struct ServerRequest {
    size_t server;
    double local_offset;
    double size;
  };
  std::vector<ServerRequest> split(FileId file, double offset, double size) const;
  size_t server_of_unit(const FileState& state, uint64_t unit) const;
  // Runs `start` once `range` of the file is locked for it (at once when free); unlock() releases it and starts the
  // waiters it frees, in arrival order.
  void lock(FileId file, ByteRange range, std::function<void()> start);
  void unlock(FileId file, ByteRange range);
  // No range held, and none waiting before `waiters_end`, overlaps `range`.
  static bool range_is_free(const FileState& state, const ByteRange& range,
                            std::list<LockWaiter>::const_iterator waiters_end);

  // A message through the network model; `next` runs when it has arrived.
  void send(platform::HostId src, int src_rank, platform::HostId dst, int dst_rank, double bytes,
            std::function<void()> next);
  void request(const Client& client, size_t server, FileId file, double local_offset, double size, Direction direction,
               const std::function<void()>& done);
  // A server request moving through its stages (docs/io.md, pipelining) one transfer unit at a time.
  struct Pipeline {
    Client client;
    size_t server;
    FileId file;
    Direction direction;
    double begin, end;                             // the request's local range
    std::vector<std::pair<double, double>> pieces; // (local offset, size), in order
    std::function<void()> done;
    size_t at_server = 0; // pieces whose data is at the server (all of them at once on a read)
    size_t served = 0;
    size_t returned = 0; // pieces sent back to the client (reads)
    bool serving = false, returning = false;
  };
  using PipelinePtr = std::shared_ptr<Pipeline>;
  static std::vector<std::pair<double, double>> unit_pieces(double local_offset, double size, double unit);
  void send_piece_to_server(const PipelinePtr& pipeline, size_t index);
  void serve_next_piece(const PipelinePtr& pipeline);
  void return_next_piece(const PipelinePtr& pipeline);
  ActivityPtr metadata(const Client& client, FileId file, double cost, const std::string& what);
  Disk* local_disk(platform::HostId host);

  kernel::Engine& engine_;
  const platform::Platform& platform_;
  models::NetworkModel& network_;
  int first_server_rank_;
  Continuations continuations_;
  std::vector<std::unique_ptr<FileServer>> servers_;
  std::map<platform::HostId, std::unique_ptr<Disk>> local_disks_;
  std::map<std::string, FileId> ids_;
  std::map<FileId, FileState> files_;
};

} // namespace mpisim::io
