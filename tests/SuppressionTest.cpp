#include "Suppressions.h"

#include <gtest/gtest.h>

using namespace graphsafe::lint;

TEST(Suppressions, ParsesIdsAndReason) {
  auto S = parseSuppressions("int a;\n  x.item(); // graphsafe: ignore[sync-tensor-read, "
                             "host-io-in-capture] read once at capture on purpose\n"
                             "// graphsafe: ignore[*]\n");
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Line, 2u);
  EXPECT_EQ(S[0].Rules, (std::set<std::string>{"sync-tensor-read", "host-io-in-capture"}));
  EXPECT_EQ(S[0].Reason, "read once at capture on purpose");
  EXPECT_EQ(S[1].Line, 3u);
  EXPECT_EQ(S[1].Rules, std::set<std::string>{"*"});
  EXPECT_EQ(S[1].Reason, "");
}

TEST(Suppressions, IgnoresOtherComments) {
  EXPECT_TRUE(parseSuppressions("// graphsafe ignore sync\n// NOLINT\n").empty());
}

TEST(Suppressions, ATrailingCommentIsNotAReason) {
  auto S = parseSuppressions("f(); // graphsafe: ignore[x] // NOLINT\n");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Reason, "");
}
