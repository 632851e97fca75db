// host-io-in-capture: where a stream write goes. A string being built and
// verbose logging are not output replays lose; std::cout, a file and LOG are.
#include "lint_prelude.h"

#include <c10/util/Logging.h>

#include <fstream>
#include <sstream>
#include <string>

struct Shape {
  int64_t rows = 0, cols = 0;
};

// A formatter writes to whatever stream its caller hands it.
std::ostream &operator<<(std::ostream &os, const Shape &s) {
  return os << s.rows << "x" << s.cols;
}

void describe(std::ostream &os, const Shape &s) { os << "shape " << s << "\n"; }

struct Report {
  std::ostringstream text;
  void add(const std::string &line) { text << line << "\n"; } // A member string stream.
  void print(std::ostream *out) const { *out << text.str(); }
};

// A logger taking its severity as a macro argument, as ONNX Runtime's.
enum class Severity { kVERBOSE, kINFO, kWARNING };
std::ostream &logStream(Severity S);
#define LOGS_DEFAULT(severity) logStream(Severity::k##severity)

std::string shapeMessage(const Shape &s) {
  std::ostringstream ss;
  ss << "bad shape " << s;
  return ss.str();
}

struct Runner {
  at::cuda::CUDAGraph graph;
  at::Tensor static_in, static_out;
  Shape shape;
  Report report;
  std::ofstream trace{"trace.txt"};

  void capture() {
    c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    graph.capture_begin();
    static_out = static_in * 2;
    std::stringstream key;
    key << shape << ":" << static_in.dim();           // Builds a cache key: no output.
    std::string why = shapeMessage(shape);            // The message of an error not raised.
    report.add(why);
    describe(key, shape);                             // Handed a string stream: no output.
    VLOG(2) << "capturing " << shape;                 // Verbose logging, off by default.
    DLOG(INFO) << "capturing " << key.str();          // Debug builds only.
    std::cerr << shape << "\n";                       // expected-warning {{host-io-in-capture}}
    describe(std::cout, shape);                       // expected-warning {{host-io-in-capture}}
    report.print(&std::clog);                         // expected-warning {{host-io-in-capture}}
    trace << "step\n";                                // expected-warning {{host-io-in-capture}}
    describe(trace, shape);                           // expected-warning {{host-io-in-capture}}
    LOG(INFO) << "captured " << shape;                // expected-warning {{host-io-in-capture}}
    LOGS_DEFAULT(VERBOSE) << "captured " << shape;    // Verbose: off by default.
    LOGS_DEFAULT(WARNING) << "captured " << shape;    // expected-warning {{host-io-in-capture}}
    graph.capture_end();
  }
};
