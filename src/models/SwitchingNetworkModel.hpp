// Several network models in one run, one of them current (`mpisim_use_model`, `MPI_Pcontrol` with
// `--pcontrol-models`): the S4BXI thesis's model switching (J. Emmanuel, PhD thesis, Univ. Lyon 1, 2023, section 6.5),
// lenient: a message keeps the model that was current when its send was posted, whenever its transfer starts, and
// completes under it; new messages take the new model.
#pragma once

#include "models/NetworkModel.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::models {

class SwitchingNetworkModel final : public NetworkModel {
public:
  // Makes the model of that name (InputError when unknown); the first one made is current from the start.
  using Factory = std::function<std::unique_ptr<NetworkModel>(const std::string& name)>;
  SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first);

  // Makes the model of that name if it is not made yet (InputError when unknown); returns its index.
  size_t prepare(const std::string& name);
  // From now on new messages use `name` (made on first use; InputError when no model has that name).
  void use(const std::string& name);
  // Automatic switch (--switch size<4KiB=bxi): messages below `payload_below` bytes use `name` whatever the current
  // model; the others, the current one.
  void switch_by_size(double payload_below, const std::string& name);
  const std::string& current_name() const { return models_[current_].name; }
  // Simulated seconds spent under each model used, from the start to `end`, in the order they were first used.
  std::vector<std::pair<std::string, double>> time_under_each(double end) const;
  bool switched() const { return models_.size() > 1 || switches_.size() > 1; }
  // The model of that name if it was made (the BXI fabric shared with Portals programs), else null.
  NetworkModel* find(const std::string& name) const;

  void observe_links(LinkObserver& observer) override;
  ProtocolThresholds protocol_thresholds() const override { return current().protocol_thresholds(); }
  ProtocolThresholds protocol_thresholds(platform::HostId src, platform::HostId dst) const override
  {
    return current().protocol_thresholds(src, dst);
  }
  ProtocolThresholds thresholds_for(platform::HostId src, platform::HostId dst, double payload) const override
  {
    return for_size(payload).protocol_thresholds(src, dst);
  }
  double send_overhead(double payload) const override { return for_size(payload).send_overhead(payload); }
  double isend_overhead(double payload) const override { return for_size(payload).isend_overhead(payload); }
  double receive_overhead(double payload, Protocol protocol) const override
  {
    return for_size(payload).receive_overhead(payload, protocol);
  }
  Transfer transfer(const TransferRequest& request) override;
  std::shared_ptr<kernel::Activity> arrival_at_match(const ArrivalWindow& window, double receive_posted_at) override;

private:
  struct Named {
    std::string name;
    std::unique_ptr<NetworkModel> model;
  };
  struct Switch {
    double date;
    size_t model;
  };
  NetworkModel& current() const { return *models_[current_].model; }
  NetworkModel& for_size(double payload) const
  {
    return payload < size_below_ ? *models_[size_model_].model : current();
  }
  size_t model_at(double date) const;

  kernel::Engine& engine_;
  Factory factory_;
  std::vector<Named> models_;
  std::vector<Switch> switches_; // in date order, the first at the start
  size_t current_ = 0;
  double size_below_ = 0; // the size rule: payloads below this go to size_model_
  size_t size_model_ = 0;
  std::vector<LinkObserver*> observers_;
};

} // namespace mpisim::models
