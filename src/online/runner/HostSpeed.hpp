// The real host's speed in flop/s, for turning measured computation time into simulated work (as SMPI's
// smpi/host-speed:auto): a short dependent multiply-add loop timed on the thread's CPU clock.
#pragma once

namespace mpisim::online {

double measure_host_speed();

} // namespace mpisim::online
