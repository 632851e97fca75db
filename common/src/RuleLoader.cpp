#include "graphsafe/Rule.h"

#include <fmt/args.h>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace graphsafe {

namespace {

const std::set<std::string> Categories = {
    "sync",  "rng",      "stream",   "alloc",     "host-side-effect", "control-flow",
    "shape", "lifetime", "aliasing", "lifecycle", "suppression",      "reach"};

const std::set<std::string> RuleKeys = {"id",      "kind",    "severity", "category", "summary",
                                        "message", "why",     "fix",      "see",      "match",
                                        "tool",    "capture", "python",   "reach"};

const std::set<std::string> ClauseKinds = {"call", "method", "construct", "operator", "check"};
const std::set<std::string> ClauseKeys = {"call",  "method", "construct", "operator",
                                          "check", "on",     "when",      "fix"};
const std::set<std::string> WhenKeys = {
    "arg-device",      "receiver-device",       "receiver-from",    "arg-count",
    "missing-arg",     "arg-mentions",          "arg-type",         "default-stream-arg",
    "bool-mask-index", "automatic-storage-arg", "not-if-different", "not-under-flag",
    "tensor-arg",      "not-in-macro",          "output-stream",    "output-stream-arg",
    "tensor-arg-at"};

// What a Python method clause's `on:` may name: kinds of values graphlint
// tells apart in Python code.
const std::set<std::string> PythonReceivers = {
    "tensor", "stream", "event", "generator", "graph", "optimizer", "uncapturable-optimizer",
    "logger", "any"};

// Thrown inside one file's parse; caught per file so other files still load.
struct Bad {
  unsigned Line;
  std::string Message;
};

unsigned lineOf(const YAML::Node &N) {
  return N.Mark().line >= 0 ? static_cast<unsigned>(N.Mark().line) + 1 : 0;
}

std::string scalar(const YAML::Node &N, const std::string &What) {
  if (!N.IsScalar())
    throw Bad{lineOf(N), fmt::format("'{}' must be a string", What)};
  return N.as<std::string>();
}

// Accepts a single string or a list of strings.
std::vector<std::string> strings(const YAML::Node &N, const std::string &What) {
  std::vector<std::string> Out;
  if (N.IsScalar()) {
    Out.push_back(N.as<std::string>());
  } else if (N.IsSequence()) {
    for (const auto &E : N)
      Out.push_back(scalar(E, What));
  } else {
    throw Bad{lineOf(N), fmt::format("'{}' must be a string or a list of strings", What)};
  }
  if (Out.empty())
    throw Bad{lineOf(N), fmt::format("'{}' must not be empty", What)};
  return Out;
}

void checkKeys(const YAML::Node &Map, const std::set<std::string> &Allowed,
               const std::string &Where) {
  for (const auto &KV : Map) {
    std::string Key = KV.first.as<std::string>();
    if (!Allowed.count(Key)) {
      std::string List;
      for (const auto &A : Allowed)
        List += (List.empty() ? "" : ", ") + A;
      throw Bad{lineOf(KV.first),
                fmt::format("unknown key '{}' in {}; expected one of: {}", Key, Where, List)};
    }
  }
}

MatchConditions parseWhen(const YAML::Node &N) {
  if (!N.IsMap())
    throw Bad{lineOf(N), "'when' must be a mapping of conditions"};
  checkKeys(N, WhenKeys, "'when'");
  MatchConditions C;
  auto device = [&](const char *Key) -> std::optional<std::string> {
    if (!N[Key])
      return std::nullopt;
    std::string D = scalar(N[Key], Key);
    if (D != "cpu" && D != "cuda")
      throw Bad{lineOf(N[Key]), fmt::format("'{}' must be 'cpu' or 'cuda', not '{}'", Key, D)};
    return D;
  };
  C.ArgDevice = device("arg-device");
  C.ReceiverDevice = device("receiver-device");
  if (N["receiver-from"])
    C.ReceiverFrom = strings(N["receiver-from"], "receiver-from");
  if (N["arg-count"]) {
    try {
      C.ArgCount = N["arg-count"].as<unsigned>();
    } catch (const YAML::Exception &) {
      throw Bad{lineOf(N["arg-count"]), "'arg-count' must be a non-negative integer"};
    }
  }
  if (N["missing-arg"])
    C.MissingArg = strings(N["missing-arg"], "missing-arg");
  if (N["arg-mentions"])
    C.ArgMentions = strings(N["arg-mentions"], "arg-mentions");
  if (N["arg-type"])
    C.ArgType = scalar(N["arg-type"], "arg-type");
  auto flag = [&](const char *Key) {
    if (!N[Key])
      return false;
    try {
      return N[Key].as<bool>();
    } catch (const YAML::Exception &) {
      throw Bad{lineOf(N[Key]), fmt::format("'{}' must be true or false", Key)};
    }
  };
  C.DefaultStreamArg = flag("default-stream-arg");
  C.BoolMaskIndex = flag("bool-mask-index");
  C.AutomaticStorageArg = flag("automatic-storage-arg");
  C.NotIfDifferent = flag("not-if-different");
  C.NotUnderFlag = flag("not-under-flag");
  C.TensorArg = flag("tensor-arg");
  if (N["not-in-macro"])
    C.NotInMacro = strings(N["not-in-macro"], "not-in-macro");
  C.OutputStream = flag("output-stream");
  C.OutputStreamArg = flag("output-stream-arg");
  if (N["tensor-arg-at"])
    C.TensorArgAt = strings(N["tensor-arg-at"], "tensor-arg-at");
  return C;
}

MatchClause parseClause(const YAML::Node &N) {
  if (!N.IsMap())
    throw Bad{lineOf(N),
              "a match clause must be a mapping such as '{call: cudaDeviceSynchronize}'"};
  checkKeys(N, ClauseKeys, "a match clause");
  MatchClause C;
  C.Line = lineOf(N);
  int Kinds = 0;
  for (const auto &Name : ClauseKinds) {
    if (!N[Name])
      continue;
    ++Kinds;
    C.Names = strings(N[Name], Name);
    if (Name == "call")
      C.K = MatchClause::Kind::Call;
    else if (Name == "method")
      C.K = MatchClause::Kind::Method;
    else if (Name == "construct")
      C.K = MatchClause::Kind::Construct;
    else if (Name == "operator")
      C.K = MatchClause::Kind::Operator;
    else
      C.K = MatchClause::Kind::Check;
  }
  if (Kinds != 1)
    throw Bad{C.Line,
              "a match clause needs exactly one of: call, method, construct, operator, check"};
  if (N["on"]) {
    if (C.K != MatchClause::Kind::Method)
      throw Bad{lineOf(N["on"]), "'on' (the receiver class) only applies to 'method' clauses"};
    C.On = scalar(N["on"], "on");
  } else if (C.K == MatchClause::Kind::Method) {
    throw Bad{C.Line, "a 'method' clause needs 'on: <receiver class>', e.g. 'on: at::TensorBase'"};
  }
  if (N["when"])
    C.When = parseWhen(N["when"]);
  if (N["fix"]) {
    const YAML::Node &F = N["fix"];
    if (!F.IsMap())
      throw Bad{lineOf(F), "'fix' must be a mapping with 'rename' and/or 'append-arg'"};
    checkKeys(F, {"rename", "append-arg"}, "'fix'");
    FixSpec S;
    if (F["rename"])
      S.RenameTo = scalar(F["rename"], "rename");
    if (F["append-arg"])
      S.AppendArg = scalar(F["append-arg"], "append-arg");
    C.Fix = S;
  }
  return C;
}

std::vector<MatchClause> parseClauses(const YAML::Node &N, const std::string &What) {
  if (!N.IsSequence() || N.size() == 0)
    throw Bad{lineOf(N), fmt::format("'{}' must be a non-empty list of match clauses", What)};
  std::vector<MatchClause> Out;
  for (const auto &E : N)
    Out.push_back(parseClause(E));
  return Out;
}

void checkMessageTemplate(const std::string &Msg, unsigned Line) {
  try {
    fmt::dynamic_format_arg_store<fmt::format_context> Args;
    Args.push_back(fmt::arg("callee", "x"));
    (void)fmt::vformat(Msg, Args);
  } catch (const fmt::format_error &E) {
    throw Bad{Line, fmt::format("'message' is not a valid template ({}); the only placeholder is "
                                "{{callee}}, and literal braces are written {{{{ and }}}}",
                                E.what())};
  }
}

std::vector<HelperSpec> parseHelpers(const YAML::Node &N) {
  if (!N.IsSequence())
    throw Bad{lineOf(N), "helpers must be a list of {call: NAME, arg: INDEX}"};
  std::vector<HelperSpec> Out;
  for (const auto &H : N) {
    if (!H.IsMap() || !H["call"] || !H["arg"])
      throw Bad{lineOf(H), "each helper needs 'call' (function name) and 'arg' (0-based index)"};
    checkKeys(H, {"call", "arg", "keyword", "outputs"}, "a helper");
    HelperSpec Spec;
    Spec.Name = scalar(H["call"], "call");
    try {
      Spec.Arg = H["arg"].as<unsigned>();
    } catch (const YAML::Exception &) {
      throw Bad{lineOf(H["arg"]), "'arg' must be a non-negative integer"};
    }
    if (H["keyword"])
      Spec.Keyword = scalar(H["keyword"], "keyword");
    if (H["outputs"]) {
      std::string Outputs = scalar(H["outputs"], "outputs");
      if (Outputs != "copied" && Outputs != "static")
        throw Bad{lineOf(H["outputs"]),
                  "'outputs' must be 'static' (calls hand back the graph's own output memory, "
                  "as make_graphed_callables does) or 'copied' (calls hand back copies)"};
      Spec.CopiesOutputs = Outputs == "copied";
    }
    Out.push_back(Spec);
  }
  return Out;
}

std::vector<MatchClause> parsePythonClauses(const YAML::Node &N) {
  std::vector<MatchClause> Out;
  if (!N.IsSequence() || N.size() == 0)
    throw Bad{lineOf(N), "'python: match' must be a non-empty list of match clauses"};
  for (const auto &Item : N) {
    // Python has no receiver classes to name; a method clause without `on`
    // applies to any receiver.
    YAML::Node Copy = YAML::Clone(Item);
    if (Copy.IsMap() && Copy["method"] && !Copy["on"])
      Copy["on"] = "any";
    MatchClause C = parseClause(Copy);
    C.Line = lineOf(Item);
    if (C.K == MatchClause::Kind::Construct || C.K == MatchClause::Kind::Operator)
      throw Bad{C.Line, "Python clauses are 'call', 'method' or 'check'"};
    if (C.K == MatchClause::Kind::Method && !PythonReceivers.count(C.On)) {
      std::string List;
      for (const auto &R : PythonReceivers)
        List += (List.empty() ? "" : ", ") + R;
      throw Bad{lineOf(Item["on"]),
                fmt::format("'on: {}' is not a Python value kind; use one of: {}", C.On, List)};
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

PythonSpelling parsePython(const YAML::Node &N) {
  if (!N.IsMap())
    throw Bad{lineOf(N), "'python' must be a mapping with 'match' and optional 'message', 'fix'"};
  checkKeys(N, {"match", "message", "fix"}, "'python'");
  PythonSpelling P;
  if (!N["match"])
    throw Bad{lineOf(N), "'python' needs a 'match' list"};
  P.Match = parsePythonClauses(N["match"]);
  if (N["message"]) {
    P.Message = scalar(N["message"], "message");
    checkMessageTemplate(P.Message, lineOf(N["message"]));
  }
  if (N["fix"])
    P.Fix = scalar(N["fix"], "fix");
  return P;
}

void optionalList(const YAML::Node &Map, const char *Key, std::vector<std::string> &Into) {
  if (Map[Key])
    Into = strings(Map[Key], Key);
}

void parsePythonCapture(const YAML::Node &N, CaptureSpec &S) {
  if (!N.IsMap())
    throw Bad{lineOf(N), "'capture: python' must be a mapping"};
  checkKeys(N,
            {"context-managers", "begin", "end", "graphed-callables", "status-queries", "replay"},
            "'capture: python'");
  auto list = [&](const char *Key, std::vector<std::string> &Into) { optionalList(N, Key, Into); };
  list("context-managers", S.PyContextManagers);
  list("begin", S.PyBegin);
  list("end", S.PyEnd);
  list("status-queries", S.PyStatusQueries);
  list("replay", S.PyReplay);
  if (N["graphed-callables"])
    S.PyGraphedCallables = parseHelpers(N["graphed-callables"]);
}

CaptureSpec parseCapture(const YAML::Node &N) {
  if (!N.IsMap())
    throw Bad{lineOf(N), "'capture' must be a mapping"};
  checkKeys(N,
            {"begin", "end", "scoped", "status-queries", "not-capturing", "helpers", "entry-points",
             "stream-guards", "stream-setters", "thread-spawners", "thread-entry-points", "python"},
            "'capture'");
  CaptureSpec S;
  if (N["begin"])
    S.Begin = parseClauses(N["begin"], "begin");
  if (N["end"])
    S.End = parseClauses(N["end"], "end");
  auto list = [&](const char *Key, std::vector<std::string> &Into) { optionalList(N, Key, Into); };
  list("scoped", S.Scoped);
  list("status-queries", S.StatusQueries);
  list("not-capturing", S.NotCapturing);
  list("entry-points", S.EntryPoints);
  list("stream-guards", S.StreamGuards);
  list("stream-setters", S.StreamSetters);
  list("thread-spawners", S.ThreadSpawners);
  list("thread-entry-points", S.ThreadEntryPoints);
  if (N["helpers"])
    S.Helpers = parseHelpers(N["helpers"]);
  if (N["python"])
    parsePythonCapture(N["python"], S);
  return S;
}

void parseDocument(const YAML::Node &Doc, const std::string &File, RuleSet &Into) {
  if (!Doc.IsMap())
    throw Bad{lineOf(Doc), "a rule file must be a YAML mapping with id, severity, category, ..."};
  checkKeys(Doc, RuleKeys, "a rule file");
  std::string Kind = Doc["kind"] ? scalar(Doc["kind"], "kind") : "diagnostic";
  if (Kind == "capture") {
    if (!Doc["capture"])
      throw Bad{lineOf(Doc), "a 'kind: capture' file needs a 'capture' mapping"};
    Into.Capture.merge(parseCapture(Doc["capture"]));
    Into.CaptureFiles.push_back(File);
    return;
  }
  if (Kind != "diagnostic")
    throw Bad{lineOf(Doc["kind"]),
              fmt::format("'kind' must be 'diagnostic' or 'capture', not '{}'", Kind)};
  if (Doc["capture"])
    throw Bad{lineOf(Doc["capture"]), "'capture' is only allowed in 'kind: capture' files"};

  Rule R;
  R.File = File;
  R.Line = lineOf(Doc);
  auto required = [&](const char *Key) {
    if (!Doc[Key])
      throw Bad{lineOf(Doc), fmt::format("missing required key '{}'", Key)};
    return scalar(Doc[Key], Key);
  };
  R.Id = required("id");
  static const std::regex Kebab("^[a-z0-9]+(-[a-z0-9]+)*$");
  if (!std::regex_match(R.Id, Kebab))
    throw Bad{lineOf(Doc["id"]),
              fmt::format("id '{}' must be kebab-case (e.g. 'sync-in-capture')", R.Id)};
  std::string Sev = required("severity");
  auto Parsed = parseSeverity(Sev);
  if (!Parsed)
    throw Bad{lineOf(Doc["severity"]),
              fmt::format("severity must be error, warning or note, not '{}'", Sev)};
  R.Level = *Parsed;
  R.Category = required("category");
  if (!Categories.count(R.Category)) {
    std::string List;
    for (const auto &C : Categories)
      List += (List.empty() ? "" : ", ") + C;
    throw Bad{lineOf(Doc["category"]),
              fmt::format("unknown category '{}'; expected one of: {}", R.Category, List)};
  }
  R.Summary = required("summary");
  R.Why = required("why");
  R.Fix = required("fix");
  if (Doc["message"]) {
    R.Message = scalar(Doc["message"], "message");
    checkMessageTemplate(R.Message, lineOf(Doc["message"]));
  }
  if (Doc["see"])
    R.See = strings(Doc["see"], "see");
  R.Tool = Doc["tool"] ? scalar(Doc["tool"], "tool") : "both";
  if (R.Tool != "graphlint" && R.Tool != "graphcheck" && R.Tool != "both")
    throw Bad{lineOf(Doc["tool"]), "'tool' must be graphlint, graphcheck or both"};
  if (Doc["match"])
    R.Match = parseClauses(Doc["match"], "match");
  if (Doc["python"])
    R.Python = parsePython(Doc["python"]);
  if (Doc["reach"]) {
    R.Reach = scalar(Doc["reach"], "reach");
    if (R.Reach != "capture" && R.Reach != "other-threads" && R.Reach != "other-threads-any-mode")
      throw Bad{lineOf(Doc["reach"]),
                "'reach' must be 'capture', 'other-threads' or 'other-threads-any-mode'"};
  }

  auto Same = std::find_if(Into.Rules.begin(), Into.Rules.end(),
                           [&](const Rule &O) { return O.Id == R.Id; });
  if (Same != Into.Rules.end()) {
    if (fs::path(Same->File).parent_path() == fs::path(File).parent_path())
      throw Bad{lineOf(Doc["id"]),
                fmt::format("rule id '{}' is already defined in {}", R.Id, Same->File)};
    *Same = R; // A later directory overrides.
  } else {
    Into.Rules.push_back(R);
  }
}

} // namespace

bool MatchConditions::empty() const {
  return !ArgDevice && !ReceiverDevice && ReceiverFrom.empty() && !ArgCount && MissingArg.empty() &&
         ArgMentions.empty() && !ArgType && !DefaultStreamArg && !BoolMaskIndex &&
         !AutomaticStorageArg && !NotIfDifferent && !NotUnderFlag && !TensorArg &&
         NotInMacro.empty() && !OutputStream && !OutputStreamArg && TensorArgAt.empty();
}

void CaptureSpec::merge(const CaptureSpec &O) {
  auto add = [](auto &Into, const auto &From) {
    Into.insert(Into.end(), From.begin(), From.end());
  };
  add(Begin, O.Begin);
  add(End, O.End);
  add(PyContextManagers, O.PyContextManagers);
  add(PyBegin, O.PyBegin);
  add(PyEnd, O.PyEnd);
  add(PyGraphedCallables, O.PyGraphedCallables);
  add(PyStatusQueries, O.PyStatusQueries);
  add(PyReplay, O.PyReplay);
  add(ThreadSpawners, O.ThreadSpawners);
  add(ThreadEntryPoints, O.ThreadEntryPoints);
  add(Scoped, O.Scoped);
  add(StatusQueries, O.StatusQueries);
  add(NotCapturing, O.NotCapturing);
  add(Helpers, O.Helpers);
  add(EntryPoints, O.EntryPoints);
  add(StreamGuards, O.StreamGuards);
  add(StreamSetters, O.StreamSetters);
}

std::string Rule::formatMessage(const std::string &Callee) const {
  if (Message.empty())
    return Callee.empty() ? Summary : fmt::format("'{}': {}", Callee, Summary);
  fmt::dynamic_format_arg_store<fmt::format_context> Args;
  Args.push_back(fmt::arg("callee", Callee));
  return fmt::vformat(Message, Args);
}

const Rule *RuleSet::find(const std::string &Id) const {
  for (const auto &R : Rules)
    if (R.Id == Id)
      return &R;
  return nullptr;
}

std::string RuleError::str() const {
  if (Line)
    return fmt::format("{}:{}: {}", File, Line, Message);
  return fmt::format("{}: {}", File, Message);
}

void parseRuleText(const std::string &Text, const std::string &File, RuleSet &Into,
                   std::vector<RuleError> &Errors) {
  try {
    YAML::Node Doc = YAML::Load(Text);
    parseDocument(Doc, File, Into);
  } catch (const Bad &B) {
    Errors.push_back({File, B.Line, B.Message});
  } catch (const YAML::Exception &E) {
    Errors.push_back({File, E.mark.line >= 0 ? static_cast<unsigned>(E.mark.line) + 1 : 0,
                      "invalid YAML: " + E.msg});
  }
}

RuleSet loadRules(const std::vector<std::string> &Dirs, std::vector<RuleError> &Errors) {
  RuleSet Set;
  for (const auto &Dir : Dirs) {
    std::error_code EC;
    if (!fs::is_directory(Dir, EC)) {
      Errors.push_back(
          {Dir, 0, "rules directory does not exist; pass an existing folder to --rules"});
      continue;
    }
    std::vector<fs::path> Files;
    for (const auto &E : fs::directory_iterator(Dir, EC)) {
      auto Ext = E.path().extension();
      if (E.is_regular_file() && (Ext == ".yaml" || Ext == ".yml"))
        Files.push_back(E.path());
    }
    std::sort(Files.begin(), Files.end());
    for (const auto &P : Files) {
      std::ifstream In(P);
      std::stringstream SS;
      SS << In.rdbuf();
      if (!In) {
        Errors.push_back({P.string(), 0, "cannot read rule file"});
        continue;
      }
      parseRuleText(SS.str(), P.string(), Set, Errors);
    }
  }
  std::sort(Set.Rules.begin(), Set.Rules.end(),
            [](const Rule &A, const Rule &B) { return A.Id < B.Id; });
  return Set;
}

std::string defaultRulesDir(const std::string &Argv0) {
  if (const char *Env = std::getenv("GRAPHSAFE_RULES_DIR"))
    return Env;
  std::error_code EC;
  fs::path Exe = fs::canonical("/proc/self/exe", EC);
  if (EC)
    Exe = fs::absolute(Argv0, EC);
  // build/bin/graphlint -> <source>/rules (recorded at configure time) or
  // <prefix>/bin/graphlint -> <prefix>/share/graphsafe/rules.
  for (const fs::path &Candidate :
       {Exe.parent_path().parent_path() / "share" / "graphsafe" / "rules",
        fs::path(GRAPHSAFE_SOURCE_RULES_DIR)}) {
    if (fs::is_directory(Candidate, EC))
      return Candidate.string();
  }
  return "";
}

} // namespace graphsafe
