#include "ReadFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace graphsafe::lint {

namespace {
// read(2), again when a signal cut it short.
ssize_t readSome(int Fd, char *Into, size_t Size) {
  ssize_t N;
  do
    N = ::read(Fd, Into, Size);
  while (N < 0 && errno == EINTR);
  return N;
}
} // namespace

std::optional<std::string> readFileBytes(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return std::nullopt;
  struct stat St;
  std::string Bytes(::fstat(Fd, &St) == 0 && St.st_size > 0 ? St.st_size : 0, '\0');
  size_t Got = 0;
  ssize_t N = 1;
  while (Got < Bytes.size() && (N = readSome(Fd, Bytes.data() + Got, Bytes.size() - Got)) > 0)
    Got += N;
  Bytes.resize(Got);
  // Past what fstat said (a file that grew, a pipe): to the end, in pieces.
  char Buf[65536];
  while (N > 0 && (N = readSome(Fd, Buf, sizeof Buf)) > 0)
    Bytes.append(Buf, static_cast<size_t>(N));
  ::close(Fd);
  if (N < 0)
    return std::nullopt;
  return Bytes;
}

} // namespace graphsafe::lint
