// Tool names that imitate a known tool (issue 25): judged as that tool, or
// refused when the imitation is hidden.
#include <gtest/gtest.h>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace tool_name_test {

Decision decide(const std::string& tool, const std::string& command) {
  static const Engine engine(loadPolicy(PolicySources{}));
  ToolCall call;
  call.tool = tool;
  call.args = {{"command", command}};
  call.context.cwd = "/workspace";
  return engine.decide(call);
}

TEST(ToolNames, CaseAndSpacesAreTheToolTheyName) {
  for (const char* name : {"BASH", "bAsH", "Bash ", " Bash", "Bash\t", "RUN_SHELL_COMMAND"}) {
    SCOPED_TRACE(name);
    const Decision d = decide(name, "rm -rf ~");
    EXPECT_EQ(d.verdict, Verdict::Deny);
    EXPECT_EQ(d.rule_id, "rm-recursive-protected");
    EXPECT_EQ(decide(name, "ls").verdict, Verdict::Allow);
  }
}

TEST(ToolNames, HiddenImitationsAreRefused) {
  for (const char* name : {"Bash\u200b", "B\u200dash", "\ufeffBash", "\uff22\uff41\uff53\uff48",
                           "Bash\u3000", "\u202eBash"}) {
    SCOPED_TRACE(name);
    const Decision d = decide(name, "ls");
    EXPECT_EQ(d.verdict, Verdict::Deny);
    EXPECT_NE(d.reason.find("imitates 'Bash'"), std::string::npos) << d.reason;
  }
}

TEST(ToolNames, UnknownToolsStayUnknown) {
  const Decision d = decide("my_custom_tool", "ls");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.basis, DecisionBasis::Default);
  // A tool that really exists under its own spelling keeps it.
  EXPECT_EQ(decide("bash", "ls").verdict, Verdict::Allow);
}

}  // namespace tool_name_test
}  // namespace toolguard
