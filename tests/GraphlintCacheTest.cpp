// graphlint's caches: what invalidates a cached result (an edited header, a
// changed flag, a changed rule) and what does not (a touched file); a corrupt
// entry is never read back; the size bound evicts the least recently used;
// findings are identical with and without the cache; and summaries held
// packed and compressed while a run's trees are alive read back whole.
#include "TestSupport.h"
#include "cache/BinaryArchive.h"
#include "cache/CacheStore.h"
#include "cache/SummaryArchive.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <thread>

namespace fs = std::filesystem;
using namespace graphsafe::test;

namespace {

class GraphlintCache : public ::testing::Test {
protected:
  void SetUp() override {
    // These runs are a developer's: preambles are built in the background,
    // which graphlint leaves out where CI is set (as on a CI runner).
    ::unsetenv("CI");
    Dir = makeTempDir();
    write("helper.h", "#include <cuda_runtime.h>\ninline void helper() {}\n");
    write("main.cpp", "#include \"helper.h\"\n"
                      "void house_sync();\n"
                      "void step(cudaStream_t s) {\n"
                      "  cudaGraph_t g;\n"
                      "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n"
                      "  helper();\n"
                      "  house_sync();\n"
                      "#ifdef EXTRA\n"
                      "  cudaStreamQuery(s);\n"
                      "#endif\n"
                      "  cudaStreamEndCapture(s, &g);\n"
                      "}\n");
    fs::create_directories(fs::path(Dir) / "rules");
    setFlags("");
  }
  void TearDown() override {
    waitForBuilders();
    fs::remove_all(Dir);
  }

  void write(const std::string &Name, const std::string &Text) {
    std::ofstream(fs::path(Dir) / Name) << Text;
  }
  void setFlags(const std::string &Extra) {
    nlohmann::json DB = nlohmann::json::array();
    DB.push_back({{"directory", Dir},
                  {"file", Dir + "/main.cpp"},
                  {"command", "c++ -std=c++17 " + Extra + " -c " + Dir + "/main.cpp"}});
    std::ofstream(fs::path(Dir) / "compile_commands.json") << DB.dump();
  }

