// C++ through `mpisim cxx`: a static object with a constructor per rank, std::vector, iostream, an allreduce.
#include <mpi.h>

#include <iostream>
#include <numeric>
#include <vector>

struct Counter {
  int constructed = 1; // set by each rank's copy's static initialization
};
static Counter counter;

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> values(size, rank);
  int total = 0;
  const int mine = std::accumulate(values.begin(), values.end(), 0) + counter.constructed;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::cout << "hello from C++ on " << size << " ranks: total " << total << std::endl;
  MPI_Finalize();
  return 0;
}
