// The one harness for rule behaviour: every case under testdata/lint carries
// its expectations inline, in clang -verify style:
//
//   x.item<float>();  // expected-error {{sync-tensor-read}}
//   // expected-warning@+1 {{host-state-mutation}}
//
// A case is a source file, or a folder whose sources are analysed together
// (cross-TU), with its own rules/ folder if it has one. Python cases live in
// testdata/python and use `# expected-error {{...}}` the same way. The test fails on any
// missing or unexpected (line, severity, rule).
// A file with no expectations must say `expected-no-diagnostics`. What a
// finding says is checked the clang-tidy way, on its target line:
//
//   // CHECK-MESSAGES@+1: replays drop        (its message contains the text)
//   // CHECK-NOTES@+1: is called here under capture   (one of its notes does)
//   // CHECK-FIXES@+1: cudaMemcpyAsync         (one of its fix-its inserts it)
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace graphsafe::test;

namespace {

using Expectation =
    std::tuple<std::string, unsigned, std::string, std::string>; // file, line, sev, rule

bool isSource(const fs::path &P) {
  auto E = P.extension();
  return E == ".cpp" || E == ".cu" || E == ".cc" || E == ".py";
}

// A CHECK-MESSAGES/NOTES/FIXES directive: file, line, what, text.
using TextCheck = std::tuple<std::string, unsigned, std::string, std::string>;

unsigned targetLine(unsigned N, const std::ssub_match &Sign, const std::ssub_match &Num) {
  if (!Num.matched)
    return N;
  unsigned V = std::stoul(Num.str());
  return Sign == "+" ? N + V : Sign == "-" ? N - V : V;
}

std::vector<TextCheck> parseTextChecks(const fs::path &File) {
  static const std::regex Directive(R"(CHECK-(MESSAGES|NOTES|FIXES)(@([+-]?)(\d+))?:\s*(.*\S))");
  std::vector<TextCheck> Out;
  std::istringstream In(readFile(File.string()));
  std::string Line, Name = fs::canonical(File).string();
  for (unsigned N = 1; std::getline(In, Line); ++N) {
    std::smatch M;
    if (std::regex_search(Line, M, Directive))
      Out.push_back({Name, targetLine(N, M[3], M[4]), M[1].str(), M[5].str()});
  }
  return Out;
}

bool saysNoDiagnostics(const fs::path &File) {
  return readFile(File.string()).find("expected-no-diagnostics") != std::string::npos;
}

std::multiset<Expectation> parseExpectations(const fs::path &File) {
  static const std::regex Directive(
      R"(expected-(error|warning|note)(@([+-]?)(\d+))?\s*((\{\{[a-z0-9-]+\}\}\s*)+))");
  static const std::regex Id(R"(\{\{([a-z0-9-]+)\}\})");
  std::multiset<Expectation> Out;
  std::istringstream In(readFile(File.string()));
  std::string Line;
  std::string Name = fs::canonical(File).string();
  for (unsigned N = 1; std::getline(In, Line); ++N) {
    for (std::sregex_iterator It(Line.begin(), Line.end(), Directive), End; It != End; ++It) {
      const std::smatch &M = *It;
      unsigned Target = targetLine(N, M[3], M[4]);
      std::string Ids = M[5].str();
      for (std::sregex_iterator I(Ids.begin(), Ids.end(), Id), E2; I != E2; ++I)
        Out.insert({Name, Target, M[1].str(), (*I)[1].str()});
    }
  }
  return Out;
}

// Cases under testdata/lint (C++ and CUDA) and testdata/python, named by
// their path below testdata.
std::vector<std::string> caseNames() {
  std::vector<std::string> Out;
  for (const char *Dir : {"lint", "python"})
    for (const auto &E : fs::directory_iterator(std::string(GRAPHSAFE_TESTDATA) + "/" + Dir))
      if ((E.is_regular_file() && isSource(E.path())) ||
          (E.is_directory() && E.path().filename() != "include" &&
           E.path().filename() != "__pycache__"))
        Out.push_back(std::string(Dir) + "/" + E.path().filename().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string describe(const Expectation &E) {
  return std::get<0>(E) + ":" + std::to_string(std::get<1>(E)) + ": " + std::get<2>(E) + " [" +
         std::get<3>(E) + "]";
}

class LintCase : public ::testing::TestWithParam<std::string> {};

TEST_P(LintCase, FindingsMatchInlineExpectations) {
  fs::path Case = fs::path(GRAPHSAFE_TESTDATA) / GetParam();
  std::vector<fs::path> Sources;
  if (fs::is_directory(Case)) {
    for (const auto &E : fs::recursive_directory_iterator(Case))
      if (E.is_regular_file() && (isSource(E.path()) || E.path().extension() == ".h"))
        Sources.push_back(E.path());
  } else {
    Sources.push_back(Case);
  }
  std::sort(Sources.begin(), Sources.end());
  std::multiset<Expectation> Expected;
  std::vector<TextCheck> TextChecks;
  std::vector<std::string> Args = {"--format", "json", "-j", "2"};
  // A case folder may carry its own rules (house rules, capture files).
  if (fs::is_directory(Case / "rules"))
    Args.insert(Args.end(), {"--rules", (Case / "rules").string()});
  for (const auto &S : Sources) {
    auto E = parseExpectations(S);
    // clang -verify's rule: a file that expects nothing says so, so a file
    // whose directives were mistyped cannot pass by expecting nothing.
    if (isSource(S))
      EXPECT_NE(E.empty(), !saysNoDiagnostics(S))
          << S.string()
          << (E.empty() ? ": no expectations; add `// expected-no-diagnostics` if none is right"
                        : ": says expected-no-diagnostics but carries expectations");
    Expected.insert(E.begin(), E.end());
    auto T = parseTextChecks(S);
    TextChecks.insert(TextChecks.end(), T.begin(), T.end());
    if (isSource(S))
      Args.push_back(S.string());
  }
  // Python cases run as users run them on scripts: no compile flags at all.
  bool AnyCxx = std::any_of(Sources.begin(), Sources.end(),
                            [](const fs::path &S) { return S.extension() != ".py"; });
  if (AnyCxx) {
    Args.push_back("--");
    for (const auto &F : lintCompilerFlags())
      Args.push_back(F);
    Args.push_back("-I" + (fs::is_directory(Case) ? Case : Case.parent_path()).string());
  }

  RunResult R = runGraphlint(Args);
  ASSERT_NE(R.Stdout, "") << "graphlint printed nothing; stderr:\n" << R.Stderr;
  nlohmann::json J = nlohmann::json::parse(R.Stdout);
  ASSERT_TRUE(J["errors"].empty()) << "graphlint could not analyse the case:\n"
                                   << J["errors"].dump(2);
  // A case is read whole: a line the parser could not read is a gap of the
  // tool, not an expectation.
  EXPECT_TRUE(J["warnings"].empty()) << "graphlint could not read all of the case:\n"
                                     << J["warnings"].dump(2);
  std::multiset<Expectation> Actual;
  for (const auto &F : J["findings"])
    Actual.insert({fs::weakly_canonical(F["location"]["file"].get<std::string>()).string(),
                   F["location"]["line"].get<unsigned>(), F["severity"].get<std::string>(),
                   F["rule"].get<std::string>()});

  std::string Missing, Unexpected;
  for (const auto &E : Expected)
    if (Actual.count(E) < Expected.count(E) && Missing.find(describe(E)) == std::string::npos)
      Missing += "  " + describe(E) + "\n";
  for (const auto &A : Actual)
    if (Expected.count(A) < Actual.count(A) && Unexpected.find(describe(A)) == std::string::npos)
      Unexpected += "  " + describe(A) + "\n";
  EXPECT_TRUE(Missing.empty()) << "expected but not reported:\n" << Missing;
  for (const auto &[File, Line, What, Text] : TextChecks) {
    bool Found = false;
    for (const auto &F : J["findings"]) {
      if (fs::weakly_canonical(F["location"]["file"].get<std::string>()).string() != File ||
          F["location"]["line"].get<unsigned>() != Line)
        continue;
      if (What == "MESSAGES")
        Found |= F["message"].get<std::string>().find(Text) != std::string::npos;
      for (const auto &N : F["notes"])
        Found |= What == "NOTES" && N["message"].get<std::string>().find(Text) != std::string::npos;
      for (const auto &X : F["fixits"])
        Found |=
            What == "FIXES" && X["replacement"].get<std::string>().find(Text) != std::string::npos;
    }
    EXPECT_TRUE(Found) << File << ":" << Line << ": CHECK-" << What << " not satisfied: no finding "
                       << "there with '" << Text << "'";
  }
  EXPECT_TRUE(Unexpected.empty()) << "reported but not expected:\n" << Unexpected;
  bool Failing = std::any_of(Expected.begin(), Expected.end(),
                             [](const Expectation &E) { return std::get<2>(E) != "note"; });
  EXPECT_EQ(R.ExitCode, Failing ? 1 : 0) << R.Stderr;
}

INSTANTIATE_TEST_SUITE_P(Testdata, LintCase, ::testing::ValuesIn(caseNames()),
                         [](const auto &Info) {
                           std::string N = Info.param;
                           for (char &C : N)
                             if (!isalnum(static_cast<unsigned char>(C)))
                               C = '_';
                           return N;
                         });

// Guards against a harness that accepts anything: the parser must see the
// directives that the sync case is known to carry.
TEST(LintHarness, ParsesDirectivesWithOffsets) {
  std::string Dir = makeTempDir();
  fs::path P = fs::path(Dir) / "case.cpp";
  std::ofstream(P)
      << "// expected-warning@+2 {{a-rule}}\n\nx;\ny; // expected-error {{b-rule}} {{c-rule}}\n";
  auto E = parseExpectations(P);
  std::string Name = fs::canonical(P).string();
  EXPECT_EQ(E.size(), 3u);
  EXPECT_EQ(E.count({Name, 3, "warning", "a-rule"}), 1u);
  EXPECT_EQ(E.count({Name, 4, "error", "b-rule"}), 1u);
  EXPECT_EQ(E.count({Name, 4, "error", "c-rule"}), 1u);
  std::ofstream(P) << "// CHECK-MESSAGES@+1: replays drop\nx; // CHECK-FIXES: Async(\n";
  auto T = parseTextChecks(P);
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0], TextCheck(Name, 2, "MESSAGES", "replays drop"));
  EXPECT_EQ(T[1], TextCheck(Name, 2, "FIXES", "Async("));
  fs::remove_all(Dir);
}

} // namespace
