#include "models/TransmissionIntervals.hpp"

#include <algorithm>

namespace mpisim::models {

Transmission TransmissionIntervals::insert(double wanted_start, double duration)
{
  const auto live = busy_.begin() + static_cast<std::ptrdiff_t>(head_);
  // First busy interval ending after the wanted start: the earlier ones cannot be met.
  auto next = std::upper_bound(live, busy_.end(), wanted_start,
                               [](double date, const Interval& interval) { return date < interval.end; });
  double at = wanted_start;
  if (next != busy_.end() && next->start <= at)
    at = (next++)->end;
  if (duration <= 0)
    return {at, at};
  std::vector<Interval> fragments;
  double left = duration;
  while (left > 0) {
    const double room = next == busy_.end() ? left : std::min(left, next->start - at);
    if (room > 0) {
      fragments.push_back({at, at + room});
      left -= room;
    }
    if (left > 0)
      at = (next++)->end;
  }
  const double last_byte = fragments.back().end;
  // Store the fragments, merged with the busy intervals they touch.
  for (const Interval& fragment : fragments) {
    auto place = std::lower_bound(busy_.begin() + static_cast<std::ptrdiff_t>(head_), busy_.end(), fragment.start,
                                  [](const Interval& interval, double date) { return interval.start < date; });
    Interval merged = fragment;
    if (place != busy_.begin() + static_cast<std::ptrdiff_t>(head_) && std::prev(place)->end >= merged.start) {
      --place;
      merged.start = place->start;
      place = busy_.erase(place);
    }
    if (place != busy_.end() && place->start <= merged.end) {
      merged.end = place->end;
      place = busy_.erase(place);
    }
    busy_.insert(place, merged);
  }
  return {last_byte - duration, last_byte};
}

void TransmissionIntervals::prune(double passed)
{
  while (head_ < busy_.size() && busy_[head_].end <= passed)
    ++head_;
  // Reclaim the dropped prefix once it is the larger part.
  if (head_ > 64 && head_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

} // namespace mpisim::models
