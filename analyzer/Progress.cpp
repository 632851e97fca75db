#include "Progress.h"

#include <fmt/format.h>

#include <unistd.h>

namespace graphsafe::lint {

ProgressMode progressModeFor(const std::string &Asked, bool Quiet) {
  if (Quiet || Asked == "off")
    return ProgressMode::Off;
  if (Asked == "plain")
    return ProgressMode::Plain;
  if (Asked == "line")
    return ProgressMode::Line;
  return isatty(STDERR_FILENO) ? ProgressMode::Line : ProgressMode::Off;
}

std::string formatDuration(double Seconds) {
  long S = static_cast<long>(Seconds + 0.5);
  if (S >= 3600)
    return fmt::format("{}h{:02}m", S / 3600, (S % 3600) / 60);
  if (S >= 60)
    return fmt::format("{}m{:02}s", S / 60, S % 60);
  return fmt::format("{}s", S);
}

Progress::Progress(ProgressMode Mode, size_t Total, std::string What, std::ostream &Out)
    : Mode(Total ? Mode : ProgressMode::Off), Total(Total), What(std::move(What)), Out(Out),
      Start(std::chrono::steady_clock::now()) {}

void Progress::fileDone(const std::string &File, bool FromCache) {
  if (Mode == ProgressMode::Off)
    return;
  std::lock_guard<std::mutex> L(M);
  ++Done;
  Cached += FromCache;
  auto Now = std::chrono::steady_clock::now();
  double Elapsed = std::chrono::duration<double>(Now - Start).count();
  if (Mode == ProgressMode::Plain) {
    Out << fmt::format("graphlint: [{}/{}] {}{} ({} elapsed)\n", Done, Total, File,
                       FromCache ? " (cache)" : "", formatDuration(Elapsed))
        << std::flush;
    return;
  }
  // A terminal line at most ten times a second, and always the last one.
  if (Drawn && Done < Total && Now - LastDraw < std::chrono::milliseconds(100))
    return;
  LastDraw = Now;
  std::string Left =
      Done < Total ? fmt::format(", ~{} left", formatDuration(Elapsed / Done * (Total - Done)))
                   : "";
  std::string Line = fmt::format("[{}/{}] {} {}{}{}", Done, Total, File, formatDuration(Elapsed),
                                 Left, Cached ? fmt::format(", {} from cache", Cached) : "");
  if (Line.size() > 118)
    Line = Line.substr(0, 4) + "..." + Line.substr(Line.size() - 111);
  Out << "\r\033[K" << What << Line << std::flush;
  Drawn = true;
}

void Progress::finish() {
  std::lock_guard<std::mutex> L(M);
  if (Mode == ProgressMode::Line && Drawn)
    Out << "\r\033[K" << std::flush;
  Drawn = false;
}

} // namespace graphsafe::lint
