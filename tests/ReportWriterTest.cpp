#include "graphsafe/ReportWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace graphsafe;

namespace {

Report sampleReport() {
  Report R;
  Finding F;
  F.RuleId = "sync-demo";
  F.Level = Severity::Error;
  F.Message = "'item' syncs";
  F.Loc = {"/src/train.cpp", 12, 7};
  F.Notes.push_back({"'step' is called here under capture", {"/src/train.cpp", 30, 3}});
  F.Notes.push_back({"the capture region begins here", {"/src/train.cpp", 28, 3}});
  F.FixIts.push_back({{"/src/train.cpp", 12, 3}, {"/src/train.cpp", 12, 13}, "cudaMemcpyAsync"});
  F.Fix = "keep it on the device";
  R.Findings.push_back(F);
  Finding W = F;
  W.RuleId = "host-demo";
  W.Level = Severity::Warning;
  W.Loc = {"/src/a.cpp", 3, 1};
  W.Notes.clear();
  W.FixIts.clear();
  R.Findings.push_back(W);
  R.sort();
  return R;
}

RuleSet sampleRules() {
  RuleSet S;
  Rule R;
  R.Id = "sync-demo";
  R.Level = Severity::Error;
  R.Category = "sync";
  R.Summary = "syncs";
  R.Why = "capture breaks";
  R.Fix = "do not";
  R.See = {"https://pytorch.org/docs/stable/notes/cuda.html"};
  S.Rules.push_back(R);
  return S;
}

TEST(TextWriter, ClangStyleLinesWithNotes) {
  std::ostringstream OS;
  WriteOptions O;
  O.ShowSource = false;
  O.ToolName = "graphlint";
  writeText(OS, sampleReport(), O);
  std::string T = OS.str();
  EXPECT_NE(T.find("/src/a.cpp:3:1: warning: 'item' syncs [host-demo]\n"), std::string::npos) << T;
  EXPECT_NE(T.find("/src/train.cpp:12:7: error: 'item' syncs [sync-demo]\n"), std::string::npos)
      << T;
  EXPECT_NE(T.find("/src/train.cpp:30:3: note: 'step' is called here under capture\n"),
            std::string::npos);
  EXPECT_NE(T.find("graphlint: 1 error(s), 1 warning(s), 0 note(s)"), std::string::npos);
  // Sorted by file: a.cpp before train.cpp.
  EXPECT_LT(T.find("a.cpp:3:1"), T.find("train.cpp:12:7"));
}

TEST(JsonWriter, CarriesEveryField) {
  std::ostringstream OS;
  writeJson(OS, sampleReport(), WriteOptions{});
  auto J = nlohmann::json::parse(OS.str());
  ASSERT_EQ(J["findings"].size(), 2u);
  const auto &F = J["findings"][1];
  EXPECT_EQ(F["rule"], "sync-demo");
  EXPECT_EQ(F["severity"], "error");
  EXPECT_EQ(F["location"]["line"], 12);
  EXPECT_EQ(F["notes"].size(), 2u);
  EXPECT_EQ(F["fixits"][0]["replacement"], "cudaMemcpyAsync");
  EXPECT_TRUE(J["complete"].get<bool>());
}

TEST(SarifWriter, ProducesSarif210WithRulesAndRelatedLocations) {
  std::ostringstream OS;
  RuleSet Rules = sampleRules();
  WriteOptions O;
  O.Rules = &Rules;
  O.ToolName = "graphlint";
  O.BaseDir = "/src";
  writeSarif(OS, sampleReport(), O);
  auto J = nlohmann::json::parse(OS.str());
  EXPECT_EQ(J["version"], "2.1.0");
  const auto &Run = J["runs"][0];
  const auto &Driver = Run["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "graphlint");
  ASSERT_EQ(Driver["rules"].size(), 1u);
  EXPECT_EQ(Driver["rules"][0]["id"], "sync-demo");
  EXPECT_EQ(Driver["rules"][0]["shortDescription"]["text"], "syncs");
  EXPECT_EQ(Driver["rules"][0]["defaultConfiguration"]["level"], "error");
  const auto &Res = Run["results"][1];
  EXPECT_EQ(Res["ruleId"], "sync-demo");
  EXPECT_EQ(Res["ruleIndex"], 0);
  EXPECT_EQ(Res["level"], "error");
  const auto &Phys = Res["locations"][0]["physicalLocation"];
  EXPECT_EQ(Phys["artifactLocation"]["uri"], "train.cpp");
  EXPECT_EQ(Phys["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(Phys["region"]["startLine"], 12);
  EXPECT_EQ(Res["relatedLocations"].size(), 2u);
  EXPECT_EQ(Res["relatedLocations"][1]["physicalLocation"]["region"]["startLine"], 28);
  EXPECT_EQ(Res["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"],
            "cudaMemcpyAsync");
  // A finding whose rule is not loaded still gets a result, without an index.
  EXPECT_FALSE(Run["results"][0].contains("ruleIndex"));
}

// Found by fuzzing: a path, name or message that is not UTF-8 (a Latin-1
// source file, a kernel name from a trace) made the JSON writers throw.
TEST(ReportWriter, InvalidUtf8StaysValidJson) {
  Report R;
  R.Tool = "graphlint";
  Finding F;
  F.RuleId = "sync-tensor-read";
  F.Message = "caf\xe9 \xff\xfe";
  F.Loc = {"/src/d\xe9j\xe0.cpp", 3, 1};
  F.Runtime = RuntimeLoc{"g\xff", "0", "k\xfe", ""};
  R.Findings.push_back(F);
  R.Errors.push_back({"x\xff.cpp", "bad \xfe"});
  WriteOptions WO;
  for (auto Format : {ReportFormat::Json, ReportFormat::Sarif}) {
    std::ostringstream OS;
    ASSERT_NO_THROW(writeReport(Format, OS, R, WO));
    auto J = nlohmann::json::parse(OS.str(), nullptr, false);
    EXPECT_FALSE(J.is_discarded());
    EXPECT_NE(OS.str().find("caf\xef\xbf\xbd"), std::string::npos); // U+FFFD in place.
  }
}

TEST(ReportWriter, IncompleteReportSaysSo) {
  Report R = sampleReport();
  R.Errors.push_back({"bad.cpp", "does not parse"});
  R.Complete = false;
  std::ostringstream Text, Sarif;
  WriteOptions O;
  O.ShowSource = false;
  writeText(Text, R, O);
  writeSarif(Sarif, R, O);
  EXPECT_NE(Text.str().find("bad.cpp: error: does not parse"), std::string::npos);
  EXPECT_NE(Text.str().find("incomplete"), std::string::npos);
  auto J = nlohmann::json::parse(Sarif.str());
  EXPECT_FALSE(J["runs"][0]["invocations"][0]["executionSuccessful"].get<bool>());
}

} // namespace

TEST(Report, SortKeepsDistinctRuntimeFindingsWithoutSourceLocation) {
  Report R;
  Finding A;
  A.RuleId = "grad-aliases-graph-buffer";
  A.Message = "weight.grad aliases";
  Finding B = A;
  B.Message = "bias.grad aliases";
  Finding Dup = A;
  Finding OtherTest = A; // The same hazard made by a second test is that test's finding.
  OtherTest.Test = "tests/test_a.py::test_b";
  R.Findings = {A, B, Dup, OtherTest};
  R.sort();
  ASSERT_EQ(R.Findings.size(), 3u);
  EXPECT_EQ(R.Findings[0].Message, "bias.grad aliases");
  EXPECT_EQ(R.Findings[2].Test, "tests/test_a.py::test_b");
}

// The report in text, JSON and SARIF (the JSON ones parsed).
struct Written {
  std::string Text;
  nlohmann::json Json, Sarif;
};

Written writeAll(const Report &R) {
  WriteOptions O;
  O.ShowSource = false;
  std::ostringstream Text, Json, Sarif;
  writeText(Text, R, O);
  writeJson(Json, R, O);
  writeSarif(Sarif, R, O);
  return {Text.str(), nlohmann::json::parse(Json.str()), nlohmann::json::parse(Sarif.str())};
}

// A finding of a run with several ranks names them in every format.
TEST(ReportWriter, ProcessesOfAFindingAreNamed) {
  Report R = sampleReport();
  R.Findings[0].Processes = {"rank 0", "rank 1"};
  Written W = writeAll(R);
  EXPECT_NE(W.Text.find("  in rank 0, rank 1\n"), std::string::npos) << W.Text;
  EXPECT_EQ(W.Json["findings"][0]["processes"], nlohmann::json({"rank 0", "rank 1"}));
  EXPECT_FALSE(W.Json["findings"][1].contains("processes"));
  EXPECT_EQ(W.Sarif["runs"][0]["results"][0]["properties"]["processes"],
            nlohmann::json({"rank 0", "rank 1"}));
}

// A finding of a pytest run names the test that made it in every format.
TEST(ReportWriter, TestOfAFindingIsNamed) {
  Report R = sampleReport();
  R.Findings[0].Test = "tests/test_a.py::test_b";
  Written W = writeAll(R);
  EXPECT_NE(W.Text.find("  test: tests/test_a.py::test_b\n"), std::string::npos) << W.Text;
  EXPECT_EQ(W.Json["findings"][0]["test"], "tests/test_a.py::test_b");
  EXPECT_FALSE(W.Json["findings"][1].contains("test"));
  EXPECT_EQ(W.Sarif["runs"][0]["results"][0]["properties"]["test"], "tests/test_a.py::test_b");
}

namespace {

size_t count(const std::string &Text, const std::string &Part) {
  size_t N = 0;
  for (size_t At = Text.find(Part); At != std::string::npos; At = Text.find(Part, At + 1))
    ++N;
  return N;
}

} // namespace

TEST(JunitWriter, OneCasePerTestAFailurePerFindingNotesAsOutput) {
  Report R;
  R.Units = {"tests/test_a.py::test_ok", "tests/test_a.py::TestG::test_bad[2]"};
  Finding F;
  F.RuleId = "sync-during-capture";
  F.Level = Severity::Error;
  F.Message = "'cudaStreamSynchronize' called while graph g0 was being captured";
  F.Loc = {"tests/test_a.py", 21, 0};
  F.Test = "tests/test_a.py::TestG::test_bad[2]";
  R.Findings.push_back(F);
  F.RuleId = "replay-input-overwritten";
  R.Findings.push_back(F);
  F.RuleId = "capture-reach-unknown";
  F.Level = Severity::Note;
  R.Findings.push_back(F);
  F.Test.clear(); // Made outside any test: its file's case.
  F.Level = Severity::Warning;
  F.Loc = {"/repo/tests/conftest.py", 5, 0};
  R.Findings.push_back(F);
  WriteOptions O;
  O.ToolName = "graphcheck";
  O.BaseDir = "/repo";
  std::ostringstream OS;
  writeJunit(OS, R, O);
  std::string X = OS.str();
  EXPECT_NE(X.find("<testsuites name=\"graphcheck\" tests=\"3\" failures=\"2\" errors=\"0\">"),
            std::string::npos)
      << X;
  EXPECT_NE(X.find("<testcase classname=\"tests.test_a\" name=\"test_ok\" "
                   "file=\"tests/test_a.py\"/>"),
            std::string::npos)
      << X;
  EXPECT_NE(X.find("<testcase classname=\"tests.test_a.TestG\" name=\"test_bad[2]\""),
            std::string::npos);
  EXPECT_NE(X.find("<testcase classname=\"graphcheck\" name=\"tests/conftest.py\""),
            std::string::npos);
  EXPECT_EQ(count(X, "<failure "), 3u);
  EXPECT_NE(X.find("<failure type=\"sync-during-capture\" message=\"error: &apos;"
                   "cudaStreamSynchronize&apos; called"),
            std::string::npos);
  EXPECT_EQ(count(X, "<system-out>"), 1u);
  EXPECT_LT(X.find("<system-out>"), X.find("tests/conftest.py"));
}

TEST(JunitWriter, FilesAreCasesAndToolErrorsAnErrorCase) {
  Report R = sampleReport();
  R.Units = {"/src/clean.cpp", "/src/train.cpp", "/src/a.cpp"};
  R.Findings[0].Message = "bad \x01 byte \xff and <tag> & \"quote\"";
  R.Errors.push_back({"/src/broken.cpp", "does not parse"});
  WriteOptions O;
  O.ToolName = "graphlint";
  O.BaseDir = "/src";
  std::ostringstream OS;
  writeJunit(OS, R, O);
  std::string X = OS.str();
  EXPECT_NE(X.find("tests=\"4\" failures=\"2\" errors=\"1\""), std::string::npos) << X;
  EXPECT_NE(X.find("<testcase classname=\"graphlint\" name=\"clean.cpp\" file=\"clean.cpp\"/>"),
            std::string::npos)
      << X;
  EXPECT_NE(X.find("bad ? byte ? and &lt;tag&gt; &amp; &quot;quote&quot;"), std::string::npos) << X;
  EXPECT_NE(X.find("<error type=\"tool-error\" message=\"/src/broken.cpp: does not parse\">"),
            std::string::npos);
}
