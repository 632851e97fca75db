#include "PreambleBuilder.h"

#include <cstdlib>
#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

namespace graphsafe::lint {

void startPreambleBuilder(const Options &Opts, const std::string &StartDir,
                          const std::vector<std::string> &Files) {
  // A CI job's cache rarely outlives it, and the job's end would stop the
  // builder anyway: there it only takes cores from the next step.
  const char *Ci = std::getenv("CI");
  if (Files.empty() || (Ci && *Ci && std::string(Ci) != "false"))
    return;
  std::vector<std::string> Args = {"graphlint"};
  Args.insert(Args.end(), Opts.OwnArgs.begin(), Opts.OwnArgs.end());
  for (const auto &F : Files)
    Args.push_back("--build-preambles-for=" + F);
  if (Opts.HaveCompilerArgs) {
    Args.push_back("--");
    Args.insert(Args.end(), Opts.CompilerArgs.begin(), Opts.CompilerArgs.end());
  }
  // Built before the fork: between fork and exec only async-signal-safe
  // calls, as other threads may have held the allocator's lock.
  std::vector<char *> Argv;
  for (auto &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  pid_t Child = fork();
  if (Child < 0)
    return;
  if (Child == 0) {
    // A session of its own (a terminal's Ctrl-C or a pre-commit hook's end
    // do not stop it), and a grandchild: init reaps it, nobody waits.
    setsid();
    if (fork() != 0)
      _exit(0);
    int Null = open("/dev/null", O_RDWR);
    if (Null >= 0) {
      dup2(Null, 0);
      dup2(Null, 1);
      dup2(Null, 2);
    }
    // CPU time nothing else wants: a run started meanwhile keeps its cores.
    // Priority is a courtesy; refused, the build goes on at the default one.
    sched_param Idle{};
    if (sched_setscheduler(0, SCHED_IDLE, &Idle) != 0 && nice(19) == -1) {
    }
    if (chdir(StartDir.c_str()) == 0)
      execv("/proc/self/exe", Argv.data());
    _exit(127);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
}

} // namespace graphsafe::lint
