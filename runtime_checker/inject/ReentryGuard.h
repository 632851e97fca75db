// Which callbacks are the program's own calls. Calls graphcheck makes inside a
// callback (runtime lookups, verify mode's copies) are not; nor is a driver
// call the runtime makes on the program's behalf, already seen as the runtime
// call around it.
#pragma once

namespace graphsafe::inject {

class CallDepth {
public:
  // While a handler runs on this thread.
  struct InHandler {
    InHandler() { ++Handler; }
    ~InHandler() { --Handler; }
  };
  static bool inHandler() { return Handler > 0; }

  // Between the enter and exit callbacks of a program's runtime call.
  static void runtimeEnter() { ++Runtime; }
  static void runtimeExit() { Runtime = Runtime > 0 ? Runtime - 1 : 0; }
  static bool inRuntimeCall() { return Runtime > 0; }

private:
  static thread_local int Handler;
  static thread_local int Runtime;
};

} // namespace graphsafe::inject
