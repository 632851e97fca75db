#include "PyResultCache.h"

#include "PyIndexJson.h"
#include "cache/ContentHash.h"
#include "cache/SummaryJson.h"

namespace graphsafe::lint::py {

using nlohmann::json;

namespace {

constexpr const char *Kind = "python";
constexpr int Version = 1;

json errorsToJson(const std::vector<ToolError> &Es) {
  json Out = json::array();
  for (const auto &E : Es)
    Out.push_back({E.Where, E.Message});
  return Out;
}

std::vector<ToolError> errorsFromJson(const json &J) {
  std::vector<ToolError> Out;
  for (const auto &E : J)
    Out.push_back({E.at(0).get<std::string>(), E.at(1).get<std::string>()});
  return Out;
}

// MessagePack: the same data as JSON, read back several times faster, which
// is most of a warm run's time on a large tree. A checksum leads each entry:
// a torn write is detected when read, so writes skip the fsync that a large
// tree's thousand entries would each pay.
std::optional<json> readEntry(const CacheStore &Store, const std::string &Path) {
  static const size_t SumSize = contentHash("").size();
  std::optional<std::string> Bytes = Store.read(Path);
  if (!Bytes || Bytes->size() < SumSize)
    return std::nullopt;
  llvm::StringRef Body = llvm::StringRef(*Bytes).drop_front(SumSize);
  if (contentHash(Body) != llvm::StringRef(*Bytes).take_front(SumSize))
    return std::nullopt;
  json J = json::from_msgpack(Body.begin(), Body.end(), /*strict=*/true,
                              /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object() || J.value("version", 0) != Version)
    return std::nullopt;
  return J;
}

void writeEntry(const CacheStore &Store, const std::string &Path, json J) {
  J["version"] = Version;
  std::vector<std::uint8_t> Packed = json::to_msgpack(J);
  llvm::StringRef Body(reinterpret_cast<const char *>(Packed.data()), Packed.size());
  Store.write(Path, contentHash(Body) + Body.str(), /*Sync=*/false);
}

} // namespace

std::optional<PyManifest> PyResultCache::manifest() const {
  auto J = readEntry(Store, Store.pathOf(Kind, Program, ".manifest"));
  if (!J)
    return std::nullopt;
  try {
    PyManifest M;
    M.LearnedFirst = J->at("learned_first").get<std::string>();
    M.Learned = J->at("learned").get<std::string>();
    for (const auto &[Path, F] : J->at("files").items()) {
      PyFileRecord R;
      R.Hash = F.at("hash").get<std::string>();
      R.Interface = F.at("interface").get<std::string>();
      for (int S = 0; S < NumStages; ++S)
        R.Reads[S] = F.at("reads").at(S).get<std::set<std::string>>();
      M.Files.emplace(Path, std::move(R));
    }
    return M;
  } catch (const json::exception &) {
    return std::nullopt;
  }
}

void PyResultCache::storeManifest(const PyManifest &M) const {
  json Files = json::object();
  for (const auto &[Path, R] : M.Files)
    Files[Path] = {{"hash", R.Hash}, {"interface", R.Interface}, {"reads", R.Reads}};
  writeEntry(Store, Store.pathOf(Kind, Program, ".manifest"),
             {{"learned_first", M.LearnedFirst}, {"learned", M.Learned}, {"files", Files}});
}

std::string PyResultCache::entryKey(const std::string &Path, const std::string &Hash,
                                    const std::string &Module) const {
  return KeyBuilder().add(Program).add(Path).add(Hash).add(Module).final();
}

std::optional<PyModuleEntry> PyResultCache::entry(const std::string &Path, const std::string &Hash,
                                                  const std::string &Module) const {
  auto J = readEntry(Store, Store.pathOf(Kind, entryKey(Path, Hash, Module), ".msgpack"));
  if (!J)
    return std::nullopt;
  try {
    PyModuleEntry E;
    E.Parsed = J->at("parsed").get<bool>();
    E.Index = J->at("index");
    E.Errors = errorsFromJson(J->at("errors"));
    E.Warnings = errorsFromJson(J->at("warnings"));
    E.Lines = J->at("lines").get<size_t>();
    for (int I = 0; I < 2; ++I)
      if (!learnedFromJson(J->at("learned").at(I), E.Learned[I]))
        return std::nullopt;
    auto S = summaryFromJson(J->at("summary"));
    if (!S)
      return std::nullopt;
    E.Summary = std::move(*S);
    return E;
  } catch (const json::exception &) {
    return std::nullopt;
  }
}

void PyResultCache::storeEntry(const std::string &Path, const std::string &Hash,
                               const std::string &Module, const PyModuleEntry &E) const {
  writeEntry(Store, Store.pathOf(Kind, entryKey(Path, Hash, Module), ".msgpack"),
             {{"parsed", E.Parsed},
              {"index", E.Index},
              {"errors", errorsToJson(E.Errors)},
              {"warnings", errorsToJson(E.Warnings)},
              {"lines", E.Lines},
              {"learned", {learnedToJson(E.Learned[0]), learnedToJson(E.Learned[1])}},
              {"summary", summaryToJson(E.Summary)}});
}

} // namespace graphsafe::lint::py
