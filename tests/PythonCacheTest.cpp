// The Python result cache: an unchanged tree comes back whole from it; an
// edit redoes the edited module and every module whose analysis read its
// code; and whatever was edited, added, removed or corrupted, the report is
// byte for byte the report of a run without the cache.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using namespace graphsafe::test;

namespace {

class PythonCache : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = makeTempDir();
    Cache = Dir + "/.c";
  }
  void TearDown() override { fs::remove_all(Dir); }

  void write(const std::string &Name, const std::string &Text) {
    fs::create_directories((fs::path(Dir) / Name).parent_path());
    std::ofstream(fs::path(Dir) / Name) << Text;
  }
  void replaceIn(const std::string &Name, const std::string &From, const std::string &To) {
    std::string Text = readFile(Dir + "/" + Name);
    size_t At = Text.find(From);
    ASSERT_NE(At, std::string::npos) << From << " not in " << Name;
    write(Name, Text.replace(At, From.size(), To));
  }

  struct Outcome {
    std::string Report;
    int FromCache = -1, Of = -1;
  };
  Outcome run(const std::string &Folder) {
    RunResult R = runGraphlint(
        {"--format", "json", "--cache-stats", "--cache-dir", Cache, "-j", "2", Dir + "/" + Folder});
    RunResult Plain = runGraphlint({"--format", "json", "--no-cache", Dir + "/" + Folder});
    // The cache never changes what is reported.
    EXPECT_EQ(R.Stdout, Plain.Stdout) << R.Stderr;
    EXPECT_EQ(R.ExitCode, Plain.ExitCode);
    Outcome O{R.Stdout};
    std::smatch M;
    if (std::regex_search(R.Stderr, M, std::regex("cache: (\\d+) of (\\d+) Python files"))) {
      O.FromCache = std::stoi(M[1]);
      O.Of = std::stoi(M[2]);
    }
    return O;
  }

  std::string Dir, Cache;
};

TEST_F(PythonCache, AnEditRedoesTheModulesThatReadTheEditedCode) {
  write("app/pkg/__init__.py", "");
  write("app/pkg/helpers.py", "import torch\n\n\n"
                              "def scale(x):\n    return x * 2\n\n\n"
                              "def count(x) -> int:\n    return 3\n\n\n"
                              "def capturing():\n"
                              "    return torch.cuda.is_current_stream_capturing()\n");
  write("app/pkg/model.py", "import torch\nfrom pkg.helpers import scale, count, capturing\n\n\n"
                            "def step(x):\n    y = scale(x)\n    n = count(x)\n"
                            "    if n:\n        y = y + 1\n"
                            "    if not capturing():\n        torch.cuda.synchronize()\n"
                            "    return y\n");
  write("app/train.py", "import torch\nfrom pkg.model import step\n\n"
                        "g = torch.cuda.CUDAGraph()\nx = torch.zeros(4, device=\"cuda\")\n"
                        "with torch.cuda.graph(g):\n    out = step(x)\n");
  Outcome Cold = run("app");
  EXPECT_EQ(Cold.FromCache, 0);
  EXPECT_EQ(Cold.Of, 4);
  EXPECT_EQ(Cold.Report.find("data-dependent-branch"), std::string::npos);
  EXPECT_EQ(Cold.Report.find("synchronize"), std::string::npos);
  Outcome Warm = run("app");
  EXPECT_EQ(Warm.FromCache, 4);
  EXPECT_EQ(Warm.Report, Cold.Report);

  // model.py is unchanged, but what `count` returns is read from helpers.py's
  // code (its signature): now a tensor, so `if n:` syncs. Both are analysed
  // again.
  replaceIn("app/pkg/helpers.py", "-> int", "-> torch.Tensor");
  Outcome Typed = run("app");
  EXPECT_EQ(Typed.FromCache, 2);
  EXPECT_NE(Typed.Report.find("data-dependent-branch"), std::string::npos) << Typed.Report;

  // A body edit no other module reads (callers of `scale` read only its
  // signature): the edited module alone.
  replaceIn("app/pkg/helpers.py", "return x * 2", "return x.item() * 2");
  Outcome Synced = run("app");
  EXPECT_EQ(Synced.FromCache, 3);
  EXPECT_NE(Synced.Report.find("helpers.py"), std::string::npos) << Synced.Report;

  // A body other modules read: `capturing()` no longer tests the capture,
  // so model.py's sync is not guarded any more. The edited module, model.py
  // and train.py, which asks whether `step` raises whenever it runs under
  // capture (its `if not capturing():` reads the helper); not __init__.py.
  // (The body still names the query: whether a function names one is part
  // of the index, and a change there redoes every module, below.)
  replaceIn("app/pkg/helpers.py", "return torch.cuda.is_current_stream_capturing()",
            "return torch.cuda.is_current_stream_capturing() and False");
  Outcome Unguarded = run("app");
  EXPECT_EQ(Unguarded.FromCache, 1);
  EXPECT_NE(Unguarded.Report.find("synchronize"), std::string::npos) << Unguarded.Report;

  // A new name other modules could import: everything again.
  write("app/pkg/helpers.py",
        readFile(Dir + "/app/pkg/helpers.py") + "\n\nclass Scaler(torch.nn.Module):\n    pass\n");
  EXPECT_EQ(run("app").FromCache, 0);
  EXPECT_EQ(run("app").FromCache, 4);
}

