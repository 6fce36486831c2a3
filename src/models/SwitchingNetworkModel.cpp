#include "models/SwitchingNetworkModel.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"

#include <algorithm>
#include <sstream>

namespace mpisim::models {

namespace {

const char* const kRuleForms = "size<SIZE=MODEL, LO<=size<HI=MODEL, size>=LO=MODEL (and the same with time: "
                               "time<1.5s=bxi)";

// One rule, "1s<=time<2s=bxi": the model after the last '=', then the condition.
SwitchRule parse_switch_rule(const std::string& rule)
{
  auto bad = [&rule]() { return InputError("--switch: '" + rule + "' is not " + kRuleForms); };
  const size_t equal = rule.rfind('=');
  if (equal == std::string::npos || equal + 1 == rule.size())
    throw bad();
  SwitchRule parsed;
  parsed.model = rule.substr(equal + 1);
  const std::string condition = rule.substr(0, equal);
  size_t key = condition.find("size");
  parsed.key = SwitchRule::Key::Size;
  if (key == std::string::npos) {
    key = condition.find("time");
    parsed.key = SwitchRule::Key::Time;
  }
  if (key == std::string::npos)
    throw bad();
  auto value = [&](std::string_view text) {
    if (text.empty())
      throw bad();
    return parsed.key == SwitchRule::Key::Size ? units::parse_size(text) : units::parse_time(text);
  };
  const std::string before = condition.substr(0, key);
  const std::string after = condition.substr(key + 4);
  if (not before.empty()) { // LO<=KEY<HI
    if (before.size() < 3 || before.substr(before.size() - 2) != "<=" || after.size() < 2 || after[0] != '<')
      throw bad();
    parsed.from = value(std::string_view(before).substr(0, before.size() - 2));
    parsed.below = value(std::string_view(after).substr(1));
  } else if (after.size() >= 2 && after[0] == '<' && after[1] != '=') { // KEY<HI
    parsed.below = value(std::string_view(after).substr(1));
  } else if (after.size() >= 3 && after.substr(0, 2) == ">=") { // KEY>=LO
    parsed.from = value(std::string_view(after).substr(2));
  } else {
    throw bad();
  }
  if (not(parsed.from < parsed.below))
    throw InputError("--switch: '" + rule + "' selects nothing (its lower bound is not below its upper bound)");
  return parsed;
}

} // namespace

std::vector<SwitchRule> parse_switch_rules(const std::string& text)
{
  std::vector<SwitchRule> rules;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ','))
    rules.push_back(parse_switch_rule(item));
  if (rules.empty())
    throw InputError("--switch: no rule given (" + std::string(kRuleForms) + ")");
  return rules;
}

SwitchingNetworkModel::SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first)
    : engine_(engine), factory_(std::move(factory))
{
  models_.push_back({first, factory_(first)});
  switches_.push_back({engine_.now(), 0});
}

SwitchingNetworkModel::SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first_name,
                                             std::unique_ptr<NetworkModel> first, double since,
                                             std::vector<LinkObserver*> observers,
                                             std::vector<NicObserver*> nic_observers)
    : engine_(engine), factory_(std::move(factory)), observers_(std::move(observers)),
      nic_observers_(std::move(nic_observers))
{
  models_.push_back({first_name, std::move(first)});
  switches_.push_back({since, 0});
}

NetworkModel* SwitchingNetworkModel::find(const std::string& name) const
{
  for (const Named& named : models_)
    if (named.name == name)
      return named.model.get();
  return nullptr;
}

std::optional<OverflowSettings> SwitchingNetworkModel::overflow_buffers() const
{
  for (const Named& named : models_)
    if (auto settings = named.model->overflow_buffers())
      return settings;
  return std::nullopt;
}

size_t SwitchingNetworkModel::prepare(const std::string& name)
{
  auto found = std::find_if(models_.begin(), models_.end(), [&](const Named& named) { return named.name == name; });
  if (found != models_.end())
    return static_cast<size_t>(found - models_.begin());
  models_.push_back({name, factory_(name)});
  for (LinkObserver* observer : observers_)
    models_.back().model->observe_links(*observer);
  for (NicObserver* observer : nic_observers_)
    models_.back().model->observe_nic(*observer);
  return models_.size() - 1;
}

void SwitchingNetworkModel::use(const std::string& name)
{
  const size_t index = prepare(name);
  if (index == current_)
    return;
  current_ = index;
  // Every rank switches at a phase boundary: several switches at one date are one.
  if (switches_.back().date == engine_.now())
    switches_.back().model = index;
  else
    switches_.push_back({engine_.now(), index});
}

size_t SwitchingNetworkModel::model_at(double date) const
{
  if (switches_.size() == 1)
    return switches_.front().model;
  auto after =
      std::upper_bound(switches_.begin(), switches_.end(), date, [](double d, const Switch& s) { return d < s.date; });
  return after == switches_.begin() ? switches_.front().model : std::prev(after)->model;
}

size_t SwitchingNetworkModel::model_for(double payload, double posted_at) const
{
  for (const Rule& rule : rules_) {
    const double value = rule.key == SwitchRule::Key::Size ? payload : posted_at;
    if (value >= rule.from && value < rule.below)
      return rule.model;
  }
  return model_at(posted_at);
}

// The phases (switches) cut by the time rules' bounds: each piece is under the first time rule holding it, else
// under its phase's model. Size rules depend on messages, not on time: they count for nothing here.
std::vector<std::pair<std::string, double>> SwitchingNetworkModel::time_under_each(double end) const
{
  std::vector<std::pair<std::string, double>> spent;
  for (const Named& named : models_)
    spent.emplace_back(named.name, 0.0);
  std::vector<double> cuts;
  for (const Switch& s : switches_)
    cuts.push_back(s.date);
  for (const Rule& rule : rules_)
    if (rule.key == SwitchRule::Key::Time)
      cuts.insert(cuts.end(), {rule.from, rule.below});
  const double start = switches_.front().date;
  cuts.push_back(end);
  std::sort(cuts.begin(), cuts.end());
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double from = std::max(cuts[i], start);
    const double until = std::min(cuts[i + 1], end);
    if (until > from)
      spent[model_for(-1, from)].second += until - from; // no size rule holds a negative size
  }
  return spent;
}

void SwitchingNetworkModel::observe_nic(NicObserver& observer)
{
  nic_observers_.push_back(&observer);
  for (const Named& named : models_)
    named.model->observe_nic(observer);
}

void SwitchingNetworkModel::observe_links(LinkObserver& observer)
{
  observers_.push_back(&observer);
  for (const Named& named : models_)
    named.model->observe_links(observer);
}

void SwitchingNetworkModel::add_rule(const SwitchRule& rule)
{
  rules_.push_back({rule.key, rule.from, rule.below, prepare(rule.model)});
}

Transfer SwitchingNetworkModel::transfer(const TransferRequest& request)
{
  const size_t model = model_for(request.payload, request.send_posted_at);
  Transfer transfer = models_[model].model->transfer(request);
  if (transfer.window) // arrival_at_match must reach the model that gave the window
    transfer.window->model = static_cast<uint32_t>(model);
  return transfer;
}

std::shared_ptr<kernel::Activity> SwitchingNetworkModel::arrival_at_match(const ArrivalWindow& window,
                                                                          double receive_posted_at)
{
  return models_[window.model].model->arrival_at_match(window, receive_posted_at);
}

} // namespace mpisim::models
