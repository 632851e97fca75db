// Writers for the Finding model: clang-style text, JSON and SARIF 2.1.0.
#pragma once

#include "graphsafe/Finding.h"
#include "graphsafe/Rule.h"

#include <optional>
#include <ostream>
#include <string>

namespace graphsafe {

enum class ReportFormat { Text, Json, Sarif };

std::optional<ReportFormat> parseReportFormat(const std::string &Name);

struct WriteOptions {
  const RuleSet *Rules = nullptr; // For rule metadata (SARIF driver rules, help text).
  std::string ToolName = "graphsafe";
  std::string ToolVersion;
  std::string InformationUri; // SARIF: where to learn about the tool
  bool ShowSource = true; // Text: print the source line and a caret.
  std::string BaseDir;    // SARIF: URIs are made relative to this when possible.
};

void writeText(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeJson(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeSarif(std::ostream &OS, const Report &R, const WriteOptions &Opts);
void writeReport(ReportFormat F, std::ostream &OS, const Report &R, const WriteOptions &Opts);

} // namespace graphsafe
