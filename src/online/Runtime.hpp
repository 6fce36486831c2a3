// Forwarding header: the runtime lives in runtime/ now. Kept for runner/RunnerOptions.hpp, whose include is left to
// the run-options work in progress there; new code includes "online/runtime/Runtime.hpp".
#pragma once

#include "online/runtime/Runtime.hpp"
