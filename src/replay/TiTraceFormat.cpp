// SimGrid's time-independent traces (TraceReader.hpp): the format assumed when no other recognises the input.
#include "replay/TraceFormat.hpp"

namespace mpisim::replay {
namespace {

const RegisterTraceFormat kRegister({
    .name = "ti",
    .description = "SimGrid time-independent traces: an index of per-rank files, or one file for every rank",
    .reference = "SimGrid 3.32 documentation, \"Offline SMPI\" (smpirun -trace-ti, smpirun -replay)",
    .recognises = [](const std::string&) { return true; },
    .fallback = true,
    .open = [](const std::string& path, int np, const TraceFormatOptions&) { return TraceSet::open(path, np); },
});

} // namespace
} // namespace mpisim::replay
