// Physical quantities written with units, as in SimGrid platform files ("1Gf", "10Gbps", "50us").
//
// The grammar is SimGrid 3.32's, so that the same files mean the same numbers here and there:
// a number that strtod() accepts, immediately followed by a unit. Results are plain doubles in SI
// base units (flop/s, byte/s, seconds, bytes); the typed boundary is this parser.
//
//   speed      f, kf Mf Gf Tf Pf Ef Zf Yf, flops, kiloflops ... yottaflops (x1000 per step)
//   bandwidth  Bps or bps (1 bps = 0.125 Bps), with a decimal prefix k M G T P E Z Y (x1000)
//              or a binary prefix Ki Mi Gi Ti Pi Ei Zi Yi (x1024). The decimal kilo is lower-case only.
//   time       w d h m s ms us ns ps ("m" is a minute)
//   size       B or b (1 b = 0.125 B), with the same prefixes as bandwidth
//
// A value without unit is deprecated but accepted (as SimGrid does): it is read in the base unit
// (f, Bps, s, B) and reported through the optional warning handler, except 0 which needs no unit.
//
// Errors throw InputError("", 0, message); the message names the offending text. Callers that
// know the file and line catch and re-throw with them.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::units {

// Receives the text of a warning (deprecated unit-less value). May be empty: then nothing is reported.
using WarningHandler = std::function<void(const std::string& message)>;

double parse_speed(std::string_view text, const WarningHandler& warn = {});
double parse_bandwidth(std::string_view text, const WarningHandler& warn = {});
double parse_time(std::string_view text, const WarningHandler& warn = {});
double parse_size(std::string_view text, const WarningHandler& warn = {});

// "1Gf,500Mf,100Mf": one speed per power state, separated by ',' (spaces around items allowed).
std::vector<double> parse_speed_list(std::string_view text, const WarningHandler& warn = {});

} // namespace mpisim::units
