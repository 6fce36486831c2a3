// User-Level Failure Mitigation (include/mpi-ext.h): MPIX_Comm_revoke, MPIX_Comm_shrink, MPIX_Comm_agree,
// MPIX_Comm_failure_ack, MPIX_Comm_failure_get_acked, MPIX_Comm_is_revoked. What they cost (docs/failures.md):
// revoke floods a small notice from the caller to every other member; agree is an allreduce of one int among the
// survivors; shrink is that agreement (on the set of failed processes) then a context agreement among the survivors.
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"

#include <mpi-ext.h>

using namespace mpisim::online;
using mpisim::mpi::Communicator;

namespace {

// Tag under which the survivors adopt the communicator of a shrink (Communicators::adopt_group).
constexpr int kShrinkTag = -7001;

// The messages of a fault-tolerant agreement among the survivors of `comm`: an allreduce of one int on their
// communicator. Survivors failing meanwhile: again among those left. Returns the survivors' communicator and the
// agreement's number there.
std::pair<const Communicator*, uint64_t> agree_among_survivors(Runtime& runtime, const Communicator& comm, int flag)
{
  mpisim::mpi::World& world = runtime.simulation().world();
  mpisim::mpi::Rank& rank = runtime.rank();
  while (true) {
    const Communicator& survivors = world.survivors_communicator(comm);
    const uint64_t agreement = world.contribute_to_agreement(rank.world_rank(), survivors, flag);
    mpisim::mpi::CollectiveCall call;
    call.op = mpisim::mpi::Collective::Allreduce;
    call.bytes = sizeof(int);
    call.element_bytes = sizeof(int);
    try {
      runtime.simulation().collectives().run(rank, survivors, call);
      return {&survivors, agreement};
    } catch (const mpisim::mpi::ProcessFailure&) { // a survivor failed during the agreement
    }
  }
}

} // namespace

extern "C" int PMPIX_Comm_revoke(MPI_Comm comm)
{
  ApiScope scope("PMPIX_Comm_revoke");
  Runtime& runtime = scope.runtime();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_revoke", c));
  runtime.simulation().world().revoke(runtime.current_rank(), *c);
  return MPI_SUCCESS;
}

extern "C" int PMPIX_Comm_is_revoked(MPI_Comm comm, int* flag)
{
  Runtime& runtime = Runtime::get();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_is_revoked", c));
  *flag = runtime.simulation().world().knows_revoked(runtime.current_rank(), *c) ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_failure_ack", c));
  runtime.simulation().world().acknowledge_failures(runtime.current_rank(), *c);
  return MPI_SUCCESS;
}

extern "C" int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group* failedgrp)
{
  Runtime& runtime = Runtime::get();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_failure_get_acked", c));
  const std::vector<int>& acked = runtime.simulation().world().acknowledged_failures(runtime.current_rank(), *c);
  GroupMembers members; // in the communicator's rank order
  for (int local = 0; local < c->size(); ++local)
    if (std::find(acked.begin(), acked.end(), c->world_rank(local)) != acked.end())
      members.push_back(c->world_rank(local));
  *failedgrp = runtime.groups().add(runtime.current_rank(), std::move(members));
  return MPI_SUCCESS;
}

extern "C" int PMPIX_Comm_agree(MPI_Comm comm, int* flag)
{
  ApiScope scope("PMPIX_Comm_agree");
  Runtime& runtime = scope.runtime();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_agree", c));
  mpisim::mpi::World& world = runtime.simulation().world();
  const auto [survivors, agreement] = agree_among_survivors(runtime, *c, *flag);
  *flag = world.agreement_value(*survivors, agreement);
  // As ULFM: a failure the caller has not acknowledged is reported (the flag is agreed on all the same).
  const int unacknowledged = world.failed_member(*c, runtime.current_rank());
  if (unacknowledged < 0)
    return MPI_SUCCESS;
  const mpisim::mpi::ProcessFailure failure(mpisim::mpi::FailureKind::ProcessFailed, unacknowledged,
                                            world.failed_at(unacknowledged), runtime.current_rank(),
                                            world.engine().now(), c->name(), c->context());
  return raise_process_failure(runtime, comm, failure, "MPIX_Comm_agree");
}

extern "C" int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm* newcomm)
{
  ApiScope scope("PMPIX_Comm_shrink");
  Runtime& runtime = scope.runtime();
  const Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPIX_Comm_shrink", c));
  return failure_aware(runtime, comm, "MPIX_Comm_shrink", [&]() -> int {
    const Communicator* survivors = agree_among_survivors(runtime, *c, 1).first;
    agree_on_context(runtime, *survivors);
    *newcomm = runtime.communicators().adopt_group(runtime.current_rank(), *c, kShrinkTag, members_of(*survivors));
    inherit_errhandler(runtime, comm, *newcomm);
    return MPI_SUCCESS;
  });
}

#define MPISIM_ALIAS_X(name) extern "C" __attribute__((weak, alias("PMPIX_" #name))) decltype(PMPIX_##name) MPIX_##name;
MPISIM_ALIAS_X(Comm_revoke)
MPISIM_ALIAS_X(Comm_is_revoked)
MPISIM_ALIAS_X(Comm_failure_ack)
MPISIM_ALIAS_X(Comm_failure_get_acked)
MPISIM_ALIAS_X(Comm_agree)
MPISIM_ALIAS_X(Comm_shrink)
