#include "Commands.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
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

// A launcher stopping a run (torchrun ending every rank once one has failed,
// a CI timeout) signals graphcheck, its child. The signal goes on to the
// program, and graphcheck stays to write what was recorded: dying at once
// would leave no report and the program running. While the report is
// written, such a signal waits; the launcher's SIGKILL still ends it.
// Keys typed at a terminal (si_code > 0) already reach the whole foreground
// group: they are not passed on, and they stop the analysis as usual.
volatile sig_atomic_t Program = 0; // 0: not started, -1: ended, report being written

void onStopSignal(int Signal, siginfo_t *Info, void *) {
  bool FromTerminal = Info && Info->si_code > 0;
  if (Program > 0) {
    if (!FromTerminal)
      ::kill(Program, Signal);
    return;
  }
  if (Program == 0 || FromTerminal) {
    ::signal(Signal, SIG_DFL);
    ::raise(Signal);
  }
}

class StopSignalsGoToProgram {
public:
  StopSignalsGoToProgram() {
    struct sigaction Forward {};
    Forward.sa_sigaction = onStopSignal;
    Forward.sa_flags = SA_SIGINFO;
    sigemptyset(&Forward.sa_mask);
    for (size_t I = 0; I < std::size(Signals); ++I)
      sigaction(Signals[I], &Forward, &Before[I]);
  }
  ~StopSignalsGoToProgram() {
    for (size_t I = 0; I < std::size(Signals); ++I)
      sigaction(Signals[I], &Before[I], nullptr);
    Program = 0;
  }
  // The program's wait status, once it has ended.
  int wait(pid_t Child) {
    Program = Child;
    int Status = 0;
    while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
    }
    Program = -1;
    return Status;
  }

private:
  static constexpr int Signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
  struct sigaction Before[std::size(Signals)];
};

} // namespace

int runUnderChecker(const std::vector<std::string> &Command, const CheckOptions &Options) {
  CheckOptions Opts = Options;
  // Run by a launcher once per rank (torchrun ... graphcheck run -o FILE):
  // each rank writes FILE.rankN instead of all writing FILE.
  if (const char *Rank = getenv("RANK");
      Rank && *Rank && !Opts.Output.empty() && Opts.Output != "-") {
    Opts.Output += std::string(".rank") + Rank;
    std::cerr << "graphcheck: rank " << Rank << " writes its report to " << Opts.Output
              << "; for one report naming every rank, run graphcheck around the launcher "
                 "(graphcheck run -- torchrun ...)\n";
  }
  if (Command.empty()) {
    std::cerr
        << "graphcheck: error: no command; use: graphcheck run [options] -- COMMAND [ARGS...]\n";
    return 2;
  }
  std::string Lib = findInjectionLibrary();
  // CUDA loads one injection library: a profiler that set its own (Nsight
  // Systems, Nsight Compute) keeps it, and this run observes nothing.
  std::string Held;
  if (const char *Other = getenv("CUDA_INJECTION64_PATH");
      Other && *Other && !Lib.empty() && fs::path(Other) != fs::path(Lib)) {
    Held = Other;
    std::cerr << "graphcheck: CUDA_INJECTION64_PATH already names " << Held
              << " (a profiler?); it is left in place and the program runs unobserved. Run "
                 "graphcheck and the profiler separately.\n";
    Lib.clear();
  }
  std::string Dir =
      (fs::temp_directory_path() / ("graphcheck-" + std::to_string(::getpid()))).string();
  fs::create_directories(Dir);
  if (Lib.empty() && Held.empty())
    std::cerr
        << "graphcheck: the injection library was not built (no CUPTI at build time); running the "
           "program unobserved\n";

  StopSignalsGoToProgram Signals;
  pid_t Child = fork();
  if (Child == 0) {
    if (!Lib.empty()) {
      setenv("CUDA_INJECTION64_PATH", Lib.c_str(), 1);
      setenv("GRAPHCHECK_TRACE_DIR", Dir.c_str(), 1);
      setenv("GRAPHCHECK_MODE", Opts.Mode.c_str(), 1);
      setenv("GRAPHCHECK_PROFILER", Opts.Profiler.c_str(), 1);
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
  int Status = Signals.wait(Child);
  int ProgramCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  // A crash or a kill: every line written to the trace's mapping is in the
  // file whatever became of the process, so what was recorded until then is
  // still analysed, and the report says it stops there.
  std::string Fate;
  if (WIFSIGNALED(Status))
    Fate = "the program was killed by signal " + std::to_string(WTERMSIG(Status)) + " (" +
           strsignal(WTERMSIG(Status)) + "); the report holds what was recorded until then";
  if (!Fate.empty())
    std::cerr << "graphcheck: " << Fate << "\n";

  Report Load;
  RuleSet Rules = loadRulesFor(Opts, Load);
  std::vector<std::string> Traces;
  for (const auto &E : fs::directory_iterator(Dir))
    if (E.path().extension() == ".jsonl")
      Traces.push_back(E.path().string());
  std::sort(Traces.begin(), Traces.end());
  if (Lib.empty() || Traces.empty()) {
    std::string Why =
        !Held.empty() ? "CUDA_INJECTION64_PATH already named another injection library (" + Held +
                            "), which CUDA loads instead of graphcheck's"
        : Lib.empty() ? "the injection library was not built (no CUPTI at build time)"
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
    return Lib.empty() && Held.empty() ? 2 : ProgramCode;
  }
  // One report for the whole run: torchrun ranks each leave a trace, and
  // the same hazard on every rank is one finding naming the ranks.
  Report Rep = analyzeTraces(Traces, Rules, Opts);
  Rep.Errors.insert(Rep.Errors.begin(), Load.Errors.begin(), Load.Errors.end());
  if (!Fate.empty()) {
    Rep.Errors.push_back({"graphcheck", Fate});
    Rep.Complete = false;
  }
  int Worst = writeAndScore(Rep, Rules, Opts, Opts.Output);
  // GRAPHCHECK_KEEP_TRACES=DIR keeps the raw traces (they become engine fixtures).
  if (const char *Keep = getenv("GRAPHCHECK_KEEP_TRACES"); Keep && *Keep) {
    fs::create_directories(Keep);
    for (const auto &T : Traces)
      fs::copy_file(T, fs::path(Keep) / fs::path(T).filename(),
                    fs::copy_options::overwrite_existing);
  }
  fs::remove_all(Dir);
  if (!Fate.empty())
    return ProgramCode; // the target's status, as a shell reports a killed program
  if (Worst == 2)
    return 2;
  return Worst == 1 ? 1 : ProgramCode;
}

} // namespace graphsafe::rt
