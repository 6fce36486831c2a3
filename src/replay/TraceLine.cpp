#include "replay/TraceLine.hpp"

#include "common/Errors.hpp"

#include <cctype>

namespace mpisim::replay {

bool split_line(std::string_view line, std::vector<std::string_view>& tokens)
{
  tokens.clear();
  line = trim(line);
  if (line.empty() || line.front() == '#')
    return false;
  size_t position = 0;
  while (position < line.size()) {
    size_t start = position;
    while (position < line.size() && not is_blank(line[position]))
      ++position;
    tokens.push_back(line.substr(start, position - start));
    while (position < line.size() && is_blank(line[position]))
      ++position;
  }
  return true;
}

std::vector<std::string_view>& scratch_tokens()
{
  static thread_local std::vector<std::string_view> tokens;
  return tokens;
}

std::string in_quotes(std::string_view text)
{
  return "'" + std::string(text) + "'";
}

int parse_rank_field(std::string_view token, const LineSite& site)
{
  int rank;
  if (not parse_int(token, rank) || rank < 0)
    throw InputError(site.file, site.line, "rank field " + in_quotes(token) + " is not a rank number");
  return rank;
}

bool is_action_line(std::span<const std::string_view> tokens)
{
  int rank;
  return tokens.size() >= 2 && parse_int(tokens[0], rank) && std::isalpha(static_cast<unsigned char>(tokens[1][0]));
}

} // namespace mpisim::replay
