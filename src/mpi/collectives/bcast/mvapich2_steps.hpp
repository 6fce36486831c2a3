// The two-level pieces of MVAPICH2's broadcast, as SimGrid 3.32 runs them (its bcast mvapich_smp) when no MVAPICH2
// table has set its function pointers: every inner broadcast is bcast__mpich, MPICH's choice by size.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi::bcast {

// The inter-node phase: a root that is not its node's leader (the lowest rank of the node) first hands the buffer
// to that leader; then the leaders broadcast among themselves (MPICH's choice on the leaders' communicator).
void mvapich2_leaders_phase(const CollectiveContext& c, const CollectiveCall& call);

// The intra-node phase: each leader broadcasts to its node with MPICH's choice (up to 131072 B) or the k-nomial
// tree of factor 4.
void mvapich2_node_phase(const CollectiveContext& c, const CollectiveCall& call, bool knomial);

// MVAPICH2's k-nomial broadcast (factor 4) over the context's communicator.
void mvapich2_knomial(const CollectiveContext& c, const CollectiveCall& call);

} // namespace mpisim::mpi::bcast
