// `hierarchy:` platforms: a hierarchy of networks, top level first, as the xSim paper configures its simulated
// systems (Engelmann et al., xSim network modeling, Sec. 3.2 and 5.2), written as an ordinary SimGrid platform so
// that every model runs on it:
//
//   hierarchy:16x2x4,lat=48us/1us/1us,bw=944.146Mbps/12487.8Mbps/12487.8Mbps,rdv=8kB/4kB/4kB,
//             contention=no/yes/yes,capacity=-/-/12487.8Mbps[,speed=1Gf]
//
// Level k has count_k members; the members of the lowest level are hosts (one core each), numbered in order. Each
// level's zone carries its values as properties (xsim/lat, xsim/bw, xsim/rdv, xsim/contention, xsim/capacity),
// which the xsim model reads. For the flow models, its links approximate the same numbers: each host has a
// split-duplex link of bw_last and lat_last / 2; each member of a higher level k has an up link of bw_k and
// (lat_k - lat_last) / 2, crossed on the way out of and into it; a level with a capacity gets a shared bus of that
// bandwidth on every route inside it. A sub-zone is entered and left through the router of its first leaf zone.
// The result is SimGrid XML (v4.1) loaded by the XML loader: platforms/xsim-16node.xml is this text for the paper's
// cluster. docs/platforms.md describes the mapping.
#include "platform/HierarchySpec.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"
#include "platform/PlatformSize.hpp"

#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace mpisim::platform {
namespace {

struct Level {
  size_t count = 0;
  double latency = 0;   // s
  double bandwidth = 0; // B/s
  std::string latency_text, bandwidth_text, rendezvous_text, capacity_text;
  bool contention = false;
};

std::vector<std::string> split(std::string_view text, char separator)
{
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos)
      return parts;
    start = end + 1;
  }
}

std::string number(double value)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

class HierarchyReader {
public:
  explicit HierarchyReader(std::string_view spec) : spec_(spec) {}

  std::string xml()
  {
    read();
    std::ostringstream out;
    out << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        << "<!-- " << spec_ << " -->\n<platform version=\"4.1\">\n";
    zone(out, 0, "hierarchy", "");
    out << "</platform>\n";
    return out.str();
  }

private:
  [[noreturn]] void fail(const std::string& message) const
  {
    throw InputError("", 0, "platform spec '" + std::string(spec_) + "': " + message);
  }

  void read()
  {
    const std::string_view body = spec_.substr(spec_.find(':') + 1);
    std::vector<std::string> items = split(body, ',');
    for (const std::string& text : split(items.front(), 'x'))
      levels_.push_back(Level{positive_count(text)});
    std::map<std::string, std::string> options;
    for (size_t i = 1; i < items.size(); ++i) {
      const size_t equal = items[i].find('=');
      if (equal == std::string::npos || equal == 0)
        fail("option '" + items[i] + "' is not key=value");
      if (not options.try_emplace(items[i].substr(0, equal), items[i].substr(equal + 1)).second)
        fail("option '" + items[i].substr(0, equal) + "' is given twice");
    }
    static const std::set<std::string> known = {"lat", "bw", "rdv", "contention", "capacity", "speed"};
    for (const auto& [key, value] : options)
      if (not known.count(key))
        fail("unknown option '" + key + "' (known: lat, bw, rdv, contention, capacity, speed)");
    for (const char* required : {"lat", "bw"})
      if (not options.count(required))
        fail(std::string("option ") + required + " is missing (one value per level, top level first)");
    auto per_level = [&](const std::string& key, const std::string& fallback) {
      auto found = options.find(key);
      std::vector<std::string> values = split(found == options.end() ? fallback : found->second, '/');
      if (values.size() == 1)
        values.resize(levels_.size(), values.front());
      if (values.size() != levels_.size())
        fail("option " + key + " has " + std::to_string(values.size()) + " values for " +
             std::to_string(levels_.size()) + " levels (one per level, top level first, separated by '/')");
      return values;
    };
    const auto latencies = per_level("lat", "");
    const auto bandwidths = per_level("bw", "");
    const auto rendezvous = per_level("rdv", "65536B");
    const auto contention = per_level("contention", "no");
    const auto capacity = per_level("capacity", "-");
    for (size_t k = 0; k < levels_.size(); ++k) {
      Level& level = levels_[k];
      const std::string which = " of level " + std::to_string(k);
      level.latency_text = latencies[k];
      level.latency = quantity("lat" + which, latencies[k], units::parse_time);
      level.bandwidth_text = bandwidths[k];
      level.bandwidth = quantity("bw" + which, bandwidths[k], units::parse_bandwidth);
      if (level.bandwidth <= 0)
        fail("bw" + which + " is '" + bandwidths[k] + "': a bandwidth must be > 0");
      level.rendezvous_text = rendezvous[k];
      quantity("rdv" + which, rendezvous[k], units::parse_size);
      if (contention[k] != "yes" && contention[k] != "no")
        fail("contention" + which + " is '" + contention[k] + "' (expected yes or no)");
      level.contention = contention[k] == "yes";
      if (level.contention && k == 0)
        fail("contention of level 0 is yes, but the top level has no level above whose access its members share");
      level.capacity_text = capacity[k];
      if (capacity[k] != "-") {
        const double total = quantity("capacity" + which, capacity[k], units::parse_bandwidth);
        if (total < level.bandwidth)
          fail("capacity" + which + " (" + capacity[k] + ") is below its point-to-point bandwidth (" + bandwidths[k] +
               "): one message alone would exceed the network's total");
      }
    }
    speed_ = options.count("speed") ? options["speed"] : "1Gf";
    quantity("speed", speed_, units::parse_speed);
    check_size();
  }

