#include "online/runtime/CallReporter.hpp"

#include <cctype>
#include <cstring>

namespace mpisim::online {

namespace {

// Online names that the replay (and so the timeline tools) spells differently.
const char* replay_spelling(const std::string& name)
{
  static constexpr struct {
    const char* online;
    const char* replay;
  } kSpellings[] = {{"sendrecv", "sendRecv"}, {"reduce_scatter", "reducescatter"}};
  for (const auto& entry : kSpellings)
    if (name == entry.online)
      return entry.replay;
  return nullptr;
}

std::string lower_without_prefix(const char* function)
{
  std::string name = function;
  for (const char* prefix : {"PMPI_", "MPI_"})
    if (name.rfind(prefix, 0) == 0) {
      name.erase(0, std::strlen(prefix));
      break;
    }
  for (char& c : name)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

} // namespace

CallReporter::CallReporter(mpi::World& world) : world_(world), open_(static_cast<size_t>(world.size())) {}

const char* CallReporter::operation(const char* function)
{
  if (function == nullptr)
    return "mpi";
  auto [entry, added] = names_.try_emplace(function);
  if (added) {
    entry->second = lower_without_prefix(function);
    if (const char* spelled = replay_spelling(entry->second))
      entry->second = spelled;
  }
  return entry->second.c_str();
}

void CallReporter::begin(int rank, const char* function, double start)
{
  OpenCall& call = open_[static_cast<size_t>(rank)];
  call.record = mpi::CallRecord{rank, operation(function), start, start};
  call.messages.clear();
  world_.rank(rank).set_message_log(&call.messages);
}

void CallReporter::describe(int rank, const mpi::Communicator* comm, int peer, double bytes, int tag)
{
  mpi::CallRecord& record = open_[static_cast<size_t>(rank)].record;
  record.peer = comm != nullptr && peer >= 0 && peer < comm->peer_count() ? comm->peer_world_rank(peer) : -1;
  record.bytes = bytes;
  record.tag = tag;
  record.communicator = comm != nullptr ? comm->context() : 0;
}

void CallReporter::end(int rank, double end)
{
  OpenCall& call = open_[static_cast<size_t>(rank)];
  world_.rank(rank).set_message_log(nullptr);
  call.record.end = end;
  // One message per call is a point-to-point send (MPI_Startall of persistent sends may post several: the others
  // start at their posting dates).
  call.record.sent = call.messages.sent.empty() ? 0 : call.messages.sent.front();
  call.record.received = call.messages.received;
  call.record.collective_sent = call.messages.collective_sent;
  call.record.collective_received = call.messages.collective_received;
  world_.report(call.record);
}

void CallReporter::compute(int rank, double start, double end, double flops)
{
  mpi::CallRecord record{rank, "compute", start, end};
  record.flops = flops;
  world_.report(record);
}

} // namespace mpisim::online
