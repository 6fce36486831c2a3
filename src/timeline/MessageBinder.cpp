#include "timeline/MessageBinder.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace mpisim::timeline {

namespace {

enum class Role { Send, Receive, WaitAll, SendRecv, Local, Collective };

Role role_of(const char* operation)
{
  static constexpr struct {
    const char* name;
    Role role;
  } kRoles[] = {
      {"compute", Role::Local},   {"sleep", Role::Local},       {"send", Role::Send},         {"isend", Role::Send},
      {"recv", Role::Receive},    {"irecv", Role::Local},       {"wait", Role::Receive},      {"test", Role::Receive},
      {"waitall", Role::WaitAll}, {"sendRecv", Role::SendRecv}, {"sendrecv", Role::SendRecv},
  };
  for (const auto& entry : kRoles)
    if (std::strcmp(entry.name, operation) == 0)
      return entry.role;
  return Role::Collective;
}

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

} // namespace

void MessageBinder::grow(int rank)
{
  if (rank < static_cast<int>(last_end_.size()))
    return;
  const size_t size = static_cast<size_t>(rank) + 1;
  arrived_.resize(size);
  posted_inside_.resize(size);
  last_end_.resize(size, -std::numeric_limits<double>::infinity());
}

void MessageBinder::call(const mpi::CallRecord& call, std::vector<Flow>& started, std::vector<Flow>& ended)
{
  grow(call.rank);
  const Role role = role_of(call.operation);

  if (call.sent != 0) {
    start_exact(call, started);
  } else if ((role == Role::Send || role == Role::SendRecv) && call.peer >= 0) {
    const Key key{call.rank, call.peer, call.tag, call.communicator};
    Sends& sends = sends_[key];
    auto parked = std::find_if(sends.messages.begin(), sends.messages.end(),
                               [&](const Flow& f) { return f.start >= call.start && f.start <= call.end; });
    if (parked != sends.messages.end()) {
      Flow flow = *parked;
      sends.messages.erase(parked);
      flow.start = call.start;
      started.push_back(flow);
    } else {
      const uint64_t id = next_id_++;
      started.push_back(
          Flow{id, call.rank, call.peer, call.tag, call.communicator, call.bytes, call.start, kUnknown, false});
      sends.calls.push_back(SentCall{call.start, call.end, id});
    }
    if (sends.calls.empty() && sends.messages.empty())
      sends_.erase(key);
  }

  std::vector<Flow>& inside = posted_inside_[call.rank];
  if (not inside.empty()) {
    auto ready =
        std::stable_partition(inside.begin(), inside.end(), [&](const Flow& f) { return f.start <= call.end; });
    started.insert(started.end(), inside.begin(), ready);
    inside.erase(inside.begin(), ready);
  }

  last_end_[call.rank] = call.end;
  for (uint64_t message : call.received)
    end_exact(message, call.end, ended);
  if (internals_) {
    for (uint64_t message : call.collective_sent)
      start_inside(message, started);
    for (uint64_t message : call.collective_received)
      end_exact(message, call.end, ended);
  }
  if (not arrived_[call.rank].empty())
    claim(call, ended);
}

void MessageBinder::start_exact(const mpi::CallRecord& call, std::vector<Flow>& started)
{
  auto parked = exact_unsent_.find(call.sent);
  if (parked == exact_unsent_.end()) {
    started.push_back(Flow{call.sent - 1, call.rank, call.peer, call.tag, call.communicator, call.bytes, call.start,
                           kUnknown, false});
    exact_started_.insert(call.sent);
    return;
  }
  Flow flow = parked->second;
  exact_unsent_.erase(parked);
  flow.start = call.start;
  started.push_back(flow);
}

// A message sent inside a collective starts at its posting date, known once it has arrived.
void MessageBinder::start_inside(uint64_t message, std::vector<Flow>& started)
{
  auto parked = exact_unsent_.find(message);
  if (parked == exact_unsent_.end()) {
    inside_started_.insert(message);
    return;
  }
  started.push_back(parked->second);
  exact_unsent_.erase(parked);
}

void MessageBinder::end_exact(uint64_t message, double end, std::vector<Flow>& ended)
{
  auto arrived = exact_arrived_.find(message);
  if (arrived == exact_arrived_.end()) {
    exact_claimed_.emplace(message, end);
    return;
  }
  Flow flow = arrived->second.flow;
  exact_arrived_.erase(arrived);
  flow.end = end;
  ended.push_back(flow);
}

void MessageBinder::message_exact(const mpi::MessageRecord& message, std::vector<Flow>& started,
                                  std::vector<Flow>& ended)
{
  const bool inside = message.collective();
  Flow flow{
      message.id - 1, message.source, message.destination, message.tag, message.communicator, message.bytes, kUnknown,
      kUnknown,       inside};
  if ((inside ? inside_started_ : exact_started_).erase(message.id) == 0) {
    flow.start = message.posted; // point-to-point: replaced by the sending call's start when it is reported
    exact_unsent_.emplace(message.id, flow);
  } else if (inside) {
    flow.start = message.posted;
    started.push_back(flow);
  }
  auto claimed = exact_claimed_.find(message.id);
  if (claimed != exact_claimed_.end()) {
    flow.end = claimed->second;
    exact_claimed_.erase(claimed);
    ended.push_back(flow);
    return;
  }
  exact_arrived_.emplace(message.id, Arrived{flow, message.posted, message.arrived});
}

