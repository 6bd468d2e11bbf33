#include "toolguard/verdict.hpp"

#include <gtest/gtest.h>

#include "toolguard/tool_info.hpp"

namespace toolguard {
namespace verdict_test {

TEST(Verdict, StrictnessOrderIsAbortDenyAskEscalateAllow) {
  EXPECT_TRUE(isStricter(Verdict::Abort, Verdict::Deny));
  EXPECT_TRUE(isStricter(Verdict::Deny, Verdict::Ask));
  EXPECT_TRUE(isStricter(Verdict::Ask, Verdict::Escalate));
  EXPECT_TRUE(isStricter(Verdict::Escalate, Verdict::Allow));
  EXPECT_FALSE(isStricter(Verdict::Ask, Verdict::Ask));
  EXPECT_EQ(strictest(Verdict::Allow, Verdict::Deny), Verdict::Deny);
  EXPECT_EQ(strictest(Verdict::Abort, Verdict::Ask), Verdict::Abort);
}

TEST(Verdict, ParsesOnlyExactKnownNames) {
  EXPECT_EQ(parseVerdict("allow"), Verdict::Allow);
  EXPECT_EQ(parseVerdict("escalate"), Verdict::Escalate);
  EXPECT_EQ(parseVerdict("abort"), Verdict::Abort);
  EXPECT_FALSE(parseVerdict("ALLOW").has_value());
  EXPECT_FALSE(parseVerdict("allowed").has_value());
  EXPECT_FALSE(parseVerdict("").has_value());
  EXPECT_FALSE(parseVerdict("yes").has_value());
}

TEST(Verdict, NamesRoundTrip) {
  for (Verdict v :
       {Verdict::Allow, Verdict::Escalate, Verdict::Ask, Verdict::Deny, Verdict::Abort}) {
    EXPECT_EQ(parseVerdict(toString(v)), v);
  }
}

TEST(ToolPolicy, ConfirmIsAskAndAskIsASynonym) {
  EXPECT_EQ(toVerdict(ToolPolicy::Allow), Verdict::Allow);
  EXPECT_EQ(toVerdict(ToolPolicy::Confirm), Verdict::Ask);
  EXPECT_EQ(toVerdict(ToolPolicy::Deny), Verdict::Deny);
  EXPECT_EQ(parseToolPolicy("ask"), ToolPolicy::Confirm);
  EXPECT_FALSE(parseToolPolicy("maybe").has_value());
}

TEST(ToolMetadata, EnumNamesRoundTrip) {
  for (auto v : {SideEffect::None, SideEffect::LocalRead, SideEffect::LocalWrite,
                 SideEffect::NetworkRead, SideEffect::NetworkWrite, SideEffect::Irreversible}) {
    EXPECT_EQ(parseSideEffect(toString(v)), v);
  }
  for (auto v : {RiskLevel::Low, RiskLevel::Medium, RiskLevel::High, RiskLevel::Critical}) {
    EXPECT_EQ(parseRiskLevel(toString(v)), v);
  }
  for (auto v : {DefaultApproval::Never, DefaultApproval::Conditional, DefaultApproval::Always}) {
    EXPECT_EQ(parseDefaultApproval(toString(v)), v);
  }
  EXPECT_EQ(parseToolKind("file-write"), ToolKind::FileWrite);
  EXPECT_FALSE(parseToolKind("file_write").has_value());
}

TEST(ToolMetadata, EffectivePolicyFallsBackToDefaultApproval) {
  ToolInfo tool;
  EXPECT_FALSE(effectivePolicy(tool).has_value());
  tool.metadata.default_approval = DefaultApproval::Never;
  EXPECT_EQ(effectivePolicy(tool), ToolPolicy::Allow);
  tool.metadata.default_approval = DefaultApproval::Always;
  EXPECT_EQ(effectivePolicy(tool), ToolPolicy::Confirm);
  tool.policy = ToolPolicy::Deny;
  EXPECT_EQ(effectivePolicy(tool), ToolPolicy::Deny);
}

}  // namespace verdict_test
}  // namespace toolguard
