#include "platform/PlatformBuilder.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"
#include "platform/PlatformSize.hpp"

namespace mpisim::platform {

namespace {

std::string kind_name(PointKind kind)
{
  switch (kind) {
  case PointKind::Host: return "host";
  case PointKind::Router: return "router";
  case PointKind::Zone: return "zone";
  }
  return "point";
}

} // namespace

PlatformBuilder::PlatformBuilder() : platform_(std::make_unique<Platform>()), element_limit_(platform_element_limit())
{
  platform_->zones_ = std::make_unique<ZoneTree>();
  tree_ = platform_->zones_.get();
}

PlatformBuilder::~PlatformBuilder() = default;

void PlatformBuilder::set_source(const std::string& path)
{
  platform_->source_ = path;
}

void PlatformBuilder::warn_at(long line, const std::string& message)
{
  if (platform_->source_.empty())
    warn(message);
  else
    warn(platform_->source_ + ":" + std::to_string(line) + ": " + message);
}

// What no check before building could foresee (a file of many elements, a topology whose links are not estimated)
// still stops at the memory available, rather than when the process is killed.
void PlatformBuilder::count_element()
{
  if (++elements_ <= element_limit_)
    return;
  throw InputError("", 0,
                   "the platform has more than " + std::to_string(element_limit_) +
                       " hosts, routers, zones and links, more than the memory available holds (about " +
                       std::to_string(kBytesPerPlatformElement) + " bytes each)");
}

PointId PlatformBuilder::add_point(const std::string& name, PointKind kind, Zone* zone)
{
  count_element();
  if (name.empty())
    throw InputError("", 0, "empty " + kind_name(kind) + " name");
  if (auto existing = tree_->find_point(name))
    throw InputError("", 0,
                     "duplicate name '" + name + "': a " + kind_name(tree_->point(*existing).kind) + " already has it");
  NetPoint point;
  point.name = name;
  point.kind = kind;
  point.englobing = zone;
  PointId id = tree_->add_point(std::move(point));
  if (zone != nullptr)
    tree_->mutable_point(id).member = zone->add_member(id, kind);
  return id;
}

Zone& PlatformBuilder::add_zone(Zone* parent, std::unique_ptr<Zone> zone, long line)
{
  if (parent == nullptr && tree_->root() != nullptr)
    throw InputError("", 0,
                     "a platform has a single top-level zone or cluster: '" + zone->name() + "' comes after '" +
                         tree_->root()->name() + "' (wrap both in a <zone>)");
  PointId id = add_point(zone->name(), PointKind::Zone, parent);
  zone->attach(parent, id);
  zone->set_line(line);
  Zone* added = zone.get();
  tree_->mutable_point(id).zone = added;
  if (parent == nullptr)
    tree_->set_root(std::move(zone));
  else
    parent->add_child(std::move(zone));
  return *added;
}

HostId PlatformBuilder::add_host(Zone& zone, HostSpec host)
{
  if (host.speed <= 0)
    throw InputError("", 0, "host '" + host.name + "' needs a positive speed");
  if (host.cores < 1)
    throw InputError("", 0, "host '" + host.name + "' needs at least one core, not " + std::to_string(host.cores));
  PointId point = add_point(host.name, PointKind::Host, &zone);
  auto id = static_cast<HostId>(platform_->hosts_.size());
  tree_->mutable_point(point).host = id;
  tree_->set_host_point(id, point);
  platform_->hosts_.push_back(std::move(host));
  Platform& platform = *platform_;
  platform.host_names_.add(id, platform.hosts_.back().name,
                           [&platform](uint32_t id) { return platform.host_name(id); });
  return id;
}

PointId PlatformBuilder::add_router(Zone& zone, const std::string& name)
{
  return add_point(name, PointKind::Router, &zone);
}

LinkId PlatformBuilder::add_link(LinkSpec link)
{
  count_element();
  if (link.name.empty())
    throw InputError("", 0, "empty link name");
  if (platform_->find_link(link.name))
    throw InputError("", 0, "duplicate link '" + link.name + "'");
  if (!(link.bandwidth > 0))
    throw InputError("", 0, "link '" + link.name + "' needs a positive bandwidth");
  auto id = static_cast<LinkId>(platform_->links_.size());
  platform_->links_.push_back(std::move(link));
  Platform& platform = *platform_;
  platform.link_names_.add(id, platform.links_.back().name,
                           [&platform](uint32_t id) { return platform.link_name(id); });
  return id;
}

std::pair<LinkId, LinkId> PlatformBuilder::add_split_duplex_link(const std::string& name, double bandwidth,
                                                                 double latency)
{
  if (find_split_duplex_link(name))
    throw InputError("", 0, "duplicate link '" + name + "'");
  LinkId up = add_link({name + "_UP", bandwidth, latency, LinkSharing::Shared});
  LinkId down = add_link({name + "_DOWN", bandwidth, latency, LinkSharing::Shared});
  const auto index = static_cast<uint32_t>(split_duplex_links_.size());
  split_duplex_links_.emplace_back(up, down);
  split_duplex_names_.add(index, name, [this](uint32_t i) { return split_duplex_name(i); });
  return {up, down};
}

std::string_view PlatformBuilder::split_duplex_name(uint32_t index) const
{
  const std::string_view up = platform_->link_name(split_duplex_links_[index].first);
  return up.substr(0, up.size() - 3); // without "_UP"
}

std::optional<LinkId> PlatformBuilder::find_link(std::string_view name) const
{
  return platform_->find_link(name);
}

std::optional<std::pair<LinkId, LinkId>> PlatformBuilder::find_split_duplex_link(std::string_view name) const
{
  const auto found = split_duplex_names_.find(name, [this](uint32_t i) { return split_duplex_name(i); });
  if (not found)
    return std::nullopt;
  return split_duplex_links_[*found];
}

LinkId PlatformBuilder::global_loopback()
{
  if (global_loopback_)
    return *global_loopback_;
  const auto& config = platform_->config_;
  double bandwidth = 10e9;
  double latency = 0;
  try {
    if (auto bw = config.find("network/loopback-bw"); bw != config.end())
      bandwidth = units::parse_bandwidth(bw->second);
    if (auto lat = config.find("network/loopback-lat"); lat != config.end())
      latency = units::parse_time(lat->second);
  } catch (const InputError& error) {
    throw InputError("", 0, "configuration of the loopback link: " + error.message());
  }
  global_loopback_ = add_link({"__loopback__", bandwidth, latency, LinkSharing::Fatpipe});
  return *global_loopback_;
}

bool PlatformBuilder::add_config(const std::string& key, const std::string& value)
{
  return platform_->config_.try_emplace(key, value).second;
}

void PlatformBuilder::seal(Zone& zone)
{
  zone.seal(*this);
  for (const auto& child : zone.children())
    seal(*child);
}

size_t PlatformBuilder::check_routes(const Zone& zone)
{
  std::vector<bool> needed(zone.members().size(), false);
  size_t hosts = 0;
  for (size_t i = 0; i < zone.members().size(); i++) {
    const NetPoint& member = tree_->point(zone.members()[i]);
    size_t inside = 0;
    if (member.kind == PointKind::Host)
      inside = 1;
    else if (member.kind == PointKind::Zone)
      inside = check_routes(*member.zone);
    needed[i] = inside > 0;
    hosts += inside;
  }
  if (auto missing = zone.find_missing_route(needed)) {
    warn_at(zone.line(), "zone '" + zone.name() + "' (routing " + zone.routing() + ") has no route from '" +
                             tree_->point(zone.members()[missing->first]).name + "' to '" +
                             tree_->point(zone.members()[missing->second]).name +
                             "' (and maybe others): asking for one will fail");
  }
  return hosts;
}

std::unique_ptr<Platform> PlatformBuilder::finish()
{
  if (tree_->root() == nullptr)
    throw InputError("", 0, "the platform declares no zone and no cluster");
  seal(*tree_->root());
  check_routes(*tree_->root());
  return std::move(platform_);
}

} // namespace mpisim::platform
