#include "graphsafe/Subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

extern char **environ;

namespace graphsafe {

int runProgram(const std::vector<std::string> &Argv, std::string *Stdout) {
  if (Argv.empty())
    return -1;
  int Pipe[2] = {-1, -1};
  if (Stdout && ::pipe2(Pipe, O_CLOEXEC) != 0)
    return -1;
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 2, "/dev/null", O_WRONLY, 0);
  if (Stdout)
    posix_spawn_file_actions_adddup2(&Actions, Pipe[1], 1);
  else
    posix_spawn_file_actions_addopen(&Actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<char *> Args;
  for (const auto &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Child = -1;
  int Err = posix_spawnp(&Child, Args[0], &Actions, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Stdout) {
    ::close(Pipe[1]);
    if (Err == 0) {
      char Buf[4096];
      for (ssize_t N; (N = ::read(Pipe[0], Buf, sizeof Buf)) > 0;)
        Stdout->append(Buf, N);
    }
    ::close(Pipe[0]);
  }
  if (Err != 0)
    return -1;
  int Status = 0;
  while (::waitpid(Child, &Status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

bool onPath(const std::string &Program) {
  const char *Path = std::getenv("PATH");
  std::istringstream Dirs(Path ? Path : "");
  for (std::string Dir; std::getline(Dirs, Dir, ':');)
    if (!Dir.empty() && ::access((Dir + "/" + Program).c_str(), X_OK) == 0)
      return true;
  return false;
}

} // namespace graphsafe
