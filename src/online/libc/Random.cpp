// The C library's generators, one state per rank (docs/online.md, "The C library, rank by rank"): rand, srand,
// random, srandom, initstate, setstate and the drand48 family run glibc's reentrant forms (random_r, drand48_r, ...)
// on the calling rank's state. A rank that never seeds gets the sequence a fresh process gets (seed 1 for rand and
// random, drand48's defaults), as every process of a real MPI run does.
#include "online/libc/Caller.hpp"

#include <cstdlib>
#include <mutex>

using namespace mpisim::online;

namespace {

RandomStates& states()
{
  std::unique_ptr<RandomStates>& random = caller_libc().random;
  if (not random)
    random = std::make_unique<RandomStates>();
  return *random;
}

// Outside ranks the state is the process's, which threads the program starts may share: locked, as glibc locks its
// own. A rank's state is only used by the rank's own fiber.
class StateLock {
public:
  StateLock() : locked_(Runtime::libc_rank() < 0)
  {
    if (locked_)
      process_mutex().lock();
  }
  ~StateLock()
  {
    if (locked_)
      process_mutex().unlock();
  }
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

private:
  static std::mutex& process_mutex()
  {
    static std::mutex mutex;
    return mutex;
  }
  bool locked_;
};

// One draw of the drand48 family from the calling rank's state, under the lock: `draw(data, &value)` is the
// reentrant function of the same name (those given a state of the caller's take only the rank's constants).
template <class Value, class Draw> Value draw48(Draw draw)
{
  const StateLock lock;
  Value value{};
  draw(states().drand48, &value);
  return value;
}

} // namespace

// rand and random ----------------------------------------------------------------------------------------------------

extern "C" long random() noexcept
{
  const StateLock lock;
  int32_t value = 0;
  random_r(&states().data, &value);
  return value;
}

extern "C" int rand() noexcept
{
  return static_cast<int>(random());
}

extern "C" void srandom(unsigned int seed) noexcept
{
  const StateLock lock;
  srandom_r(seed, &states().data);
}

extern "C" void srand(unsigned int seed) noexcept
{
  srandom(seed);
}

extern "C" char* initstate(unsigned int seed, char* buffer, size_t size) noexcept
{
  const StateLock lock;
  RandomStates& random = states();
  char* previous = random.buffer;
  if (initstate_r(seed, buffer, size, &random.data) != 0)
    return nullptr;
  random.buffer = buffer;
  return previous;
}

extern "C" char* setstate(char* buffer) noexcept
{
  const StateLock lock;
  RandomStates& random = states();
  char* previous = random.buffer;
  if (setstate_r(buffer, &random.data) != 0)
    return nullptr;
  random.buffer = buffer;
  return previous;
}

// drand48 and its family ---------------------------------------------------------------------------------------------

extern "C" double drand48() noexcept
{
  return draw48<double>([](drand48_data& data, double* value) { drand48_r(&data, value); });
}

extern "C" double erand48(unsigned short state[3]) noexcept
{
  return draw48<double>([state](drand48_data& data, double* value) { erand48_r(state, &data, value); });
}

extern "C" long lrand48() noexcept
{
  return draw48<long>([](drand48_data& data, long* value) { lrand48_r(&data, value); });
}

extern "C" long nrand48(unsigned short state[3]) noexcept
{
  return draw48<long>([state](drand48_data& data, long* value) { nrand48_r(state, &data, value); });
}

extern "C" long mrand48() noexcept
{
  return draw48<long>([](drand48_data& data, long* value) { mrand48_r(&data, value); });
}

extern "C" long jrand48(unsigned short state[3]) noexcept
{
  return draw48<long>([state](drand48_data& data, long* value) { jrand48_r(state, &data, value); });
}

extern "C" void srand48(long seed) noexcept
{
  const StateLock lock;
  srand48_r(seed, &states().drand48);
}

extern "C" unsigned short* seed48(unsigned short seed[3]) noexcept
{
  const StateLock lock;
  drand48_data& data = states().drand48;
  seed48_r(seed, &data);
  return data.__old_x; // the previous state, as glibc's seed48 returns it
}

extern "C" void lcong48(unsigned short parameters[7]) noexcept
{
  const StateLock lock;
  lcong48_r(parameters, &states().drand48);
}
