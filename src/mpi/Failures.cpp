#include "mpi/Failures.hpp"

#include "common/Units.hpp"

#include <cmath>
#include <cstdio>
#include <random>

namespace mpisim::mpi {

namespace {

std::string_view trimmed(std::string_view text)
{
  while (not text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (not text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return text;
}

FailureAt parse_item(std::string_view item, std::string_view option)
{
  const std::string shown(item);
  auto refuse = [&](const std::string& why) -> InputError {
    return InputError(std::string(option) + ": '" + shown + "': " + why);
  };
  const size_t at = item.find('@');
  if (at == std::string_view::npos)
    throw refuse("expected RANK@TIME, e.g. 3@1.5s");
  const std::string rank_text(trimmed(item.substr(0, at)));
  const std::string_view date_text = trimmed(item.substr(at + 1));
  if (rank_text.empty() || rank_text.find_first_not_of("0123456789") != std::string::npos || rank_text.size() > 9)
    throw refuse("the rank must be a non-negative integer");
  if (date_text.empty())
    throw refuse("no time after '@'");
  if (date_text.front() == '-')
    throw refuse("the time must not be negative");
  double date = 0;
  try {
    date = units::parse_time(date_text);
  } catch (const InputError& error) {
    throw refuse(error.message());
  }
  if (not std::isfinite(date) || date < 0)
    throw refuse("the time must be a finite, non-negative duration");
  return {std::stoi(rank_text), date};
}

// splitmix64: decorrelates the generators of neighbouring ranks seeded from one number.
uint64_t mix_seed(uint64_t seed, uint64_t rank)
{
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (rank + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// An exponential draw of mean `mean` from the generator's next 53 bits (std::exponential_distribution's values are
// not the same in every standard library; this is).
double exponential(std::mt19937_64& generator, double mean)
{
  const double u = static_cast<double>(generator() >> 11) * 0x1.0p-53; // [0, 1)
  return -mean * std::log1p(-u);
}

} // namespace

std::vector<FailureAt> parse_failure_list(std::string_view text, std::string_view option)
{
  std::vector<FailureAt> failures;
  if (trimmed(text).empty())
    throw InputError(std::string(option) + ": empty list (expected RANK@TIME[,RANK@TIME...])");
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    const std::string_view item =
        trimmed(text.substr(begin, comma == std::string_view::npos ? text.npos : comma - begin));
    if (item.empty())
      throw InputError(std::string(option) + ": empty item in '" + std::string(text) + "'");
    failures.push_back(parse_item(item, option));
    if (comma == std::string_view::npos)
      break;
    begin = comma + 1;
  }
  return failures;
}

std::vector<double> failure_dates(const FailureOptions& options, int ranks, double start)
{
  std::vector<double> dates(static_cast<size_t>(ranks), kernel::kNever);
  for (const FailureAt& failure : options.at) {
    if (failure.rank >= ranks)
      throw InputError("--fail: rank " + std::to_string(failure.rank) + " is out of range (the job has " +
                       std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s") + ")");
    if (failure.date >= start)
      dates[failure.rank] = std::min(dates[failure.rank], failure.date);
  }
  if (options.mtbf > 0) {
    for (int rank = 0; rank < ranks; ++rank) {
      std::mt19937_64 generator(mix_seed(options.seed, static_cast<uint64_t>(rank)));
      double date = exponential(generator, options.mtbf);
      while (date < start)
        date += exponential(generator, options.mtbf);
      dates[rank] = std::min(dates[rank], date);
    }
  }
  return dates;
}

ProcessFailure::ProcessFailure(FailureKind kind, int failed, double failed_at, int detector, double detected_at,
                               std::string comm_name, int context)
    : SimulationError(kind == FailureKind::Revoked
                          ? "rank " + std::to_string(detector) + " found " + comm_name + " revoked at simulated time " +
                                failure_date_text(detected_at) + " s"
                          : "rank " + std::to_string(failed) + " failed at simulated time " +
                                failure_date_text(failed_at) + " s; detected by rank " + std::to_string(detector) +
                                " at simulated time " + failure_date_text(detected_at) + " s, on " + comm_name),
      kind_(kind), failed_(failed), failed_at_(failed_at), detector_(detector), detected_at_(detected_at),
      comm_name_(std::move(comm_name)), context_(context)
{
}

std::string failure_date_text(double seconds)
{
  char text[64];
  std::snprintf(text, sizeof text, "%.9f", seconds);
  return text;
}

} // namespace mpisim::mpi
