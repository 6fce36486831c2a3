#include "replay/ActionSizes.hpp"

#include <stdexcept>
#include <vector>

namespace mpisim::replay {

namespace {

double bytes_of(double count, int datatype)
{
  return count * static_cast<double>(datatype_size(datatype));
}

void scale_to_bytes(std::vector<double>& counts, int datatype)
{
  const double size = static_cast<double>(datatype_size(datatype));
  for (double& count : counts)
    count *= size;
}

// Which of amount / amount2 hold element counts of datatype1 / datatype2 (the others are flops, seconds, lines).
enum class Counted { None, First, Both };

Counted counted_amounts(ActionKind kind)
{
  switch (kind) {
  case ActionKind::Send:
  case ActionKind::Isend:
  case ActionKind::Recv:
  case ActionKind::Irecv:
  case ActionKind::Bcast:
  case ActionKind::Reduce:
  case ActionKind::AllReduce:
  case ActionKind::Scan:
  case ActionKind::Exscan:
  case ActionKind::ReduceScatter: return Counted::First;
  case ActionKind::SendRecv:
  case ActionKind::AllToAll:
  case ActionKind::AllToAllV:
  case ActionKind::Gather:
  case ActionKind::GatherV:
  case ActionKind::Scatter:
  case ActionKind::ScatterV:
  case ActionKind::AllGather:
  case ActionKind::AllGatherV: return Counted::Both;
  default: return Counted::None;
  }
}

bool is_receive(ActionKind kind)
{
  return kind == ActionKind::Recv || kind == ActionKind::Irecv;
}

// The type whose elements the call counts, as the online front end sets it: the receive type of the calls that have
// one, else the only one. Algorithms and selectors decide on element counts (SimGrid: allreduce lr's remainder,
// MPICH's allgatherv thresholds), so with MPI_DOUBLE traces bytes are not counts.
int element_type(const TraceAction& a)
{
  switch (a.kind) {
  case ActionKind::AllToAll:
  case ActionKind::AllToAllV:
  case ActionKind::Gather:
  case ActionKind::GatherV:
  case ActionKind::Scatter:
  case ActionKind::ScatterV:
  case ActionKind::AllGather:
  case ActionKind::AllGatherV: return a.datatype2;
  default: return a.datatype1;
  }
}

// The call of a collective whose amounts are already bytes; the v-collectives' arrays still hold element counts.
// Fields a collective does not use stay at the call's defaults.
void fill_call(const TraceAction& a, mpi::CollectiveCall& call)
{
  call.op = collective_of(a.kind);
  call.root = a.root;
  switch (a.kind) {
  case ActionKind::Barrier: break;
  case ActionKind::Bcast: call.bytes = a.amount; break;
  case ActionKind::Reduce:
  case ActionKind::AllReduce:
  case ActionKind::Scan:
  case ActionKind::Exscan:
    call.bytes = a.amount;
    call.reduce_flops = a.amount2;
    break;
  case ActionKind::AllToAll:
  case ActionKind::Gather:
  case ActionKind::Scatter:
  case ActionKind::AllGather:
    call.bytes = a.amount;
    call.recv_bytes = a.amount2;
    break;
  case ActionKind::GatherV:
  case ActionKind::AllGatherV:
    call.bytes = a.amount;
    scale_to_bytes(call.recv_counts, a.datatype2);
    // SimGrid's replay passes the trace's displacements, or zeros when it gives none (allgatherv "GB" broadcasts
    // up to the largest displacement + count).
    if (a.kind == ActionKind::AllGatherV) {
      if (call.recv_displs.empty())
        call.recv_displs.assign(call.recv_counts.size(), 0.0);
      else
        scale_to_bytes(call.recv_displs, a.datatype2);
    }
    break;
  case ActionKind::ScatterV:
    scale_to_bytes(call.send_counts, a.datatype1);
    call.recv_bytes = a.amount2;
    break;
  case ActionKind::AllToAllV:
    scale_to_bytes(call.send_counts, a.datatype1);
    scale_to_bytes(call.recv_counts, a.datatype2);
    break;
  case ActionKind::ReduceScatter:
    scale_to_bytes(call.recv_counts, a.datatype1);
    call.reduce_flops = a.amount2;
    break;
  default: throw std::logic_error("size_action: " + std::string(action_name(a.kind)) + " is not a collective");
  }
  call.element_bytes = static_cast<double>(datatype_size(element_type(a)));
}

} // namespace

mpi::Collective collective_of(ActionKind kind)
{
  switch (kind) {
  case ActionKind::Barrier: return mpi::Collective::Barrier;
  case ActionKind::Bcast: return mpi::Collective::Bcast;
  case ActionKind::Reduce: return mpi::Collective::Reduce;
  case ActionKind::AllReduce: return mpi::Collective::Allreduce;
  case ActionKind::AllToAll: return mpi::Collective::Alltoall;
  case ActionKind::AllToAllV: return mpi::Collective::Alltoallv;
  case ActionKind::Gather: return mpi::Collective::Gather;
  case ActionKind::GatherV: return mpi::Collective::Gatherv;
  case ActionKind::Scatter: return mpi::Collective::Scatter;
  case ActionKind::ScatterV: return mpi::Collective::Scatterv;
  case ActionKind::AllGather: return mpi::Collective::Allgather;
  case ActionKind::AllGatherV: return mpi::Collective::Allgatherv;
  case ActionKind::ReduceScatter: return mpi::Collective::ReduceScatter;
  case ActionKind::Scan: return mpi::Collective::Scan;
  case ActionKind::Exscan: return mpi::Collective::Exscan;
  default: throw std::logic_error("collective_of: " + std::string(action_name(kind)) + " is not a collective");
  }
}

void size_action(TraceAction& action)
{
  const Counted counted = counted_amounts(action.kind);
  if (counted != Counted::None && not(is_receive(action.kind) && action.amount < 0))
    action.amount = bytes_of(action.amount, action.datatype1);
  if (counted == Counted::Both)
    action.amount2 = bytes_of(action.amount2, action.datatype2);
  if (is_collective(action.kind))
    fill_call(action, action.details->call);
}

} // namespace mpisim::replay