// Which classes a loader's swaps reach is worked out from the whole program
// and kept with the code it read: an edit to that code alone (the learned
// tables unchanged) works it out again.
TEST_F(PythonCache, SwappedClassesFollowTheCodeTheyWereWorkedOutFrom) {
  write("app/model.py", "import torch\n\n\n"
                        "class Block(torch.nn.Module):\n"
                        "    def forward(self, x):\n        return x * x.sum().item()\n\n\n"
                        "class Wrapper(torch.nn.Module):\n"
                        "    def __init__(self):\n        super().__init__()\n"
                        "        self.block = Block()\n\n"
                        "    def forward(self, x):\n        return self.block(x)\n\n\n"
                        "class Model(torch.nn.Module):\n"
                        "    def __init__(self):\n        super().__init__()\n"
                        "        self.outer = Wrapper()\n\n"
                        "    def forward(self, x):\n        return self.outer(x)\n");
  write("app/load.py", "def set_module(model, key, module):\n"
                       "    setattr(model, key, module)\n\n\n"
                       "def inject(model, rules):\n"
                       "    for key, cls in rules.items():\n"
                       "        set_module(model, key, cls())\n");
  write("app/train.py",
        "import torch\nfrom model import Model, Wrapper\nfrom load import inject\n\n"
        "m = Model()\ninject(m, RULES)\nw = Wrapper()\n"
        "g = torch.cuda.CUDAGraph()\nx = torch.zeros(4, device=\"cuda\")\n"
        "with torch.cuda.graph(g):\n    y = w(x)\n");
  Outcome Swapped = run("app");
  EXPECT_EQ(Swapped.Report.find("\"severity\": \"error\""), std::string::npos) << Swapped.Report;
  EXPECT_NE(Swapped.Report.find("set_module"), std::string::npos) << Swapped.Report;
  EXPECT_EQ(run("app").FromCache, 3);
  // The model no longer holds a Wrapper: the one train.py builds is not swapped.
  replaceIn("app/model.py", "self.outer = Wrapper()", "self.outer = torch.nn.Identity()");
  Outcome Kept = run("app");
  EXPECT_NE(Kept.Report.find("\"severity\": \"error\""), std::string::npos) << Kept.Report;
}

