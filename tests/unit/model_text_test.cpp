// The sentences the model reads: one wording, that always names toolguard.
#include "core/model_text.hpp"

#include <gtest/gtest.h>

namespace toolguard::detail {
namespace {

TEST(ModelText, RefusalsNameToolguardAndWhoDecided) {
  EXPECT_EQ(blockedText("no"), "Blocked by toolguard: no");
  EXPECT_EQ(blockedText("no", "rule r1"), "Blocked by toolguard (rule r1): no");
  EXPECT_EQ(blockedNoRetryText("no", "validator"),
            "Blocked by toolguard (validator): no. Do not retry the same call; explain or choose "
            "another approach.");
  EXPECT_EQ(needsApprovalText("pushes", "rule git-push"),
            "This call needs a person's approval (toolguard, rule git-push): pushes");
  EXPECT_EQ(stoppedText("exfiltration", "rule r"),
            "toolguard stopped the generation (rule r): exfiltration");
}

TEST(ModelText, AReasonIsMadeARefusalOnce) {
  EXPECT_EQ(asBlockedText("a filter said no"), "Blocked by toolguard: a filter said no");
  EXPECT_EQ(asBlockedText("Blocked by toolguard (rule x): y"), "Blocked by toolguard (rule x): y");
  EXPECT_EQ(asBlockedText(""), "Blocked by toolguard: no reason given");
}

}  // namespace
}  // namespace toolguard::detail
