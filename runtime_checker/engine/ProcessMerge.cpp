#include "ProcessMerge.h"

#include <cctype>
#include <filesystem>
#include <map>
#include <tuple>

namespace graphsafe::rt {

std::string processOfTrace(const std::string &Path) {
  std::string Stem = std::filesystem::path(Path).stem().string();
  return Stem.rfind("trace-", 0) == 0 ? Stem.substr(6) : Stem;
}

std::string processLabel(const std::string &Process) {
  auto Digits = [](const std::string &S) {
    return !S.empty() && S.find_first_not_of("0123456789") == std::string::npos;
  };
  if (Process.rfind("rank", 0) == 0) {
    size_t Dash = Process.find('-');
    std::string Rank = Process.substr(4, Dash == std::string::npos ? Dash : Dash - 4);
    if (Digits(Rank))
      return "rank " + Rank;
  }
  return Digits(Process) ? "pid " + Process : Process;
}

// The message with its numbers (addresses, sizes, replay counts) blanked:
// what names the hazard's subject ("weight.grad", "bias.grad") in words that
// every process shares, so two hazards of one kernel on one line stay two.
static std::string withoutNumbers(const std::string &Message) {
  std::string Out;
  for (size_t I = 0; I < Message.size();) {
    if (!std::isdigit(static_cast<unsigned char>(Message[I]))) {
      Out += Message[I++];
      continue;
    }
    bool Hex = Message.compare(I, 2, "0x") == 0;
    I += Hex ? 2 : 0;
    while (I < Message.size() && (Hex ? std::isxdigit(static_cast<unsigned char>(Message[I]))
                                      : std::isdigit(static_cast<unsigned char>(Message[I]))))
      ++I;
    Out += '#';
  }
  return Out;
}

Report mergeProcessReports(std::vector<ProcessReport> Parts) {
  if (Parts.size() == 1)
    return std::move(Parts.front().Rep);
  Report Out;
  using Key = std::tuple<std::string, std::string, unsigned, std::string, std::string, std::string,
                         std::string, std::string>;
  std::map<Key, size_t> Seen; // -> index in Out.Findings
  for (auto &[Process, Rep] : Parts) {
    std::string Label = processLabel(Process);
    if (Out.Tool.empty())
      Out.Tool = Rep.Tool;
    Out.Complete = Out.Complete && Rep.Complete;
    for (auto &E : Rep.Errors) {
      E.Where += " (" + Label + ")";
      Out.Errors.push_back(std::move(E));
    }
    for (auto &W : Rep.Warnings) {
      W.Where += " (" + Label + ")";
      Out.Warnings.push_back(std::move(W));
    }
    for (auto &F : Rep.Findings) {
      RuntimeLoc RT = F.Runtime.value_or(RuntimeLoc{});
      Key K{
          F.RuleId, F.Loc.File, F.Loc.Line, RT.Graph, RT.Node, RT.Kernel, withoutNumbers(F.Message),
          F.Test};
      auto [It, New] = Seen.emplace(K, Out.Findings.size());
      if (!New) {
        auto &Names = Out.Findings[It->second].Processes;
        if (Names.empty() || Names.back() != Label)
          Names.push_back(Label);
        continue;
      }
      F.Processes = {Label};
      Out.Findings.push_back(std::move(F));
    }
  }
  Out.sort();
  return Out;
}

} // namespace graphsafe::rt
