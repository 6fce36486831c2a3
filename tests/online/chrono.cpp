// C++ timers read simulated time too: std::chrono's steady_clock, system_clock and high_resolution_clock (which
// the C++ library implements with clock_gettime) time a 1 MB round trip between ranks 0 and 1, next to MPI_Wtime;
// std::this_thread::sleep_for(100 s) passes in simulated time. Rank 0 prints the durations.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

std::vector<char> buffer(1000000);

void round_trip(int rank)
{
  const int bytes = static_cast<int>(buffer.size());
  if (rank == 0) {
    MPI_Send(buffer.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buffer.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buffer.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buffer.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
}

template <class Clock> void time_round_trip(const char* name, int rank)
{
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  round_trip(rank);
  const std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
  if (rank == 0)
    std::printf("%s %.3f us\n", name, elapsed.count());
}

} // namespace

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  round_trip(rank);
  if (rank == 0)
    std::printf("MPI_Wtime %.3f us\n", (MPI_Wtime() - start) * 1e6);
  time_round_trip<std::chrono::steady_clock>("steady_clock", rank);
  time_round_trip<std::chrono::system_clock>("system_clock", rank);
  time_round_trip<std::chrono::high_resolution_clock>("high_resolution_clock", rank);
  const double before = MPI_Wtime();
  std::this_thread::sleep_for(std::chrono::seconds(100));
  if (rank == 0)
    std::printf("sleep_for %.6f s\n", MPI_Wtime() - before);
  MPI_Finalize();
  return 0;
}
