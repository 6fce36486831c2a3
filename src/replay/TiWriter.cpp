#include "replay/TiWriter.hpp"

#include "common/Errors.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mpisim::replay {

namespace {

// Integral counts are written as integers, other amounts (flops, seconds) in the shortest form that reads back.
std::string number(double value)
{
  char text[64];
  if (value == std::floor(value) && std::fabs(value) < 1e17) { // SimGrid reads v-collective counts with stoi
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  std::snprintf(text, sizeof text, "%.17g", value);
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::stod(text) == value)
      break;
  }
  return text;
}

std::string counts(const std::vector<double>& values)
{
  std::string text;
  for (double v : values)
    text += " " + number(v);
  return text;
}

// One action as a TI line (without the rank field), or empty for those TI has no line for.
std::string ti_line(const TraceAction& a)
{
  std::string name(action_name(a.kind));
  const mpi::CollectiveCall* call = a.details ? &a.details->call : nullptr;
  switch (a.kind) {
  case ActionKind::Compute:
  case ActionKind::Sleep: return name + " " + number(a.amount);
  case ActionKind::Send:
  case ActionKind::Isend:
    return name + " " + std::to_string(a.dst) + " " + std::to_string(a.tag) + " " + number(a.amount);
  case ActionKind::Recv:
  case ActionKind::Irecv:
    return name + " " + std::to_string(a.src) + " " + std::to_string(a.tag) + " " + number(a.amount);
  case ActionKind::Wait:
  case ActionKind::Test:
    return name + " " + std::to_string(a.src) + " " + std::to_string(a.dst) + " " + std::to_string(a.tag);
  case ActionKind::SendRecv:
    return name + " " + number(a.amount) + " " + std::to_string(a.dst) + " " + number(a.amount2) + " " +
           std::to_string(a.src);
  case ActionKind::WaitAll:
  case ActionKind::Barrier:
  case ActionKind::Finalize: return name;
  case ActionKind::Bcast: return name + " " + number(a.amount) + " " + std::to_string(a.root);
  case ActionKind::Reduce:
    return name + " " + number(a.amount) + " " + number(a.amount2) + " " + std::to_string(a.root);
  case ActionKind::AllReduce:
  case ActionKind::Scan:
  case ActionKind::Exscan: return name + " " + number(a.amount) + " " + number(a.amount2);
  case ActionKind::AllToAll:
  case ActionKind::AllGather: return name + " " + number(a.amount) + " " + number(a.amount2);
  case ActionKind::Gather:
  case ActionKind::Scatter:
    return name + " " + number(a.amount) + " " + number(a.amount2) + " " + std::to_string(a.root);
  case ActionKind::GatherV:
    return name + " " + number(a.amount) + counts(call->recv_counts) + " " + std::to_string(a.root);
  case ActionKind::ScatterV:
    return name + counts(call->send_counts) + " " + number(a.amount2) + " " + std::to_string(a.root);
  case ActionKind::AllGatherV: return name + " " + number(a.amount) + counts(call->recv_counts);
  case ActionKind::AllToAllV:
    return name + " " + number(a.amount) + counts(call->send_counts) + " " + number(a.amount2) +
           counts(call->recv_counts);
  case ActionKind::ReduceScatter: return name + counts(call->recv_counts) + " " + number(call->reduce_flops);
  case ActionKind::FileOpen: return name + " " + a.details->file + (a.tag == 1 ? " self" : " world");
  case ActionKind::FileClose:
  case ActionKind::FileSync: return name + " " + a.details->file;
  case ActionKind::FileSeek:
  case ActionKind::FileSeekShared:
  case ActionKind::FileSetSize:
  case ActionKind::FileWait:
  case ActionKind::FileReadShared:
  case ActionKind::FileWriteShared:
  case ActionKind::FileReadOrdered:
  case ActionKind::FileWriteOrdered:
  case ActionKind::FileIReadShared:
  case ActionKind::FileIWriteShared:
  case ActionKind::FileIReadOrdered:
  case ActionKind::FileIWriteOrdered:
  case ActionKind::FileRead:
  case ActionKind::FileWrite:
  case ActionKind::FileReadAll:
  case ActionKind::FileWriteAll: return name + " " + a.details->file + " " + number(a.amount);
  case ActionKind::FileReadAt:
  case ActionKind::FileWriteAt:
  case ActionKind::FileReadAtAll:
  case ActionKind::FileWriteAtAll:
  case ActionKind::FileIReadAt:
  case ActionKind::FileIWriteAt:
  case ActionKind::FileIReadAtAll:
  case ActionKind::FileIWriteAtAll:
    return name + " " + a.details->file + " " + number(a.amount2) + " " + number(a.amount);
  default: return {}; // init (written first), comm_*, location: nothing to replay
  }
}

} // namespace

uint64_t convert_to_ti(const std::string& trace, const std::string& directory, const TraceFormatOptions& options)
{
  TraceSet traces = open_trace(trace, -1, options);
  if (not traces.communicators().empty())
    throw InputError(traces.trace_file(0) + ": collectives on " + std::to_string(traces.communicators().size()) +
                     " communicator(s) other than MPI_COMM_WORLD, which SimGrid's time-independent format cannot "
                     "express: replay the trace itself");
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    throw InputError(directory + ": cannot create the folder (" + error.message() + ")");
  const auto path_of = [&](const std::string& name) { return (std::filesystem::path(directory) / name).string(); };
  std::ofstream index(path_of("index.txt"));
  uint64_t written = 0;
  for (int rank = 0; rank < traces.size(); ++rank) {
    const std::string file = "rank" + std::to_string(rank) + ".txt";
    index << file << '\n';
    std::ofstream out(path_of(file));
    out << rank << " init\n";
    RankStream stream = traces.stream(rank);
    TraceAction action;
    while (stream.next(action)) {
      const std::string line = ti_line(action);
      if (line.empty())
        continue;
      out << rank << ' ' << line << '\n';
      ++written;
    }
    if (not out.flush())
      throw InputError(path_of(file) + ": cannot be written");
  }
  if (not index.flush())
    throw InputError(path_of("index.txt") + ": cannot be written");
  return written;
}

} // namespace mpisim::replay
