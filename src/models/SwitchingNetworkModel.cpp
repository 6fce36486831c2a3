#include "models/SwitchingNetworkModel.hpp"

#include <algorithm>

namespace mpisim::models {

SwitchingNetworkModel::SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first)
    : engine_(engine), factory_(std::move(factory))
{
  models_.push_back({first, factory_(first)});
  switches_.push_back({engine_.now(), 0});
}

NetworkModel* SwitchingNetworkModel::find(const std::string& name) const
{
  for (const Named& named : models_)
    if (named.name == name)
      return named.model.get();
  return nullptr;
}

size_t SwitchingNetworkModel::prepare(const std::string& name)
{
  auto found = std::find_if(models_.begin(), models_.end(), [&](const Named& named) { return named.name == name; });
  if (found != models_.end())
    return static_cast<size_t>(found - models_.begin());
  models_.push_back({name, factory_(name)});
  for (LinkObserver* observer : observers_)
    models_.back().model->observe_links(*observer);
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

std::vector<std::pair<std::string, double>> SwitchingNetworkModel::time_under_each(double end) const
{
  std::vector<std::pair<std::string, double>> spent;
  for (const Named& named : models_)
    spent.emplace_back(named.name, 0.0);
  for (size_t i = 0; i < switches_.size(); ++i) {
    const double until = i + 1 < switches_.size() ? switches_[i + 1].date : end;
    spent[switches_[i].model].second += std::max(0.0, until - switches_[i].date);
  }
  return spent;
}

void SwitchingNetworkModel::observe_links(LinkObserver& observer)
{
  observers_.push_back(&observer);
  for (const Named& named : models_)
    named.model->observe_links(observer);
}

void SwitchingNetworkModel::switch_by_size(double payload_below, const std::string& name)
{
  size_model_ = prepare(name);
  size_below_ = payload_below;
}

Transfer SwitchingNetworkModel::transfer(const TransferRequest& request)
{
  const size_t model = request.payload < size_below_ ? size_model_ : model_at(request.send_posted_at);
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
