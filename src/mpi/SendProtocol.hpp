// The MPI protocol that carries a point-to-point message, decided here and nowhere else. The network model only
// states its size thresholds (its parameters) and its costs; the send's mode and blocking-ness come from the MPI call.
//
// Rules, for a payload of k bytes under the model's thresholds (ProtocolThresholds):
//  1. By size: eager if k < eager_below, else detached if k < detached_below, else rendezvous
//     (smpi, fluid: detached below send-is-detached-thresh, eager below async-small-thresh; hybrid: eager up to Sa,
//     detached up to Sd; loggps: eager up to S, never detached).
//  2. A synchronous send (MPI_Ssend, MPI_Issend) is a rendezvous whatever its size: it completes only once matched.
//  3. A buffered send (MPI_Bsend, MPI_Ibsend) never waits for the receiver: a size that calls for a rendezvous is
//     carried detached instead (the data sits in the attached buffer); eager and detached sizes keep their protocol.
//  4. CPU time the sender spends before posting (as SMPI): a non-blocking send, the model's isend overhead; a blocking
//     send, the model's send overhead, except when its size calls for a rendezvous (its cost is the wait) and it is
//     not buffered. Rule 2 does not change this: a small synchronous send pays the send overhead.
//  5. When the send request completes: at the post for eager and detached messages; at the data's arrival (or the
//     model's release of the sender) for a rendezvous, and for a buffered send (its request stands for the room the
//     message takes in the attached buffer).
//  6. When the transfer starts: at the post for eager messages, at the match for the others; under a model timed
//     from the send (ProtocolThresholds::timed_from_send, xsim) at the post for every message but a synchronous send,
//     which MPI lets complete only once matched (unless the model carries it from the post and releases the sender
//     at the match itself: ProtocolThresholds::synchronous_at_post, bxi), and every send request completes when the
//     model releases the sender.
// The receive overhead of the chosen protocol is the model's (NetworkModel::receive_overhead).
#pragma once

#include "models/NetworkModel.hpp"
#include "mpi/Request.hpp"

#include <cstdint>

namespace mpisim::mpi {

// The overhead the sender pays before posting (rule 4).
enum class PostOverhead : uint8_t { None, Send, Isend };

struct SendProtocol {
  models::Protocol protocol;
  PostOverhead overhead;
  bool holds_sender;   // rule 5: the send request completes at arrival (or release), not at the post
  bool starts_at_post; // rule 6: the transfer starts at the post, not at the match
};

SendProtocol choose_send_protocol(SendMode mode, bool blocking, double payload,
                                  const models::ProtocolThresholds& thresholds);

} // namespace mpisim::mpi
