// What a call does to capture state, seen from its caller: the lifecycle
// rules (one capture at a time, one per graph object, end on the stream that
// began) hold across functions only if a begin in one function, its end in
// another and a second capture made by a second call are seen as such.
#pragma once

#include "PyTypes.h"
#include "graphsafe/Rule.h"

#include <string>
#include <vector>

namespace graphsafe::lint::py {

struct CaptureEffect {
  enum Kind { Captures, Begins, Ends };
  Kind K = Captures;
  // The graph object as the caller spells it; empty when each call makes
  // its own (a local, a constructor call passed in).
  std::string Graph;
  // The stream a begin or end runs on, as the caller spells it; empty when
  // it is the caller's current stream.
  std::string Stream;
  // The callee rebinds or resets the graph before capturing into it.
  bool Renews = false;
  // The with, capture_begin or capture_end call, deepest in the chain.
  SourceLoc Where;
};

// The effects of the project functions Call may run, in the order their
// captures run, followed a few calls deep.
std::vector<CaptureEffect> captureEffects(const PyTypes &Caller, const CaptureSpec &Spec,
                                          TSNode Call);

// Whether running the project function Q leaves a capture begun for its
// caller to end: a context manager class's `__enter__` that calls
// `capture_begin`, its `__exit__` the end.
bool leavesCaptureOpen(const PyTypes &Caller, const CaptureSpec &Spec, const std::string &Q);

// The stream `with torch.cuda.stream(s):` makes current at N, as spelled in
// N's function; empty when no such block holds N.
std::string streamAt(const PyTypes &T, TSNode N);

// A spelling made comparable with a callee's: a name the function does not
// bind reads `module.name`, the global it is.
std::string canonicalSpelling(const PyTypes &T, const std::string &Spelling);

// A canonical spelling as T's function would write it, for messages.
std::string displaySpelling(const PyTypes &T, const std::string &Canonical);

} // namespace graphsafe::lint::py
