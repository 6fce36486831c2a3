#include "online/bindings/CollectiveBuilders.hpp"

#include <algorithm>

namespace mpisim::online {

namespace {

using mpi::Collective;

int start(Runtime& runtime, Collective op, MPI_Comm comm, const char* call, PreparedOut& out)
{
  const mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, call, c));
  out.make(op, *c, c->local_rank(runtime.current_rank()));
  return MPI_SUCCESS;
}

bool in_place(const void* buffer)
{
  return buffer == MPI_IN_PLACE;
}

} // namespace

int prepare_barrier(Runtime& runtime, MPI_Comm comm, const char* call, PreparedOut& out)
{
  return start(runtime, Collective::Barrier, comm, call, out);
}

int prepare_bcast(Runtime& runtime, void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                  const char* call, PreparedOut& out)
{
  MPISIM_TRY(start(runtime, Collective::Bcast, comm, call, out));
  mpi::DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, comm, type, call, t));
  MPISIM_TRY(check_count(runtime, comm, count, call));
  MPISIM_TRY(check_root(runtime, comm, out->comm, root, call));
  out->call.root = root;
  out->call.bytes = static_cast<double>(t->packed_size(count));
  out->call.element_bytes = static_cast<double>(t->size() ? t->size() : 1);
  out->call.recv_data = out->output(buffer, count, t, out->me == root);
  return MPI_SUCCESS;
}

int prepare_reduction(Runtime& runtime, Collective op_kind, const void* sendbuf, void* recvbuf, int count,
                      MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, const char* call, PreparedOut& out)
{
  MPISIM_TRY(start(runtime, op_kind, comm, call, out));
  mpi::DatatypePtr t;
  mpi::ReduceOpPtr o;
  MPISIM_TRY(resolve_type(runtime, comm, type, call, t));
  MPISIM_TRY(resolve_op(runtime, comm, op, call, o));
  MPISIM_TRY(check_op_defined(runtime, comm, *o, *t, call));
  MPISIM_TRY(check_count(runtime, comm, count, call));
  if (op_kind == Collective::Reduce)
    MPISIM_TRY(check_root(runtime, comm, out->comm, root, call));
  PreparedCollective& p = *out;
  p.reduce_with(t, o);
  p.call.root = root < 0 ? 0 : root;
  p.call.bytes = static_cast<double>(t->packed_size(count));
  const bool receives = op_kind != Collective::Reduce || p.me == root;
  const bool inplace = receives && in_place(sendbuf);
  if (receives)
    p.call.recv_data = p.output(recvbuf, count, t, inplace);
  p.call.send_data = inplace ? p.call.recv_data : p.input(sendbuf, count, *t);
  return MPI_SUCCESS;
}

int prepare_gather(Runtime& runtime, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const char* call, PreparedOut& out)
{
  const bool all = root < 0;
  const bool v = recvcounts != nullptr;
  const Collective kind =
      all ? (v ? Collective::Allgatherv : Collective::Allgather) : (v ? Collective::Gatherv : Collective::Gather);
  MPISIM_TRY(start(runtime, kind, comm, call, out));
  PreparedCollective& p = *out;
  if (not all)
    MPISIM_TRY(check_root(runtime, comm, p.comm, root, call));
  p.call.root = all ? 0 : root;
  const bool receives = all || p.me == root;
  const bool inplace = receives && in_place(sendbuf);
  mpi::DatatypePtr st, rt;
  if (not inplace) {
    MPISIM_TRY(resolve_type(runtime, comm, sendtype, call, st));
    MPISIM_TRY(check_count(runtime, comm, sendcount, call));
  }
  if (receives) {
    MPISIM_TRY(resolve_type(runtime, comm, recvtype, call, rt));
    if (v) {
      p.call.recv_data = p.output_v(recvbuf, recvcounts, displs, rt, inplace, p.call.recv_counts, p.call.recv_displs);
    } else {
      MPISIM_TRY(check_count(runtime, comm, recvcount, call));
      p.call.recv_bytes = static_cast<double>(rt->packed_size(recvcount));
      p.call.recv_data = p.output(recvbuf, static_cast<size_t>(recvcount) * p.comm.size(), rt, inplace);
    }
  }
  if (inplace) {
    const double offset = v ? p.call.recv_displs[p.me] : p.me * p.call.recv_bytes;
    p.call.bytes = v ? p.call.recv_counts[p.me] : p.call.recv_bytes;
    p.call.send_data = p.call.recv_data + static_cast<size_t>(offset);
  } else {
    p.call.bytes = static_cast<double>(st->packed_size(sendcount));
    p.call.send_data = p.input(sendbuf, sendcount, *st);
  }
  if (not receives)
    p.call.recv_bytes = p.call.bytes;
  p.call.element_bytes = static_cast<double>((rt ? rt : st)->size() ? (rt ? rt : st)->size() : 1);
  return MPI_SUCCESS;
}

