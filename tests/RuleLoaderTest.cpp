#include "graphsafe/Rule.h"

#include <gtest/gtest.h>

using namespace graphsafe;

namespace {

const char *Valid = R"(id: sync-demo
severity: error
category: sync
summary: "demo"
message: "'{callee}' syncs"
why: because
fix: do not
see: https://example.invalid/doc
match:
  - call: [cudaDeviceSynchronize, c10::cuda::device_synchronize]
  - method: item
    on: at::TensorBase
    when: {arg-count: 0}
  - call: cudaMemcpy
    fix: {rename: cudaMemcpyAsync, append-arg: stream}
)";

RuleSet parse(const std::string &Text, std::vector<RuleError> &Errors) {
  RuleSet S;
  parseRuleText(Text, "rules/x.yaml", S, Errors);
  return S;
}

TEST(RuleLoader, ParsesEveryField) {
  std::vector<RuleError> Errors;
  RuleSet S = parse(Valid, Errors);
  ASSERT_TRUE(Errors.empty()) << Errors.front().str();
  ASSERT_EQ(S.Rules.size(), 1u);
  const Rule &R = S.Rules[0];
  EXPECT_EQ(R.Id, "sync-demo");
  EXPECT_EQ(R.Level, Severity::Error);
  EXPECT_EQ(R.See.size(), 1u);
  ASSERT_EQ(R.Match.size(), 3u);
  EXPECT_EQ(R.Match[0].Names.size(), 2u);
  EXPECT_EQ(R.Match[1].K, MatchClause::Kind::Method);
  EXPECT_EQ(R.Match[1].On, "at::TensorBase");
  EXPECT_EQ(*R.Match[1].When.ArgCount, 0u);
  ASSERT_TRUE(R.Match[2].Fix);
  EXPECT_EQ(R.Match[2].Fix->RenameTo, "cudaMemcpyAsync");
  EXPECT_EQ(R.formatMessage("cudaDeviceSynchronize"), "'cudaDeviceSynchronize' syncs");
}

struct BadCase {
  const char *Name;
  std::string Text;
  unsigned Line;
  const char *Says;
};

std::string replace(std::string S, const std::string &From, const std::string &To) {
  S.replace(S.find(From), From.size(), To);
  return S;
}

class MalformedRule : public ::testing::TestWithParam<BadCase> {};

TEST_P(MalformedRule, ReportsFileLineAndReason) {
  std::vector<RuleError> Errors;
  RuleSet S = parse(GetParam().Text, Errors);
  ASSERT_EQ(Errors.size(), 1u) << "no error for " << GetParam().Name;
  EXPECT_TRUE(S.Rules.empty());
  EXPECT_EQ(Errors[0].File, "rules/x.yaml");
  EXPECT_EQ(Errors[0].Line, GetParam().Line) << Errors[0].str();
  EXPECT_NE(Errors[0].Message.find(GetParam().Says), std::string::npos) << Errors[0].str();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedRule,
    ::testing::Values(
        BadCase{"severity", replace(Valid, "severity: error", "severity: fatal"), 2,
                "severity must be"},
        BadCase{"category", replace(Valid, "category: sync", "category: speed"), 3,
                "unknown category"},
        BadCase{"id", replace(Valid, "id: sync-demo", "id: Sync_Demo"), 1, "kebab-case"},
        BadCase{"missing-why", replace(Valid, "why: because\n", ""), 1,
                "missing required key 'why'"},
        BadCase{"unknown-key", replace(Valid, "fix: do not", "fix: do not\nfixx: typo"), 8,
                "unknown key 'fixx'"},
        BadCase{"method-without-on", replace(Valid, "    on: at::TensorBase\n", ""), 11,
                "needs 'on"},
        BadCase{"two-kinds",
                replace(Valid, "- call: cudaMemcpy", "- call: cudaMemcpy\n    method: x"), 14,
                "exactly one of"},
        BadCase{"bad-when", replace(Valid, "arg-count: 0", "arg-cont: 0"), 13,
                "unknown key 'arg-cont'"},
        BadCase{"bad-template", replace(Valid, "'{callee}' syncs", "'{calee}' syncs"), 5,
                "not a valid template"},
        BadCase{"yaml-syntax", replace(Valid, "summary: \"demo\"", "summary: [demo"), 5,
                "invalid YAML"},
        BadCase{"not-a-map", "- just\n- a list\n", 1, "must be a YAML mapping"}),
    [](const auto &Info) {
      std::string N = Info.param.Name;
      for (char &C : N)
        if (C == '-')
          C = '_';
      return N;
    });

