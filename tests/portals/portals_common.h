/* Helpers shared by the Portals test programs: the simulated clock, one logical matching NI per process, checks. */
#ifndef PORTALS_COMMON_H
#define PORTALS_COMMON_H

#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    int check_rc_ = (call);                                                                                            \
    if (check_rc_ != PTL_OK) {                                                                                         \
      fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call, mpisim_ptl_strerror(check_rc_));           \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

static double now_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/* A logical, matching NI: the rank is the process's place in the job (the default map). */
static ptl_handle_ni_t open_ni(ptl_rank_t* rank, ptl_size_t* size)
{
  ptl_handle_ni_t ni;
  ptl_process_t me;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetId(ni, &me));
  CHECK(PtlGetMap(ni, 0, NULL, size));
  *rank = me.rank;
  return ni;
}

static ptl_process_t rank_id(ptl_rank_t rank)
{
  ptl_process_t p;
  p.rank = rank;
  return p;
}

static ptl_event_t wait_event(ptl_handle_eq_t eq, ptl_event_kind_t expected)
{
  ptl_event_t event;
  CHECK(PtlEQWait(eq, &event));
  if (event.type != expected) {
    fprintf(stderr, "expected %s, got %s (%s)\n", mpisim_ptl_event_name(expected), mpisim_ptl_event_name(event.type),
            mpisim_ptl_fail_name(event.ni_fail_type));
    exit(1);
  }
  return event;
}

#endif
