// Rules are data: each YAML file in a rules directory describes one rule (or
// one set of capture spellings). Both tools load them at run time.
#pragma once

#include "graphsafe/Finding.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphsafe {

// Extra conditions a matched call must satisfy (`when:` in a match clause).
struct MatchConditions {
  std::optional<std::string> ArgDevice;      // some argument names this device (cpu/cuda)
  std::optional<std::string> ReceiverDevice; // the receiver tensor lives on this device
  std::vector<std::string> ReceiverFrom;     // the receiver comes from one of these calls
  std::optional<unsigned> ArgCount;          // exactly this many explicit arguments
  std::vector<std::string> MissingArg;       // a parameter left at its default
  std::vector<std::string> ArgMentions;      // some argument names one of these
  std::optional<std::string> ArgType;        // some argument has this (class) type
  bool DefaultStreamArg = false;             // a stream argument is the default/legacy stream
  bool BoolMaskIndex = false;                // an index is a boolean mask
  bool AutomaticStorageArg = false;          // an argument points at a local or a temporary
  bool NotIfDifferent = false;               // not the `if (want != current) set(want)` idiom
  bool NotUnderFlag = false;                 // not inside `if (debug)` on a boolean switch
  std::vector<std::string> NotInMacro;       // not written inside these macros (VLOG, DLOG)
  bool OutputStream = false;                 // `<<` writes to output, not a string or a parameter
  bool OutputStreamArg = false;              // hands std::cout or a file to a stream parameter
  bool TensorArg = false;                    // Python: some argument is known to be a tensor
  // Python: the argument at one of these positions or keywords is known to
  // be a tensor (`repeats=counts`; `repeats=2`, or a count whose type is not
  // known, gives no finding, as elsewhere); an argument left out does not
  // count.
  std::vector<std::string> TensorArgAt;
  bool empty() const;
};

struct FixSpec {
  std::string RenameTo;  // replace the callee's name
  std::string AppendArg; // add this as a last argument
};

struct MatchClause {
  enum class Kind { Call, Method, Construct, Operator, Check };
  Kind K = Kind::Call;
  std::vector<std::string> Names; // qualified names, or the check name for Kind::Check
  std::string On;                 // receiver class for methods
  MatchConditions When;
  std::optional<FixSpec> Fix;
  unsigned Line = 0;
};

struct HelperSpec {
  std::string Name;
  unsigned Arg = 0;
  // Python: the parameter's name, where callers may pass it by keyword
  // (`cudagraphify_impl(model=fn, inputs=...)`).
  std::string Keyword;
  // Python graphed callables: whether what the wrapper returns, called, is
  // a fresh copy of the graph's outputs (`outputs: copied`, tensordict's
  // CudaGraphModule) rather than the static output memory itself
  // (make_graphed_callables).
  bool CopiesOutputs = false;
};

// Where capture begins and ends, what tests whether a stream is capturing,
// and which callables are captured although no region shows it.
struct CaptureSpec {
  std::vector<MatchClause> Begin;
  std::vector<MatchClause> End;
  std::vector<std::string> Scoped;         // RAII types whose lifetime is a region
  std::vector<std::string> StatusQueries;  // calls that report capture status
  std::vector<std::string> NotCapturing;   // enumerators meaning "not capturing"
  std::vector<HelperSpec> Helpers;         // argument N is run under capture
  std::vector<std::string> EntryPoints;    // functions always run under capture
  std::vector<std::string> StreamGuards;   // RAII types that set the current stream
  std::vector<std::string> StreamSetters;  // calls that set the current stream
  std::vector<std::string> ThreadSpawners; // calls/constructors that run a callable on a new thread
  // Functions the program may call on other threads than a capturing one (a
  // library's API that applications call from their own threads).
  std::vector<std::string> ThreadEntryPoints;

  // Python spellings (`python:` in a capture file), as qualified names after
  // import aliases are resolved, or method names on any receiver.
  std::vector<std::string> PyContextManagers; // `with NAME(g):` captures its body
  std::vector<std::string> PyBegin;           // g.NAME() begins capture on g
  std::vector<std::string> PyEnd;             // g.NAME() ends it
  std::vector<HelperSpec> PyGraphedCallables; // argument N (callables) is captured
  std::vector<std::string> PyStatusQueries;   // true while the current stream captures
  std::vector<std::string> PyReplay;          // g.NAME() replays g

  void merge(const CaptureSpec &Other);
};

// How a rule reads Python: its own spellings (`on:` names a value kind such as
// tensor, stream or event, not a class), and a message and fix in Python's terms.
struct PythonSpelling {
  std::vector<MatchClause> Match;
  std::string Message; // fmt template; empty: the rule's message
  std::string Fix;     // empty: the rule's fix
};

struct Rule {
  std::string Id;
  Severity Level = Severity::Warning;
  std::string Category;
  // Host state and host I/O: what the capture mechanism itself does by design.
  bool isHostSideEffect() const { return Category == "host-side-effect"; }
  std::string Summary;
  std::string Message; // fmt template; {callee} is the matched name
  std::string Why;
  std::string Fix;
  std::vector<std::string> See;
  std::vector<MatchClause> Match; // empty for runtime rules
  PythonSpelling Python;
  std::string Tool; // graphlint, graphcheck or both
  // What makes a site a finding: being reached from a capture region
  // ("capture"), or running on another thread of a program that captures in
  // global mode ("other-threads").
  std::string Reach = "capture";
  std::string File;
  unsigned Line = 1;

  std::string formatMessage(const std::string &Callee) const;
};

struct RuleSet {
  std::vector<Rule> Rules; // sorted by id
  CaptureSpec Capture;
  std::vector<std::string> CaptureFiles;

  const Rule *find(const std::string &Id) const;
};

struct RuleError {
  std::string File;
  unsigned Line = 0;
  std::string Message;
  std::string str() const;
};

// Loads every *.yaml/*.yml file of each directory, in order. A rule id seen in a
// later directory replaces the earlier one (house rules override bundled ones).
// Malformed files are reported in Errors and skipped; the rest still load.
RuleSet loadRules(const std::vector<std::string> &Dirs, std::vector<RuleError> &Errors);

// Parses one file's text (exposed for tests).
void parseRuleText(const std::string &Text, const std::string &File, RuleSet &Into,
                   std::vector<RuleError> &Errors);

// The directory holding the bundled rules, found next to the executable or at
// the install prefix; empty when none exists.
std::string defaultRulesDir(const std::string &Argv0);

} // namespace graphsafe
