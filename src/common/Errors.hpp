// Error hierarchy shared by every layer.
//
// Two families, kept apart so front ends can map them to exit codes:
//  - InputError: the user's files or arguments are wrong (exit status 2). Carries file and line.
//  - SimulationError: the simulated application failed (deadlock: exit status 124, rank crash, ...).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace mpisim {

// Bad input: malformed file, unknown name, wrong argument. what() is "FILE:LINE: message"
// (or "FILE: message" when line is 0, or just "message" when file is empty), through printable_text().
class InputError : public std::runtime_error {
public:
  InputError(std::string file, long line, const std::string& message);
  explicit InputError(const std::string& message) : InputError("", 0, message) {}

  const std::string& file() const { return file_; }
  long line() const { return line_; }
  const std::string& message() const { return message_; }

private:
  std::string file_;
  long line_;
  std::string message_;
};

// The simulated application cannot go on.
class SimulationError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Every remaining actor is blocked and no event is pending. what() lists what each one waits for.
class DeadlockError : public SimulationError {
public:
  using SimulationError::SimulationError;
};

// `text` with every byte that is not part of well-formed UTF-8 written as \xNN, so that a message quoting a file's
// bytes can be shown (and decoded by Python) whatever the file holds; well-formed text is returned unchanged.
std::string printable_text(std::string_view text);

} // namespace mpisim
