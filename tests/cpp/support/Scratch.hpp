// Test support: a directory for the files one test writes (platforms, hostfiles, parameter files), named after the
// test and removed afterwards.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace mpisim::testing_support {

// "suite_test" of the running test, one path component (parameterized suites are named "prefix/suite").
inline std::string current_test_name()
{
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(test->test_suite_name()) + "_" + test->name();
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

class Scratch {
public:
  Scratch()
  {
    path_ = std::filesystem::temp_directory_path() / ("mpisim_" + current_test_name() + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(path_);
  }
  ~Scratch()
  {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  std::string write(const std::string& name, const std::string& text) const
  {
    const std::string file = (path_ / name).string();
    std::ofstream(file) << text;
    return file;
  }

private:
  std::filesystem::path path_;
};

// The folder of this test program's unique_temp_path() files, removed when the program exits (the tests that write
// them return paths, so no test owns the file).
inline const std::filesystem::path& program_temp_folder()
{
  struct Folder {
    std::filesystem::path path;
    ~Folder()
    {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder{[] {
    auto path = std::filesystem::path(::testing::TempDir()) / ("mpisim_test_files_" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path;
  }()};
  return folder.path;
}

// A file path no other test (nor another process running the same test) uses: ctest runs tests in parallel.
inline std::string unique_temp_path(const std::string& stem)
{
  return (program_temp_folder() / (current_test_name() + "_" + stem)).string();
}

inline std::string cluster4()
{
  return std::string(MPISIM_SOURCE_DIR) + "/examples/replay-basic/cluster4.xml";
}

} // namespace mpisim::testing_support
