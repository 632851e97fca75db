#include "graphsafe/Baseline.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace graphsafe {

namespace {

std::string trimmedLine(const std::string &File, unsigned Line) {
  std::ifstream In(File);
  std::string L;
  for (unsigned I = 0; I < Line && std::getline(In, L); ++I) {
  }
  size_t B = L.find_first_not_of(" \t");
  size_t E = L.find_last_not_of(" \t\r");
  return B == std::string::npos ? "" : L.substr(B, E - B + 1);
}

} // namespace

Baseline::Key Baseline::keyOf(const Finding &F) const {
  std::string File = F.Loc.File;
  std::error_code EC;
  if (!Root.empty() && fs::path(File).is_absolute()) {
    fs::path Rel = fs::relative(File, Root, EC);
    if (!EC && !Rel.empty())
      File = Rel.generic_string();
  }
  // As the file stores it: a line that is not UTF-8 is kept with its invalid
  // bytes replaced, and must match itself after a round trip.
  std::string Code = trimmedLine(F.Loc.File, F.Loc.Line);
  Code = nlohmann::json::parse(
             nlohmann::json(Code).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
             .get<std::string>();
  return {F.RuleId, File, Code};
}

bool Baseline::load(const std::string &Path, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot open baseline file; create one with --write-baseline " + Path;
    return false;
  }
  try {
    nlohmann::json J = nlohmann::json::parse(In);
    for (const auto &E : J.at("findings")) {
      unsigned Count = 1;
      if (E.contains("count")) {
        // A float or a negative count must not reach get<unsigned>: the
        // conversion is undefined for values out of range.
        const auto &C = E.at("count");
        if (!C.is_number_integer() || C.get<int64_t>() < 0 || C.get<int64_t>() > UINT32_MAX) {
          Error = Path + ": \"count\" must be a non-negative integer, got " + C.dump() +
                  "; regenerate the baseline with --write-baseline " + Path;
          return false;
        }
        Count = static_cast<unsigned>(C.get<int64_t>());
      }
      Counts[{E.at("rule").get<std::string>(), E.at("file").get<std::string>(),
              E.at("code").get<std::string>()}] += Count;
    }
  } catch (const nlohmann::json::exception &E) {
    Error = Path + ": not a graphsafe baseline (" + E.what() +
            "); regenerate it with --write-baseline " + Path;
    return false;
  }
  return true;
}

bool Baseline::save(const std::string &Path, const Report &R, std::string &Error) const {
  std::map<Key, unsigned> Out;
  for (const auto &F : R.Findings)
    ++Out[keyOf(F)];
  nlohmann::json Items = nlohmann::json::array();
  for (const auto &[K, N] : Out)
    Items.push_back({{"rule", std::get<0>(K)},
                     {"file", std::get<1>(K)},
                     {"code", std::get<2>(K)},
                     {"count", N}});
  std::ofstream OS(Path);
  if (!OS) {
    Error = Path + ": cannot write baseline file";
    return false;
  }
  // Code lines from files that are not UTF-8 are kept, invalid bytes replaced.
  OS << nlohmann::json{{"version", 1}, {"findings", Items}}.dump(
            2, ' ', false, nlohmann::json::error_handler_t::replace)
     << "\n";
  return true;
}

size_t Baseline::filter(Report &R) const {
  std::map<Key, unsigned> Left = Counts;
  size_t Removed = 0;
  std::vector<Finding> Kept;
  for (auto &F : R.Findings) {
    auto It = Left.find(keyOf(F));
    if (It != Left.end() && It->second > 0) {
      --It->second;
      ++Removed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  R.Findings = std::move(Kept);
  return Removed;
}

} // namespace graphsafe
