// MPI datatypes as the TI format writes them: a count followed by SimGrid 3.32's datatype id (the table
// mpisim's trace reader also uses: 0 MPI_DOUBLE, 1 MPI_INT, 2 MPI_CHAR,
// ..., 6 MPI_BYTE, ...).
//
// A predefined type keeps its id when SimGrid gives that id the same size as this MPI library does. Anything else
// (derived types, predefined types SimGrid sizes differently or does not know) is written in bytes with MPI_BYTE's
// id: `count x MPI_Type_size` bytes, the volume the call actually moves.
#pragma once

#include <mpi.h>

#include <unordered_map>

namespace mpisim::record {

struct TiCount {
  long long count;
  int datatype;
};

class Datatypes {
public:
  static constexpr int kByte = 6;

  void init();
  TiCount convert(long long count, MPI_Datatype type) const;
  // The multiplier that turns a count of `type` into a TI count, and the id to write.
  TiCount unit(MPI_Datatype type) const { return convert(1, type); }
  static long long bytes(long long count, MPI_Datatype type);

private:
  std::unordered_map<MPI_Datatype, int> ids_;
};

} // namespace mpisim::record
