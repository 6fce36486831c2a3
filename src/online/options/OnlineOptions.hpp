// How an online run measures and injects the program's computation and time (set by `mpisim run`'s options,
// online/options/RunnerOptions.cpp).
#pragma once

#include "mpi/Polling.hpp"
#include "mpi/Scheduling.hpp"

#include <map>
#include <string>

namespace mpisim::online {

struct OnlineOptions {
  double host_speed = 0;       // flop/s of the real host (smpi/host-speed); 0: measured at start
  bool compute_time = true;    // inject the computation measured between MPI calls
  double cpu_threshold = 1e-6; // shorter bursts are dropped (smpi/cpu-threshold)
  // Simulated time each MPI_Wtime call spends after reading the clock (smpi/wtime), so that loops polling MPI_Wtime
  // see time advance.
  double wtime_delay = 1e-8;
  // The program's clocks and sleeps are the real ones (gettimeofday, clock_gettime, std::chrono, sleep, ...) instead
  // of the rank's simulated time (online/libc/Clocks.cpp).
  bool real_clocks = false;
  // What polling calls cost (--polling and its parameters; mpi/Polling.hpp): realistic unless asked otherwise.
  mpi::PollingSettings polling{.rule = mpi::PollingRule::Realistic};
  // How the ranks of one simulated date take turns (--scheduling; mpi/World.hpp).
  mpi::Scheduling scheduling = mpi::Scheduling::RunToBlock;
  // Where MPI-IO files are kept (--io-root); empty: a temporary folder removed at the end of the run.
  std::string io_root;
  // MPI_Pcontrol level -> network model it switches to (--pcontrol-models 1=bxi,0=smpi).
  std::map<int, std::string> pcontrol_models;
};

} // namespace mpisim::online