int prepare_scatter(Runtime& runtime, const void* sendbuf, int sendcount, const int* sendcounts, const int* displs,
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char* call, PreparedOut& out)
{
  const bool v = sendcounts != nullptr;
  MPISIM_TRY(start(runtime, v ? Collective::Scatterv : Collective::Scatter, comm, call, out));
  PreparedCollective& p = *out;
  MPISIM_TRY(check_root(runtime, comm, p.comm, root, call));
  p.call.root = root;
  const bool sends = p.me == root;
  const bool inplace = sends && in_place(recvbuf);
  mpi::DatatypePtr st, rt;
  if (sends) {
    MPISIM_TRY(resolve_type(runtime, comm, sendtype, call, st));
    if (v) {
      p.call.send_data = p.input_v(sendbuf, sendcounts, displs, *st, p.call.send_counts, p.call.send_displs);
    } else {
      MPISIM_TRY(check_count(runtime, comm, sendcount, call));
      p.call.bytes = static_cast<double>(st->packed_size(sendcount));
      p.call.send_data = p.input(sendbuf, static_cast<size_t>(sendcount) * p.comm.size(), *st);
    }
  }
  if (inplace) {
    const double offset = v ? p.call.send_displs[p.me] : p.me * p.call.bytes;
    p.call.recv_bytes = v ? p.call.send_counts[p.me] : p.call.bytes;
    p.call.recv_data = const_cast<std::byte*>(p.call.send_data) + static_cast<size_t>(offset);
  } else {
    MPISIM_TRY(resolve_type(runtime, comm, recvtype, call, rt));
    MPISIM_TRY(check_count(runtime, comm, recvcount, call));
    p.call.recv_bytes = static_cast<double>(rt->packed_size(recvcount));
    p.call.recv_data = p.output(recvbuf, recvcount, rt, false);
  }
  if (not sends)
    p.call.bytes = p.call.recv_bytes;
  p.call.element_bytes = static_cast<double>((rt ? rt : st)->size() ? (rt ? rt : st)->size() : 1);
  return MPI_SUCCESS;
}

int prepare_alltoall(Runtime& runtime, const void* sendbuf, int sendcount, const int* sendcounts, const int* sdispls,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, const int* recvcounts, const int* rdispls,
                     MPI_Datatype recvtype, MPI_Comm comm, const char* call, PreparedOut& out)
{
  const bool v = recvcounts != nullptr;
  MPISIM_TRY(start(runtime, v ? Collective::Alltoallv : Collective::Alltoall, comm, call, out));
  PreparedCollective& p = *out;
  const bool inplace = in_place(sendbuf);
  mpi::DatatypePtr st, rt;
  MPISIM_TRY(resolve_type(runtime, comm, recvtype, call, rt));
  if (inplace) { // the input is the receive buffer, read before anything is written
    st = rt;
    sendbuf = recvbuf;
    sendcount = recvcount;
    sendcounts = recvcounts;
    sdispls = rdispls;
  } else {
    MPISIM_TRY(resolve_type(runtime, comm, sendtype, call, st));
  }
  if (v) {
    const std::byte* input = p.input_v(sendbuf, sendcounts, sdispls, *st, p.call.send_counts, p.call.send_displs);
    if (inplace) {
      double extent = 0;
      for (size_t i = 0; i < p.call.send_displs.size(); ++i)
        extent = std::max(extent, p.call.send_displs[i] + p.call.send_counts[i]);
      input = p.copy_of(input, static_cast<size_t>(extent), *mpi::Datatype::predefined(mpi::Element::Byte));
    }
    p.call.send_data = input;
    p.call.recv_data = p.output_v(recvbuf, recvcounts, rdispls, rt, false, p.call.recv_counts, p.call.recv_displs);
  } else {
    MPISIM_TRY(check_count(runtime, comm, sendcount, call));
    MPISIM_TRY(check_count(runtime, comm, recvcount, call));
    const size_t blocks = p.comm.size();
    p.call.bytes = static_cast<double>(st->packed_size(sendcount));
    p.call.recv_bytes = static_cast<double>(rt->packed_size(recvcount));
    p.call.send_data =
        inplace ? p.copy_of(sendbuf, sendcount * blocks, *st) : p.input(sendbuf, sendcount * blocks, *st);
    p.call.recv_data = p.output(recvbuf, recvcount * blocks, rt, false);
  }
  p.call.element_bytes = static_cast<double>(rt->size() ? rt->size() : 1);
  return MPI_SUCCESS;
}

