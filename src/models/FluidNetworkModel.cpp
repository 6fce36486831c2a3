// `fluid`: the plain flow-level model of Bedaride et al., PMBS 2013 (Sec. V): time = L + S/B with max-min sharing, no
// correction factor, no envelope, no RTT unfairness, no cross-traffic. The MPI protocol switch (detached below 64 KiB)
// stays: it is the MPI library's behaviour, not a network correction.
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

const std::vector<ParameterSpec> kFluidParameters = {
    {"send-is-detached-thresh",
     ParameterKind::Size,
     "65536B",
     "payloads below this are detached: the sender does not wait",
     {"smpi/send-is-detached-thresh"}},
};

const RegisterNetworkModel kRegisterFluid({
    "fluid",
    "plain flow model: latency + size / bandwidth, max-min sharing, no corrections",
    "Bedaride et al., Toward Better Simulation of MPI Applications on Ethernet/TCP Networks, PMBS 2013, Sec. V",
    kFluidParameters,
    [](const NetworkModelContext& context) {
      FlowModelSettings s;
      s.latency_unfair = false;
      s.detached_below = context.parameters.number("send-is-detached-thresh");
      return std::make_unique<FlowNetworkModel>(context, std::move(s));
    },
});

} // namespace
} // namespace mpisim::models