  // Hosts, and the routes and links the zones declare (each member pair and each member's own link).
  void check_size() const
  {
    uint64_t zones = 1;
    uint64_t elements = 0;
    for (const Level& level : levels_) {
      const uint64_t pairs = saturating_product(level.count, level.count);
      elements = saturating_sum(elements, saturating_product(zones, saturating_sum(pairs, 2 * level.count + 2)));
      zones = saturating_product(zones, level.count);
    }
    try {
      check_host_count(zones, "the shape", elements);
    } catch (const InputError& error) {
      fail(error.message());
    }
  }

  size_t positive_count(const std::string& text) const
  {
    size_t value = 0;
    auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || err != std::errc() || end != text.data() + text.size() || value == 0)
      fail("level count '" + text + "' is not a positive integer (the shape is counts separated by 'x', e.g. 16x2x4)");
    return value;
  }

  double quantity(const std::string& what, const std::string& text,
                  double (*parse)(std::string_view, const units::WarningHandler&)) const
  {
    bool unit_less = false;
    double value = 0;
    try {
      value = parse(text, [&](const std::string&) { unit_less = true; });
    } catch (const InputError& error) {
      fail(what + ": " + error.message());
    }
    if (unit_less)
      fail(what + ": '" + text + "' needs a unit");
    return value;
  }

  static std::string child_id(const std::string& parent, size_t index)
  {
    return parent == "hierarchy" ? "n" + std::to_string(index) : parent + "." + std::to_string(index);
  }
  // The router through which a zone is entered: its first leaf zone's.
  std::string gateway(std::string id, size_t level) const
  {
    for (; level + 1 < levels_.size(); ++level)
      id = child_id(id, 0);
    return id + "-gw";
  }

  void zone(std::ostringstream& out, size_t k, const std::string& id, const std::string& indent)
  {
    const Level& level = levels_[k];
    const std::string in = indent + "  ";
    out << indent << "<zone id=\"" << id << "\" routing=\"Full\">\n";
    out << in << "<prop id=\"xsim/lat\" value=\"" << level.latency_text << "\"/>\n"
        << in << "<prop id=\"xsim/bw\" value=\"" << level.bandwidth_text << "\"/>\n"
        << in << "<prop id=\"xsim/rdv\" value=\"" << level.rendezvous_text << "\"/>\n"
        << in << "<prop id=\"xsim/contention\" value=\"" << (level.contention ? "yes" : "no") << "\"/>\n";
    if (level.capacity_text != "-")
      out << in << "<prop id=\"xsim/capacity\" value=\"" << level.capacity_text << "\"/>\n";
    const bool leaf = k + 1 == levels_.size();
    std::vector<std::string> members;
    for (size_t i = 0; i < level.count; ++i)
      members.push_back(leaf ? "c" + child_id(id, i).substr(1) : child_id(id, i));
    if (not leaf)
      for (const std::string& member : members)
        zone(out, k + 1, member, in);
    const double link_latency = leaf ? level.latency / 2 : std::max(0.0, (level.latency - levels_.back().latency) / 2);
    for (const std::string& member : members) {
      if (leaf)
        out << in << "<host id=\"" << member << "\" speed=\"" << speed_ << "\"/>\n";
      out << in << "<link id=\"" << member << "-link\" bandwidth=\"" << number(level.bandwidth) << "Bps\" latency=\""
          << number(link_latency) << "s\" sharing_policy=\"SPLITDUPLEX\"/>\n";
    }
    const bool bus = level.capacity_text != "-";
    if (bus)
      out << in << "<link id=\"" << id << "-bus\" bandwidth=\"" << level.capacity_text << "\" latency=\"0s\"/>\n";
    if (leaf)
      out << in << "<router id=\"" << id << "-gw\"/>\n";
    auto links = [&](const std::string& from, const std::string& to) {
      std::string text = "<link_ctn id=\"" + from + "-link\" direction=\"UP\"/>";
      if (bus)
        text += "<link_ctn id=\"" + id + "-bus\"/>";
      return text + "<link_ctn id=\"" + to + "-link\" direction=\"DOWN\"/>";
    };
    for (size_t i = 0; i < members.size(); ++i) {
      for (size_t j = i + 1; j < members.size(); ++j) {
        if (leaf)
          out << in << "<route src=\"" << members[i] << "\" dst=\"" << members[j] << "\">"
              << links(members[i], members[j]) << "</route>\n";
        else
          out << in << "<zoneRoute src=\"" << members[i] << "\" dst=\"" << members[j] << "\" gw_src=\""
              << gateway(members[i], k + 1) << "\" gw_dst=\"" << gateway(members[j], k + 1) << "\">"
              << links(members[i], members[j]) << "</zoneRoute>\n";
      }
      if (leaf)
        out << in << "<route src=\"" << members[i] << "\" dst=\"" << id << "-gw\"><link_ctn id=\"" << members[i]
            << "-link\" direction=\"UP\"/></route>\n";
    }
    out << indent << "</zone>\n";
  }

  std::string_view spec_;
  std::vector<Level> levels_;
  std::string speed_;
};

} // namespace

std::string hierarchy_platform_xml(std::string_view spec)
{
  return HierarchyReader(spec).xml();
}

std::unique_ptr<Platform> generate_hierarchy(std::string_view spec)
{
  return load_platform_text("platform spec '" + std::string(spec) + "'", hierarchy_platform_xml(spec));
}

} // namespace mpisim::platform
