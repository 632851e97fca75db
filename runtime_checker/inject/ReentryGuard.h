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
  // Narrowing the runtime domain (a capture ended) while another thread is
  // inside a call that narrow mode does not watch drops that call's exit
  // callback: such a call counts as over once a narrowing has happened since
  // it began, or every later driver call of that thread would pass for the
  // runtime's own and go unchecked. Narrowings is how many have happened so
  // far; WatchedWhenNarrow says whether a call's exit still arrives.
  static void runtimeEnter(unsigned Cbid, unsigned Narrowings) {
    if (Runtime == 0) {
      OuterCbid = Cbid;
      OuterNarrowings = Narrowings;
    }
    ++Runtime;
  }
  static void runtimeExit() { Runtime = Runtime > 0 ? Runtime - 1 : 0; }
  template <typename WatchedFn>
  static bool inRuntimeCall(unsigned Narrowings, WatchedFn WatchedWhenNarrow) {
    if (Runtime == 0)
      return false;
    if (OuterNarrowings != Narrowings && !WatchedWhenNarrow(OuterCbid))
      Runtime = 0; // Its exit will not come.
    return Runtime > 0;
  }

private:
  static inline thread_local int Handler = 0;
  static inline thread_local int Runtime = 0;
  static inline thread_local unsigned OuterCbid = 0;
  static inline thread_local unsigned OuterNarrowings = 0;
};

} // namespace graphsafe::inject
