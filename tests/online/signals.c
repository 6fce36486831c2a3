/* Signals in simulated time (docs/online.md, "The C library, rank by rank"). argv[1] picks the scenario:
 *   alarm     every rank arms alarm(2) with a handler; rank 0 sleeps 5 s before a barrier, so the others are
 *             waiting in MPI_Barrier when their alarm goes off: each handler runs at 2 s, the barrier ends after 5 s
 *   interval  setitimer(ITIMER_REAL) 1 s then every 0.5 s while sleeping 3.2 s: 5 ticks (1, 1.5, 2, 2.5, 3 s)
 *   default   rank 1 arms alarm(1) with no handler and waits for a message that never comes: the run ends at 1 s
 *   kill      rank 0 sends SIGUSR1 to rank 1 (kill on rank 1's pid) at 1 s while rank 1 waits in MPI_Recv, then to
 *             itself; rank 1 gets its message at 2 s
 *   segv      every rank installs a SIGSEGV handler with sigaction; rank 1 writes through a null pointer at 1 s */
#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile double handled_at = -1;
static volatile int ticks = 0;
static int rank;

static void on_alarm(int signal)
{
  (void)signal;
  handled_at = MPI_Wtime();
  ++ticks;
}

static void on_usr1(int signal, siginfo_t* info, void* context)
{
  (void)context;
  printf("rank %d: signal %d (code %s) at %.6f\n", rank, signal, info->si_code == SI_USER ? "user" : "other",
         MPI_Wtime());
}

static void on_segv(int signal)
{
  printf("rank %d caught signal %d at %.6f\n", rank, signal, MPI_Wtime());
  fflush(stdout);
  exit(7);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* scenario = argc > 1 ? argv[1] : "alarm";
  if (strcmp(scenario, "alarm") == 0) {
    signal(SIGALRM, on_alarm);
    unsigned int before = alarm(2);
    if (rank == 0)
      sleep(5);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: previous alarm %u, handler at %.6f, barrier left at %.6f, alarm left %u\n", rank, before,
           handled_at, MPI_Wtime(), alarm(0));
  } else if (strcmp(scenario, "interval") == 0) {
    signal(SIGALRM, on_alarm);
    struct itimerval every = {{0, 500000}, {1, 0}}, now;
    setitimer(ITIMER_REAL, &every, NULL);
    usleep(3200000);
    getitimer(ITIMER_REAL, &now);
    printf("rank %d: %d ticks, last at %.6f, next in %ld.%06ld s, interval %ld.%06ld s\n", rank, ticks, handled_at,
           (long)now.it_value.tv_sec, (long)now.it_value.tv_usec, (long)now.it_interval.tv_sec,
           (long)now.it_interval.tv_usec);
  } else if (strcmp(scenario, "default") == 0) {
    if (rank == 1) {
      int value;
      alarm(1);
      MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(scenario, "kill") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_usr1;
    action.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &action, NULL);
    int value = 42;
    if (rank == 0) {
      sleep(1);
      if (kill(getpid() + 1, SIGUSR1) != 0)
        perror("kill");
      sleep(1);
      MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      kill(getpid(), SIGUSR1);
      printf("rank 0: after kill to itself at %.6f\n", MPI_Wtime());
    } else if (rank == 1) {
      MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("rank 1: received %d at %.6f\n", value, MPI_Wtime());
    }
  } else if (strcmp(scenario, "segv") == 0) {
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_segv;
    sigaction(SIGSEGV, &action, &previous);
    if (rank == 0)
      printf("rank 0: SIGSEGV was %s\n", previous.sa_handler == SIG_DFL ? "default" : "handled");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      sleep(1);
      volatile int* nowhere = NULL;
      *nowhere = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
