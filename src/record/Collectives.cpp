#include "record/Collectives.hpp"

#include <numeric>
#include <string>
#include <vector>

namespace mpisim::record::collective {

namespace {

// Lowered collectives use tags from here up, one per communicator (FNV-1a of its name): far above what applications
// use, and distinct between communicators so that their messages cannot match each other in the replay.
constexpr int kLoweredTagBase = 0x3ff00000;

int lowered_tag(const std::string& comm_id)
{
  uint32_t hash = 2166136261u;
  for (char c : comm_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return kLoweredTagBase + static_cast<int>(hash % 65536u);
}

// One collective call being written: decides the form, then offers the pieces each collective needs.
class Writer {
public:
  enum class Form { Native, Lowered, None };

  Writer(Call& call, MPI_Comm comm, const char* operation)
      : rec_(call.rec()), trace_(rec_.trace()), comm_(rec_.comms().get(comm)), args_(call.args)
  {
    args_.comm = comm_->id;
    const Communicator& c = *comm_;
    std::string where =
        std::string(operation) + " on " + c.id + " (" + std::to_string(c.size) + (c.size == 1 ? " rank)" : " ranks)");
    if (c.inter) {
      form_ = Form::None;
      trace_.comment(where + ": intercommunicator, not expressible in the TI format");
      rec_.note("collectives on intercommunicators are not written", where);
    } else if (c.spans_world) {
      form_ = Form::Native;
    } else if (c.size == 1) {
      form_ = Form::None;
      trace_.comment(where + ": no communication");
    } else if (rec_.config().subcomm == SubcommMode::World) {
      form_ = Form::Native;
      trace_.comment(where + ": written as an MPI_COMM_WORLD collective (no communicator in the TI format)");
      rec_.note("collectives on sub-communicators written as MPI_COMM_WORLD collectives (set MPISIM_TRACE_SUBCOMM=p2p "
                "to write them as point-to-point messages among their members)",
                where);
    } else {
      form_ = Form::Lowered;
      tag_ = lowered_tag(c.id);
      trace_.comment(where + ": as point-to-point messages, tag " + std::to_string(tag_));
    }
  }

  Form form() const { return form_; }
  TraceFile& trace() { return trace_; }
  const Datatypes& types() const { return rec_.types(); }
  int size() const { return comm_->size; }
  int rank() const { return comm_->rank; }
  bool is_root(int root) const { return comm_->rank == root; }

  // Timeline arguments.
  void root(int root) { args_.peer = comm_->local_world_of[static_cast<size_t>(root)]; }
  void bytes(long long bytes) { args_.bytes = bytes; }

  // ---- native form
  long long root_token(int root) const
  {
    return comm_->spans_world ? comm_->local_world_of[static_cast<size_t>(root)] : root;
  }
  // A per-rank array of the communicator as a world-sized one: in world order on a communicator spanning the world,
  // else in the communicator's order, padded with zeros.
  void add_array(const int* counts, long long scale)
  {
    std::vector<long long> world(static_cast<size_t>(rec_.size()), 0);
    for (int i = 0; i < comm_->size; ++i) {
      size_t at = comm_->spans_world ? static_cast<size_t>(comm_->local_world_of[static_cast<size_t>(i)])
                                     : static_cast<size_t>(i);
      world[at] = counts == nullptr ? 0 : static_cast<long long>(counts[i]) * scale;
    }
    for (long long value : world)
      trace_.add(value);
  }

  // ---- lowered form: point-to-point lines in world ranks, sizes in bytes
  void send(int to, long long bytes)
  {
    trace_.begin("send").add(world(to)).add(tag_).add(bytes).add(Datatypes::kByte).end();
  }
  void recv(int from, long long bytes)
  {
    trace_.begin("recv").add(world(from)).add(tag_).add(bytes).add(Datatypes::kByte).end();
  }
  // Send to one rank while receiving from another (no ordering constraint between them, as in MPI_Sendrecv).
  void exchange(int to, long long out, int from, long long in)
  {
    trace_.begin("isend").add(world(to)).add(tag_).add(out).add(Datatypes::kByte).end();
    trace_.begin("recv").add(world(from)).add(tag_).add(in).add(Datatypes::kByte).end();
    trace_.begin("wait").add(rec_.rank()).add(world(to)).add(tag_).end();
  }
  void binomial_bcast(int root, long long bytes)
  {
    int n = size();
    int relative = (rank() - root + n) % n;
    int mask = 1;
    while (mask < n) {
      if ((relative & mask) != 0) {
        recv((relative - mask + root) % n, bytes);
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (relative + mask < n)
        send((relative + mask + root) % n, bytes);
  }
  void binomial_reduce(int root, long long bytes)
  {
    int n = size();
    int relative = (rank() - root + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
      if ((relative & mask) == 0) {
        if ((relative | mask) < n)
          recv(((relative | mask) + root) % n, bytes);
      } else {
        send(((relative & ~mask) + root) % n, bytes);
        break;
      }
    }
  }
  // Blocks of each rank travel around the ring: at step s a rank forwards the block it got at step s - 1.
  void ring_allgather(const std::vector<long long>& block)
  {
    int n = size();
    int right = (rank() + 1) % n;
    int left = (rank() - 1 + n) % n;
    for (int step = 0; step < n - 1; ++step) {
      int out = (rank() - step + n) % n;
      int in = (rank() - step - 1 + n) % n;
      exchange(right, block[static_cast<size_t>(out)], left, block[static_cast<size_t>(in)]);
    }
  }
  void pairwise(const std::vector<long long>& out, const std::vector<long long>& in)
  {
    int n = size();
    for (int step = 1; step < n; ++step) {
      int to = (rank() + step) % n;
      int from = (rank() - step + n) % n;
      exchange(to, out[static_cast<size_t>(to)], from, in[static_cast<size_t>(from)]);
    }
  }
  void chain(long long bytes)
  {
    if (rank() > 0)
      recv(rank() - 1, bytes);
    if (rank() < size() - 1)
      send(rank() + 1, bytes);
  }

private:
  int world(int local) const { return comm_->local_world_of[static_cast<size_t>(local)]; }

  Recorder& rec_;
  TraceFile& trace_;
  std::shared_ptr<Communicator> comm_;
  CallArgs& args_;
  Form form_ = Form::None;
  int tag_ = 0;
};

std::vector<long long> scaled(const int* counts, int n, long long scale)
{
  std::vector<long long> out(static_cast<size_t>(n), 0);
  if (counts != nullptr)
    for (int i = 0; i < n; ++i)
      out[static_cast<size_t>(i)] = static_cast<long long>(counts[i]) * scale;
  return out;
}

long long sum(const std::vector<long long>& values)
{
  return std::accumulate(values.begin(), values.end(), 0LL);
}

} // namespace

void barrier(Call& call, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Barrier");
  if (w.form() == Writer::Form::Native) {
    w.trace().begin("barrier").end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.binomial_reduce(0, 0);
    w.binomial_bcast(0, 0);
  }
}

void bcast(Call& call, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Bcast");
  w.root(root);
  w.bytes(Datatypes::bytes(count, type));
  if (w.form() == Writer::Form::Native) {
    TiCount n = w.types().convert(count, type);
    w.trace().begin("bcast").add(n.count).add(w.root_token(root)).add(n.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.binomial_bcast(root, Datatypes::bytes(count, type));
  }
}

void reduce(Call& call, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Reduce");
  w.root(root);
  w.bytes(Datatypes::bytes(count, type));
  if (w.form() == Writer::Form::Native) {
    TiCount n = w.types().convert(count, type);
    w.trace().begin("reduce").add(n.count).add(0).add(w.root_token(root)).add(n.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.binomial_reduce(root, Datatypes::bytes(count, type));
  }
}

void allreduce(Call& call, int count, MPI_Datatype type, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Allreduce");
  long long bytes = Datatypes::bytes(count, type);
  w.bytes(bytes);
  if (w.form() == Writer::Form::Native) {
    TiCount n = w.types().convert(count, type);
    w.trace().begin("allreduce").add(n.count).add(0).add(n.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.binomial_reduce(0, bytes);
    w.binomial_bcast(0, bytes);
  }
}

void scan(Call& call, bool exclusive, int count, MPI_Datatype type, MPI_Comm comm)
{
  Writer w(call, comm, exclusive ? "MPI_Exscan" : "MPI_Scan");
  long long bytes = Datatypes::bytes(count, type);
  w.bytes(bytes);
  if (w.form() == Writer::Form::Native) {
    TiCount n = w.types().convert(count, type);
    w.trace().begin(exclusive ? "exscan" : "scan").add(n.count).add(0).add(n.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.chain(bytes);
  }
}

void gather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
            int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Gather");
  w.root(root);
  bool at_root = w.is_root(root);
  // The receive arguments only mean something at the root; elsewhere the root receives what this rank sends.
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  int count = in_place ? recvcount : sendcount;
  MPI_Datatype type = in_place ? recvtype : sendtype;
  long long bytes = Datatypes::bytes(count, type);
  w.bytes(bytes);
  if (w.form() == Writer::Form::Native) {
    TiCount out = w.types().convert(count, type);
    TiCount in = at_root ? w.types().convert(recvcount, recvtype) : out;
    w.trace().begin("gather").add(out.count).add(in.count).add(w.root_token(root)).add(out.datatype);
    w.trace().add(in.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    if (not at_root) {
      w.send(root, bytes);
      return;
    }
    for (int i = 0; i < w.size(); ++i)
      if (i != root)
        w.recv(i, Datatypes::bytes(recvcount, recvtype));
  }
}

void gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, const int* recvcounts,
             MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Gatherv");
  w.root(root);
  bool at_root = w.is_root(root);
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  int count = in_place ? recvcounts[root] : sendcount;
  MPI_Datatype type = in_place ? recvtype : sendtype;
  long long bytes = Datatypes::bytes(count, type);
  w.bytes(bytes);
  if (w.form() == Writer::Form::Native) {
    // Receive counts only exist at the root: zeros elsewhere, as SimGrid writes them.
    TiCount out = w.types().convert(count, type);
    TiCount unit = at_root ? w.types().unit(recvtype) : TiCount{0, out.datatype};
    w.trace().begin("gatherv").add(out.count);
    w.add_array(at_root ? recvcounts : nullptr, unit.count);
    w.trace().add(w.root_token(root)).add(out.datatype).add(unit.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    if (not at_root) {
      w.send(root, bytes);
      return;
    }
    for (int i = 0; i < w.size(); ++i)
      if (i != root)
        w.recv(i, Datatypes::bytes(recvcounts[i], recvtype));
  }
}

void scatter(Call& call, int sendcount, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Scatter");
  w.root(root);
  bool at_root = w.is_root(root);
  // The send arguments only mean something at the root.
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  long long sent = at_root ? Datatypes::bytes(sendcount, sendtype) : 0;
  w.bytes(at_root ? sent * (w.size() - 1) : Datatypes::bytes(recvcount, recvtype));
  if (w.form() == Writer::Form::Native) {
    TiCount in = in_place ? w.types().convert(sendcount, sendtype) : w.types().convert(recvcount, recvtype);
    TiCount out = at_root ? w.types().convert(sendcount, sendtype) : in;
    w.trace().begin("scatter").add(out.count).add(in.count).add(w.root_token(root)).add(out.datatype);
    w.trace().add(in.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    if (not at_root) {
      w.recv(root, Datatypes::bytes(recvcount, recvtype));
      return;
    }
    for (int i = 0; i < w.size(); ++i)
      if (i != root)
        w.send(i, sent);
  }
}

void scatterv(Call& call, const int* sendcounts, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Scatterv");
  w.root(root);
  bool at_root = w.is_root(root);
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  std::vector<long long> sent = at_root ? scaled(sendcounts, w.size(), Datatypes::bytes(1, sendtype))
                                        : std::vector<long long>(static_cast<size_t>(w.size()), 0);
  w.bytes(at_root ? sum(sent) : Datatypes::bytes(recvcount, recvtype));
  if (w.form() == Writer::Form::Native) {
    TiCount in = in_place ? w.types().convert(sendcounts[root], sendtype) : w.types().convert(recvcount, recvtype);
    TiCount unit = at_root ? w.types().unit(sendtype) : TiCount{0, in.datatype};
    w.trace().begin("scatterv");
    w.add_array(at_root ? sendcounts : nullptr, unit.count);
    w.trace().add(in.count).add(w.root_token(root)).add(unit.datatype).add(in.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    if (not at_root) {
      w.recv(root, Datatypes::bytes(recvcount, recvtype));
      return;
    }
    for (int i = 0; i < w.size(); ++i)
      if (i != root)
        w.send(i, sent[static_cast<size_t>(i)]);
  }
}

void allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
               MPI_Datatype recvtype, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Allgather");
  bool in_place = sendbuf == MPI_IN_PLACE;
  int count = in_place ? recvcount : sendcount;
  MPI_Datatype type = in_place ? recvtype : sendtype;
  w.bytes(Datatypes::bytes(count, type));
  if (w.form() == Writer::Form::Native) {
    TiCount out = w.types().convert(count, type);
    TiCount in = w.types().convert(recvcount, recvtype);
    w.trace().begin("allgather").add(out.count).add(in.count).add(out.datatype).add(in.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.ring_allgather(std::vector<long long>(static_cast<size_t>(w.size()), Datatypes::bytes(recvcount, recvtype)));
  }
}

void allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, const int* recvcounts,
                MPI_Datatype recvtype, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Allgatherv");
  bool in_place = sendbuf == MPI_IN_PLACE;
  int count = in_place ? recvcounts[w.rank()] : sendcount;
  MPI_Datatype type = in_place ? recvtype : sendtype;
  w.bytes(Datatypes::bytes(count, type));
  if (w.form() == Writer::Form::Native) {
    TiCount out = w.types().convert(count, type);
    TiCount unit = w.types().unit(recvtype);
    w.trace().begin("allgatherv").add(out.count);
    w.add_array(recvcounts, unit.count);
    w.trace().add(out.datatype).add(unit.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.ring_allgather(scaled(recvcounts, w.size(), Datatypes::bytes(1, recvtype)));
  }
}

void alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Alltoall");
  bool in_place = sendbuf == MPI_IN_PLACE;
  int count = in_place ? recvcount : sendcount;
  MPI_Datatype type = in_place ? recvtype : sendtype;
  w.bytes(Datatypes::bytes(count, type) * w.size());
  if (w.form() == Writer::Form::Native) {
    TiCount out = w.types().convert(count, type);
    TiCount in = w.types().convert(recvcount, recvtype);
    w.trace().begin("alltoall").add(out.count).add(in.count).add(out.datatype).add(in.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    std::vector<long long> out(static_cast<size_t>(w.size()), Datatypes::bytes(count, type));
    std::vector<long long> in(static_cast<size_t>(w.size()), Datatypes::bytes(recvcount, recvtype));
    w.pairwise(out, in);
  }
}

void alltoallv(Call& call, const void* sendbuf, const int* sendcounts, MPI_Datatype sendtype, const int* recvcounts,
               MPI_Datatype recvtype, MPI_Comm comm)
{
  Writer w(call, comm, "MPI_Alltoallv");
  if (sendbuf == MPI_IN_PLACE) {
    sendcounts = recvcounts;
    sendtype = recvtype;
  }
  std::vector<long long> out = scaled(sendcounts, w.size(), Datatypes::bytes(1, sendtype));
  w.bytes(sum(out));
  if (w.form() == Writer::Form::Native) {
    TiCount send_unit = w.types().unit(sendtype);
    TiCount recv_unit = w.types().unit(recvtype);
    std::vector<long long> sends = scaled(sendcounts, w.size(), send_unit.count);
    std::vector<long long> recvs = scaled(recvcounts, w.size(), recv_unit.count);
    w.trace().begin("alltoallv").add(sum(sends));
    w.add_array(sendcounts, send_unit.count);
    w.trace().add(sum(recvs));
    w.add_array(recvcounts, recv_unit.count);
    w.trace().add(send_unit.datatype).add(recv_unit.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.pairwise(out, scaled(recvcounts, w.size(), Datatypes::bytes(1, recvtype)));
  }
}

namespace {

void write_reduce_scatter(Call& call, const char* operation, const int* recvcounts, MPI_Datatype type, MPI_Comm comm)
{
  Writer w(call, comm, operation);
  std::vector<long long> blocks = scaled(recvcounts, w.size(), Datatypes::bytes(1, type));
  w.bytes(sum(blocks));
  if (w.form() == Writer::Form::Native) {
    TiCount unit = w.types().unit(type);
    w.trace().begin("reducescatter");
    w.add_array(recvcounts, unit.count);
    w.trace().add(0).add(unit.datatype).end();
  } else if (w.form() == Writer::Form::Lowered) {
    w.binomial_reduce(0, sum(blocks));
    if (w.rank() == 0) {
      for (int i = 1; i < w.size(); ++i)
        w.send(i, blocks[static_cast<size_t>(i)]);
    } else {
      w.recv(0, blocks[static_cast<size_t>(w.rank())]);
    }
  }
}

} // namespace

void reduce_scatter(Call& call, const int* recvcounts, MPI_Datatype type, MPI_Comm comm)
{
  write_reduce_scatter(call, "MPI_Reduce_scatter", recvcounts, type, comm);
}

void reduce_scatter_block(Call& call, int recvcount, MPI_Datatype type, MPI_Comm comm)
{
  int size = 0;
  PMPI_Comm_size(comm, &size);
  std::vector<int> counts(static_cast<size_t>(size), recvcount);
  write_reduce_scatter(call, "MPI_Reduce_scatter_block", counts.data(), type, comm);
}

} // namespace mpisim::record::collective
