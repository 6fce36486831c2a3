// The timeline writer extension point: observers that write what a simulation did (every call of every rank and the
// messages between ranks) into a file a viewer opens.
//
// Adding a format is adding one file that defines a TimelineWriter and registers it with RegisterTimelineWriter; the
// command line (--timeline FILE picks the writer by extension, --timeline-format NAME by name) and the docs read the
// registry.
#pragma once

#include "mpi/Observer.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::timeline {

struct TimelineOptions {
  std::string path;
  std::string format; // a writer's name (chrome, paje, csv); empty: chosen by the path's extension
  // Also the point-to-point messages that collective algorithms send (negative tags); without it a collective is one
  // slice per rank and nothing else.
  bool internals = false;
  // Also the bandwidth each link carries over time (the network model's reports, see models::LinkObserver).
  bool links = false;
  // --portals-csv FILE (mpisim run): the NIC model's Portals-level operations as CSV (timeline/PortalsCsvWriter.hpp).
  std::string portals_csv;
  // What produced the file (mpisim version, inputs, model, parameters), written into it as the format allows.
  std::vector<std::pair<std::string, std::string>> provenance;
};

// Receives calls (when they end) and messages (when they arrive) as an mpi::Observer, and link bandwidth changes as a
// models::LinkObserver (when registered: TimelineOptions::links), and writes them. Writers stream or buffer compactly;
// the order they write in depends only on the order of the reports, so equal runs give equal files.
// NIC models (bxi) report their steps as a models::NicObserver: writers that draw NIC tracks override nic().
class TimelineWriter : public mpi::Observer, public models::LinkObserver, public models::NicObserver {
public:
  void nic(const models::NicRecord&) override {}
  // Completes the file: writes what is buffered and the trailer, and closes it. Called once, after the simulation
  // (also after a failed one, so a deadlock's timeline shows what happened up to it). Throws InputError when the file
  // cannot be written.
  virtual void finish() = 0;
};

struct TimelineWriterEntry {
  std::string name;
  std::vector<std::string> extensions; // lower case, with the dot: ".json"
  std::string description;             // one line
  std::string reference;               // where the format is specified
  std::function<std::unique_ptr<TimelineWriter>(const TimelineOptions&)> factory;
};

class TimelineWriterRegistry {
public:
  static void add(TimelineWriterEntry entry);
  // Throws InputError listing the valid names when `name` is unknown.
  static const TimelineWriterEntry& find(const std::string& name);
  // The writer whose extension ends `path` (case-insensitive); throws InputError listing the extensions otherwise.
  static const TimelineWriterEntry& for_path(const std::string& path);
  static const std::vector<TimelineWriterEntry>& all(); // sorted by name
};

struct RegisterTimelineWriter {
  explicit RegisterTimelineWriter(TimelineWriterEntry entry) { TimelineWriterRegistry::add(std::move(entry)); }
};

// Opens the file and returns its writer: the format named `format`, or the one the path's extension selects when
// `format` is empty. Throws InputError for an unknown format or a file that cannot be created.
std::unique_ptr<TimelineWriter> open_timeline(const TimelineOptions& options, const std::string& format = "");

} // namespace mpisim::timeline
