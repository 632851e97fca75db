// graphcheck: finds memory hazards of captured CUDA graphs in a running program.
//   graphcheck run [options] -- COMMAND [ARGS...]
//   graphcheck analyze TRACE.jsonl... [options]
#include "Commands.h"

#include <CLI/CLI.hpp>

using namespace graphsafe;

int main(int argc, char **argv) {
  CLI::App App{"graphcheck: finds memory hazards of captured CUDA graphs"};
  App.require_subcommand(1);
  rt::CheckOptions Opts;
  Opts.Argv0 = argv[0];
  std::vector<std::string> Traces;
  std::vector<std::string> Command;
  auto common = [&](CLI::App *Sub) {
    Sub->add_option("--format", Opts.Format)
        ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
    Sub->add_option("-o,--output", Opts.Output, "Write the report to FILE (default: stderr)");
    Sub->add_option("--rules", Opts.RuleDirs, "Extra rules directory")->allow_extra_args(false);
    Sub->add_option("--fail-on", Opts.FailOn)->check(CLI::IsMember({"error", "warning", "note"}));
    Sub->add_option("--dot", Opts.DotDir,
                    "Write each flagged graph as DOT (SVG too with graphviz) into DIR");
    Sub->add_flag("--assume-eager-writes", Opts.AssumeEagerWrites,
                  "Count every pointer of an eager kernel as written");
  };
  auto *Run = App.add_subcommand("run", "Run a program under the checker and report hazards");
  common(Run);
  Run->add_option("--mode", Opts.Mode,
                  "light: pointers only, cheap enough for whole runs; verify: snapshot memory "
                  "around the first replays and around eager kernels on graph memory to learn "
                  "exact write sets (slow)")
      ->check(CLI::IsMember({"light", "verify"}));
  Run->add_option("--profiler", Opts.Profiler,
                  "CUPTI serves one tool at a time. yield (default): when the program starts "
                  "torch.profiler, graphcheck stops watching and the profile is complete; keep: "
                  "graphcheck keeps checking and the profile has no CUDA activity")
      ->check(CLI::IsMember({"yield", "keep"}));
  Run->add_option("command", Command, "The program and its arguments, after --")->required();
  auto *Analyze = App.add_subcommand("analyze", "Report hazards in a recorded event trace");
  common(Analyze);
  Analyze
      ->add_option("trace", Traces,
                   "Event traces (JSON Lines), one per process: several give one report "
                   "naming the process of each finding")
      ->required();
  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    return App.exit(E) == 0 ? 0 : 2;
  }
  if (Run->parsed())
    return rt::runUnderChecker(Command, Opts);
  Report Load;
  RuleSet Rules = rt::loadRulesFor(Opts, Load);
  Report Rep = rt::analyzeTraces(Traces, Rules, Opts);
  Rep.Errors.insert(Rep.Errors.begin(), Load.Errors.begin(), Load.Errors.end());
  Rep.Complete = Rep.Errors.empty();
  return rt::writeAndScore(Rep, Rules, Opts, Opts.Output);
}
