// Findings carry text from source files and traces (names, paths, messages):
// whatever bytes they hold, the JSON and SARIF reports stay valid JSON.
#include "graphsafe/ReportWriter.h"
#include "graphsafe/Rule.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Fields separated by NUL bytes, used in turn.
  std::vector<std::string> Fields(1);
  for (size_t I = 0; I < Size; ++I)
    if (Data[I] == 0)
      Fields.emplace_back();
    else
      Fields.back() += static_cast<char>(Data[I]);
  size_t Next = 0;
  auto field = [&] { return Fields[Next++ % Fields.size()]; };
  graphsafe::Report R;
  R.Tool = "graphlint";
  for (int I = 0; I < 3; ++I) {
    graphsafe::Finding F;
    F.RuleId = field();
    F.Message = field();
    F.Loc = {field(), static_cast<unsigned>(Size % 7), static_cast<unsigned>(I)};
    F.Notes.push_back({field(), {field(), 1, 1}});
    F.FixIts.push_back({{F.Loc.File, 1, 1}, {F.Loc.File, 1, 2}, field()});
    F.Fix = field();
    if (I % 2)
      F.Processes = {field(), field()};
    if (I == 1)
      F.Runtime = graphsafe::RuntimeLoc{field(), field(), field(), field()};
    R.Findings.push_back(F);
  }
  R.Errors.push_back({field(), field()});
  graphsafe::RuleSet Rules;
  graphsafe::WriteOptions WO;
  WO.Rules = &Rules;
  WO.ToolName = "graphlint";
  WO.ToolVersion = "fuzz";
  WO.ShowSource = false;
  for (auto Format : {graphsafe::ReportFormat::Json, graphsafe::ReportFormat::Sarif}) {
    std::ostringstream OS;
    graphsafe::writeReport(Format, OS, R, WO);
    if (nlohmann::json::parse(OS.str(), nullptr, /*allow_exceptions=*/false).is_discarded())
      std::abort(); // An invalid report is the bug this target looks for.
  }
  std::ostringstream Text;
  graphsafe::writeReport(graphsafe::ReportFormat::Text, Text, R, WO);
  return 0;
}
