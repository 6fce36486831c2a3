// MPI_Type_create_darray's layout: the elements of a global array that one process of a process grid owns under
// block, cyclic or no distribution per dimension, in the array's memory order (MPI-3.1 section 4.1.4).
#pragma once

#include "mpi/Datatype.hpp"

#include <string>
#include <vector>

namespace mpisim::online {

enum class Distribution { Block, Cyclic, None };

struct DarrayRequest {
  int size = 1, rank = 0;
  std::vector<int> gsizes;
  std::vector<Distribution> distributions;
  std::vector<int> dargs; // block or cycle lengths; kDefaultDarg for the standard's default
  std::vector<int> psizes;
  bool fortran_order = false;
};

inline constexpr int kDefaultDarg = -1;

// The type (lb 0, extent the whole array); throws InputError describing an invalid request.
mpi::DatatypePtr darray_layout(const DarrayRequest& request, const mpi::DatatypePtr& old);

} // namespace mpisim::online
