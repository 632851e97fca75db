#include "Suppressions.h"

#include "ReadFile.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>

namespace graphsafe::lint {

std::vector<Suppression> parseSuppressions(const std::string &Text) {
  static const std::regex Re(R"((//|#)\s*graphsafe:\s*ignore\[([^\]]*)\]\s*(.*)$)");
  std::vector<Suppression> Out;
  // Every analysed file is scanned, most of them without one suppression:
  // only the lines holding the marker are split out and matched.
  unsigned N = 1;
  size_t Counted = 0;
  for (size_t At = Text.find("graphsafe:"); At != std::string::npos;) {
    size_t Begin = Text.rfind('\n', At);
    Begin = Begin == std::string::npos ? 0 : Begin + 1;
    size_t End = std::min(Text.find('\n', At), Text.size());
    N += std::count(Text.begin() + Counted, Text.begin() + Begin, '\n');
    Counted = Begin;
    At = Text.find("graphsafe:", End);
    const std::string Line = Text.substr(Begin, End - Begin);
    std::smatch M;
    if (!std::regex_search(Line, M, Re))
      continue;
    Suppression S;
    S.Line = N;
    S.Column = static_cast<unsigned>(M.position(0)) + 1;
    std::stringstream Ids(M[2].str());
    for (std::string Id; std::getline(Ids, Id, ',');) {
      Id.erase(0, Id.find_first_not_of(" \t"));
      Id.erase(Id.find_last_not_of(" \t") + 1);
      if (!Id.empty())
        S.Rules.insert(Id);
    }
    S.Reason = M[3].str();
    // A second comment on the line (another tool's directive) is not a reason.
    for (const char *Other : {"//", "# "})
      if (size_t Next = S.Reason.find(Other); Next != std::string::npos)
        S.Reason.erase(Next);
    S.Reason.erase(S.Reason.find_last_not_of(" \t\r") + 1);
    Out.push_back(S);
  }
  return Out;
}

const std::vector<Suppression> &SuppressionFilter::of(const std::string &File) {
  auto It = Cache.find(File);
  if (It != Cache.end())
    return It->second;
  return Cache.emplace(File, parseSuppressions(readFileBytes(File).value_or(""))).first->second;
}

void SuppressionFilter::apply(std::vector<Finding> &Findings,
                              const std::vector<std::string> &ExtraFiles,
                              const std::string &MissingReasonRule, Severity MissingReasonLevel) {
  std::vector<Finding> Kept;
  for (auto &F : Findings) {
    bool Silenced = false;
    for (const auto &S : of(F.Loc.File))
      if ((S.Line == F.Loc.Line || S.Line + 1 == F.Loc.Line) &&
          (S.Rules.count(F.RuleId) || S.Rules.count("*")))
        Silenced = true;
    if (!Silenced)
      Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
  if (MissingReasonRule.empty())
    return;
  std::vector<std::string> Files = ExtraFiles;
  for (const auto &[File, _] : Cache)
    Files.push_back(File);
  std::set<std::string> Done;
  for (const auto &File : Files) {
    if (!Done.insert(File).second)
      continue;
    for (const auto &S : of(File))
      if (S.Reason.empty()) {
        Finding F;
        F.RuleId = MissingReasonRule;
        F.Level = MissingReasonLevel;
        F.Message = "suppression without a reason; say why the finding is safe after the brackets";
        F.Loc = {File, S.Line, S.Column};
        Findings.push_back(std::move(F));
      }
  }
}

} // namespace graphsafe::lint
