// `bxi`: the BXI NIC model of the S4BXI thesis (BxiNic.hpp, docs/bxi.md). Portals 4 programs (include/portals4.h) are
// timed by it. MPI messages do not run over Portals yet: under `--model bxi` they use the plain flow model (`fluid`'s
// settings) on the same platform, and the NIC parameters apply to Portals operations only.
#include "models/BxiNic.hpp"
#include "models/FlowNetworkModel.hpp"

namespace mpisim::models {

namespace {

std::vector<ParameterSpec> all_bxi_parameters()
{
  std::vector<ParameterSpec> specs = bxi::bxi_parameters();
  specs.push_back({"send-is-detached-thresh",
                   ParameterKind::Size,
                   "65536B",
                   "MPI messages (plain flow model until MPI runs over Portals): below this, detached",
                   {"smpi/send-is-detached-thresh"}});
  return specs;
}

const RegisterNetworkModel kRegisterBxi({
    "bxi",
    "BXI NIC model for Portals 4: NIC stages, PCIe cap + shared link, inline/PIO/DMA, E2E reliability, flow control",
    "J. Emmanuel, A full stack simulator for HPC: multi-level modelling of the BXI interconnect, PhD thesis, Univ. "
    "Lyon 1, 2023, ch. 2 and 4",
    all_bxi_parameters(),
    [](const NetworkModelContext& context) {
      FlowModelSettings s;
      s.latency_unfair = false;
      s.detached_below = context.parameters.number("send-is-detached-thresh");
      return std::make_unique<FlowNetworkModel>(context, std::move(s));
    },
});

} // namespace
} // namespace mpisim::models
