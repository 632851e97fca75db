#include "Commands.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace graphsafe::rt {

namespace {

fs::path installRoot() {
  std::error_code EC;
  return fs::canonical("/proc/self/exe", EC).parent_path().parent_path();
}

std::string findInjectionLibrary() {
  fs::path P = installRoot() / "lib" / "libgraphcheck_inject.so";
  return fs::exists(P) ? P.string() : "";
}

std::string findShim() {
  for (const fs::path &P :
       {installRoot() / "share" / "graphsafe" / "python", fs::path(GRAPHSAFE_SHIM_DIR)})
    if (fs::exists(P / "sitecustomize.py"))
      return P.string();
  return "";
}

} // namespace

int runUnderChecker(const std::vector<std::string> &Command, const CheckOptions &Opts) {
  if (Command.empty()) {
    std::cerr
        << "graphcheck: error: no command; use: graphcheck run [options] -- COMMAND [ARGS...]\n";
    return 2;
  }
  std::string Lib = findInjectionLibrary();
  std::string Dir =
      (fs::temp_directory_path() / ("graphcheck-" + std::to_string(::getpid()))).string();
  fs::create_directories(Dir);
  if (Lib.empty())
    std::cerr
        << "graphcheck: the injection library was not built (no CUPTI at build time); running the "
           "program unobserved\n";

  pid_t Child = fork();
  if (Child == 0) {
    if (!Lib.empty()) {
      setenv("CUDA_INJECTION64_PATH", Lib.c_str(), 1);
      setenv("GRAPHCHECK_TRACE_DIR", Dir.c_str(), 1);
      setenv("GRAPHCHECK_MODE", Opts.Mode.c_str(), 1);
      if (std::string Shim = findShim(); !Shim.empty()) {
        const char *Old = getenv("PYTHONPATH");
        setenv("PYTHONPATH", (Shim + (Old && *Old ? ":" + std::string(Old) : "")).c_str(), 1);
      }
    }
    std::vector<char *> Argv;
    for (const auto &A : Command)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execvp(Argv[0], Argv.data());
    std::cerr << "graphcheck: error: cannot run '" << Command[0] << "': " << strerror(errno)
              << "\n";
    _exit(127);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  int ProgramCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  // A crash or a kill: the trace went to disk line by line, so what was
  // recorded until then is still analysed, and the report says it stops there.
  std::string Fate;
  if (WIFSIGNALED(Status))
    Fate = "the program was killed by signal " + std::to_string(WTERMSIG(Status)) + " (" +
           strsignal(WTERMSIG(Status)) + "); the report holds what was recorded until then";
  if (!Fate.empty())
    std::cerr << "graphcheck: " << Fate << "\n";

  Report Load;
  RuleSet Rules = loadRulesFor(Opts, Load);
  int Worst = 0;
  std::vector<fs::path> Traces;
  for (const auto &E : fs::directory_iterator(Dir))
    if (E.path().extension() == ".jsonl")
      Traces.push_back(E.path());
  std::sort(Traces.begin(), Traces.end());
  if (Lib.empty() || Traces.empty()) {
    std::string Why =
        Lib.empty() ? "the injection library was not built (no CUPTI at build time)"
                    : "no trace was recorded (the program used no CUDA, or the injection library "
                      "could not start: no GPU or driver, or CUPTI held by another profiler)";
    std::cerr << "graphcheck: " << Why << "; nothing was checked\n";
    // A CI job uploads -o whatever happened: it always exists, empty of
    // findings and saying why, so a missing file never hides a skipped check.
    if (!Opts.Output.empty() && Opts.Output != "-") {
      Report Empty;
      Empty.Tool = "graphcheck";
      Empty.Errors = Load.Errors;
      Empty.Errors.push_back({"graphcheck", Why + "; nothing was checked"});
      if (!Fate.empty())
        Empty.Errors.push_back({"graphcheck", Fate});
      Empty.Complete = false;
      writeAndScore(Empty, Rules, Opts, Opts.Output);
    }
    fs::remove_all(Dir);
    return Lib.empty() ? 2 : ProgramCode;
  }
  for (const auto &T : Traces) {
    Report Rep = analyzeTrace(T.string(), Rules, Opts);
    Rep.Errors.insert(Rep.Errors.begin(), Load.Errors.begin(), Load.Errors.end());
    if (!Fate.empty()) {
      Rep.Errors.push_back({"graphcheck", Fate});
      Rep.Complete = false;
    }
    // One report per process (torchrun ranks each write their own), named
    // by rank and pid: REPORT.rank1-4242.
    std::string Out = Opts.Output;
    std::string Process = T.stem().string().substr(6); // After "trace-".
    if (!Out.empty() && Out != "-" && Traces.size() > 1)
      Out += "." + Process;
    else if (Traces.size() > 1)
      std::cerr << "graphcheck: process " << Process << ":\n";
    Worst = std::max(Worst, writeAndScore(Rep, Rules, Opts, Out));
  }
  // GRAPHCHECK_KEEP_TRACES=DIR keeps the raw traces (they become engine fixtures).
  if (const char *Keep = getenv("GRAPHCHECK_KEEP_TRACES"); Keep && *Keep) {
    fs::create_directories(Keep);
    for (const auto &T : Traces)
      fs::copy_file(T, fs::path(Keep) / T.filename(), fs::copy_options::overwrite_existing);
  }
  fs::remove_all(Dir);
  if (!Fate.empty())
    return ProgramCode; // the target's status, as a shell reports a killed program
  if (Worst == 2)
    return 2;
  return Worst == 1 ? 1 : ProgramCode;
}

} // namespace graphsafe::rt
