#include "ProcessMerge.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace graphsafe;
using namespace graphsafe::rt;

namespace {

Finding runtimeFinding(const std::string &Rule, const std::string &Buffer) {
  Finding F;
  F.RuleId = Rule;
  F.Message = "kernel writes " + Buffer;
  F.Loc = {"train.py", 12, 0};
  F.Runtime = RuntimeLoc{"g1", "n3", "gemm", Buffer};
  return F;
}

} // namespace

TEST(ProcessMerge, LabelsNameRanksAndPids) {
  EXPECT_EQ(processOfTrace("/tmp/x/trace-rank1-4242.jsonl"), "rank1-4242");
  EXPECT_EQ(processOfTrace("recorded.jsonl"), "recorded");
  EXPECT_EQ(processLabel("rank1-4242"), "rank 1");
  EXPECT_EQ(processLabel("rank12-7"), "rank 12");
  EXPECT_EQ(processLabel("4242"), "pid 4242");
  EXPECT_EQ(processLabel("rankings"), "rankings");
}

// Addresses differ between ranks; rule, line, graph, node and kernel do not.
TEST(ProcessMerge, SameHazardOnEveryRankIsOneFinding) {
  std::vector<ProcessReport> Parts(3);
  Parts[0] = {"rank0-10", {}};
  Parts[1] = {"rank1-11", {}};
  Parts[2] = {"rank2-12", {}};
  Parts[0].Rep.Findings = {runtimeFinding("grad-aliases-graph-buffer", "0x7f00")};
  Parts[1].Rep.Findings = {runtimeFinding("grad-aliases-graph-buffer", "0x7e00")};
  Finding Other = runtimeFinding("graph-uses-freed-memory", "0x10");
  Other.Runtime->Node = "n4";
  Parts[2].Rep.Findings = {runtimeFinding("grad-aliases-graph-buffer", "0x7d00"), Other};
  Parts[1].Rep.Complete = false;
  Parts[1].Rep.Errors = {{"graphcheck", "the program was killed by signal 9"}};
  Report R = mergeProcessReports(std::move(Parts));
  ASSERT_EQ(R.Findings.size(), 2u);
  const Finding &Grad =
      R.Findings[0].RuleId == "grad-aliases-graph-buffer" ? R.Findings[0] : R.Findings[1];
  const Finding &Freed = &Grad == &R.Findings[0] ? R.Findings[1] : R.Findings[0];
  EXPECT_EQ(Grad.Processes, (std::vector<std::string>{"rank 0", "rank 1", "rank 2"}));
  EXPECT_EQ(Grad.Runtime->Buffer, "0x7f00");
  EXPECT_EQ(Freed.Processes, (std::vector<std::string>{"rank 2"}));
  EXPECT_FALSE(R.Complete);
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_EQ(R.Errors[0].Where, "graphcheck (rank 1)");
}

// Two findings of one process stay two (weight.grad and bias.grad), also
// when one kernel of one node writes both, as verify mode reports them.
TEST(ProcessMerge, FindingsOfOneProcessAreNotFoldedTogether) {
  std::vector<ProcessReport> Parts(2);
  Parts[0] = {"rank0-10", {}};
  Parts[1] = {"rank1-11", {}};
  auto Grad = [](const std::string &Name, unsigned long Address) {
    Finding F = runtimeFinding("grad-aliases-graph-buffer", "");
    F.Message =
        Name + fmt::format(" is the graph's own buffer [0x{:x}, 0x{:x}); replay 2 of graph g1",
                           Address, Address + 256);
    return F;
  };
  Parts[0].Rep.Findings = {Grad("weight.grad", 0x7f5c5dd01000), Grad("bias.grad", 0x7f5c5dd05000)};
  Parts[1].Rep.Findings = {Grad("weight.grad", 0x7fdbffd01000), Grad("bias.grad", 0x7fdbffd05000)};
  Report R = mergeProcessReports(std::move(Parts));
  ASSERT_EQ(R.Findings.size(), 2u);
  for (const auto &F : R.Findings)
    EXPECT_EQ(F.Processes, (std::vector<std::string>{"rank 0", "rank 1"}));
}

TEST(ProcessMerge, OneProcessNamesNone) {
  std::vector<ProcessReport> Parts(1);
  Parts[0] = {"4242", {}};
  Parts[0].Rep.Findings = {runtimeFinding("graph-uses-freed-memory", "0x10")};
  Report R = mergeProcessReports(std::move(Parts));
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_TRUE(R.Findings[0].Processes.empty());
}
