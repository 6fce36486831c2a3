// --portals-csv FILE: the NIC model's Portals-level operations as CSV, one row per PCIe transfer, message on the wire
// or retransmission, in the manner of the S4BXI thesis's CSV log (J. Emmanuel, PhD thesis, Univ. Lyon 1, 2023,
// section 4.4; its layout is not given there, this one is ours):
//
//   type,nid,peer_nid,process,peer_process,bytes,start,end,operation
//   PCI_COMMAND,0,0,0,1,64,0.000000000000,0.000000155120,1
//   PTL_PUT,0,1,0,1,72,0.000000275120,0.000000480880,1
//
// `type` is the thesis's (S4BXILOG_ dropped): PCI_COMMAND, PCI_PIO_PAYLOAD, PCI_DMA_PAYLOAD, PCI_PAYLOAD_WRITE,
// PTL_PUT, PTL_GET, PTL_ATOMIC, PTL_FETCH_ATOMIC, PTL_SWAP, PTL_ACK, PTL_GET_RESPONSE, E2E_ACK, RETRANSMISSION; `nid`
// the NIC doing it (on the wire: the sender), `peer_nid` the other end; `process`, `peer_process` the operation's
// initiator and target ranks; `bytes` on the wire header included; dates in simulated seconds (to the picosecond);
// `operation` the operation's id in its NIC model (MPI messages and Portals programs have one NIC model each: ids may
// repeat across them). Rows come in the order steps end.
#pragma once

#include "models/NetworkModel.hpp"
#include "timeline/OutputFile.hpp"

#include <string>

namespace mpisim::timeline {

class PortalsCsvWriter final : public models::NicObserver {
public:
  // Throws InputError when the file cannot be created.
  explicit PortalsCsvWriter(const std::string& path);
  void nic(const models::NicRecord& record) override;
  void finish(); // writes what is buffered and closes the file (throws InputError when it cannot)

private:
  OutputFile out_;
};

} // namespace mpisim::timeline