TEST(RuleLoader, CaptureSpecMergesAcrossFiles) {
  std::vector<RuleError> Errors;
  RuleSet S;
  parseRuleText("id: a\nkind: capture\ncapture:\n  begin:\n    - call: myBegin\n  helpers:\n    - "
                "{call: run_captured, arg: 1}\n",
                "a.yaml", S, Errors);
  parseRuleText("id: b\nkind: capture\ncapture:\n  entry-points: [train_step]\n", "b.yaml", S,
                Errors);
  ASSERT_TRUE(Errors.empty()) << Errors.front().str();
  EXPECT_EQ(S.Capture.Begin.size(), 1u);
  ASSERT_EQ(S.Capture.Helpers.size(), 1u);
  EXPECT_EQ(S.Capture.Helpers[0].Arg, 1u);
  EXPECT_EQ(S.Capture.EntryPoints, std::vector<std::string>{"train_step"});
}

TEST(RuleLoader, LaterDirectoryOverridesSameId) {
  std::vector<RuleError> Errors;
  RuleSet S;
  parseRuleText(Valid, "bundled/x.yaml", S, Errors);
  parseRuleText(replace(Valid, "severity: error", "severity: note"), "house/x.yaml", S, Errors);
  ASSERT_TRUE(Errors.empty());
  ASSERT_EQ(S.Rules.size(), 1u);
  EXPECT_EQ(S.Rules[0].Level, Severity::Note);
  EXPECT_EQ(S.Rules[0].File, "house/x.yaml");
}

TEST(RuleLoader, DuplicateIdInOneDirectoryIsAnError) {
  std::vector<RuleError> Errors;
  RuleSet S;
  parseRuleText(Valid, "rules/a.yaml", S, Errors);
  parseRuleText(Valid, "rules/b.yaml", S, Errors);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_NE(Errors[0].Message.find("already defined in rules/a.yaml"), std::string::npos);
}

TEST(RuleLoader, MissingDirectoryIsReportedNotFatal) {
  std::vector<RuleError> Errors;
  RuleSet S = loadRules({"/nonexistent/rules", GRAPHSAFE_RULES}, Errors);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0].File, "/nonexistent/rules");
  EXPECT_GT(S.Rules.size(), 20u);
}

} // namespace

TEST(RuleLoader, GraphedCallablesSayWhetherOutputsAreCopied) {
  std::vector<RuleError> Errors;
  RuleSet S;
  parseRuleText("id: a\nkind: capture\ncapture:\n  python:\n    graphed-callables:\n"
                "      - {call: lib.Wrap, arg: 0, outputs: copied}\n"
                "      - {call: lib.make, arg: 1, keyword: fn}\n",
                "a.yaml", S, Errors);
  ASSERT_TRUE(Errors.empty()) << Errors.front().str();
  ASSERT_EQ(S.Capture.PyGraphedCallables.size(), 2u);
  EXPECT_TRUE(S.Capture.PyGraphedCallables[0].CopiesOutputs);
  EXPECT_FALSE(S.Capture.PyGraphedCallables[1].CopiesOutputs);
  EXPECT_EQ(S.Capture.PyGraphedCallables[1].Arg, 1u);
  EXPECT_EQ(S.Capture.PyGraphedCallables[0].Keyword, "");
  EXPECT_EQ(S.Capture.PyGraphedCallables[1].Keyword, "fn");

  RuleSet Bad;
  parseRuleText("id: b\nkind: capture\ncapture:\n  python:\n    graphed-callables:\n"
                "      - {call: lib.Wrap, arg: 0, outputs: cloned}\n",
                "b.yaml", Bad, Errors);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0].Line, 6);
  EXPECT_NE(Errors[0].Message.find("'outputs' must be 'static'"), std::string::npos)
      << Errors[0].str();
}