void MessageBinder::claim(const mpi::CallRecord& call, std::vector<Flow>& ended)
{
  const Role role = role_of(call.operation);
  std::deque<Arrived>& waiting = arrived_[call.rank];
  std::vector<size_t> taken;
  size_t single = waiting.size(); // recv, wait, test and sendRecv complete one message: the earliest posted
  for (size_t i = 0; i < waiting.size() && waiting[i].arrived <= call.end; ++i) {
    const Arrived& a = waiting[i];
    if (a.flow.collective) {
      if (role == Role::Collective)
        taken.push_back(i);
      continue;
    }
    bool candidate = false;
    switch (role) {
    case Role::WaitAll: taken.push_back(i); break;
    case Role::Receive:
      candidate = call.peer == a.flow.source && call.tag == a.flow.tag && call.communicator == a.flow.communicator;
      break;
    case Role::SendRecv: candidate = a.flow.tag == 0 && call.communicator == a.flow.communicator; break;
    default: break;
    }
    if (candidate && (single == waiting.size() || a.posted < waiting[single].posted))
      single = i;
  }
  if (single != waiting.size())
    taken.push_back(single);
  if (taken.empty())
    return;
  std::sort(taken.begin(), taken.end());
  for (size_t i : taken) {
    Flow flow = waiting[i].flow;
    flow.end = call.end;
    ended.push_back(flow);
  }
  for (auto i = taken.rbegin(); i != taken.rend(); ++i)
    waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(*i));
}

void MessageBinder::message(const mpi::MessageRecord& message, std::vector<Flow>& started, std::vector<Flow>& ended)
{
  const bool collective = message.collective();
  if (collective && not internals_)
    return;
  if (message.id != 0) {
    message_exact(message, started, ended);
    return;
  }
  grow(std::max(message.source, message.destination));
  Flow flow{0,        message.source, message.destination, message.tag, message.communicator, message.bytes,
            kUnknown, kUnknown,       collective};

  if (collective) {
    flow.id = message.id != 0 ? message.id - 1 : next_id_++;
    flow.start = message.posted;
    // The sending call is reported once it ends: if it has, the message starts inside the last reported one or
    // earlier; otherwise it waits for it.
    if (last_end_[message.source] >= message.posted)
      started.push_back(flow);
    else
      posted_inside_[message.source].push_back(flow);
  } else {
    const Key key{message.source, message.destination, message.tag, message.communicator};
    Sends& sends = sends_[key];
    auto call = std::find_if(sends.calls.begin(), sends.calls.end(),
                             [&](const SentCall& c) { return message.posted >= c.start && message.posted <= c.end; });
    if (call != sends.calls.end()) {
      flow.id = call->id;
      flow.start = call->start;
      sends.calls.erase(call);
    } else {
      flow.id = next_id_++;
      flow.start = message.posted; // replaced by the sending call's start when it is reported
      sends.messages.push_back(flow);
    }
    if (sends.calls.empty() && sends.messages.empty())
      sends_.erase(key);
  }
  arrived_[message.destination].push_back(Arrived{flow, message.posted, message.arrived});
}

void MessageBinder::finish(std::vector<Flow>& started, std::vector<Flow>& ended)
{
  std::vector<Flow> unsent;
  for (auto& [key, sends] : sends_)
    unsent.insert(unsent.end(), sends.messages.begin(), sends.messages.end());
  for (auto& inside : posted_inside_)
    unsent.insert(unsent.end(), inside.begin(), inside.end());
  for (auto& [id, flow] : exact_unsent_)
    unsent.push_back(flow);
  const auto by_id = [](const Flow& a, const Flow& b) { return a.id < b.id; };
  std::sort(unsent.begin(), unsent.end(), by_id);
  started.insert(started.end(), unsent.begin(), unsent.end());
  for (auto& waiting : arrived_)
    for (const Arrived& a : waiting) {
      Flow flow = a.flow;
      flow.end = a.arrived;
      ended.push_back(flow);
    }
  std::vector<Flow> unclaimed; // exact flows whose receive completed at the end of the trace: end at their arrival
  for (auto& [id, a] : exact_arrived_) {
    unclaimed.push_back(a.flow);
    unclaimed.back().end = a.arrived;
  }
  std::sort(unclaimed.begin(), unclaimed.end(), by_id);
  ended.insert(ended.end(), unclaimed.begin(), unclaimed.end());
  exact_started_.clear();
  inside_started_.clear();
  exact_unsent_.clear();
  exact_arrived_.clear();
  exact_claimed_.clear();
  sends_.clear();
  posted_inside_.clear();
  arrived_.clear();
}

} // namespace mpisim::timeline
