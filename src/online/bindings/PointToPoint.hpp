// What the point-to-point API families share (api_point_to_point.cpp, api_buffered.cpp, api_persistent.cpp,
// api_matched_probe.cpp): argument checks, and the posting of a send in each MPI mode, so that the immediate calls
// (MPI_Isend, MPI_Issend, ...) and the persistent ones (MPI_Send_init ... MPI_Start) post the same way.
#pragma once

#include "online/bindings/Arguments.hpp"

namespace mpisim::online {

struct MessageArguments {
  const mpi::Communicator* comm = nullptr;
  mpi::DatatypePtr type;
};

int check_send(Runtime& runtime, MPI_Comm comm, int count, MPI_Datatype type, int dest, int tag, const char* call,
               MessageArguments& out);
int check_receive(Runtime& runtime, MPI_Comm comm, int count, MPI_Datatype type, int source, int tag, const char* call,
                  MessageArguments& out);

// MPI_BOTTOM (a null pointer) with a datatype of absolute addresses (MPI_Get_address): the simulator takes a null
// buffer for "no data", so the buffer becomes the first byte the type touches and the type is shifted back by as
// much. Other buffers are left alone.
void rebase_bottom(const void*& buf, int count, MessageArguments& args);
void rebase_bottom(void*& buf, int count, MessageArguments& args);

// MPI's send calls. A ready send is a standard one here (MPI only promises the receive is already posted).
enum class SendCall : uint8_t { Standard, Synchronous, Ready, Buffered };

// Posts a non-blocking send of this kind (arguments already checked). `out` is the request to complete, null when
// the send is already complete (MPI_PROC_NULL, or a buffered send: it completes locally). Returns an error class
// raised on `comm` (a buffered send that does not fit in the attached buffer: MPI_ERR_BUFFER).
int post_send(Runtime& runtime, mpi::Rank& rank, MPI_Comm comm, const MessageArguments& args, const void* buf,
              int count, int dest, int tag, SendCall kind, const char* call, mpi::RequestPtr& out);

// Buffered sends (api_buffered.cpp): reserves the room of the message in the calling rank's attached buffer (or
// raises MPI_ERR_BUFFER), then posts it; `blocking` chooses MPI_Bsend's overhead rather than MPI_Ibsend's. `posted`,
// when given, receives the application's request: complete at once, it can be cancelled until a receive matches the
// message.
int post_buffered_send(Runtime& runtime, mpi::Rank& rank, MPI_Comm comm, const MessageArguments& args, const void* buf,
                       int count, int dest, int tag, bool blocking, const char* call,
                       mpi::RequestPtr* posted = nullptr);

// MPI_Wait (api_requests.cpp), shared with the split collectives' _end calls: `call` names the call (its timeline
// entry, its errors).
int wait_one(Runtime& runtime, MPI_Request* request, MPI_Status* status, const char* call = "MPI_Wait");

// MPI_Waitall (api_requests.cpp), shared with MPI_Sendrecv: errors name MPI_Waitall. `call` names the scope.
int wait_all(Runtime& runtime, int count, MPI_Request requests[], MPI_Status statuses[],
             const char* call = __builtin_FUNCTION());

// An empty status (MPI-3.1 section 3.7.3), for MPI_REQUEST_NULL and inactive persistent requests: any source, any
// tag, no error, count 0, not cancelled.
void fill_inactive_status(MPI_Status* status);

} // namespace mpisim::online