// Whether a setter runs depends on whether any module names it: an edit of
// another module's function body that calls it must redo the capture's
// module, whose own code and reads did not change.
TEST_F(PythonCache, NamingASetterElsewhereRedoesTheCapture) {
  write("app/buffer.py", "class Storage:\n    def get(self, i):\n        return i\n\n\n"
                         "class HostStorage(Storage):\n"
                         "    def get(self, i):\n        return i.item()\n\n\n"
                         "class Buffer:\n"
                         "    def __init__(self, storage):\n        self._storage = storage\n\n"
                         "    def set_storage(self, storage):\n"
                         "        self._storage = HostStorage()\n\n"
                         "    def sample(self, x):\n        return self._storage.get(x)\n");
  write("app/tools.py", "def reset(holder):\n    return holder\n");
  write("app/train.py", "import torch\nfrom buffer import Buffer, Storage\n\n"
                        "buf = Buffer(Storage())\n"
                        "g = torch.cuda.CUDAGraph()\nx = torch.zeros(4, device=\"cuda\")\n"
                        "with torch.cuda.graph(g):\n    y = buf.sample(x)\n");
  Outcome Unnamed = run("app");
  EXPECT_EQ(Unnamed.Report.find("sync-tensor-read"), std::string::npos) << Unnamed.Report;
  EXPECT_EQ(run("app").FromCache, 3);
  replaceIn("app/tools.py", "return holder", "holder.buf.set_storage(None)\n    return holder");
  Outcome Named = run("app");
  EXPECT_NE(Named.Report.find("sync-tensor-read"), std::string::npos) << Named.Report;
  EXPECT_EQ(Named.FromCache, 0);
}

// Every Python testdata case as one program, edited the ways users edit.
TEST_F(PythonCache, ReportsAreIdenticalWithAndWithoutTheCacheThroughEdits) {
  fs::copy(std::string(GRAPHSAFE_TESTDATA) + "/python", Dir + "/py", fs::copy_options::recursive);
  std::vector<std::string> Files;
  for (const auto &E : fs::recursive_directory_iterator(Dir + "/py"))
    if (E.path().extension() == ".py")
      Files.push_back(fs::relative(E.path(), Dir).string());
  std::sort(Files.begin(), Files.end());
  ASSERT_GT(Files.size(), 20u);
  Outcome Cold = run("py");
  EXPECT_EQ(Cold.FromCache, 0);
  EXPECT_NE(Cold.Report.find("\"findings\""), std::string::npos);
  EXPECT_EQ(run("py").FromCache, Cold.Of);

  // A capture region's body grows a sync; a helper's body loses one.
  for (const auto &F : Files) {
    std::string Text = readFile(Dir + "/" + F);
    if (size_t At = Text.find(".item()"); At != std::string::npos) {
      write(F, Text.replace(At, 7, ".clone()"));
      break;
    }
  }
  EXPECT_GT(run("py").FromCache, 0);
  for (const auto &F : Files) {
    std::string Text = readFile(Dir + "/" + F);
    if (size_t At = Text.find("with torch.cuda.graph("); At != std::string::npos) {
      size_t Line = Text.find('\n', At);
      size_t Indent = Text.find_first_not_of(' ', Line + 1) - (Line + 1);
      write(F, Text.insert(Line + 1, std::string(Indent, ' ') + "torch.cuda.synchronize()\n"));
      break;
    }
  }
  run("py");
  // A file removed, one that does not parse, and cache entries cut short.
  fs::remove(Dir + "/" + Files.front());
  write("py/broken.py", "def f(:\n");
  run("py");
  for (const auto &E : fs::recursive_directory_iterator(Cache))
    if (E.is_regular_file() && E.path().extension() == ".bin")
      fs::resize_file(E.path(), fs::file_size(E.path()) / 2);
  EXPECT_EQ(run("py").FromCache, 0);
  Outcome Healed = run("py");
  EXPECT_EQ(Healed.FromCache, Healed.Of);
  // A manifest cut short: nothing is known of what read what.
  for (const auto &E : fs::recursive_directory_iterator(Cache))
    if (E.is_regular_file() && E.path().extension() == ".manifest")
      fs::resize_file(E.path(), fs::file_size(E.path()) - 1);
  EXPECT_EQ(run("py").FromCache, 0);
  EXPECT_EQ(run("py").FromCache, Healed.Of);
}

} // namespace
