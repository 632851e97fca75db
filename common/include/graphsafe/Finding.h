// The one report model both tools produce: a finding is a rule id, a severity,
// a message, a primary location (source or runtime object) and supporting notes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace graphsafe {

enum class Severity { Note = 0, Warning = 1, Error = 2 };

const char *severityName(Severity S);
std::optional<Severity> parseSeverity(const std::string &Text);

struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;

  bool valid() const { return !File.empty() && Line != 0; }
  bool operator<(const SourceLoc &O) const;
  bool operator==(const SourceLoc &O) const {
    return File == O.File && Line == O.Line && Column == O.Column;
  }
};

// Where a runtime finding lives when there is no source line: the graph, the
// node and kernel in it, and the buffer involved.
struct RuntimeLoc {
  std::string Graph;
  std::string Node;
  std::string Kernel;
  std::string Buffer;
};

struct Note {
  std::string Message;
  SourceLoc Loc;
};

// A mechanical edit: replace [Begin, End) with Replacement. End == Begin inserts.
struct FixIt {
  SourceLoc Begin;
  SourceLoc End;
  std::string Replacement;
};

struct Finding {
  std::string RuleId;
  Severity Level = Severity::Warning;
  std::string Message;
  SourceLoc Loc;
  std::optional<RuntimeLoc> Runtime;
  std::vector<Note> Notes;
  std::vector<FixIt> FixIts;
  std::string Fix; // Human-readable advice, usually the rule's `fix`.
  // The processes that hit it, when a run checked several ("rank 0", "pid
  // 4242"): the same hazard on every rank is one finding.
  std::vector<std::string> Processes;
  // The test that was running when the hazard happened (pytest's node id, from
  // PYTEST_CURRENT_TEST), when the program was a test run.
  std::string Test;
};

// A problem of the tool itself (unparsable file, missing database). It does not
// stop the run, but it makes the exit code 2 and marks the report incomplete.
struct ToolError {
  std::string Where;
  std::string Message;
};

struct Report {
  std::string Tool;
  std::vector<Finding> Findings;
  std::vector<ToolError> Errors;
  // Said, but not failures: the tool did its job, something near a place
  // may be missed (a line its parser could not read in a file Python accepts).
  std::vector<ToolError> Warnings;
  bool Complete = true;
  // What was checked, findings or not: the files graphlint analysed, the tests
  // graphcheck saw run. A JUnit report lists each as a test case.
  std::vector<std::string> Units;

  // Deterministic order: by file, line, column, then rule id.
  void sort();
  bool hasFindingAtOrAbove(Severity S) const;
};

} // namespace graphsafe
