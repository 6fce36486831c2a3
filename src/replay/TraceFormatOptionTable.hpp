// The options of the trace formats, declared once (common/OptionTable.hpp): `mpisim replay`, `mpisim convert` and
// mpisim.replay / mpisim.convert take them; `mpisim options` and docs/run-options.md list them with the others.
#pragma once

#include "common/OptionTable.hpp"
#include "replay/TraceFormat.hpp"

namespace mpisim::replay {

// --otf2-host-speed.
const options::OptionTable<TraceFormatOptions>& trace_format_option_table();

} // namespace mpisim::replay
