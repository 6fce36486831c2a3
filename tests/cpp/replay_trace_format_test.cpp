// Tests of the trace format registry (replay/TraceFormat.hpp): which format an input picks, and what an input that is
// no readable trace of that format is told.
#include "replay/TraceFormat.hpp"

#include "common/Errors.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace mpisim::replay;
using mpisim::InputError;

namespace {

class TraceFormatTest : public ::testing::Test {
protected:
  void SetUp() override
  {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("mpisim-trace-format-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override
  {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::string write(const std::string& name, const std::string& text) const
  {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // The one-line message open_trace gives, or "" when it opened.
  static std::string open_error(const std::string& trace)
  {
    try {
      open_trace(trace, -1);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(TraceFormatTest, BothFormatsAreRegisteredByName)
{
  std::vector<std::string> names;
  for (const TraceFormatEntry& entry : TraceFormatRegistry::all())
    names.push_back(entry.name);
  EXPECT_EQ(names, (std::vector<std::string>{"otf2", "ti"}));
  for (const TraceFormatEntry& entry : TraceFormatRegistry::all())
    EXPECT_EQ(entry.fallback, entry.name == "ti") << entry.name;
}

TEST_F(TraceFormatTest, AnOtf2AnchorOrItsFolderPicksOtf2)
{
  EXPECT_EQ(TraceFormatRegistry::for_path("run/traces.otf2").name, "otf2"); // by name, even before it exists
  EXPECT_EQ(TraceFormatRegistry::for_path("RUN.OTF2").name, "otf2");
  write("scorep/traces.otf2", "");
  write("scorep/traces.def", "");
  EXPECT_EQ(TraceFormatRegistry::for_path(path("scorep")).name, "otf2");
}

TEST_F(TraceFormatTest, EverythingElseIsATimeIndependentTrace)
{
  EXPECT_EQ(TraceFormatRegistry::for_path(write("index.txt", "rank0.txt\n")).name, "ti");
  EXPECT_EQ(TraceFormatRegistry::for_path(path("lu.S.4.txt")).name, "ti");
  EXPECT_EQ(TraceFormatRegistry::for_path("run.otf2.txt").name, "ti"); // the extension counts, not a part of the name
  write("not-otf2/traces.def", "");
  EXPECT_EQ(TraceFormatRegistry::for_path(path("not-otf2")).name, "ti"); // a folder without an anchor
}

TEST_F(TraceFormatTest, OpensATimeIndependentTraceThroughTheRegistry)
{
  const std::string trace = write("all.txt", "0 init\n0 compute 100\n1 init\n1 compute 5\n");
  TraceSet traces = open_trace(trace, -1);
  EXPECT_EQ(traces.size(), 2);
  EXPECT_TRUE(traces.communicators().empty());
  RankStream rank1 = traces.stream(1);
  TraceAction action;
  ASSERT_TRUE(rank1.next(action));
  EXPECT_EQ(action.kind, ActionKind::Init);
  ASSERT_TRUE(rank1.next(action));
  EXPECT_EQ(action.kind, ActionKind::Compute);
  EXPECT_EQ(action.amount, 5);
  EXPECT_FALSE(rank1.next(action));
}

TEST_F(TraceFormatTest, AnInputNoFormatCanReadSaysWhatIsWrongWithIt)
{
  const std::string missing = path("missing.otf2");
  EXPECT_EQ(open_error(missing), missing + ": no such OTF2 anchor file");
  const std::string garbage = write("garbage.otf2", "this is not an OTF2 anchor file\n");
  const std::string error = open_error(garbage);
  EXPECT_EQ(error.rfind(garbage + ": not a readable OTF2 archive (opening the anchor file", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  const std::string folder = write("folder/traces.otf2", "");
  EXPECT_EQ(open_error(path("folder")).rfind(folder + ": not a readable OTF2 archive (", 0), 0u)
      << open_error(path("folder"));
  // not OTF2: the TI reader's own message
  EXPECT_EQ(open_error(path("nothing.txt")), path("nothing.txt") + ": cannot open: No such file or directory");
}

} // namespace
