// Scores graphlint's Python call graph on PyCG's micro-benchmark (github
// vitsalis/PyCG at 8d5dc40, kept in shared/benchmarks beside the checkout):
// for every program, the edges graphlint --call-graph-all writes against the
// expected call graph, summed per category and over all programs, as PyCG's
// paper scores call graphs. Prints the table docs/python.md shows.
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using graphsafe::test::makeTempDir;
using graphsafe::test::readFile;
using graphsafe::test::runGraphlint;

namespace {

using Edges = std::set<std::pair<std::string, std::string>>;

// PyCG names modules from the folder it is given; graphlint names a folder
// holding an __init__.py as a package, so its module names carry the
// folder's name first.
std::string fromCaseRoot(const std::string &Name, const std::string &Case) {
  return Name.rfind(Case + ".", 0) == 0 ? Name.substr(Case.size() + 1) : Name;
}

Edges edgesOf(const nlohmann::json &Graph, const std::string &Case) {
  Edges Out;
  for (const auto &[Caller, Callees] : Graph.items())
    for (const auto &Callee : Callees)
      Out.insert({fromCaseRoot(Caller, Case), fromCaseRoot(Callee.get<std::string>(), Case)});
  return Out;
}

struct Score {
  size_t Expected = 0, Reported = 0, Correct = 0;
  void add(const Score &O) {
    Expected += O.Expected;
    Reported += O.Reported;
    Correct += O.Correct;
  }
  double precision() const { return Reported ? double(Correct) / Reported : 1.0; }
  double recall() const { return Expected ? double(Correct) / Expected : 1.0; }
};

fs::path benchmarkRoot() {
  if (const char *Env = std::getenv("GRAPHSAFE_PYCG_BENCHMARK"))
    return Env;
  return fs::path(GRAPHSAFE_SOURCE_DIR) / ".." / "shared" / "benchmarks" / "pycg";
}

} // namespace

TEST(PyCallGraph, PyCGMicroBenchmark) {
  fs::path Snippets = benchmarkRoot() / "micro-benchmark" / "snippets";
  if (!fs::is_directory(Snippets))
    GTEST_SKIP() << "PyCG's micro-benchmark is not at " << Snippets.string()
                 << "; it ships in shared/benchmarks/pycg beside the checkout (or set "
                    "GRAPHSAFE_PYCG_BENCHMARK to the folder holding micro-benchmark/)";
  std::string Tmp = makeTempDir();
  std::map<std::string, Score> ByCategory;
  std::ostringstream Misses;
  size_t Programs = 0;
  std::vector<fs::path> Cases;
  for (const auto &Category : fs::directory_iterator(Snippets))
    for (const auto &Case : fs::directory_iterator(Category.path()))
      if (fs::exists(Case.path() / "callgraph.json"))
        Cases.push_back(Case.path());
  std::sort(Cases.begin(), Cases.end());
  for (const auto &Case : Cases) {
    std::string Category = Case.parent_path().filename().string();
    std::string Name = Case.filename().string();
    std::string Out = Tmp + "/" + Category + "-" + Name + ".json";
    auto R = runGraphlint({"--no-cache", "-q", "--format", "json", "-o", Tmp + "/report.json",
                           "--call-graph", Out, "--call-graph-all", Case.string()});
    ASSERT_LE(R.ExitCode, 1) << Case << ": " << R.Stderr;
    Edges Expected =
        edgesOf(nlohmann::json::parse(readFile((Case / "callgraph.json").string())), Name);
    Edges Got = edgesOf(nlohmann::json::parse(readFile(Out)), Name);
    Score S;
    S.Expected = Expected.size();
    S.Reported = Got.size();
    for (const auto &E : Got)
      if (Expected.count(E))
        ++S.Correct;
      else
        Misses << "  extra   " << Category << "/" << Name << ": " << E.first << " -> " << E.second
               << "\n";
    for (const auto &E : Expected)
      if (!Got.count(E))
        Misses << "  missing " << Category << "/" << Name << ": " << E.first << " -> " << E.second
               << "\n";
    ByCategory[Category].add(S);
    ++Programs;
  }
  Score All;
  std::ostringstream Table;
  Table << "| category | programs' edges | reported | correct | precision | recall |\n"
        << "| --- | ---: | ---: | ---: | ---: | ---: |\n";
  char Line[200];
  for (const auto &[Category, S] : ByCategory) {
    std::snprintf(Line, sizeof Line, "| %s | %zu | %zu | %zu | %.2f | %.2f |\n", Category.c_str(),
                  S.Expected, S.Reported, S.Correct, S.precision(), S.recall());
    Table << Line;
    All.add(S);
  }
  std::snprintf(Line, sizeof Line,
                "| **all %zu programs** | %zu | %zu | %zu | **%.3f** | **%.3f** |\n", Programs,
                All.Expected, All.Reported, All.Correct, All.precision(), All.recall());
  Table << Line;
  std::cout << Table.str() << "Edges that differ:\n" << Misses.str();
  EXPECT_EQ(Programs, 119u);
  EXPECT_GE(All.precision(), GRAPHSAFE_PYCG_MIN_PRECISION);
  EXPECT_GE(All.recall(), GRAPHSAFE_PYCG_MIN_RECALL);
}
