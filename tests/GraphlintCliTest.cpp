// graphlint as users run it: exit codes, bad input, formats, baselines,
// compile databases and parallel runs.
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using namespace graphsafe::test;

namespace {

const char *Unsafe = R"(#include <cuda_runtime.h>
void step(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, nullptr);
}
)";

const char *Clean = R"(#include <cuda_runtime.h>
void step(cudaStream_t s) {
  cudaDeviceSynchronize();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, nullptr);
}
)";

class GraphlintCli : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDir(); }
  void TearDown() override { fs::remove_all(Dir); }
  std::string write(const std::string &Name, const std::string &Text) {
    fs::path P = fs::path(Dir) / Name;
    fs::create_directories(P.parent_path());
    std::ofstream(P) << Text;
    return P.string();
  }
  std::string Dir;
};

TEST_F(GraphlintCli, ExitCodesFollowFailOn) {
  std::string U = write("u.cpp", Unsafe), C = write("c.cpp", Clean);
  EXPECT_EQ(runGraphlint({C, "--", "-std=c++17"}).ExitCode, 0);
  RunResult R = runGraphlint({U, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_NE(R.Stdout.find("u.cpp:4:3: error:"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("[sync-device-synchronize]"), std::string::npos);
  EXPECT_NE(R.Stdout.find("u.cpp:3:3: note: the capture region begins here"), std::string::npos);
  // Raising the bar above the finding's severity makes it pass.
  std::string House = write(
      "house/sync.yaml", readFile(std::string(GRAPHSAFE_RULES) + "/sync-device-synchronize.yaml"));
  std::string Text = readFile(House);
  Text.replace(Text.find("severity: error"), 15, "severity: note");
  std::ofstream(House) << Text;
  EXPECT_EQ(runGraphlint({U, "--rules", fs::path(House).parent_path().string(), "--", "-std=c++17"})
                .ExitCode,
            0);
}

TEST_F(GraphlintCli, UnparsableFileIsReportedAndOthersStillAnalysed) {
  std::string Bad = write("bad.cpp", "void f( {\n");
  std::string U = write("u.cpp", Unsafe);
  RunResult R = runGraphlint({"--format", "json", Bad, U, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 2);
  auto J = nlohmann::json::parse(R.Stdout);
  EXPECT_FALSE(J["complete"].get<bool>());
  ASSERT_EQ(J["errors"].size(), 1u);
  EXPECT_NE(J["errors"][0]["where"].get<std::string>().find("bad.cpp"), std::string::npos);
  EXPECT_NE(J["errors"][0]["message"].get<std::string>().find("does not parse"), std::string::npos);
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(J["findings"][0]["rule"], "sync-device-synchronize");
}

// What users feed a linter by accident, in one database: a Latin-1 file,
// binary garbage named .cpp, a missing include, an entry whose file is gone,
// and a generated file of a million lines. Each problem is named with its
// file and reason, exit 2, and every file that can be analysed is, with its
// findings; the JSON report stays valid.
TEST_F(GraphlintCli, BadInputIsNamedAndEverythingElseIsAnalysed) {
  std::string Latin1 = write("latin1.cpp", std::string("// caf\xe9 \xff\n") + Unsafe);
  static const char Binary[] = "\x7f"
                               "ELF\x02\x01\x01\0\0\xff\xfe{{";
  std::string Garbage = write("garbage.cpp", std::string(Binary, sizeof Binary - 1));
  std::string Missing = write("missing.cpp", "#include \"nope.h\"\nint x;\n");
  std::string Big = Dir + "/big.cpp";
  {
    std::ofstream Out(Big);
    for (int I = 0; I < 1000000; ++I)
      Out << "int v" << I << " = " << I << ";\n";
    std::string Text = Unsafe;
    Out << Text.replace(Text.find("step"), 4, "bigStep"); // Distinct functions, as the ODR demands.
  }
  nlohmann::json DB = nlohmann::json::array();
  for (const auto &F : {Latin1, Garbage, Missing, Big, Dir + "/deleted.cpp"})
    DB.push_back({{"directory", Dir}, {"file", F}, {"command", "c++ -std=c++17 -c " + F}});
  std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  RunResult R = runGraphlint({"-p", Dir, "--format", "json", "--no-cache"});
  EXPECT_EQ(R.ExitCode, 2);
  auto J = nlohmann::json::parse(R.Stdout);
  std::map<std::string, std::string> Errors;
  for (const auto &E : J["errors"])
    Errors[fs::path(E["where"].get<std::string>()).filename().string()] =
        E["message"].get<std::string>();
  EXPECT_EQ(Errors.size(), 3u) << J["errors"].dump(2);
  EXPECT_NE(Errors["garbage.cpp"].find("does not parse"), std::string::npos);
  EXPECT_NE(Errors["missing.cpp"].find("'nope.h' file not found"), std::string::npos);
  EXPECT_NE(Errors["deleted.cpp"].find("does not exist"), std::string::npos);
  std::vector<std::string> Found;
  for (const auto &F : J["findings"])
    Found.push_back(fs::path(F["location"]["file"].get<std::string>()).filename().string() + " " +
                    F["rule"].get<std::string>());
  std::sort(Found.begin(), Found.end());
  EXPECT_EQ(Found, (std::vector<std::string>{"big.cpp sync-device-synchronize",
                                             "latin1.cpp sync-device-synchronize"}));
}

TEST_F(GraphlintCli, MissingFileAndMissingDatabaseSayWhatToDo) {
  RunResult R = runGraphlint({(fs::path(Dir) / "nope.cpp").string(), "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stdout.find("nope.cpp: error: file does not exist"), std::string::npos) << R.Stdout;
  R = runGraphlint({"-p", Dir});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("compile_commands.json"), std::string::npos) << R.Stderr;
  EXPECT_NE(R.Stderr.find("CMAKE_EXPORT_COMPILE_COMMANDS"), std::string::npos);
}

TEST_F(GraphlintCli, MalformedRuleFileIsNamedAndOtherRulesStillRun) {
  std::string U = write("u.cpp", Unsafe);
  write("house/broken.yaml", "id: broken\nseverity: loud\n");
  RunResult R = runGraphlint({"--rules", Dir + "/house", U, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stdout.find("broken.yaml:2: error: severity must be error, warning or note"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("[sync-device-synchronize]"), std::string::npos);
}

TEST_F(GraphlintCli, CompileDatabaseAndParallelRunsAreDeterministic) {
  std::vector<std::string> Files;
  nlohmann::json DB = nlohmann::json::array();
  for (int I = 0; I < 4; ++I) {
    std::string Text = Unsafe;
    Text.replace(Text.find("step"), 4,
                 "step" + std::to_string(I)); // Distinct functions, as the ODR demands.
    Files.push_back(write("tu" + std::to_string(I) + ".cpp", Text));
    DB.push_back({{"directory", Dir},
                  {"file", Files.back()},
                  {"command", "c++ -std=c++17 -c " + Files.back()}});
  }
  std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  RunResult One = runGraphlint({"-p", Dir, "-j", "1", "--format", "json"});
  RunResult Two = runGraphlint({"-p", Dir, "-j", "2", "--format", "json"});
  EXPECT_EQ(One.ExitCode, 1);
  EXPECT_EQ(One.Stdout, Two.Stdout);
  EXPECT_EQ(nlohmann::json::parse(One.Stdout)["findings"].size(), 4u);
}

// pre-commit hands graphlint the changed files only: a file whose function is
// reached from a capture region in another file of the database must still
// get the findings the whole-database run gives it, and no others.
TEST_F(GraphlintCli, NamedFilesOfADatabaseGetTheWholeDatabasesFindings) {
  std::string Helper = write("helper.cpp", "#include <cuda_runtime.h>\n"
                                           "void helper() {\n"
                                           "  cudaDeviceSynchronize();\n"
                                           "}\n");
  std::string Main = write("main.cpp", "#include <cuda_runtime.h>\n"
                                       "void helper();\n"
                                       "void step(cudaStream_t s) {\n"
                                       "  cudaGraph_t g;\n"
                                       "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                                       "  helper();\n"
                                       "  cudaStreamQuery(s);\n"
                                       "  cudaStreamEndCapture(s, &g);\n"
                                       "}\n");
  nlohmann::json DB = nlohmann::json::array();
  for (const auto &F : {Helper, Main})
    DB.push_back({{"directory", Dir}, {"file", F}, {"command", "c++ -std=c++17 -c " + F}});
  std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  auto findingsIn = [](const std::string &Json, const std::string &File) {
    std::vector<std::string> Out;
    const auto Report = nlohmann::json::parse(Json);
    for (const auto &F : Report["findings"])
      if (F["location"]["file"].get<std::string>().find(File) != std::string::npos)
        Out.push_back(F["rule"].get<std::string>() + ":" +
                      std::to_string(F["location"]["line"].get<int>()));
    return Out;
  };
  RunResult Whole = runGraphlint({"-p", Dir, "--format", "json"});
  RunResult Alone = runGraphlint({"-p", Dir, "--format", "json", Helper});
  ASSERT_EQ(Whole.ExitCode, 1) << Whole.Stdout;
  EXPECT_EQ(findingsIn(Whole.Stdout, "helper.cpp"),
            std::vector<std::string>{"sync-device-synchronize:3"});
  EXPECT_EQ(findingsIn(Alone.Stdout, "helper.cpp"), findingsIn(Whole.Stdout, "helper.cpp"));
  EXPECT_TRUE(findingsIn(Alone.Stdout, "main.cpp").empty()) << Alone.Stdout;
  EXPECT_EQ(Alone.ExitCode, 1);
  // In JUnit the named file is the one case: the context file lends its code.
  RunResult Junit = runGraphlint({"-p", Dir, "--format", "junit", "--no-cache", Helper});
  EXPECT_NE(Junit.Stdout.find("tests=\"1\" failures=\"1\""), std::string::npos) << Junit.Stdout;
  EXPECT_NE(Junit.Stdout.find("helper.cpp\" file="), std::string::npos) << Junit.Stdout;
  EXPECT_EQ(Junit.Stdout.find("main.cpp\" file="), std::string::npos) << Junit.Stdout;
  EXPECT_NE(Junit.Stdout.find("<failure type=\"sync-device-synchronize\""), std::string::npos);
}

TEST_F(GraphlintCli, BaselineAdoptsOldFindingsAndCatchesNewOnes) {
  std::string U = write("u.cpp", Unsafe);
  std::string Base = Dir + "/baseline.json";
  EXPECT_EQ(runGraphlint({"--write-baseline", Base, U, "--", "-std=c++17"}).ExitCode, 1);
  EXPECT_EQ(runGraphlint({"--baseline", Base, U, "--", "-std=c++17"}).ExitCode, 0);
  std::string More = Unsafe;
  More.insert(More.find("  cudaStreamEndCapture"), "  cudaStreamQuery(s);\n");
  std::ofstream(U) << More;
  RunResult R = runGraphlint({"--baseline", Base, U, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_NE(R.Stdout.find("[sync-event-query]"), std::string::npos);
  EXPECT_EQ(R.Stdout.find("[sync-device-synchronize]"), std::string::npos);
}

TEST_F(GraphlintCli, SarifOutputGoesToFile) {
  std::string U = write("u.cpp", Unsafe);
  std::string Out = Dir + "/out.sarif";
  RunResult R = runGraphlint({"--format", "sarif", "-o", Out, U, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 1);
  auto J = nlohmann::json::parse(readFile(Out));
  EXPECT_EQ(J["version"], "2.1.0");
  EXPECT_EQ(J["runs"][0]["results"][0]["ruleId"], "sync-device-synchronize");
  EXPECT_GT(J["runs"][0]["tool"]["driver"]["rules"].size(), 20u);
}

TEST_F(GraphlintCli, BadOptionIsExitTwo) {
  EXPECT_EQ(runGraphlint({"--format", "xml", "x.cpp"}).ExitCode, 2);
}

} // namespace

namespace {

// The quick start's example: each planted bug is found at its line, across
// three translation units (one of them CUDA), and nothing else is.
TEST(GraphlintExample, FindsEveryPlantedBug) {
  std::string Ex = std::string(GRAPHSAFE_TESTDATA) + "/example";
  std::vector<std::string> Args = {
      "--format",         "json", "-j", "2", Ex + "/train.cpp", Ex + "/model.cpp",
      Ex + "/kernels.cu", "--"};
  for (const auto &F : lintCompilerFlags())
    Args.push_back(F);
  Args.push_back("-I" + Ex);
  RunResult R = runGraphlint(Args);
  auto J = nlohmann::json::parse(R.Stdout);
  ASSERT_TRUE(J["errors"].empty()) << J["errors"].dump(2);
  std::vector<std::string> Got;
  for (const auto &F : J["findings"])
    Got.push_back(fs::path(F["location"]["file"].get<std::string>()).filename().string() + ":" +
                  std::to_string(F["location"]["line"].get<int>()) + " " +
                  F["rule"].get<std::string>());
  std::vector<std::string> Want = {
      "kernels.cu:17 default-stream-in-capture", "model.cpp:11 host-state-mutation",
      "model.cpp:15 rng-unregistered-generator", "model.cpp:17 data-dependent-branch",
      "model.cpp:17 sync-tensor-read",           "model.cpp:18 host-io-in-capture",
      "train.cpp:37 host-scalar-baked"};
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(R.ExitCode, 1);
}

// The example's Python training loop: each planted bug at its line, and
// nothing else (not the warm-up on a side stream, not the reads after replay).
TEST(GraphlintExample, FindsEveryPlantedBugInPython) {
  std::string Ex = std::string(GRAPHSAFE_TESTDATA) + "/example";
  RunResult R = runGraphlint({"--format", "json", Ex + "/train.py"});
  auto J = nlohmann::json::parse(R.Stdout);
  ASSERT_TRUE(J["errors"].empty()) << J["errors"].dump(2);
  std::vector<std::string> Got;
  for (const auto &F : J["findings"])
    Got.push_back(std::to_string(F["location"]["line"].get<int>()) + " " +
                  F["rule"].get<std::string>());
  std::vector<std::string> Want = {"16 host-state-mutation", "18 rng-unregistered-generator",
                                   "20 data-dependent-branch", "49 graph-uses-freed-memory"};
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(R.ExitCode, 1);
}

// The pre-commit case on the quick start's example: model.cpp alone, with the
// example's compile database, gets what the whole database gives model.cpp
// (its forward() is reached from the capture region in train.cpp).
TEST(GraphlintExample, ModelAloneGetsTheWholeDatabasesFindings) {
  std::string Ex = std::string(GRAPHSAFE_TESTDATA) + "/example";
  std::string Dir = makeTempDir();
  std::string Flags = "-I" + Ex;
  for (const auto &F : lintCompilerFlags())
    Flags += " " + F;
  nlohmann::json DB = nlohmann::json::array();
  for (const char *F : {"train.cpp", "model.cpp", "kernels.cu"})
    DB.push_back({{"directory", Ex},
                  {"file", Ex + "/" + F},
                  {"command", "c++ " + Flags + " -c " + Ex + "/" + F}});
  std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  auto inModel = [](const RunResult &R) {
    std::vector<std::string> Out;
    const auto Report = nlohmann::json::parse(R.Stdout);
    for (const auto &F : Report["findings"])
      if (fs::path(F["location"]["file"].get<std::string>()).filename() == "model.cpp")
        Out.push_back(std::to_string(F["location"]["line"].get<int>()) + " " +
                      F["rule"].get<std::string>());
    return Out;
  };
  RunResult Whole = runGraphlint({"-p", Dir, "-j", "2", "--format", "json"});
  RunResult Alone = runGraphlint({"-p", Dir, "-j", "2", "--format", "json", Ex + "/model.cpp"});
  std::vector<std::string> Want = {"11 host-state-mutation", "15 rng-unregistered-generator",
                                   "17 data-dependent-branch", "17 sync-tensor-read",
                                   "18 host-io-in-capture"};
  EXPECT_EQ(inModel(Whole), Want) << Whole.Stdout;
  EXPECT_EQ(inModel(Alone), Want) << Alone.Stdout;
  EXPECT_EQ(Alone.ExitCode, 1);
  fs::remove_all(Dir);
}

const char *PyUnsafe = R"(import torch
g = torch.cuda.CUDAGraph()
x = torch.zeros(4, device="cuda")
with torch.cuda.graph(g):
    v = x.sum().item()
)";

// A syntax error names the file, line and column, exits 2, and the rest of
// that file and every other file are still analysed.
TEST_F(GraphlintCli, PythonSyntaxErrorIsNamedAndAnalysisGoesOn) {
  std::string Bad = write("broken.py", std::string(PyUnsafe) + "def oops(:\n    pass\n");
  std::string Good = write("good.py", PyUnsafe);
  RunResult R = runGraphlint({"--format", "json", Bad, Good});
  EXPECT_EQ(R.ExitCode, 2) << R.Stderr;
  auto J = nlohmann::json::parse(R.Stdout);
  ASSERT_FALSE(J["errors"].empty());
  EXPECT_NE(J["errors"][0]["where"].get<std::string>().find("broken.py:6:"), std::string::npos)
      << J["errors"].dump();
  std::map<std::string, int> PerFile;
  for (const auto &F : J["findings"])
    ++PerFile[fs::path(F["location"]["file"].get<std::string>()).filename().string()];
  EXPECT_EQ(PerFile["broken.py"], 1);
  EXPECT_EQ(PerFile["good.py"], 1);
}

// A parenthesis left open: tree-sitter's recovery starts its error node at
// the top of the file; the error names where python3 stops instead (the
// open parenthesis, or the statement after it, as python3's version has it).
TEST_F(GraphlintCli, PythonSyntaxErrorNamesTheLinePython3StopsAt) {
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no python3 on this machine";
  std::string F = write("open_paren.py", "\"\"\"Ops.\"\"\"\n\nimport torch\n\n\n"
                                         "class Params:\n    def __init__(self) -> None: ...\n\n\n"
                                         "def rmsnorm(\n    x: torch.Tensor,\n    eps: float,\n"
                                         "def update(\n    self, p: int\n) -> None: ...\n\n"
                                         "def silu(\n    output: torch.Tensor\n) -> None:\n"
                                         "    \"\"\"\n    Doc\n    \"\"\"\n");
  RunResult R = runGraphlint({"--format", "json", F});
  EXPECT_EQ(R.ExitCode, 2) << R.Stderr;
  auto J = nlohmann::json::parse(R.Stdout);
  ASSERT_EQ(J["errors"].size(), 1u) << J["errors"].dump();
  std::smatch M;
  std::string Where = J["errors"][0]["where"].get<std::string>();
  ASSERT_TRUE(std::regex_search(Where, M, std::regex("open_paren\\.py:(\\d+):"))) << Where;
  EXPECT_GE(std::stoi(M[1]), 10) << Where;
  EXPECT_LE(std::stoi(M[1]), 13) << Where;
  EXPECT_NE(J["errors"][0]["message"].get<std::string>().find("python3"), std::string::npos)
      << J["errors"].dump();
}

// Where tree-sitter's grammar lags CPython's (a format spec with a nested
// field after `=`), a file python3 compiles gets a warning naming the line,
// not exit 2.
TEST_F(GraphlintCli, PythonGrammarGapIsAWarningWhenPython3CompilesTheFile) {
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no python3 on this machine to tell grammar gaps from syntax errors";
  // A fill of `=` in a triple-quoted f-string's format spec: read as a walrus
  // by tree-sitter-python, and not one of the rows graphlint rewrites.
  std::string F = write("gap.py", std::string(PyUnsafe) + "print(f'''{x:=^{width}}''')\n");
  RunResult R = runGraphlint({"--format", "json", F});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr; // the finding, and no tool error
  auto J = nlohmann::json::parse(R.Stdout);
  EXPECT_TRUE(J["errors"].empty()) << J["errors"].dump();
  ASSERT_EQ(J["warnings"].size(), 1u);
  EXPECT_NE(J["warnings"][0]["where"].get<std::string>().find("gap.py:6:"), std::string::npos);
  EXPECT_EQ(J["findings"].size(), 1u);
}

// The pre-commit case in Python: a changed model file alone still gets the
// finding a capture in another module of its work tree reaches; the capture
// file alone does not report the model's.
TEST_F(GraphlintCli, NamedPythonFilesGetTheirWorkTreesFindings) {
  std::string Model = write("repo/model.py", "import torch\n\n\nclass Net(torch.nn.Module):\n"
                                             "    def forward(self, x):\n"
                                             "        return x * x.max().item()\n");
  std::string Train =
      write("repo/train.py", "import torch\nfrom model import Net\n\nnet = Net()\n"
                             "x = torch.zeros(4, device=\"cuda\")\ng = torch.cuda.CUDAGraph()\n"
                             "with torch.cuda.graph(g):\n    y = net(x)\n");
  ASSERT_EQ(std::system(("git init -q " + Dir + "/repo").c_str()), 0);
  RunResult Alone = runGraphlint({"--format", "json", Model});
  EXPECT_EQ(Alone.ExitCode, 1) << Alone.Stdout << Alone.Stderr;
  auto J = nlohmann::json::parse(Alone.Stdout);
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(fs::path(J["findings"][0]["location"]["file"].get<std::string>()).filename(),
            "model.py");
  EXPECT_EQ(J["findings"][0]["location"]["line"].get<int>(), 6);
  RunResult Capture = runGraphlint({"--format", "json", Train});
  EXPECT_EQ(Capture.ExitCode, 0) << Capture.Stdout;
}

// A folder names its Python files, recursively, minus what .gitignore
// ignores; Python needs no compile database.
TEST_F(GraphlintCli, PythonFolderSkipsGitIgnoredFiles) {
  write("proj/.gitignore", "generated/\n");
  write("proj/train.py", PyUnsafe);
  write("proj/sub/more.py", PyUnsafe);
  write("proj/generated/out.py", PyUnsafe);
  ASSERT_EQ(std::system(("git init -q " + Dir + "/proj").c_str()), 0);
  RunResult R = runGraphlint({"--format", "json", Dir + "/proj"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  std::set<std::string> Files;
  auto J = nlohmann::json::parse(R.Stdout);
  for (const auto &F : J["findings"])
    Files.insert(fs::path(F["location"]["file"].get<std::string>()).filename().string());
  EXPECT_EQ(Files, (std::set<std::string>{"train.py", "more.py"}));
}

} // namespace

namespace {

// A runner whose model comes from a registry by name: graphlint cannot see
// what it captures, and says so only when asked.
const char *RegistryRunner = R"(import torch

REGISTRY = {}


class Runner:
    def __init__(self, name):
        self.model = REGISTRY[name]()
        self.parts = [REGISTRY[name]()]

    def capture(self, x, hook):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            self.model(x)
            hook(x)
            torch.relu(x)
            self.parts[0](x)
            for part in self.parts:
                part(x)
)";

} // namespace

TEST_F(GraphlintCli, ExplainReachNamesCallsWhoseCalleeIsUnknown) {
  std::string P = write("runner.py", RegistryRunner);
  RunResult Quiet = runGraphlint({"--no-source", P});
  EXPECT_EQ(Quiet.ExitCode, 0) << Quiet.Stdout;
  EXPECT_EQ(Quiet.Stdout.find("capture-reach-unknown"), std::string::npos) << Quiet.Stdout;
  RunResult R = runGraphlint({"--no-source", "--explain-reach", P});
  // Notes do not fail the run at the default --fail-on.
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout;
  EXPECT_NE(R.Stdout.find("runner.py:14:13: note: what 'self.model' calls here is not known"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("runner.py:15:13: note: what 'hook' calls here is not known"),
            std::string::npos)
      << R.Stdout;
  // An element of a container the program fills with what it cannot see.
  EXPECT_NE(R.Stdout.find("runner.py:17:13: note: what 'self.parts[0]' calls here is not known"),
            std::string::npos)
      << R.Stdout;
  // A loop over such a container calls what it holds.
  EXPECT_NE(R.Stdout.find("runner.py:19:17: note: what 'part' calls here is not known"),
            std::string::npos)
      << R.Stdout;
  // A library function is known code, not an unknown callee.
  EXPECT_EQ(R.Stdout.find("torch.relu' calls here"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("0 error(s), 0 warning(s), 4 note(s)"), std::string::npos) << R.Stdout;
}

// Methods stored by `getattr(self, <a name computed at run time>)`: a call
// through the attribute runs those the object has that fit what the code
// says of the name (`f"forward_{mode}"`) and take the call's arguments,
// where they are few. Where nothing narrows the name (a config's string),
// or a pattern leaves many methods, --explain-reach says the call was not
// followed there; what else the attribute holds is still followed.
TEST_F(GraphlintCli, MethodsAComputedGetattrStoresAreFollowedWhereFew) {
  std::string Steps;
  for (int I = 0; I < 9; ++I)
    Steps += "    def hook_" + std::to_string(I) + "(self, x):\n        return x\n\n";
  std::string P = write("trainer.py", R"(import torch


class Mixin:
    def adam_step(self, x, lr):
        return x * x.sum().item()  # not followed: no code narrows step_name

    def sgd_step(self, x, lr):
        return x * lr


class Trainer(Mixin):
    def __init__(self, cfg):
        self.step_fn = self._default_step
        self.cfg = cfg
        self.fwd = getattr(self, f"forward_{cfg.mode}")
        self.hook = getattr(self, "hook_" + cfg.hook)

    def _default_step(self, x, lr):
        return x - x.sum().item()

    def setup(self):
        self.step_fn = getattr(self, self.cfg.step_name)

    def forward_eager(self, x):
        return x * 2

    def forward_checked(self, x):
        torch.cuda.synchronize()
        return x

    def run(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = self.step_fn(x, 0.1)
            y = self.fwd(y)
            y = self.hook(y)
        return y

)" + Steps);
  RunResult R = runGraphlint({"--no-source", "--explain-reach", P});
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("trainer.py:20:20: error: 'x.sum().item' reads a tensor value"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("trainer.py:35:17: note: 'self.step_fn' may also call what "
                          "'getattr(self, self.cfg.step_name)' gives"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("trainer.py:29:9: error: 'torch.cuda.synchronize'"), std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("trainer.py:37:17: note: what 'self.hook' calls here is what "
                          "'getattr(self, \"hook_\" + cfg.hook)' gives, an attribute named at "
                          "run time"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("2 error(s), 0 warning(s), 2 note(s)"), std::string::npos) << R.Stdout;
}

// The same lookup into a local (`forward = getattr(submodule,
// config.method)`, mstar's graph runner): the methods whose names fit are
// followed where few, and where nothing narrows the name --explain-reach says
// the call was not followed, instead of passing it over as a builtin's result.
TEST_F(GraphlintCli, LocalsBoundToAComputedGetattrAreFollowedOrNoted) {
  std::string P = write("runner.py", R"(import torch


class Submodule:
    def forward_batched(self, x):
        return x.nonzero()

    def forward_captured(self, x):
        return x * 2


def capture(submodule: Submodule, mode, method, x):
    forward = getattr(submodule, f"forward_{mode}")
    chosen = getattr(submodule, method)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = forward(x)
        z = chosen(x)
    return y, z


def main(x):
    return capture(Submodule(), "batched", "forward_captured", x)
)");
  RunResult R = runGraphlint({"--no-source", "--explain-reach", P});
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("runner.py:6:16: error: 'x.nonzero' has a data-dependent output shape"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("runner.py:18:13: note: what 'chosen' calls here is not known to "
                          "graphlint"),
            std::string::npos)
      << R.Stdout;
}

// A wrapper class made by a factory whose base nobody in the analysis hands
// it: the captured super().forward runs code graphlint never saw, and
// --explain-reach says so instead of passing it over as a builtin call.
TEST_F(GraphlintCli, ExplainReachNamesSuperCallsOnAFactorysUnknownBase) {
  std::string P = write("wrapper.py", R"(import torch


def graphed(cls):
    class Graphed(cls):
        def forward(self, x):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                return super().forward(x)

    return Graphed
)");
  RunResult R = runGraphlint({"--no-source", "--explain-reach", P});
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("wrapper.py:9:24: note: what 'super().forward' calls here is not known"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("0 error(s), 0 warning(s), 1 note(s)"), std::string::npos) << R.Stdout;
}

// C++ as Python: a call under capture whose code graphlint cannot see is
// named, whatever makes it unseen; one it can follow, or a library call, is not.
TEST_F(GraphlintCli, ExplainReachNamesCxxCallsWhoseCodeIsUnseen) {
  std::string P = write("reach.cpp", R"(#include <cuda_runtime.h>
#include <functional>
#include <string>
void defined_elsewhere(cudaStream_t s);
void defined_here(cudaStream_t s) { (void)s; }
extern void (*plugin_hook)(cudaStream_t);
using Fn = void (*)(cudaStream_t);
Fn lookup(const std::string &name);
struct Step {
  std::function<void(cudaStream_t)> on_step;
  std::function<void(cudaStream_t)> on_done;
  Step() { on_done = [](cudaStream_t s) { (void)s; }; }
};
struct Plugin { virtual void run(cudaStream_t s) = 0; };
struct Kernel { virtual void run(cudaStream_t s) = 0; };
struct Fill : Kernel { void run(cudaStream_t s) override { cudaMemsetAsync(nullptr, 0, 0, s); } };
void capture(cudaStream_t s, Step &step, const std::function<void(cudaStream_t)> &cb, Plugin &p,
             Kernel &k) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  defined_elsewhere(s);
  defined_here(s);
  plugin_hook(s);
  lookup("x")(s);
  step.on_step(s);
  step.on_done(s);
  cb(s);
  p.run(s);
  k.run(s);
  cudaMemsetAsync(nullptr, 0, 0, s);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
}
)");
  std::vector<std::string> Args = {"--no-source", P, "--", "-std=c++17"};
  RunResult Quiet = runGraphlint(Args);
  EXPECT_EQ(Quiet.Stdout.find("capture-reach-unknown"), std::string::npos) << Quiet.Stdout;
  Args.insert(Args.begin(), "--explain-reach");
  RunResult R = runGraphlint(Args);
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  for (const char *Expected :
       {"reach.cpp:20:3: note: 'defined_elsewhere' is defined in none of the analysed files",
        "reach.cpp:22:3: note: what 'plugin_hook' calls here is not known",
        "reach.cpp:23:3: note: what 'lookup(\"x\")' calls here is not known to graphlint (the "
        "callee is computed",
        "reach.cpp:24:3: note: what 'Step::on_step' calls here is not known",
        "reach.cpp:26:3: note: what 'cb' calls here is not known",
        "reach.cpp:27:5: note: 'Plugin::run' is pure virtual and none of the analysed files "
        "defines an override of it"})
    EXPECT_NE(R.Stdout.find(Expected), std::string::npos) << Expected << "\n" << R.Stdout;
  EXPECT_NE(R.Stdout.find("0 error(s), 0 warning(s), 6 note(s)"), std::string::npos) << R.Stdout;
}

// Rapid type analysis leaves out the overrides of classes no analysed file
// constructs; where the call runs under capture, --explain-reach says which,
// since such objects may be made in files outside the compile database.
TEST_F(GraphlintCli, ExplainReachNamesOverridesOfClassesNeverConstructed) {
  std::string P = write("virtual.cpp", R"(#include <cuda_runtime.h>
#include <memory>
struct Transfer {
  virtual ~Transfer() = default;
  virtual void copy(cudaStream_t s) { (void)s; }
};
struct GpuTransfer : Transfer {
  void copy(cudaStream_t s) override { cudaMemsetAsync(nullptr, 0, 0, s); }
};
struct PluginTransfer : Transfer {
  void copy(cudaStream_t s) override { cudaStreamSynchronize(s); }
};
struct Exact final : Transfer {};
std::unique_ptr<Transfer> make() { return std::make_unique<GpuTransfer>(); }
void run(Transfer &t, cudaStream_t s) { t.copy(s); }
void capture(Transfer &t, Exact &e, cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  run(t, s);
  e.Transfer::copy(s);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
}
)");
  std::vector<std::string> Args = {"--no-source", "--explain-reach", P, "--", "-std=c++17"};
  RunResult R = runGraphlint(Args);
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("virtual.cpp:15:43: note: 'Transfer::copy' is virtual, and 1 override of "
                          "it in classes no analysed file constructs ('PluginTransfer::copy') was "
                          "not followed"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("'run' is called here under capture"), std::string::npos) << R.Stdout;
  // A call naming its class's own method runs that method alone.
  EXPECT_EQ(R.Stdout.find("virtual.cpp:19:"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("0 error(s), 0 warning(s), 1 note(s)"), std::string::npos) << R.Stdout;
}

// A kernel launched through a pointer runs device code only: no host code
// under the capture goes unchecked, so no note.
TEST_F(GraphlintCli, ExplainReachLeavesKernelsLaunchedThroughPointersAlone) {
  std::string P = write("launch.cu", R"(#include <cuda_runtime.h>
__global__ void scale(float *x) { x[threadIdx.x] *= 2; }
template <typename F> void launch(F f, float *x, cudaStream_t s) { f<<<1, 32, 0, s>>>(x); }
void capture(float *x, cudaStream_t s) {
  void (*k)(float *) = scale;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launch(k, x, s);
  k<<<1, 32, 0, s>>>(x);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
}
)");
  RunResult R = runGraphlint({"--no-source", "--explain-reach", P, "--", "-std=c++17"});
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("0 error(s), 0 warning(s), 0 note(s)"), std::string::npos) << R.Stdout;
}

// --call-graph speaks for C++ too, in the same map: a function's qualified
// name to what it may call, the overrides of a virtual call and the lambda
// stored into a std::function member among them; a function nothing under
// capture calls only with --call-graph-all.
TEST_F(GraphlintCli, CallGraphNamesCxxFunctionsAndTheirCallees) {
  std::string P = write("graph.cpp", R"(#include <cuda_runtime.h>
#include <functional>
namespace train {
struct Step {
  std::function<void(cudaStream_t)> on_step;
  virtual void run(cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); }
  virtual ~Step() = default;
};
struct Fused : Step {
  void run(cudaStream_t s) override { cudaStreamSynchronize(s); }
};
void helper(cudaStream_t s) { cudaMemsetAsync(nullptr, 0, 0, s); }
void unused(cudaStream_t s) { helper(s); }
void capture(cudaStream_t s, Step &step) {
  step.on_step = [](cudaStream_t t) { helper(t); };
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  helper(s);
  step.run(s);
  step.on_step(s);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
}
} // namespace train
)");
  std::string Out = (fs::path(Dir) / "graph.json").string();
  auto graph = [&](bool All) {
    std::vector<std::string> Args = {"--no-source", "--call-graph", Out, P, "--", "-std=c++17"};
    if (All)
      Args.insert(Args.begin(), "--call-graph-all");
    RunResult R = runGraphlint(Args);
    EXPECT_NE(R.ExitCode, 2) << R.Stdout << R.Stderr;
    std::ifstream In(Out);
    return nlohmann::json::parse(In);
  };
  nlohmann::json G = graph(false);
  ASSERT_TRUE(G.contains("train::capture")) << G.dump(2);
  std::set<std::string> Callees = G["train::capture"].get<std::set<std::string>>();
  for (const char *Expected : {"train::helper", "train::Step::run", "train::Fused::run"})
    EXPECT_TRUE(Callees.count(Expected)) << Expected << "\n" << G.dump(2);
  EXPECT_TRUE(std::any_of(Callees.begin(), Callees.end(), [](const std::string &C) {
    return C.find("operator()") != std::string::npos;
  })) << G.dump(2);
  EXPECT_FALSE(G.contains("train::unused")) << G.dump(2);
  EXPECT_TRUE(graph(true).contains("train::unused"));

  // With --call-graph-sites, each callee comes with the lines of the calls
  // that may run it: the virtual call's line for both overrides.
  RunResult R = runGraphlint(
      {"--no-source", "--call-graph-sites", "--call-graph", Out, P, "--", "-std=c++17"});
  EXPECT_NE(R.ExitCode, 2) << R.Stdout << R.Stderr;
  std::ifstream In(Out);
  nlohmann::json Sited = nlohmann::json::parse(In);
  std::map<std::string, std::set<std::string>> At;
  for (const auto &Call : Sited["train::capture"])
    for (const auto &Where : Call["at"])
      At[Call["callee"].get<std::string>()].insert(Where.get<std::string>());
  EXPECT_EQ(At["train::helper"], std::set<std::string>{P + ":17"}) << Sited.dump(2);
  EXPECT_EQ(At["train::Step::run"], std::set<std::string>{P + ":18"}) << Sited.dump(2);
  EXPECT_EQ(At["train::Fused::run"], std::set<std::string>{P + ":18"}) << Sited.dump(2);
}

// --call-graph-sites for Python: the line of each call, per callee, in the
// same map the PyCG format writes.
TEST_F(GraphlintCli, CallGraphSitesGiveEachCallsLineInPython) {
  std::string P = write("sites.py", "import torch\n"
                                    "\n"
                                    "def helper(x):\n"
                                    "    return x * 2\n"
                                    "\n"
                                    "def step(x):\n"
                                    "    y = helper(x)\n"
                                    "    return helper(y)\n"
                                    "\n"
                                    "def main(x):\n"
                                    "    g = torch.cuda.CUDAGraph()\n"
                                    "    with torch.cuda.graph(g):\n"
                                    "        out = step(x)\n"
                                    "    return g, out\n");
  std::string Out = (fs::path(Dir) / "sites.json").string();
  RunResult R = runGraphlint({"--no-cache", "--call-graph-sites", "--call-graph", Out, P});
  EXPECT_NE(R.ExitCode, 2) << R.Stdout << R.Stderr;
  std::ifstream In(Out);
  nlohmann::json G = nlohmann::json::parse(In);
  auto sites = [&](const std::string &Caller, const std::string &Callee) {
    std::set<std::string> Where;
    for (const auto &Call : G[Caller])
      if (Call["callee"] == Callee)
        for (const auto &W : Call["at"])
          Where.insert(W.get<std::string>());
    return Where;
  };
  std::string Abs = fs::absolute(P).lexically_normal().string();
  EXPECT_EQ(sites("sites.main", "sites.step"), std::set<std::string>{Abs + ":13"}) << G.dump(2);
  EXPECT_EQ(sites("sites.step", "sites.helper"), (std::set<std::string>{Abs + ":7", Abs + ":8"}))
      << G.dump(2);
}

// Generated code: one statement of a 20,000-term sum once overflowed the
// stack. It is named as an error (the run is incomplete) and skipped; the
// statements after it are still analysed.
TEST_F(GraphlintCli, PythonStatementTooDeepIsSkippedAndTheRestAnalysed) {
  std::string Sum = "x";
  for (int I = 1; I < 20000; ++I)
    Sum += " + x";
  std::string F = write("generated.py", "import torch\n"
                                        "g = torch.cuda.CUDAGraph()\n"
                                        "x = torch.zeros(4, device='cuda')\n"
                                        "with torch.cuda.graph(g):\n"
                                        "    y = " +
                                            Sum +
                                            "\n"
                                            "    v = y.sum().item()\n");
  RunResult R = runGraphlint({"--format", "json", F});
  EXPECT_EQ(R.ExitCode, 2) << R.Stderr;
  auto J = nlohmann::json::parse(R.Stdout);
  EXPECT_FALSE(J["complete"].get<bool>());
  ASSERT_EQ(J["errors"].size(), 1u) << J["errors"].dump();
  EXPECT_NE(J["errors"][0]["where"].get<std::string>().find("generated.py:5:5"), std::string::npos);
  EXPECT_NE(J["errors"][0]["message"].get<std::string>().find("levels deep"), std::string::npos);
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(J["findings"][0]["rule"], "sync-tensor-read");
  EXPECT_EQ(J["findings"][0]["location"]["line"], 6);
}

// A file that cannot be Python source (binary data, bytes that are not
// UTF-8) is named in errors and makes the run incomplete: never a silent clean.
TEST_F(GraphlintCli, BinaryPythonFileIsNamedNotReportedClean) {
  std::string Nul = write("blob.py", std::string("\x7f"
                                                 "ELF\x02\x01\x01\0\0\0",
                                                 10) +
                                         "\x90\x91");
  std::string Latin = write("latin.py", "name = '\xe9t\xe9'\n");
  std::string Declared = write("declared.py", "# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n");
  RunResult R = runGraphlint({"--format", "json", Nul, Latin, Declared});
  EXPECT_EQ(R.ExitCode, 2) << R.Stderr;
  auto J = nlohmann::json::parse(R.Stdout);
  EXPECT_FALSE(J["complete"].get<bool>());
  std::set<std::string> Named;
  for (const auto &E : J["errors"]) {
    Named.insert(fs::path(E["where"].get<std::string>()).filename().string());
    EXPECT_NE(E["message"].get<std::string>().find("not Python source"), std::string::npos);
  }
  EXPECT_EQ(Named, (std::set<std::string>{"blob.py", "latin.py"}));
}

// Long runs show progress on stderr: a line per finished file with
// --progress plain (CI logs); nothing when stderr is not a terminal (auto),
// nor with --quiet, so reports and pipes stay clean.
TEST_F(GraphlintCli, ProgressPlainIsALinePerFileAndAutoIsSilentOffATerminal) {
  std::string A = write("a.py", PyUnsafe), B = write("b.py", "x = 1\n");
  RunResult Plain = runGraphlint({"--progress", "plain", A, B});
  EXPECT_NE(Plain.Stderr.find("graphlint: [1/2] "), std::string::npos) << Plain.Stderr;
  EXPECT_NE(Plain.Stderr.find("graphlint: [2/2] "), std::string::npos) << Plain.Stderr;
  EXPECT_EQ(Plain.Stderr.find("\033["), std::string::npos) << "plain lines are not redrawn";
  RunResult Auto = runGraphlint({A, B});
  EXPECT_EQ(Auto.Stderr.find("[1/2]"), std::string::npos) << Auto.Stderr;
  RunResult Quiet = runGraphlint({"--progress", "plain", "--quiet", A, B});
  EXPECT_EQ(Quiet.Stderr.find("[1/2]"), std::string::npos) << Quiet.Stderr;
  EXPECT_EQ(Plain.Stdout, Auto.Stdout);
}

// A CI job matrix: each job analyses a shard of the compile database (and of
// the Python files) and writes its summaries; one merge job reports. The
// merged report must be the unsharded one, including findings whose capture
// region and unsafe callee were analysed by different shards.
TEST_F(GraphlintCli, ShardedRunMergedEqualsTheUnshardedRun) {
  nlohmann::json DB = nlohmann::json::array();
  std::vector<std::string> Cxx;
  auto add = [&](const std::string &Name, const std::string &Text) {
    Cxx.push_back(write(Name, Text));
    DB.push_back(
        {{"directory", Dir}, {"file", Cxx.back()}, {"command", "c++ -std=c++17 -c " + Cxx.back()}});
  };
  // Index 0 (shard 0) captures and calls into index 1 (shard 1).
  add("capture.cpp", "#include <cuda_runtime.h>\n"
                     "void helper(cudaStream_t s);\n"
                     "void step(cudaStream_t s) {\n"
                     "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                     "  helper(s);\n"
                     "  cudaStreamEndCapture(s, nullptr);\n"
                     "}\n");
  add("helper.cpp", "#include <cuda_runtime.h>\n"
                    "void helper(cudaStream_t s) {\n"
                    "  cudaStreamSynchronize(s);\n"
                    "}\n");
  add("other.cpp", Unsafe);
  std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  std::string PyRegion = write("py/train.py", "import torch\n"
                                              "from model import forward\n"
                                              "g = torch.cuda.CUDAGraph()\n"
                                              "x = torch.zeros(4, device='cuda')\n"
                                              "with torch.cuda.graph(g):\n"
                                              "    y = forward(x)\n");
  std::string PyCallee = write("py/model.py", "def forward(x):\n"
                                              "    return x * x.sum().item()\n");
  std::vector<std::string> Common = {"-p",         Dir,      "--format", "json",
                                     "--no-cache", PyRegion, PyCallee};
  Common.insert(Common.end(), Cxx.begin(), Cxx.end());
  RunResult Whole = runGraphlint(Common);
  ASSERT_EQ(Whole.ExitCode, 1) << Whole.Stderr;
  std::vector<std::string> Merge = {"--merge"};
  for (int K = 0; K < 3; ++K) {
    std::string Out = Dir + "/shard" + std::to_string(K) + ".json";
    std::vector<std::string> Args = Common;
    Args.insert(Args.end(), {"--shard", std::to_string(K) + "/3", "--shard-out", Out});
    RunResult S = runGraphlint(Args);
    ASSERT_EQ(S.ExitCode, 0) << S.Stderr;
    Merge.push_back(Out);
  }
  Merge.insert(Merge.end(), {"--format", "json"});
  RunResult Merged = runGraphlint(Merge);
  EXPECT_EQ(Merged.ExitCode, Whole.ExitCode) << Merged.Stderr;
  EXPECT_EQ(Merged.Stdout, Whole.Stdout);
  std::set<std::string> Where;
  nlohmann::json Report = nlohmann::json::parse(Merged.Stdout);
  for (const auto &F : Report["findings"])
    Where.insert(fs::path(F["location"]["file"].get<std::string>()).filename().string() + ":" +
                 std::to_string(F["location"]["line"].get<int>()));
  EXPECT_TRUE(Where.count("helper.cpp:3")) << "region in shard 0, callee in shard 1";
  EXPECT_TRUE(Where.count("model.py:2")) << "Python region and callee in different shards";

  // A missing shard, or shards of different runs, are named, not merged.
  RunResult Missing = runGraphlint({"--merge", Merge[1], Merge[2]});
  EXPECT_EQ(Missing.ExitCode, 2);
  EXPECT_NE(Missing.Stderr.find("shard 2/3 is missing"), std::string::npos) << Missing.Stderr;
  RunResult Bad = runGraphlint({"--shard", "3/3", PyCallee});
  EXPECT_EQ(Bad.ExitCode, 2);
  EXPECT_NE(Bad.Stderr.find("--shard takes K/N"), std::string::npos) << Bad.Stderr;
}
