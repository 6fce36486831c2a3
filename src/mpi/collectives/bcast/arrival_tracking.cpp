// The arrival mechanism of SimGrid 3.32's arrival-pattern-aware bcasts (see arrival_tracking.hpp).
#include "mpi/collectives/bcast/arrival_tracking.hpp"

#include "mpi/Communicator.hpp"

#include <algorithm>

namespace mpisim::mpi::bcast {

Header make_header(const std::vector<int>& group)
{
  Header header(kHeaderInts, 0);
  std::copy(group.begin(), group.end(), header.begin());
  header[group.size()] = -1;
  return header;
}

int position_in(const Header& header, int rank)
{
  return static_cast<int>(std::find(header.begin(), header.end(), rank) - header.begin());
}

int group_size(const Header& header)
{
  return static_cast<int>(std::find(header.begin(), header.end(), -1) - header.begin());
}

ArrivalWatch::ArrivalWatch(const CollectiveContext& c)
    : c_(c), notes_(static_cast<size_t>(c.size)), arrived_(static_cast<size_t>(c.size), 0),
      served_(static_cast<size_t>(c.size), 0)
{
  for (int i = 1; i < c.size; ++i)
    notes_[static_cast<size_t>(i)] = c.rank.irecv(c.comm, i, c.tag, 1);
}

void ArrivalWatch::poll(int sweeps)
{
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (size_t i = 1; i < notes_.size(); ++i)
      if (not served_[i] && not arrived_[i] && c_.rank.test(*notes_[i]))
        arrived_[i] = 1;
}

void ArrivalWatch::wait_for_one()
{
  std::vector<RequestPtr> pending;
  std::vector<size_t> ranks;
  for (size_t i = 1; i < notes_.size(); ++i)
    if (not served_[i] && not arrived_[i]) {
      pending.push_back(notes_[i]);
      ranks.push_back(i);
    }
  if (pending.empty())
    return;
  arrived_[ranks[c_.rank.waitany(pending)]] = 1;
}

std::vector<int> ArrivalWatch::take_arrived()
{
  std::vector<int> group;
  for (size_t i = 1; i < notes_.size(); ++i)
    if (arrived_[i] && not served_[i]) {
      served_[i] = 1;
      ++served_count_;
      group.push_back(static_cast<int>(i));
    }
  return group;
}

int ArrivalWatch::take_first_unserved()
{
  for (size_t i = 1; i < notes_.size(); ++i)
    if (not served_[i]) {
      served_[i] = 1;
      ++served_count_;
      return static_cast<int>(i);
    }
  return -1;
}

void ArrivalWatch::finish()
{
  for (size_t i = 1; i < notes_.size(); ++i)
    if (not arrived_[i])
      c_.rank.wait(*notes_[i]);
}

HeaderReceived arrive_and_get_header(const CollectiveContext& c, int header_source)
{
  c.rank.send(c.comm, 0, c.tag, 1);
  HeaderReceived got{Header(kHeaderInts, 0), header_source};
  const Status status = c.rank.recv(c.comm, header_source, c.tag, kHeaderBytes, got.header.data());
  got.source = status.source;
  return got;
}

} // namespace mpisim::mpi::bcast
