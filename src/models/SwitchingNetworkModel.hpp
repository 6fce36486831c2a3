// Several network models in one run, one of them current (`mpisim_use_model`, `MPI_Pcontrol` with
// `--pcontrol-models`): the S4BXI thesis's model switching (J. Emmanuel, PhD thesis, Univ. Lyon 1, 2023, section 6.5),
// lenient: a message keeps the model that was current when its send was posted, whenever its transfer starts, and
// completes under it; new messages take the new model. Automatic rules (--switch) choose a model by the message's size
// or by the simulated date of its send's post, before the current model.
//
// A run that cannot switch has none of this (mpi::Simulation): its messages go straight to their model.
#pragma once

#include "models/NetworkModel.hpp"

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::models {

// One rule of --switch: a message whose size (bytes), or whose send's post date (simulated seconds), is in [from,
// below) uses `model`, whatever the current model.
struct SwitchRule {
  enum class Key : uint8_t { Size, Time };
  Key key = Key::Size;
  double from = 0;
  double below = std::numeric_limits<double>::infinity();
  std::string model;
};

// "size<4KiB=bxi,1s<=time<2s=bxi,time>=3s=smpi": RULE[,RULE...], each `KEY<HI=M`, `LO<=KEY<HI=M` or `KEY>=LO=M`
// with KEY `size` (a size: 4KiB) or `time` (a time: 1.5s). InputError when a rule is not of these forms.
std::vector<SwitchRule> parse_switch_rules(const std::string& text);

class SwitchingNetworkModel final : public NetworkModel {
public:
  // Makes the model of that name (InputError when unknown); the first one made is current from the start.
  using Factory = std::function<std::unique_ptr<NetworkModel>(const std::string& name)>;
  SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first);
  // Takes over `first`, the run's model until now, current since `since`, already observed by `observers` (a run
  // that switches for the first time while it runs: mpisim_use_model).
  SwitchingNetworkModel(kernel::Engine& engine, Factory factory, const std::string& first_name,
                        std::unique_ptr<NetworkModel> first, double since, std::vector<LinkObserver*> observers,
                        std::vector<NicObserver*> nic_observers);

  // Makes the model of that name if it is not made yet (InputError when unknown); returns its index.
  size_t prepare(const std::string& name);
  // From now on new messages use `name` (made on first use; InputError when no model has that name).
  void use(const std::string& name);
  // Automatic switches (--switch): the first rule a message meets chooses its model, else the current model does.
  void add_rule(const SwitchRule& rule);
  const std::string& current_name() const { return models_[current_].name; }
  // Simulated seconds spent under each model used, from the start to `end`, in the order they were first used.
  std::vector<std::pair<std::string, double>> time_under_each(double end) const;
  bool switched() const { return models_.size() > 1 || switches_.size() > 1 || not rules_.empty(); }
  // The model of that name if it was made (the BXI fabric shared with Portals programs), else null.
  NetworkModel* find(const std::string& name) const;

  void observe_links(LinkObserver& observer) override;
  void observe_nic(NicObserver& observer) override;
  ProtocolThresholds protocol_thresholds() const override { return current().protocol_thresholds(); }
  ProtocolThresholds protocol_thresholds(platform::HostId src, platform::HostId dst) const override
  {
    return current().protocol_thresholds(src, dst);
  }
  ProtocolThresholds thresholds_for(platform::HostId src, platform::HostId dst, double payload) const override
  {
    return posted_now(payload).protocol_thresholds(src, dst);
  }
  double send_overhead(double payload) const override { return posted_now(payload).send_overhead(payload); }
  double isend_overhead(double payload) const override { return posted_now(payload).isend_overhead(payload); }
  double receive_overhead(double payload, Protocol protocol) const override
  {
    return posted_now(payload).receive_overhead(payload, protocol);
  }
  // The first of its models that bounds them (bxi): only that model's messages take room (mpi::OverflowList).
  std::optional<OverflowSettings> overflow_buffers() const override;
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
  struct Rule {
    SwitchRule::Key key;
    double from, below;
    size_t model;
  };
  NetworkModel& current() const { return *models_[current_].model; }
  // The model of a message of `payload` bytes posted now (the MPI layer asks while posting).
  NetworkModel& posted_now(double payload) const
  {
    return rules_.empty() ? current() : *models_[model_for(payload, engine_.now())].model;
  }
  size_t model_for(double payload, double posted_at) const;
  size_t model_at(double date) const;

  kernel::Engine& engine_;
  Factory factory_;
  std::vector<Named> models_;
  std::vector<Switch> switches_; // in date order, the first at the start
  size_t current_ = 0;
  std::vector<Rule> rules_; // --switch, in the order given
  std::vector<LinkObserver*> observers_;
  std::vector<NicObserver*> nic_observers_;
};

} // namespace mpisim::models
