#include "timeline/PortalsCsvWriter.hpp"

#include <cmath>

namespace mpisim::timeline {

PortalsCsvWriter::PortalsCsvWriter(const std::string& path) : out_(path)
{
  out_.text("type,nid,peer_nid,process,peer_process,bytes,start,end,operation\n");
}

void PortalsCsvWriter::nic(const models::NicRecord& record)
{
  out_.text(models::nic_event_name(record.event)).put(',').integer(record.node).put(',').integer(record.peer);
  out_.put(',').integer(record.process).put(',').integer(record.peer_process).put(',').number(record.bytes);
  // Picoseconds: a PCIe packet of 512 B at 12.5 GB/s lasts 40.96 ns.
  out_.put(',').scaled(std::llround(record.start * 1e12), 12).put(',').scaled(std::llround(record.end * 1e12), 12);
  out_.put(',').integer(static_cast<int64_t>(record.operation)).put('\n');
}

void PortalsCsvWriter::finish()
{
  out_.close();
}

} // namespace mpisim::timeline
