// graphlint: finds constructs that are unsafe inside CUDA graph capture.
#include "Driver.h"
#include "KeepUntilExit.h"

#include <CLI/CLI.hpp>

#include <algorithm>

int main(int argc, char **argv) {
  graphsafe::lint::keepUntilExit(true);
  graphsafe::lint::Options Opts;
  Opts.Argv0 = argv[0];
  // Everything after `--` is compiler arguments, as with clang-tidy.
  std::vector<std::string> Own;
  bool AfterDashes = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (!AfterDashes && A == "--") {
      AfterDashes = true;
      Opts.HaveCompilerArgs = true;
      continue;
    }
    (AfterDashes ? Opts.CompilerArgs : Own).push_back(A);
  }
  Opts.OwnArgs = Own;
  std::reverse(Own.begin(), Own.end());

  CLI::App App{"graphlint: finds code that is unsafe inside CUDA graph capture"};
  App.add_option("files", Opts.Files,
                 "Source files to analyse (default with -p: every file in the database)");
  App.add_option("--rules", Opts.RuleDirs,
                 "Extra rules directory (repeatable); later ones override bundled rules")
      ->allow_extra_args(false);
  App.add_option("--format", Opts.Format, "Report format")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  App.add_option("-o,--output", Opts.Output, "Write the report to FILE instead of stdout");
  App.add_option("-p,--build-path", Opts.BuildPath, "Folder holding compile_commands.json");
  App.add_option("--baseline", Opts.Baseline, "Ignore findings recorded in this baseline file");
  App.add_option("--write-baseline", Opts.WriteBaseline,
                 "Record the current findings as a baseline file");
  App.add_option("-j,--jobs", Opts.Jobs,
                 "Files analysed in parallel (default: every core this process may use)")
      ->check(CLI::PositiveNumber);
  App.add_option("--cache-dir", Opts.CacheDir,
                 "Cache folder (default: .cache/graphlint next to compile_commands.json)");
  App.add_flag("--no-cache", Opts.NoCache, "Analyse every file afresh; read and write no cache");
  App.add_flag("--cache-stats", Opts.CacheStats,
               "Say on stderr how many translation units came from the cache");
  App.add_option("--cache-size", Opts.CacheSizeMiB,
                 "Largest cache size in MiB; least recently used entries go first")
      ->check(CLI::PositiveNumber);
  App.add_option("--fail-on", Opts.FailOn, "Lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  App.add_option("--cuda-path", Opts.CudaPath, "CUDA installation used to parse .cu files");
  App.add_flag("!--no-source", Opts.ShowSource, "Text format: do not print source lines");
  App.add_flag("--list-rules", Opts.ListRules, "List the loaded rules and exit");
  App.add_option("--progress", Opts.Progress,
                 "Progress on stderr: auto (one line rewritten in place on a terminal), line, "
                 "plain (a line per finished file, for CI logs), off")
      ->check(CLI::IsMember({"auto", "line", "plain", "off"}));
  App.add_flag("-q,--quiet", Opts.Quiet, "No progress output");
  App.add_option("--shard", Opts.Shard,
                 "K/N: analyse part K of N (CI job matrices) and write its summaries to "
                 "--shard-out; merge all N with --merge");
  App.add_option("--shard-out", Opts.ShardOut,
                 "Where --shard writes (default graphlint-shard-K-of-N.json)");
  App.add_option("--merge", Opts.Merge,
                 "Report from the shard files of one sharded run (all N of them)");
  App.add_flag("--explain-reach", Opts.ExplainReach,
               "Also report (as capture-reach-unknown notes) calls under capture whose callee "
               "graphlint cannot see, so what was not checked is said, not silent");
  App.add_option("--call-graph", Opts.CallGraph,
                 "Write the call graph as JSON in PyCG's format to FILE: what capture regions "
                 "reach and what each function there calls, Python functions by their "
                 "qualified names, C++ functions by theirs (ns::Class::method)");
  App.add_flag("--call-graph-all", Opts.CallGraphAll,
               "With --call-graph: every module's and function's calls, not only those under "
               "capture");
  App.add_flag("--call-graph-sites", Opts.CallGraphSites,
               "With --call-graph: each caller maps to [{\"callee\": NAME, \"at\": "
               "[\"FILE:LINE\", ...]}], the calls that may run each callee, so a path into (or "
               "not into) a capture can be traced to its lines");
  // Internal: the detached process that builds preambles after a run.
  App.add_option("--build-preambles-for", Opts.BuildPreamblesFor)->group("");
  App.footer(
      "Compiler arguments for files without a compile database go after '--'.\n"
      "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 the tool could not do its job.");
  try {
    App.parse(Own);
  } catch (const CLI::ParseError &E) {
    int RC = App.exit(E);
    return RC == 0 ? 0 : 2;
  }
  return graphsafe::lint::runGraphlint(Opts);
}
