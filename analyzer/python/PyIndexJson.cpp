#include "PyIndexJson.h"

#include "cache/ContentHash.h"

namespace graphsafe::lint::py {

using nlohmann::json;

json indexToJson(const PyModuleInfo &M) {
  json Functions = json::array();
  for (const auto &F : M.Functions)
    Functions.push_back(
        {F.QualName, F.Name, F.ClassQName, (F.IsModuleBody ? 1 : 0) | (F.IsLambda ? 2 : 0)});
  json Classes = json::object();
  for (const auto &[Name, C] : M.Classes)
    Classes[Name] = {{"bases", C.Bases},
                     {"methods", C.Methods},
                     {"attrs", C.AssignedAttrs},
                     {"class_level", C.ClassLevelNames}};
  return {{"imports", M.Imports},
          {"defs", M.Defs},
          {"functions", std::move(Functions)},
          {"classes", std::move(Classes)},
          {"generators", M.RegisteredGenerators}};
}

bool indexFromJson(const json &J, PyModuleInfo &M) {
  try {
    M.Imports = J.at("imports").get<std::map<std::string, std::string>>();
    M.Defs = J.at("defs").get<std::map<std::string, std::string>>();
    for (const auto &F : J.at("functions")) {
      PyFunctionDef D;
      D.QualName = F.at(0).get<std::string>();
      D.Name = F.at(1).get<std::string>();
      D.ClassQName = F.at(2).get<std::string>();
      int Flags = F.at(3).get<int>();
      D.IsModuleBody = Flags & 1;
      D.IsLambda = Flags & 2;
      M.Functions.push_back(std::move(D));
    }
    for (const auto &[Name, C] : J.at("classes").items()) {
      PyClassDef D;
      D.QualName = Name;
      D.Bases = C.at("bases").get<std::vector<std::string>>();
      D.Methods = C.at("methods").get<std::set<std::string>>();
      D.AssignedAttrs = C.at("attrs").get<std::set<std::string>>();
      D.ClassLevelNames = C.at("class_level").get<std::map<std::string, std::string>>();
      D.Module = &M;
      M.Classes.emplace(Name, std::move(D));
    }
    M.RegisteredGenerators = J.at("generators").get<std::set<std::string>>();
  } catch (const json::exception &) {
    return false;
  }
  return !M.Functions.empty() && M.Functions.front().IsModuleBody;
}

std::string interfaceHash(const json &Index) {
  json Seen = Index;
  json Named = json::array();
  for (const auto &F : Index.at("functions"))
    if (!(F.at(3).get<int>() & 2))
      Named.push_back(F);
  Seen["functions"] = std::move(Named);
  return contentHash(Seen.dump());
}

json learnedToJson(const PyLearned &L) {
  return {{"graphed", L.Graphed},
          {"tensor_params", L.TensorParams},
          {"classes", L.Classes},
          {"super_classes", L.SuperClasses},
          {"class_objects", L.ClassObjects}};
}

bool learnedFromJson(const json &J, PyLearned &L) {
  try {
    L.Graphed = J.at("graphed").get<std::set<std::string>>();
    L.TensorParams = J.at("tensor_params").get<std::map<std::string, std::set<unsigned>>>();
    L.Classes = J.at("classes").get<PyLearned::ByParameter>();
    L.SuperClasses = J.at("super_classes").get<PyLearned::ByParameter>();
    L.ClassObjects = J.at("class_objects").get<PyLearned::ByParameter>();
  } catch (const json::exception &) {
    return false;
  }
  return true;
}

std::string learnedHash(const PyProgram &P) { return contentHash(learnedToJson(P.Learned).dump()); }

} // namespace graphsafe::lint::py
