// What every fuzz target shares: files to hand the readers (they read paths, not buffers), and the rule that decides
// what is a finding. A reader answering bad input with InputError is doing its job; anything else that escapes (another
// exception), and any crash, sanitizer report, timeout or oversized allocation (libFuzzer's own limits), is a finding.
#pragma once

#include "common/Errors.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

namespace mpisim::fuzz {

// The fuzz input as text (arbitrary bytes, NULs included).
std::string_view input_text(const uint8_t* data, size_t size);

// A folder of this process's own, removed at exit, where inputs are written as files.
const std::string& scratch_folder();

// Writes `content` to scratch_folder()/name and returns the path.
std::string write_scratch_file(const std::string& name, std::string_view content);
// The bytes of a file (the OTF2 anchor, an input replayed from disk); one that cannot be opened is a finding.
std::string file_contents(const std::string& path);
// Removes scratch_folder()/name if it exists.
void remove_scratch_file(const std::string& name);

// `text` cut at the separator lines "\n%%\n": how one input carries several files (an index and its trace files).
std::vector<std::string_view> split_files(std::string_view text);

// Aborts with a message naming the broken expectation: a finding, reported by libFuzzer with the input.
[[noreturn]] void finding(const std::string& what);

// Runs one reader call on one input. InputError is the expected answer to bad input, provided its message is text
// a front end can print (non-empty, valid UTF-8: the file's own bytes must come escaped); any other exception is a
// finding.
template <typename Read> void read_input(Read&& read)
{
  try {
    read();
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (message.empty())
      finding("InputError with an empty message");
    if (printable_text(message) != message)
      finding("InputError message is not valid UTF-8: " + printable_text(message));
  } catch (const std::exception& error) {
    finding(std::string("unexpected exception ") + typeid(error).name() + ": " + printable_text(error.what()));
  }
}

} // namespace mpisim::fuzz
