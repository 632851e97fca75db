// Writers for the Finding model: clang-style text, JSON, SARIF 2.1.0 and JUnit
// XML (for CI test reporters).
#pragma once

#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <optional>
#include <ostream>
#include <string>

namespace graphsafe {

enum class ReportFormat { Text, Json, Sarif, Junit };

std::optional<ReportFormat> parseReportFormat(const std::string &Name);

struct WriteOptions {
  const RuleSet *Rules = nullptr; // For rule metadata (SARIF driver rules, help text).
  std::string ToolName = "graphsafe";
  std::string ToolVersion;
  std::string InformationUri; // SARIF: where to learn about the tool
  bool ShowSource = true;     // Text: print the source line and a caret.
  std::string BaseDir;        // SARIF, JUnit: paths are made relative to this when possible.
};

// File as a path under Base (WriteOptions::BaseDir), when it is an absolute
// path inside Base; nothing otherwise.
std::optional<std::string> pathUnderBase(const std::string &File, const std::string &Base);

void writeText(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeJson(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeSarif(std::ostream &OS, const Report &R, const WriteOptions &Opts);
// One test case per test the findings name (graphcheck under pytest), else
// per file, each finding a <failure>; every unit of Report::Units is a case.
void writeJunit(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeReport(ReportFormat F, std::ostream &OS, const Report &R, const WriteOptions &Opts);

} // namespace graphsafe
