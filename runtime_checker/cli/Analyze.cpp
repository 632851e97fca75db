#include "Commands.h"
#include "HazardEngine.h"
#include "ProcessMerge.h"
#include "Symbolizer.h"
#include "graphsafe/ReportWriter.h"
#include "graphsafe/Subprocess.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace graphsafe::rt {

RuleSet loadRulesFor(const CheckOptions &Opts, Report &Rep) {
  std::vector<std::string> Dirs = Opts.RuleDirs;
  if (std::string Bundled = defaultRulesDir(Opts.Argv0); !Bundled.empty())
    Dirs.insert(Dirs.begin(), Bundled);
  std::vector<RuleError> Errors;
  RuleSet Rules = loadRules(Dirs, Errors);
  for (const auto &E : Errors)
    Rep.Errors.push_back({E.File + (E.Line ? ":" + std::to_string(E.Line) : ""), E.Message});
  return Rules;
}

namespace {

// A graph name from the trace as part of a file name: it must stay one name
// inside the --dot folder, whatever the trace says.
std::string fileNamePart(const std::string &Name) {
  std::string Out;
  for (char C : Name)
    Out +=
        std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '-' || C == '#' ? C : '_';
  return Out.empty() ? "graph" : Out.substr(0, 100);
}

void writeDots(const HazardEngine &Engine, Report &Rep, const std::string &Trace,
               const std::string &Dir) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  std::set<std::string> Graphs;
  for (const auto &F : Rep.Findings)
    if (F.Runtime && !F.Runtime->Graph.empty())
      Graphs.insert(F.Runtime->Graph);
  bool HaveDot = onPath("dot");
  for (const auto &G : Graphs) {
    std::string Text = Engine.dot(G);
    if (Text.empty())
      continue;
    auto Path = std::filesystem::path(Dir) /
                (std::filesystem::path(Trace).stem().string() + "-" + fileNamePart(G) + ".dot");
    std::ofstream(Path) << Text;
    if (HaveDot)
      runProgram({"dot", "-Tsvg", Path.string(), "-o", Path.replace_extension(".svg").string()});
  }
}

} // namespace

Report analyzeTrace(const std::string &Path, const RuleSet &Rules, const CheckOptions &Opts) {
  Report Rep;
  Rep.Tool = "graphcheck";
  std::ifstream In(Path);
  if (!In) {
    Rep.Errors.push_back({Path, "cannot open trace"});
    Rep.Complete = false;
    return Rep;
  }
  std::vector<TraceError> Errors;
  auto Events = readTrace(In, Errors);
  for (const auto &E : Errors)
    Rep.Errors.push_back({Path + ":" + std::to_string(E.Line), E.Message});
  symbolizeNativeFrames(Events);
  HazardEngine Engine(Rules, {Opts.AssumeEagerWrites});
  bool Ended = false;
  for (const auto &E : Events) {
    if (E.K == Event::Kind::Meta && E.Api == "end")
      Ended = true;
    if (E.K == Event::Kind::Meta && E.Api == "checker_error")
      Rep.Errors.push_back({Path, E.Name});
    // Handing CUPTI to a profiler ends the watch early, by the program's wish,
    // and failing to hand it over leaves the profile without CUDA: both said
    // in the report, neither a failure of the check.
    if (E.K == Event::Kind::Meta && (E.Api == "checker_yield" || E.Api == "checker_warning"))
      Rep.Warnings.push_back({E.Stack.empty() ? Path : E.Stack.front(), E.Name});
    Engine.feed(E);
  }
  Rep.Findings = Engine.findings();
  Rep.Units = Engine.tests();
  if (!Opts.DotDir.empty())
    writeDots(Engine, Rep, Path, Opts.DotDir);
  if (!Ended)
    Rep.Errors.push_back({Path,
                          "the trace stops early (the program crashed or was killed); findings "
                          "cover what ran until then"});
  Rep.Complete = Rep.Errors.empty();
  Rep.sort();
  return Rep;
}

int writeAndScore(const Report &Rep, const RuleSet &Rules, const CheckOptions &Opts,
                  const std::string &Output) {
  WriteOptions WO;
  WO.Rules = &Rules;
  WO.ToolName = "graphcheck";
  WO.ToolVersion = GRAPHSAFE_VERSION;
  WO.InformationUri = GRAPHSAFE_INFORMATION_URI;
  auto F = *parseReportFormat(Opts.Format);
  if (Output.empty() || Output == "-") {
    writeReport(F, std::cerr, Rep, WO); // stdout belongs to the program under test.
  } else {
    std::ofstream OS(Output);
    if (!OS) {
      std::cerr << "graphcheck: error: cannot write " << Output << "\n";
      return 2;
    }
    writeReport(F, OS, Rep, WO);
  }
  if (!Rep.Errors.empty())
    return 2;
  return Rep.hasFindingAtOrAbove(*parseSeverity(Opts.FailOn)) ? 1 : 0;
}

Report analyzeTraces(const std::vector<std::string> &Paths, const RuleSet &Rules,
                     const CheckOptions &Opts) {
  std::vector<ProcessReport> Parts;
  for (const auto &P : Paths)
    Parts.push_back({processOfTrace(P), analyzeTrace(P, Rules, Opts)});
  return mergeProcessReports(std::move(Parts));
}

} // namespace graphsafe::rt
