#include "TestSupport.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace graphsafe::test {

namespace {

std::string quote(const std::string &S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

} // namespace

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string makeTempDir() {
  std::string Tmpl = (fs::temp_directory_path() / "graphsafe-test-XXXXXX").string();
  char *Dir = mkdtemp(Tmpl.data());
  return Dir ? Dir : "";
}

RunResult runGraphlint(const std::vector<std::string> &Args) {
  std::string Dir = makeTempDir();
  std::string Cmd = quote(GRAPHLINT_BIN);
  for (const auto &A : Args)
    Cmd += " " + quote(A);
  Cmd += " >" + quote(Dir + "/out") + " 2>" + quote(Dir + "/err") + " </dev/null";
  int Status = std::system(Cmd.c_str());
  RunResult R;
  R.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  R.Stdout = readFile(Dir + "/out");
  R.Stderr = readFile(Dir + "/err");
  fs::remove_all(Dir);
  return R;
}

std::vector<std::string> lintCompilerFlags() {
  std::vector<std::string> Flags = {"-std=c++17",
                                    "-I" + std::string(GRAPHSAFE_TESTDATA) + "/lint/include"};
  if (std::string(GRAPHSAFE_TORCH_API_INCLUDE).find("NOTFOUND") == std::string::npos)
    Flags.push_back("-I" + std::string(GRAPHSAFE_TORCH_API_INCLUDE));
  return Flags;
}

} // namespace graphsafe::test
