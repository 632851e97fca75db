// Progress of a long run on stderr, as build tools show it: on a terminal one
// line rewritten in place (`[12/340] src/ops.cu  1m02s, ~27m left, 3 from
// cache`), in CI logs a plain line per finished file, nothing when asked to be
// quiet. Thread-safe: workers report as they finish.
#pragma once

#include <chrono>
#include <mutex>
#include <ostream>
#include <string>

namespace graphsafe::lint {

enum class ProgressMode { Off, Line, Plain };

// `auto` is Line when stderr is a terminal, else Off; `plain`, `off`, or
// `line` as asked. Quiet wins.
ProgressMode progressModeFor(const std::string &Asked, bool Quiet);

class Progress {
public:
  Progress(ProgressMode Mode, size_t Total, std::string What, std::ostream &Out);
  ~Progress() { finish(); }

  void fileDone(const std::string &File, bool FromCache = false);
  // Clears the in-place line, leaving the terminal as it was.
  void finish();

private:
  ProgressMode Mode;
  size_t Total, Done = 0, Cached = 0;
  std::string What;
  std::ostream &Out;
  std::chrono::steady_clock::time_point Start, LastDraw;
  bool Drawn = false;
  std::mutex M;
};

// "1m02s", "41s", "1h03m".
std::string formatDuration(double Seconds);

} // namespace graphsafe::lint
