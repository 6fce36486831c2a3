// Initialisation, finalisation and communicators.
//
// Communicator creations write `comm_split` (MPI_Comm_split, MPI_Comm_split_type, MPI_Cart_sub, MPI_Comm_create) or
// `comm_dup` (MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create*):
// both replayers accept and ignore them; a comment after the line gives the new communicator's name and members.
// Intercommunicator creations only leave the comment.
#include "record/Export.hpp"
#include "record/Recorder.hpp"

#include <string>

using mpisim::record::Call;
using mpisim::record::Recorder;

namespace {

void record_creation(Call& call, MPI_Comm parent, MPI_Comm child, const char* action, const std::string& how)
{
  Recorder& rec = call.rec();
  auto from = rec.comms().get(parent);
  call.args.comm = from->id;
  auto made = rec.comms().created(parent, child);
  if (action != nullptr)
    rec.trace().begin(action).end();
  if (made == nullptr) {
    rec.trace().comment(how + " of " + from->id + ": this rank is not a member");
    return;
  }
  std::string members;
  const auto& ranks = made->local_world_of;
  constexpr size_t kListed = 16;
  for (size_t i = 0; i < ranks.size() && i < kListed; ++i)
    members.append(" ").append(std::to_string(ranks[i]));
  if (ranks.size() > kListed)
    members += " ...";
  rec.trace().comment(made->id + " = " + how + " of " + from->id + ": " + std::to_string(made->size) + " ranks" +
                      (made->inter ? " (intercommunicator; local group in world ranks:" : " (world ranks:") + members +
                      ")");
}

} // namespace

// -------------------------------------------------------------------------------------------------- life cycle

MPISIM_EXPORT int MPI_Init(int* argc, char*** argv)
{
  uint64_t start = Recorder::now_ns();
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    Recorder::start("MPI_Init", start, MPI_THREAD_SINGLE);
  return rc;
}

MPISIM_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  uint64_t start = Recorder::now_ns();
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    Recorder::start("MPI_Init_thread", start, *provided);
  return rc;
}

MPISIM_EXPORT int MPI_Finalize()
{
  Call call("MPI_Finalize");
  if (not call)
    return PMPI_Finalize();
  Recorder& rec = call.rec();
  uint64_t start = call.start_ns();
  rec.finalize_begin();
  call.release();
  int rc = PMPI_Finalize();
  rec.finalize_end(start);
  Recorder::stop();
  return rc;
}

// ---------------------------------------------------------------------------------------------- communicators

MPISIM_EXPORT int MPI_Comm_size(MPI_Comm comm, int* size)
{
  Call call("MPI_Comm_size");
  int rc = PMPI_Comm_size(comm, size);
  if (call && rc == MPI_SUCCESS) {
    call.args.comm = call.rec().comms().get(comm)->id;
    call.rec().trace().begin("comm_size").add(*size).end();
  }
  return rc;
}

MPISIM_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  Call call("MPI_Comm_split");
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_split",
                    "MPI_Comm_split(color " +
                        (color == MPI_UNDEFINED ? std::string("MPI_UNDEFINED") : std::to_string(color)) + ", key " +
                        std::to_string(key) + ")");
  return rc;
}

MPISIM_EXPORT int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  Call call("MPI_Comm_split_type");
  int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_split",
                    "MPI_Comm_split_type(type " + std::to_string(split_type) + ", key " + std::to_string(key) + ")");
  return rc;
}

MPISIM_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
  Call call("MPI_Comm_create");
  int rc = PMPI_Comm_create(comm, group, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_split", "MPI_Comm_create");
  return rc;
}

MPISIM_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  Call call("MPI_Comm_dup");
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Comm_dup");
  return rc;
}

MPISIM_EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
  Call call("MPI_Comm_dup_with_info");
  int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Comm_dup_with_info");
  return rc;
}

MPISIM_EXPORT int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                                  MPI_Comm* newcomm)
{
  Call call("MPI_Cart_create");
  int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Cart_create(" + std::to_string(ndims) + " dims)");
  return rc;
}

MPISIM_EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  Call call("MPI_Cart_sub");
  int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_split", "MPI_Cart_sub");
  return rc;
}

MPISIM_EXPORT int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                   MPI_Comm* newcomm)
{
  Call call("MPI_Graph_create");
  int rc = PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Graph_create");
  return rc;
}

MPISIM_EXPORT int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                        const int destinations[], const int weights[], MPI_Info info, int reorder,
                                        MPI_Comm* newcomm)
{
  Call call("MPI_Dist_graph_create");
  int rc = PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Dist_graph_create");
  return rc;
}

MPISIM_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                                 const int sourceweights[], int outdegree, const int destinations[],
                                                 const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm)
{
  Call call("MPI_Dist_graph_create_adjacent");
  int rc = PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations, destweights,
                                           info, reorder, newcomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, comm, *newcomm, "comm_dup", "MPI_Dist_graph_create_adjacent");
  return rc;
}

MPISIM_EXPORT int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                       int tag, MPI_Comm* newintercomm)
{
  Call call("MPI_Intercomm_create");
  int rc = PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, local_comm, *newintercomm, nullptr, "MPI_Intercomm_create");
  return rc;
}

MPISIM_EXPORT int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm)
{
  Call call("MPI_Intercomm_merge");
  int rc = PMPI_Intercomm_merge(intercomm, high, newintracomm);
  if (call && rc == MPI_SUCCESS)
    record_creation(call, intercomm, *newintracomm, nullptr, "MPI_Intercomm_merge");
  return rc;
}

namespace {

// MPI_Comm_free and MPI_Comm_disconnect: the handle is forgotten, since the library may give its value to a later
// communicator.
template <typename Release> int release_comm(const char* name, MPI_Comm* comm, Release release)
{
  Call call(name);
  MPI_Comm handle = *comm;
  if (call)
    call.args.comm = call.rec().comms().get(handle)->id;
  int rc = release(comm);
  if (call && rc == MPI_SUCCESS)
    call.rec().comms().freed(handle);
  return rc;
}

} // namespace

MPISIM_EXPORT int MPI_Comm_free(MPI_Comm* comm)
{
  return release_comm("MPI_Comm_free", comm, PMPI_Comm_free);
}

MPISIM_EXPORT int MPI_Comm_disconnect(MPI_Comm* comm)
{
  return release_comm("MPI_Comm_disconnect", comm, PMPI_Comm_disconnect);
}