  struct Outcome {
    std::vector<std::string> Findings; // "file:line rule"
    int FromCache = -1;
  };
  Outcome run(std::vector<std::string> Extra = {}) {
    std::vector<std::string> Args = {"-p",      Dir,           "--format", "json", "--cache-stats",
                                     "--rules", Dir + "/rules"};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    RunResult R = runGraphlint(Args);
    Outcome O;
    auto J = nlohmann::json::parse(R.Stdout);
    EXPECT_TRUE(J["errors"].empty()) << J["errors"].dump();
    for (const auto &F : J["findings"])
      O.Findings.push_back(fs::path(F["location"]["file"].get<std::string>()).filename().string() +
                           ":" + std::to_string(F["location"]["line"].get<int>()) + " " +
                           F["rule"].get<std::string>());
    std::smatch M;
    if (std::regex_search(R.Stderr, M, std::regex("cache: (\\d+) of 1 ")))
      O.FromCache = std::stoi(M[1]);
    return O;
  }
  std::string cacheDir() const { return Dir + "/.cache/graphlint"; }
  // The detached process a run starts to build main.cpp's preamble
  // (PreambleBuilder.h), while it runs.
  bool builderRunning() const {
    const std::string Want = "--build-preambles-for=" + Dir + "/main.cpp";
    std::error_code EC;
    for (const auto &E : fs::directory_iterator("/proc", EC)) {
      std::string Cmd = readFile((E.path() / "cmdline").string());
      std::replace(Cmd.begin(), Cmd.end(), '\0', ' ');
      if (Cmd.find(Want) != std::string::npos)
        return true;
    }
    return false;
  }
  void waitForBuilders() const {
    for (int I = 0; I < 2400 && builderRunning(); ++I)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // True once a preamble is cached and no builder is at work.
  bool waitForPreamble() const {
    for (int I = 0; I < 2400; ++I) {
      std::error_code EC;
      bool Built = false;
      for (const auto &E : fs::recursive_directory_iterator(cacheDir() + "/preambles", EC))
        Built |= E.path().extension() == ".pch";
      if (Built && !builderRunning())
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  std::string Dir;
};

TEST_F(GraphlintCache, ChangesThatMatterInvalidateAndTouchingDoesNot) {
  Outcome Cold = run();
  EXPECT_EQ(Cold.FromCache, 0);
  EXPECT_TRUE(Cold.Findings.empty());
  Outcome Warm = run();
  EXPECT_EQ(Warm.FromCache, 1);
  EXPECT_EQ(Warm.Findings, Cold.Findings);

  // Timestamps alone change nothing: keys are contents.
  fs::last_write_time(fs::path(Dir) / "helper.h", fs::file_time_type::clock::now());
  fs::last_write_time(fs::path(Dir) / "main.cpp", fs::file_time_type::clock::now());
  EXPECT_EQ(run().FromCache, 1);

  // A header the TU includes.
  write("helper.h",
        "#include <cuda_runtime.h>\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  Outcome Header = run();
  EXPECT_EQ(Header.FromCache, 0);
  EXPECT_EQ(Header.Findings, std::vector<std::string>{"helper.h:3 sync-device-synchronize"});
  EXPECT_EQ(run().FromCache, 1);

  // A compile flag.
  setFlags("-DEXTRA");
  Outcome Flag = run();
  EXPECT_EQ(Flag.FromCache, 0);
  EXPECT_EQ(Flag.Findings, (std::vector<std::string>{"helper.h:3 sync-device-synchronize",
                                                     "main.cpp:9 sync-event-query"}));

  // A rule file.
  write("rules/house-sync.yaml", "id: house-sync\nseverity: error\ncategory: sync\n"
                                 "summary: \"house sync\"\nmessage: \"'{callee}' syncs\"\n"
                                 "why: \"It syncs.\"\nfix: \"Do not.\"\n"
                                 "match:\n  - call: [house_sync]\n");
  Outcome Rule = run();
  EXPECT_EQ(Rule.FromCache, 0);
  EXPECT_EQ(Rule.Findings,
            (std::vector<std::string>{"helper.h:3 sync-device-synchronize", "main.cpp:7 house-sync",
                                      "main.cpp:9 sync-event-query"}));
  EXPECT_EQ(run().Findings, Rule.Findings);

  // --no-cache reads nothing.
  EXPECT_EQ(run({"--no-cache"}).FromCache, -1);
}

// The pre-commit loop: the file under edit is parsed against its cached
// preamble, and an edit to a header the preamble holds invalidates it.
TEST_F(GraphlintCache, PreambleFollowsTheHeadersItWasBuiltFrom) {
  EXPECT_TRUE(run().Findings.empty());
  auto editMain = [&](const std::string &Tail) {
    std::string Text = readFile(Dir + "/main.cpp");
    Text = Text.substr(0, Text.find("}\n") + 2) + Tail;
    write("main.cpp", Text);
  };
  // The first edit parses the file whole, as a run without a cache does, and
  // leaves the preamble to a builder in the background.
  editMain("// first edit\n");
  EXPECT_EQ(run().FromCache, 0);
  ASSERT_TRUE(waitForPreamble());
  write("helper.h",
        "#include <cuda_runtime.h>\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  Outcome Header = run();
  EXPECT_EQ(Header.FromCache, 0);
  EXPECT_EQ(Header.Findings, std::vector<std::string>{"helper.h:3 sync-device-synchronize"});
  editMain("// second edit\n");
  EXPECT_EQ(run().Findings, Header.Findings);
  write("helper.h", "#include <cuda_runtime.h>\ninline void helper() {}\n");
  EXPECT_TRUE(run().Findings.empty());
}

// A pre-commit run names its few files: their preambles are built after the
// cold run already, so that the first edit parses against one.
TEST_F(GraphlintCache, NamedFilesGetTheirPreambleAfterTheColdRun) {
  write("helper.h",
        "#include <cuda_runtime.h>\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  const std::vector<std::string> Want = {"helper.h:3 sync-device-synchronize"};
  EXPECT_EQ(run({Dir + "/main.cpp"}).Findings, Want);
  ASSERT_TRUE(waitForPreamble());
  write("main.cpp", readFile(Dir + "/main.cpp") + "// edited\n");
  EXPECT_EQ(run({Dir + "/main.cpp"}).Findings, Want);
}

// pre-commit runs hooks in parallel: processes writing the same results and
// building the same preamble at once all get the right findings.
TEST_F(GraphlintCache, ParallelProcessesShareOneCache) {
  write("helper.h",
        "#include <cuda_runtime.h>\ninline void helper() {\n  cudaDeviceSynchronize();\n}\n");
  const std::vector<std::string> Want = {"helper.h:3 sync-device-synchronize"};
  EXPECT_EQ(run().Findings, Want);
  write("main.cpp", readFile(Dir + "/main.cpp") + "// edited\n");
  std::vector<std::future<Outcome>> Runs;
  for (int I = 0; I < 4; ++I)
    Runs.push_back(std::async(std::launch::async, [&] { return run(); }));
  for (auto &R : Runs)
    EXPECT_EQ(R.get().Findings, Want);
  Outcome After = run();
  EXPECT_EQ(After.FromCache, 1);
  EXPECT_EQ(After.Findings, Want);
}

// A killed writer leaves a temporary file; a damaged entry (truncated, or
// garbage) is a miss, never a crash or a wrong result.
TEST_F(GraphlintCache, DamagedEntriesAreMissesAndLeftoversAreHarmless) {
  Outcome Cold = run();
  std::vector<fs::path> Entries;
  for (const auto &E : fs::recursive_directory_iterator(cacheDir() + "/results"))
    if (E.is_regular_file())
      Entries.push_back(E.path());
  ASSERT_EQ(Entries.size(), 1u);
  std::string Text = readFile(Entries[0].string());
  std::ofstream(Entries[0].string() + ".tmp-99999-0") << Text.substr(0, Text.size() / 3);
  std::ofstream(Entries[0]) << Text.substr(0, Text.size() / 2);
  Outcome Truncated = run();
  EXPECT_EQ(Truncated.FromCache, 0);
  EXPECT_EQ(Truncated.Findings, Cold.Findings);
  EXPECT_EQ(run().FromCache, 1); // Rewritten whole.
  std::ofstream(Entries[0]) << R"({"deps": 7, "summary": []})";
  EXPECT_EQ(run().FromCache, 0);
}

TEST(CacheStore, TrimEvictsLeastRecentlyUsedFirst) {
  std::string Dir = makeTempDir();
  graphsafe::lint::CacheStore Store(Dir, 250);
  std::vector<std::string> Paths;
  for (int I = 0; I < 5; ++I) {
    Paths.push_back(Store.pathOf("results", "k" + std::to_string(I) + "abc", ".json"));
    ASSERT_TRUE(Store.write(Paths.back(), std::string(100, 'x')));
    fs::last_write_time(Paths.back(),
                        fs::file_time_type::clock::now() - std::chrono::minutes(10 - I));
  }
  // Reading k0 makes it the most recently used.
  ASSERT_TRUE(Store.read(Paths[0]).has_value());
  Store.trim();
  EXPECT_TRUE(fs::exists(Paths[0]));
  EXPECT_TRUE(fs::exists(Paths[4]));
  EXPECT_FALSE(fs::exists(Paths[1]));
  EXPECT_FALSE(fs::exists(Paths[2]));
  EXPECT_FALSE(fs::exists(Paths[3]));
  fs::remove_all(Dir);
}

// A module's summary, packed while the run's syntax trees are alive, is the
// summary after unpacking, field for field (as its archive says); a cut
// short buffer is refused, not read as a smaller summary.
TEST(PackedValue, SummaryReadsBackWholeAndCutShortIsRefused) {
  graphsafe::lint::TUSummary S;
  S.File = "/work/project/pkg/models/transformer.py";
  for (int I = 0; I < 200; ++I) {
    graphsafe::lint::FunctionSummary F;
    F.Usr = "py:pkg.models.transformer.Block" + std::to_string(I) + ".forward";
    F.Loc = {S.File, unsigned(10 * I + 1), 5};
    graphsafe::lint::CallEdge E;
    E.CalleeUsr = "py:pkg.models.layers.Attention.forward";
    E.Loc = {S.File, unsigned(10 * I + 3), 9};
    E.Constants.push_back({1, true, false});
    F.Calls.push_back(E);
    S.Functions.push_back(F);
    S.CallableStores.push_back({"py:pkg.models.transformer.Block.attn", F.Usr});
  }
  const std::string Archive = graphsafe::lint::packBinary(S);
  graphsafe::lint::PackedValue Packed = graphsafe::lint::packCompressed(S);
  if (Packed.Size)
    EXPECT_LT(Packed.Bytes.size(), Archive.size() / 4)
        << "paths and names repeat: zstd shrinks them";
  graphsafe::lint::TUSummary Back;
  ASSERT_TRUE(graphsafe::lint::unpackCompressed(Packed, Back));
  EXPECT_EQ(graphsafe::lint::packBinary(Back), Archive);
  ASSERT_EQ(Back.Functions.size(), 200u);
  EXPECT_EQ(Back.Functions[7].Calls[0].Loc.Line, 73u);

  graphsafe::lint::PackedValue Short = Packed;
  Short.Bytes.resize(Short.Bytes.size() / 2);
  graphsafe::lint::TUSummary Lost;
  EXPECT_FALSE(graphsafe::lint::unpackCompressed(Short, Lost));
}

// Every testdata case, analysed together: the report is byte for byte the
// report without a cache whether results come from the cache, or files are
// parsed without a preamble, or against the preambles the background builder
// makes (built here in the foreground, with the builder's own command line).
TEST(GraphlintCacheTestdata, FindingsAreIdenticalWithAndWithoutTheCache) {
  // No run of this test starts a background builder: the one build below is
  // the only one, whether or not the job runs where CI is set.
  ::setenv("CI", "true", 1);
  std::string Lint = std::string(GRAPHSAFE_TESTDATA) + "/lint";
  std::vector<std::string> Files;
  for (const auto &E : fs::recursive_directory_iterator(Lint)) {
    std::string Ext = E.path().extension().string();
    if (E.is_regular_file() && (Ext == ".cpp" || Ext == ".cu") &&
        E.path().parent_path().filename() != "include")
      Files.push_back(E.path().string());
  }
  std::sort(Files.begin(), Files.end());
  std::string Cache = makeTempDir();
  auto report = [&](std::vector<std::string> Own) {
    std::vector<std::string> Args = {"--format", "json", "-j", "2"};
    Args.insert(Args.end(), Own.begin(), Own.end());
    Args.insert(Args.end(), Files.begin(), Files.end());
    Args.push_back("--");
    for (const auto &F : lintCompilerFlags())
      Args.push_back(F);
    return runGraphlint(Args);
  };
  // The cold run fills the cache and hits nothing: its report is the report
  // without a cache (the same analysis; it only also stores summaries).
  RunResult Fresh = report({"--cache-dir", Cache, "--cache-stats"});
  EXPECT_NE(Fresh.Stderr.find("cache: 0 of "), std::string::npos) << Fresh.Stderr;
  // Without their results, files analysed before count as edited: parsed
  // without a preamble first, then against the preambles built meanwhile.
  auto reparse = [&](const char *Pass) {
    fs::remove_all(fs::path(Cache) / "results");
    RunResult Parsed = report({"--cache-dir", Cache});
    EXPECT_EQ(Parsed.Stdout, Fresh.Stdout) << Pass << "; exit " << Parsed.ExitCode << ", stderr:\n"
                                           << Parsed.Stderr;
  };
  reparse("no preambles yet");
  std::vector<std::string> Build = {"--cache-dir", Cache};
  for (const auto &F : Files)
    Build.push_back("--build-preambles-for=" + F);
  RunResult Built = report(Build);
  EXPECT_EQ(Built.ExitCode, 0) << Built.Stderr;
  size_t Pch = 0;
  std::error_code EC;
  for (const auto &E : fs::recursive_directory_iterator(fs::path(Cache) / "preambles", EC))
    Pch += E.path().extension() == ".pch";
  EXPECT_GT(Pch, 0u) << "the builder left no preamble in " << Cache;
  reparse("reusing preambles");
  RunResult Warm = report({"--cache-dir", Cache, "--cache-stats"});
  EXPECT_EQ(Warm.Stdout, Fresh.Stdout);
  EXPECT_EQ(Warm.ExitCode, Fresh.ExitCode);
  EXPECT_NE(Warm.Stderr.find("cache: " + std::to_string(Files.size()) + " of " +
                             std::to_string(Files.size())),
            std::string::npos)
      << Warm.Stderr;
  EXPECT_GT(nlohmann::json::parse(Fresh.Stdout)["findings"].size(), 50u);
  fs::remove_all(Cache);
}

} // namespace
