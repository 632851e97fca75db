#include "Shards.h"

#include "cache/SummaryJson.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace graphsafe::lint {

using nlohmann::json;

namespace {

constexpr int ShardFormat = 1;

json errorsToJson(const std::vector<ToolError> &Errors) {
  json Out = json::array();
  for (const auto &E : Errors)
    Out.push_back({{"where", E.Where}, {"message", E.Message}});
  return Out;
}

std::vector<ToolError> errorsFromJson(const json &J) {
  std::vector<ToolError> Out;
  for (const auto &E : J)
    Out.push_back({E.at("where").get<std::string>(), E.at("message").get<std::string>()});
  return Out;
}

// One front end's per-file results: only the files this shard analysed.
json partToJson(const std::vector<TUSummary> &Sums,
                const std::vector<std::vector<ToolError>> &Errors, const ShardSpec &Shard) {
  json Out = json::array();
  for (size_t I = 0; I < Sums.size(); ++I)
    if (Shard.mine(I))
      Out.push_back(
          {{"index", I}, {"summary", summaryToJson(Sums[I])}, {"errors", errorsToJson(Errors[I])}});
  return Out;
}

void partFromJson(const json &J, std::vector<TUSummary> &Sums,
                  std::vector<std::vector<ToolError>> &Errors, std::set<size_t> &Seen) {
  for (const auto &E : J) {
    size_t I = E.at("index").get<size_t>();
    auto S = summaryFromJson(E.at("summary"));
    if (I >= Sums.size() || !S)
      throw std::runtime_error(fmt::format("entry {} does not fit the run's files", I));
    Sums[I] = std::move(*S);
    Errors[I] = errorsFromJson(E.at("errors"));
    Seen.insert(I);
  }
}

} // namespace

std::optional<ShardSpec> parseShard(const std::string &Text) {
  unsigned K = 0, N = 0;
  char Slash = 0, Extra = 0;
  if (std::sscanf(Text.c_str(), "%u%c%u%c", &K, &Slash, &N, &Extra) != 3 || Slash != '/' ||
      N == 0 || K >= N)
    return std::nullopt;
  return ShardSpec{K, N};
}

bool writeShard(const std::string &Path, const ShardSpec &Shard, const std::string &Fingerprint,
                const Analysis &A, std::string &Error) {
  json J = {{"graphlint-shard", ShardFormat},
            {"shard", Shard.K},
            {"shards", Shard.N},
            {"fingerprint", Fingerprint},
            {"cxx-files", A.CxxFiles},
            {"named-cxx", A.NamedCxx},
            {"python-files", A.PyFiles},
            {"named-python", A.NamedPy},
            {"cxx", partToJson(A.CxxSummaries, A.CxxErrors, Shard)},
            {"python", partToJson(A.PySummaries, A.PyErrors, Shard)},
            {"python-warnings", errorsToJson(A.PyWarnings)}};
  std::ofstream Out(Path);
  Out << J.dump() << "\n";
  if (!Out) {
    Error = fmt::format("cannot write the shard file {}", Path);
    return false;
  }
  return true;
}

bool mergeShards(const std::vector<std::string> &Paths, const std::string &Fingerprint,
                 Analysis &Out, std::string &Error) {
  std::set<unsigned> Have;
  std::set<size_t> SeenCxx, SeenPy;
  unsigned N = 0;
  for (const auto &Path : Paths) {
    try {
      std::ifstream In(Path);
      if (!In)
        throw std::runtime_error("cannot read it");
      json J = json::parse(In);
      if (J.value("graphlint-shard", 0) != ShardFormat)
        throw std::runtime_error("not a graphlint shard (write one with --shard K/N)");
      if (J.at("fingerprint").get<std::string>() != Fingerprint)
        throw std::runtime_error("written by another graphlint build or rule set; run every "
                                 "shard and the merge with the same graphlint and --rules");
      unsigned K = J.at("shard").get<unsigned>(), Count = J.at("shards").get<unsigned>();
      if (Have.empty()) {
        N = Count;
        Out.CxxFiles = J.at("cxx-files").get<std::vector<std::string>>();
        Out.PyFiles = J.at("python-files").get<std::vector<std::string>>();
        Out.NamedCxx = J.at("named-cxx").get<size_t>();
        Out.NamedPy = J.at("named-python").get<size_t>();
        Out.CxxSummaries.assign(Out.CxxFiles.size(), {});
        Out.PySummaries.assign(Out.PyFiles.size(), {});
        Out.CxxErrors.assign(Out.CxxFiles.size(), {});
        Out.PyErrors.assign(Out.PyFiles.size(), {});
      } else if (Count != N || J.at("cxx-files") != json(Out.CxxFiles) ||
                 J.at("python-files") != json(Out.PyFiles)) {
        throw std::runtime_error("its run had other inputs than the first shard's (same files, "
                                 "options and shard count in every shard)");
      }
      if (!Have.insert(K).second)
        throw std::runtime_error(fmt::format("shard {}/{} is given twice", K, N));
      partFromJson(J.at("cxx"), Out.CxxSummaries, Out.CxxErrors, SeenCxx);
      partFromJson(J.at("python"), Out.PySummaries, Out.PyErrors, SeenPy);
      auto W = errorsFromJson(J.at("python-warnings"));
      Out.PyWarnings.insert(Out.PyWarnings.end(), W.begin(), W.end());
    } catch (const std::exception &E) {
      Error = fmt::format("{}: {}", Path, E.what());
      return false;
    }
  }
  for (unsigned K = 0; K < N; ++K)
    if (!Have.count(K)) {
      Error = fmt::format("shard {}/{} is missing: merge needs every shard's file", K, N);
      return false;
    }
  // Shards report their files' warnings; sorted as the unsharded run lists them.
  std::stable_sort(Out.PyWarnings.begin(), Out.PyWarnings.end(),
                   [](const ToolError &A, const ToolError &B) { return A.Where < B.Where; });
  return true;
}

} // namespace graphsafe::lint
