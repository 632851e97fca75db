// graphcheck: reports CUDA graph memory hazards from a recorded event trace.
//   graphcheck analyze TRACE.jsonl [--format text|json|sarif] [-o FILE] [--fail-on SEV]
#include "HazardEngine.h"
#include "graphsafe/ReportWriter.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

using namespace graphsafe;

int main(int argc, char **argv) {
  CLI::App App{"graphcheck: finds memory hazards of captured CUDA graphs"};
  App.require_subcommand(1);
  std::string Trace, Format = "text", Output, FailOn = "warning";
  std::vector<std::string> RuleDirs;
  bool AssumeWrites = false;
  auto *Analyze = App.add_subcommand("analyze", "Report hazards in a recorded event trace");
  Analyze->add_option("trace", Trace, "Event trace (JSON Lines)")->required();
  Analyze->add_option("--format", Format)->check(CLI::IsMember({"text", "json", "sarif"}));
  Analyze->add_option("-o,--output", Output, "Write the report to FILE");
  Analyze->add_option("--rules", RuleDirs, "Extra rules directory")->allow_extra_args(false);
  Analyze->add_option("--fail-on", FailOn)->check(CLI::IsMember({"error", "warning", "note"}));
  Analyze->add_flag("--assume-eager-writes", AssumeWrites,
                    "Count every pointer of an eager kernel as written (no verify-mode write sets)");
  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    return App.exit(E) == 0 ? 0 : 2;
  }

  Report Rep;
  Rep.Tool = "graphcheck";
  std::vector<std::string> Dirs = RuleDirs;
  if (std::string Bundled = defaultRulesDir(argv[0]); !Bundled.empty())
    Dirs.insert(Dirs.begin(), Bundled);
  std::vector<RuleError> RuleErrors;
  RuleSet Rules = loadRules(Dirs, RuleErrors);
  for (const auto &E : RuleErrors)
    Rep.Errors.push_back({E.File + (E.Line ? ":" + std::to_string(E.Line) : ""), E.Message});

  std::ifstream In(Trace);
  if (!In) {
    std::cerr << "graphcheck: error: cannot open trace " << Trace << "\n";
    return 2;
  }
  std::vector<rt::TraceError> TraceErrors;
  auto Events = rt::readTrace(In, TraceErrors);
  for (const auto &E : TraceErrors)
    Rep.Errors.push_back({Trace + ":" + std::to_string(E.Line), E.Message});
  rt::HazardEngine Engine(Rules, {AssumeWrites});
  for (const auto &E : Events)
    Engine.feed(E);
  Rep.Findings = Engine.findings();
  Rep.Complete = Rep.Errors.empty();

  WriteOptions WO;
  WO.Rules = &Rules;
  WO.ToolName = "graphcheck";
  WO.ToolVersion = GRAPHSAFE_VERSION;
  auto F = *parseReportFormat(Format);
  if (Output.empty()) {
    writeReport(F, std::cout, Rep, WO);
  } else {
    std::ofstream OS(Output);
    writeReport(F, OS, Rep, WO);
  }
  if (!Rep.Errors.empty())
    return 2;
  return Rep.hasFindingAtOrAbove(*parseSeverity(FailOn)) ? 1 : 0;
}
