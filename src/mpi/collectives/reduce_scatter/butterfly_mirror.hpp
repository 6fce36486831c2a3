// Shared by the butterfly reduce_scatter algorithms (ompi_butterfly, mpich_noncomm): the mirror permutation, which
// reverses the low `bits` bits of x (the block a rank ends up with after halving from the low bit up).
#pragma once

namespace mpisim::mpi::butterfly {

inline int mirror(int x, int bits)
{
  int reversed = 0;
  for (int i = 0; i < bits; ++i)
    if ((x >> i) & 1)
      reversed |= 1 << (bits - 1 - i);
  return reversed;
}

} // namespace mpisim::mpi::butterfly
