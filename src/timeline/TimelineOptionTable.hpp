// The timeline options, declared once (common/OptionTable.hpp) for both front ends: --timeline FILE,
// --timeline-format, --timeline-internals, --timeline-links.
#pragma once

#include "common/OptionTable.hpp"
#include "timeline/TimelineWriter.hpp"

namespace mpisim::timeline {

const options::OptionTable<TimelineOptions>& timeline_option_table();

// The front ends' check after parsing: the refinements mean nothing without a file.
void check_timeline_options(const TimelineOptions& options);

} // namespace mpisim::timeline
