// A fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each input it is given, so that what the
// fuzzers know (past findings, hand-made seeds, the generated corpus) is replayed by `make test` with the tests'
// compiler and sanitizers (CorpusTests.cmake). Arguments: files, or folders whose regular files are taken in name
// order; a folder that does not exist holds nothing. A finding aborts (FuzzInput.hpp's finding(), a sanitizer
// report); finding no input at all is an error too, so that a test cannot pass on an empty corpus.
#include "FuzzInput.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Defined by the targets that set limits before their first input; null in the others.
extern "C" [[gnu::weak]] int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

std::vector<std::filesystem::path> inputs_in(int argc, char** argv)
{
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path given = argv[i];
    if (fs::is_regular_file(given)) {
      inputs.push_back(given);
    } else if (fs::is_directory(given)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry& entry : fs::directory_iterator(given))
        if (entry.is_regular_file())
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    }
  }
  return inputs;
}

} // namespace

int main(int argc, char** argv)
{
  if (LLVMFuzzerInitialize != nullptr)
    LLVMFuzzerInitialize(&argc, &argv);
  const std::vector<std::filesystem::path> inputs = inputs_in(argc, argv);
  if (inputs.empty()) {
    std::fprintf(stderr, "%s: no input found in the folders given\n", argv[0]);
    return 2;
  }
  for (const std::filesystem::path& input : inputs) {
    const std::string bytes = mpisim::fuzz::file_contents(input.string());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu inputs, no finding\n", inputs.size());
  return 0;
}
