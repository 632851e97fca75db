#include "graphsafe/ReportWriter.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace graphsafe {

namespace {

const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
}

} // namespace

std::optional<std::string> pathUnderBase(const std::string &File, const std::string &Base) {
  fs::path P(File);
  if (Base.empty() || !P.is_absolute())
    return std::nullopt;
  std::error_code EC;
  fs::path Rel = fs::relative(P, Base, EC);
  if (EC || Rel.empty() || *Rel.begin() == "..")
    return std::nullopt;
  return Rel.generic_string();
}

namespace {

std::string uri(const std::string &File, const std::string &Base) {
  if (File.empty())
    return File;
  if (auto Under = pathUnderBase(File, Base))
    return *Under;
  fs::path P(File);
  return P.is_absolute() ? "file://" + P.generic_string() : P.generic_string();
}

nlohmann::json physical(const SourceLoc &L, const std::string &Base) {
  nlohmann::json Region = {{"startLine", L.Line ? L.Line : 1}};
  if (L.Column)
    Region["startColumn"] = L.Column;
  std::string U = uri(L.File, Base);
  nlohmann::json Artifact = {{"uri", U}};
  if (!Base.empty() && U.rfind("file://", 0) != 0)
    Artifact["uriBaseId"] = "SRCROOT";
  return {{"artifactLocation", Artifact}, {"region", Region}};
}

// SARIF wants a rule's name to be readable and different from its opaque id:
// sync-tensor-read is named SyncTensorRead.
std::string ruleName(const std::string &Id) {
  std::string Out;
  bool Up = true;
  for (char C : Id) {
    if (C == '-') {
      Up = true;
      continue;
    }
    Out += Up ? static_cast<char>(toupper(static_cast<unsigned char>(C))) : C;
    Up = false;
  }
  return Out;
}

nlohmann::json ruleDescriptor(const Rule &R) {
  std::string Help = R.Why + "\n\nFix: " + R.Fix;
  std::string Markdown = "**Why:** " + R.Why + "\n\n**Fix:** " + R.Fix;
  for (const auto &S : R.See)
    Markdown += "\n\nSee: " + S;
  nlohmann::json D = {{"id", R.Id},
                      {"name", ruleName(R.Id)},
                      {"shortDescription", {{"text", R.Summary}}},
                      {"fullDescription", {{"text", R.Why}}},
                      {"help", {{"text", Help}, {"markdown", Markdown}}},
                      {"defaultConfiguration", {{"level", sarifLevel(R.Level)}}},
                      {"properties", {{"category", R.Category}, {"tags", {R.Category}}}}};
  if (!R.See.empty() && R.See.front().rfind("http", 0) == 0)
    D["helpUri"] = R.See.front();
  return D;
}

} // namespace

void writeSarif(std::ostream &OS, const Report &Rep, const WriteOptions &Opts) {
  nlohmann::json Rules = nlohmann::json::array();
  std::map<std::string, size_t> RuleIndex;
  auto indexOf = [&](const std::string &Id) -> std::optional<size_t> {
    auto It = RuleIndex.find(Id);
    if (It != RuleIndex.end())
      return It->second;
    const Rule *R = Opts.Rules ? Opts.Rules->find(Id) : nullptr;
    if (!R)
      return std::nullopt;
    RuleIndex[Id] = Rules.size();
    Rules.push_back(ruleDescriptor(*R));
    return Rules.size() - 1;
  };
  // All loaded rules go in the driver, so code-scanning UIs can show help for
  // rules that did not fire in this run too.
  if (Opts.Rules)
    for (const auto &R : Opts.Rules->Rules)
      if (R.Tool == "both" || R.Tool == Opts.ToolName)
        indexOf(R.Id);

  nlohmann::json Results = nlohmann::json::array();
  for (const auto &F : Rep.Findings) {
    nlohmann::json Res = {
        {"ruleId", F.RuleId}, {"level", sarifLevel(F.Level)}, {"message", {{"text", F.Message}}}};
    if (auto Idx = indexOf(F.RuleId))
      Res["ruleIndex"] = *Idx;
    nlohmann::json Loc = nlohmann::json::object();
    if (F.Loc.valid())
      Loc["physicalLocation"] = physical(F.Loc, Opts.BaseDir);
    if (F.Runtime) {
      Loc["logicalLocations"] = {{{"name", F.Runtime->Kernel},
                                  {"fullyQualifiedName", F.Runtime->Graph + "/" + F.Runtime->Node},
                                  {"kind", "function"}}};
      Res["properties"] = {{"graph", F.Runtime->Graph},
                           {"node", F.Runtime->Node},
                           {"kernel", F.Runtime->Kernel},
                           {"buffer", F.Runtime->Buffer}};
    }
    if (!F.Processes.empty())
      Res["properties"]["processes"] = F.Processes;
    if (!F.Test.empty())
      Res["properties"]["test"] = F.Test;
    Res["locations"] = nlohmann::json::array({Loc});
    if (!F.Notes.empty()) {
      nlohmann::json Related = nlohmann::json::array();
      int Id = 1;
      for (const auto &N : F.Notes) {
        nlohmann::json RL = {{"id", Id++}, {"message", {{"text", N.Message}}}};
        if (N.Loc.valid())
          RL["physicalLocation"] = physical(N.Loc, Opts.BaseDir);
        Related.push_back(RL);
      }
      Res["relatedLocations"] = Related;
    }
    if (!F.FixIts.empty()) {
      nlohmann::json Replacements = nlohmann::json::array();
      for (const auto &X : F.FixIts) {
        nlohmann::json Region = {{"startLine", X.Begin.Line},
                                 {"startColumn", X.Begin.Column},
                                 {"endLine", X.End.Line},
                                 {"endColumn", X.End.Column}};
        Replacements.push_back(
            {{"deletedRegion", Region}, {"insertedContent", {{"text", X.Replacement}}}});
      }
      Res["fixes"] = {
          {{"description", {{"text", F.Fix.empty() ? "apply fix-it" : F.Fix}}},
           {"artifactChanges",
            {{{"artifactLocation", {{"uri", uri(F.FixIts.front().Begin.File, Opts.BaseDir)}}},
              {"replacements", Replacements}}}}}};
    }
    Results.push_back(std::move(Res));
  }

  nlohmann::json Notifications = nlohmann::json::array();
  for (const auto &E : Rep.Errors)
    Notifications.push_back(
        {{"level", "error"}, {"message", {{"text", E.Where + ": " + E.Message}}}});
  for (const auto &W : Rep.Warnings)
    Notifications.push_back(
        {{"level", "warning"}, {"message", {{"text", W.Where + ": " + W.Message}}}});

  nlohmann::json Driver = {
      {"name", Opts.ToolName}, {"version", Opts.ToolVersion}, {"rules", Rules}};
  if (!Opts.InformationUri.empty())
    Driver["informationUri"] = Opts.InformationUri;
  nlohmann::json Run = {
      {"tool", {{"driver", Driver}}},
      {"invocations",
       {{{"executionSuccessful", Rep.Complete}, {"toolExecutionNotifications", Notifications}}}},
      {"results", Results}};
  if (!Opts.BaseDir.empty())
    Run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", "file://" + Opts.BaseDir + "/"}}}};
  nlohmann::json Log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                        {"version", "2.1.0"},
                        {"runs", {Run}}};
  // Invalid UTF-8 in paths, names and messages is replaced: SARIF must stay JSON.
  OS << Log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace graphsafe
