// JUnit XML, the one test-report format every CI system reads (GitLab,
// Jenkins, GitHub test reporters): findings become failures of the test case
// they belong to, so they land next to the test that made them.
#include "graphsafe/ReportWriter.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <vector>

namespace fs = std::filesystem;

namespace graphsafe {

namespace {

// XML 1.0 allows no control characters but tab and newlines, and readers
// reject invalid UTF-8: both become '?', the rest is escaped.
std::string xml(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    unsigned char C = S[I];
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3 : (C >> 3) == 30 ? 4 : 0;
    bool Valid = Len != 0 && I + Len <= S.size();
    for (size_t K = 1; Valid && K < Len; ++K)
      Valid = (static_cast<unsigned char>(S[I + K]) >> 6) == 2;
    if (!Valid) {
      Out += '?';
      ++I;
      continue;
    }
    if (Len > 1) {
      Out.append(S, I, Len);
      I += Len;
      continue;
    }
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&apos;";
      break;
    default:
      Out += (C < 0x20 && C != '\t' && C != '\n' && C != '\r') ? '?' : char(C);
    }
    ++I;
  }
  return Out;
}

std::string relativeTo(const std::string &File, const std::string &Base) {
  return pathUnderBase(File, Base).value_or(File);
}

std::string where(const SourceLoc &L, const std::string &Base) {
  return L.valid() ? fmt::format("{}:{}", relativeTo(L.File, Base), L.Line) : "";
}

// A test case: pytest's node id "tests/test_a.py::TestB::test_c[x]" splits
// as pytest's own JUnit report does (class name "tests.test_a.TestB", name
// "test_c[x]"); a file is named by its path under the tool.
struct Case {
  std::string ClassName, Name, File;
  std::vector<const Finding *> Failures, Notes;
};

Case caseFor(const std::string &Unit, bool IsTest, const std::string &Tool) {
  Case C;
  if (!IsTest) {
    C.ClassName = Tool;
    C.Name = C.File = Unit;
    return C;
  }
  std::string Path = Unit.substr(0, Unit.find("::"));
  C.File = Path;
  std::string Module = Path.size() > 3 && Path.compare(Path.size() - 3, 3, ".py") == 0
                           ? Path.substr(0, Path.size() - 3)
                           : Path;
  for (char &Ch : Module)
    if (Ch == '/')
      Ch = '.';
  std::string Rest = Unit.size() > Path.size() ? Unit.substr(Path.size() + 2) : Unit;
  size_t Last = Rest.rfind("::");
  C.ClassName = Last == std::string::npos ? Module : Module + "." + Rest.substr(0, Last);
  for (size_t At; (At = C.ClassName.find("::")) != std::string::npos;)
    C.ClassName.replace(At, 2, ".");
  C.Name = Last == std::string::npos ? Rest : Rest.substr(Last + 2);
  return C;
}

std::string body(const Finding &F, const std::string &Base) {
  std::string Text = fmt::format("{}: {}: {} [{}]\n", where(F.Loc, Base), severityName(F.Level),
                                 F.Message, F.RuleId);
  if (F.Runtime)
    Text += fmt::format("  graph {} node {} kernel {}\n  buffer {}\n", F.Runtime->Graph,
                        F.Runtime->Node, F.Runtime->Kernel, F.Runtime->Buffer);
  for (const Note &N : F.Notes)
    Text += fmt::format("{}: note: {}\n", where(N.Loc, Base), N.Message);
  if (!F.Fix.empty())
    Text += "  fix: " + F.Fix + "\n";
  return Text;
}

} // namespace

void writeJunit(std::ostream &OS, const Report &R, const WriteOptions &Opts) {
  const std::string &Base = Opts.BaseDir;
  // Units in their order, then whatever the findings name besides.
  std::vector<std::string> Order;
  std::map<std::string, Case> Cases;
  auto unit = [&](const std::string &Key, bool IsTest) -> Case & {
    auto [It, New] = Cases.try_emplace(Key);
    if (New) {
      It->second = caseFor(Key, IsTest, Opts.ToolName);
      Order.push_back(Key);
    }
    return It->second;
  };
  for (const std::string &U : R.Units) {
    bool IsTest = U.find("::") != std::string::npos;
    unit(IsTest ? U : relativeTo(U, Base), IsTest);
  }
  for (const Finding &F : R.Findings) {
    // Outside any test (a program, not a test run; collection; module import).
    std::string Key = !F.Test.empty() ? F.Test
                      : F.Loc.valid() ? relativeTo(F.Loc.File, Base)
                                      : Opts.ToolName + " run";
    Case &C = unit(Key, !F.Test.empty());
    (F.Level == Severity::Note ? C.Notes : C.Failures).push_back(&F);
  }
  size_t Failures = 0;
  for (const auto &[Key, C] : Cases)
    Failures += C.Failures.empty() ? 0 : 1;
  size_t Errors = R.Errors.empty() ? 0 : 1;
  size_t Count = Cases.size() + Errors;
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  OS << fmt::format("<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\">\n",
                    xml(Opts.ToolName), Count, Failures, Errors);
  OS << fmt::format("  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" "
                    "skipped=\"0\">\n",
                    xml(Opts.ToolName), Count, Failures, Errors);
  for (const std::string &Key : Order) {
    const Case &C = Cases.at(Key);
    OS << fmt::format("    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"", xml(C.ClassName),
                      xml(C.Name), xml(C.File));
    if (C.Failures.empty() && C.Notes.empty()) {
      OS << "/>\n";
      continue;
    }
    OS << ">\n";
    for (const Finding *F : C.Failures)
      OS << fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", xml(F->RuleId),
                        xml(severityName(F->Level) + std::string(": ") + F->Message),
                        xml(body(*F, Base)));
    if (!C.Notes.empty()) {
      std::string Out;
      for (const Finding *F : C.Notes)
        Out += body(*F, Base);
      OS << "      <system-out>" << xml(Out) << "</system-out>\n";
    }
    OS << "    </testcase>\n";
  }
  // The tool's own problems: the report is incomplete, which a reader must see.
  if (!R.Errors.empty()) {
    OS << fmt::format("    <testcase classname=\"{0}\" name=\"{0} run\">\n", xml(Opts.ToolName));
    for (const ToolError &E : R.Errors)
      OS << fmt::format("      <error type=\"tool-error\" message=\"{}\">{}</error>\n",
                        xml(E.Where + ": " + E.Message), xml(E.Where + ": " + E.Message));
    OS << "    </testcase>\n";
  }
  OS << "  </testsuite>\n</testsuites>\n";
}

} // namespace graphsafe
