#include "graphsafe/Baseline.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace graphsafe;
namespace fs = std::filesystem;

namespace {

class BaselineTest : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = fs::temp_directory_path() / ("graphsafe-baseline-" + std::to_string(::getpid()));
    fs::create_directories(Dir);
    Src = (Dir / "train.cpp").string();
    std::ofstream(Src) << "void f() {\n  x.item();\n  y.item();\n}\n";
  }
  void TearDown() override { fs::remove_all(Dir); }

  Finding at(unsigned Line) {
    Finding F;
    F.RuleId = "sync-tensor-read";
    F.Loc = {Src, Line, 3};
    return F;
  }

  fs::path Dir;
  std::string Src;
};

TEST_F(BaselineTest, RoundTripFiltersRecordedFindingsOnly) {
  Report Old;
  Old.Findings = {at(2)};
  Baseline B;
  B.setRoot(Dir.string());
  std::string Err;
  ASSERT_TRUE(B.save((Dir / "base.json").string(), Old, Err)) << Err;

  Baseline Loaded;
  Loaded.setRoot(Dir.string());
  ASSERT_TRUE(Loaded.load((Dir / "base.json").string(), Err)) << Err;
  Report Now;
  Now.Findings = {at(2), at(3)};
  EXPECT_EQ(Loaded.filter(Now), 1u);
  ASSERT_EQ(Now.Findings.size(), 1u);
  EXPECT_EQ(Now.Findings[0].Loc.Line, 3u);
}

TEST_F(BaselineTest, SurvivesLinesMovingDown) {
  Report Old;
  Old.Findings = {at(2)};
  Baseline B;
  std::string Err;
  ASSERT_TRUE(B.save((Dir / "base.json").string(), Old, Err));
  std::ofstream(Src) << "// new header comment\nvoid f() {\n  x.item();\n  y.item();\n}\n";
  Baseline Loaded;
  ASSERT_TRUE(Loaded.load((Dir / "base.json").string(), Err));
  Report Now;
  Now.Findings = {at(3)};
  EXPECT_EQ(Loaded.filter(Now), 1u);
  EXPECT_TRUE(Now.Findings.empty());
}

TEST_F(BaselineTest, MalformedFileIsAClearError) {
  std::ofstream(Dir / "bad.json") << "{ not json";
  Baseline B;
  std::string Err;
  EXPECT_FALSE(B.load((Dir / "bad.json").string(), Err));
  EXPECT_NE(Err.find("bad.json"), std::string::npos);
  EXPECT_NE(Err.find("--write-baseline"), std::string::npos);
  EXPECT_FALSE(B.load((Dir / "missing.json").string(), Err));
  EXPECT_NE(Err.find("cannot open"), std::string::npos);
}

// Found by fuzz_baseline: a count out of unsigned range was converted with
// undefined behaviour instead of being refused.
TEST_F(BaselineTest, CountMustBeANonNegativeInteger) {
  for (const char *Count : {"1.44444e+62", "-1", "2.5", "\"3\"", "99999999999"}) {
    std::ofstream(Dir / "count.json")
        << R"({"version":1,"findings":[{"rule":"r","file":"f","code":"c","count":)" << Count
        << "}]}";
    Baseline B;
    std::string Err;
    EXPECT_FALSE(B.load((Dir / "count.json").string(), Err)) << Count;
    EXPECT_NE(Err.find("\"count\" must be a non-negative integer"), std::string::npos) << Err;
  }
  std::ofstream(Dir / "count.json")
      << R"({"version":1,"findings":[{"rule":"r","file":"f","code":"c","count":2}]})";
  Baseline B;
  std::string Err;
  EXPECT_TRUE(B.load((Dir / "count.json").string(), Err)) << Err;
}

} // namespace
