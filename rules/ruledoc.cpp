// Writes the rule reference (Markdown) from the rule files, so the reference
// and the rules the tools load can never disagree.
#include "graphsafe/Rule.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: graphsafe-ruledoc RULES_DIR OUTPUT.md\n";
    return 2;
  }
  std::vector<graphsafe::RuleError> Errors;
  graphsafe::RuleSet Rules = graphsafe::loadRules({argv[1]}, Errors);
  for (const auto &E : Errors)
    std::cerr << E.str() << "\n";
  if (!Errors.empty())
    return 1;
  std::map<std::string, std::vector<const graphsafe::Rule *>> ByCategory;
  for (const auto &R : Rules.Rules)
    ByCategory[R.Category].push_back(&R);

  std::ofstream OS(argv[2]);
  OS << "# Rule reference\n\n"
        "Generated from `rules/*.yaml` by `graphsafe-ruledoc`; edit the rule files, then run\n"
        "`cmake --build build --target update-docs`.\n\n"
        "Silence one finding with `// graphsafe: ignore[rule-id] reason` (`#` in Python) on its "
        "line or the line\nabove. Override a rule (severity, spellings) by giving `--rules DIR` a "
        "file with the same "
        "id.\n\n"
        "| id | severity | category | tool | summary |\n| --- | --- | --- | --- | --- |\n";
  for (const auto &R : Rules.Rules)
    OS << fmt::format("| [`{}`](#{}) | {} | {} | {} | {} |\n", R.Id, R.Id,
                      graphsafe::severityName(R.Level), R.Category, R.Tool, R.Summary);
  for (const auto &[Cat, List] : ByCategory) {
    OS << fmt::format("\n## {}\n", Cat);
    for (const auto *R : List) {
      OS << fmt::format("\n### {}\n\n**{}** ({}). {}\n\n**Why.** {}\n\n**Fix.** {}\n", R->Id,
                        graphsafe::severityName(R->Level), R->Tool, R->Summary, R->Why, R->Fix);
      auto clauses = [&](const char *Title, const std::vector<graphsafe::MatchClause> &Match) {
        if (Match.empty())
          return;
        OS << fmt::format("\n**{}.**\n\n", Title);
        for (const auto &C : Match) {
          static const char *Kinds[] = {"call", "method", "construct", "operator", "check"};
          std::string Names;
          for (const auto &N : C.Names)
            Names += (Names.empty() ? "`" : ", `") + N + "`";
          std::string Line = fmt::format("{} {}{}", Kinds[static_cast<int>(C.K)], Names,
                                         C.On.empty() ? "" : " on `" + C.On + "`");
          if (C.Names == std::vector<std::string>{"*"})
            Line = std::string("any ") + Kinds[static_cast<int>(C.K)];
          // The conditions that decide what a clause means; the rest refine it.
          if (C.When.OutputStream)
            Line += " writing to an output stream (not a string stream, not a stream parameter)";
          if (C.When.OutputStreamArg)
            Line += " handing `std::cout`, `std::cerr`, `std::clog` or a file stream to a stream "
                    "parameter";
          OS << "- " << Line << "\n";
        }
      };
      clauses("Matches", R->Match);
      clauses("Matches in Python", R->Python.Match);
      if (!R->Python.Fix.empty())
        OS << fmt::format("\n**Fix in Python.** {}\n", R->Python.Fix);
      for (const auto &S : R->See)
        OS << fmt::format("\nSee: {}\n", S);
    }
  }
  return OS ? 0 : 1;
}
