// Test support: a directory for the files one test writes (platforms, hostfiles, parameter files), named after the
// test and removed afterwards.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace mpisim::testing_support {

class Scratch {
public:
  Scratch()
  {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("mpisim_" + std::string(test->test_suite_name()) + "_" + test->name() + "_" + std::to_string(getpid()));
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

// A file path no other test (nor another process running the same test) uses: ctest runs tests in parallel.
inline std::string unique_temp_path(const std::string& stem)
{
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "/mpisim_" + test->test_suite_name() + "_" + test->name() + "_" +
         std::to_string(getpid()) + "_" + stem;
}

inline std::string cluster4()
{
  return std::string(MPISIM_SOURCE_DIR) + "/examples/replay-basic/cluster4.xml";
}

} // namespace mpisim::testing_support
