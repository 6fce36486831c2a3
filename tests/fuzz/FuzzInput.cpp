#include "FuzzInput.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

namespace mpisim::fuzz {

namespace {

// A fresh folder under TMPDIR, removed when the process exits normally (after a finding, libFuzzer leaves it).
struct ScratchFolder {
  std::string path;

  ScratchFolder() : path((std::filesystem::temp_directory_path() / "mpisim-fuzz-XXXXXX").string())
  {
    if (::mkdtemp(path.data()) == nullptr) {
      std::perror("mpisim fuzz: cannot create a scratch folder");
      std::abort();
    }
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ~ScratchFolder()
  {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

} // namespace

std::string_view input_text(const uint8_t* data, size_t size)
{
  return {reinterpret_cast<const char*>(data), size};
}

const std::string& scratch_folder()
{
  static const ScratchFolder folder;
  return folder.path;
}

std::string write_scratch_file(const std::string& name, std::string_view content)
{
  std::string path = scratch_folder() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (not out) {
    std::perror(("mpisim fuzz: cannot write " + path).c_str());
    std::abort();
  }
  return path;
}

std::string file_contents(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (not in)
    finding("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void remove_scratch_file(const std::string& name)
{
  std::error_code ignored;
  std::filesystem::remove(scratch_folder() + "/" + name, ignored);
}

std::vector<std::string_view> split_files(std::string_view text)
{
  constexpr std::string_view separator = "\n%%\n";
  std::vector<std::string_view> files;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      files.push_back(text.substr(start));
      return files;
    }
    files.push_back(text.substr(start, end - start));
    start = end + separator.size();
  }
}

void finding(const std::string& what)
{
  std::fprintf(stderr, "mpisim fuzz finding: %s\n", what.c_str());
  std::abort();
}

} // namespace mpisim::fuzz