int prepare_alltoallw(Runtime& runtime, const void* sendbuf, const int* sendcounts, const int* sdispls,
                      const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                      const MPI_Datatype* recvtypes, MPI_Comm comm, const char* call, PreparedOut& out)
{
  MPISIM_TRY(start(runtime, Collective::Alltoallw, comm, call, out));
  PreparedCollective& p = *out;
  const int size = p.comm.size();
  std::vector<mpi::DatatypePtr> st(size), rt(size);
  for (int i = 0; i < size; ++i) {
    MPISIM_TRY(resolve_type(runtime, comm, recvtypes[i], call, rt[i]));
    MPISIM_TRY(check_count(runtime, comm, recvcounts[i], call));
  }
  if (in_place(sendbuf)) { // the input is the receive buffer, packed (read) before anything is written
    p.call.send_data = p.input_w(recvbuf, recvcounts, rdispls, rt, p.call.send_counts, p.call.send_displs);
  } else {
    for (int i = 0; i < size; ++i) {
      MPISIM_TRY(resolve_type(runtime, comm, sendtypes[i], call, st[i]));
      MPISIM_TRY(check_count(runtime, comm, sendcounts[i], call));
    }
    p.call.send_data = p.input_w(sendbuf, sendcounts, sdispls, st, p.call.send_counts, p.call.send_displs);
  }
  p.call.recv_data = p.output_w(recvbuf, recvcounts, rdispls, rt, p.call.recv_counts, p.call.recv_displs);
  p.call.element_bytes = 1; // blocks of different types: bytes are the only common unit
  return MPI_SUCCESS;
}

int prepare_reduce_scatter(Runtime& runtime, const void* sendbuf, void* recvbuf, const int* recvcounts,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm, const char* call, PreparedOut& out)
{
  MPISIM_TRY(start(runtime, Collective::ReduceScatter, comm, call, out));
  PreparedCollective& p = *out;
  mpi::DatatypePtr t;
  mpi::ReduceOpPtr o;
  MPISIM_TRY(resolve_type(runtime, comm, type, call, t));
  MPISIM_TRY(resolve_op(runtime, comm, op, call, o));
  MPISIM_TRY(check_op_defined(runtime, comm, *o, *t, call));
  p.reduce_with(t, o);
  size_t total = 0;
  for (int i = 0; i < p.comm.size(); ++i) {
    MPISIM_TRY(check_count(runtime, comm, recvcounts[i], call));
    p.call.recv_counts.push_back(static_cast<double>(t->packed_size(recvcounts[i])));
    total += recvcounts[i];
  }
  p.call.bytes = static_cast<double>(t->packed_size(total));
  p.call.send_data = in_place(sendbuf) ? p.copy_of(recvbuf, total, *t) : p.input(sendbuf, total, *t);
  p.call.recv_data = p.output(recvbuf, recvcounts[p.me], t, false);
  return MPI_SUCCESS;
}

} // namespace mpisim::online
