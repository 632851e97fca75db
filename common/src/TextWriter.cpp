#include "graphsafe/ReportWriter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <map>
#include <vector>

namespace graphsafe {

namespace {

// Caches file lines so each source file is read once per report.
class SourceLines {
public:
  const std::string *line(const std::string &File, unsigned Line) {
    auto It = Cache.find(File);
    if (It == Cache.end()) {
      std::vector<std::string> Lines;
      std::ifstream In(File);
      for (std::string L; std::getline(In, L);)
        Lines.push_back(L);
      It = Cache.emplace(File, std::move(Lines)).first;
    }
    if (Line == 0 || Line > It->second.size())
      return nullptr;
    return &It->second[Line - 1];
  }

private:
  std::map<std::string, std::vector<std::string>> Cache;
};

std::string where(const SourceLoc &L) {
  if (!L.valid())
    return L.File.empty() ? "<runtime>" : L.File;
  return fmt::format("{}:{}:{}", L.File, L.Line, L.Column ? L.Column : 1);
}

void snippet(std::ostream &OS, SourceLines &Src, const SourceLoc &L) {
  const std::string *Line = L.valid() ? Src.line(L.File, L.Line) : nullptr;
  if (!Line)
    return;
  OS << fmt::format("{:>5} | {}\n", L.Line, *Line);
  std::string Pad;
  for (unsigned I = 1; I < L.Column && I <= Line->size(); ++I)
    Pad += (*Line)[I - 1] == '\t' ? '\t' : ' ';
  OS << "      | " << Pad << "^\n";
}

} // namespace

void writeText(std::ostream &OS, const Report &R, const WriteOptions &Opts) {
  SourceLines Src;
  for (const auto &F : R.Findings) {
    OS << fmt::format("{}: {}: {} [{}]\n", where(F.Loc), severityName(F.Level), F.Message,
                      F.RuleId);
    if (F.Runtime) {
      const RuntimeLoc &RT = *F.Runtime;
      OS << fmt::format("  graph {} node {} kernel {}\n  buffer {}\n", RT.Graph, RT.Node, RT.Kernel,
                        RT.Buffer);
    }
    if (!F.Processes.empty())
      OS << fmt::format("  in {}\n", fmt::join(F.Processes, ", "));
    if (!F.Test.empty())
      OS << fmt::format("  test: {}\n", F.Test);
    if (Opts.ShowSource)
      snippet(OS, Src, F.Loc);
    for (const auto &Fix : F.FixIts)
      OS << fmt::format("{}: note: fix-it: replace with '{}'\n", where(Fix.Begin), Fix.Replacement);
    for (const auto &N : F.Notes)
      OS << fmt::format("{}: note: {}\n", where(N.Loc), N.Message);
    if (!F.Fix.empty())
      OS << fmt::format("  fix: {}\n", F.Fix);
  }
  for (const auto &E : R.Errors)
    OS << fmt::format("{}: error: {} [{}]\n", E.Where, E.Message, Opts.ToolName);
  for (const auto &W : R.Warnings)
    OS << fmt::format("{}: warning: {} [{}]\n", W.Where, W.Message, Opts.ToolName);
  size_t Counts[3] = {0, 0, 0};
  for (const auto &F : R.Findings)
    ++Counts[static_cast<int>(F.Level)];
  OS << fmt::format("{}: {} error(s), {} warning(s), {} note(s){}\n", Opts.ToolName, Counts[2],
                    Counts[1], Counts[0], R.Complete ? "" : " (incomplete: see errors above)");
}

std::optional<ReportFormat> parseReportFormat(const std::string &Name) {
  if (Name == "text")
    return ReportFormat::Text;
  if (Name == "json")
    return ReportFormat::Json;
  if (Name == "sarif")
    return ReportFormat::Sarif;
  if (Name == "junit")
    return ReportFormat::Junit;
  return std::nullopt;
}

void writeReport(ReportFormat F, std::ostream &OS, const Report &R, const WriteOptions &Opts) {
  switch (F) {
  case ReportFormat::Text:
    return writeText(OS, R, Opts);
  case ReportFormat::Json:
    return writeJson(OS, R, Opts);
  case ReportFormat::Sarif:
    return writeSarif(OS, R, Opts);
  case ReportFormat::Junit:
    return writeJunit(OS, R, Opts);
  }
}

} // namespace graphsafe
