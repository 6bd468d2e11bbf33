// toolguard's hook command in an agent's settings (src/cli/agent_hooks.cpp):
// written with the binary quoted for sh, and read back as sh splits words.
#include "cli/agent_hooks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace toolguard::cli {
namespace agent_hooks_test {

using nlohmann::ordered_json;

ordered_json claudeSettingsRunning(const std::string& command) {
  ordered_json settings = ordered_json::object();
  settings["hooks"]["PreToolUse"] = ordered_json::array();
  settings["hooks"]["PreToolUse"].push_back(hookGroup(Agent::Claude, command));
  return settings;
}

TEST(AgentHooks, TheBinaryIsQuotedOnlyWhenItsPathNeedsIt) {
  const HookOptions options;
  EXPECT_EQ(hookCommand(Agent::Gemini, "/usr/local/bin/toolguard", options),
            "/usr/local/bin/toolguard check --format gemini-hook --deadline " +
                std::to_string(kGeminiCheckDeadlineS) + " || exit 2");
  EXPECT_TRUE(hookCommand(Agent::Gemini, "/opt/it's mine/toolguard", options)
                  .starts_with("'/opt/it'\\''s mine/toolguard' check --format gemini-hook "));
}

TEST(AgentHooks, AHookCommandInstallWroteIsReadBackWhateverTheBinarysPath) {
  for (const char* binary : {"/usr/bin/toolguard", "/opt/it's mine/toolguard", "/a=b/toolguard"}) {
    HookOptions options;
    options.claude_mode = ClaudeMode::Decide;
    const ordered_json settings =
        claudeSettingsRunning(hookCommand(Agent::Claude, binary, options));
    EXPECT_EQ(installedClaudeMode(settings), ClaudeMode::Decide) << binary;
  }
}

TEST(AgentHooks, AHookCommandIsReadAsShSplitsItsWords) {
  const std::string deadline = std::to_string(kClaudeCheckDeadlineS);
  EXPECT_EQ(installedClaudeMode(claudeSettingsRunning(
                "\"/opt/my tools/toolguard\" check --format claude --mode tighten --deadline " +
                deadline + " || exit 2")),
            ClaudeMode::Tighten);
  EXPECT_EQ(installedClaudeMode(claudeSettingsRunning(
                "/opt/my\\ tools/toolguard check --format 'claude' --mode decide")),
            ClaudeMode::Decide);
  // A comment, and a line continued right after a word, are read as sh reads them.
  EXPECT_EQ(installedClaudeMode(claudeSettingsRunning(
                "/usr/bin/toolguard check --format claude\\\n  --mode decide # by hand")),
            ClaudeMode::Decide);
  // Another command, or an unterminated quote, is not toolguard's hook.
  EXPECT_FALSE(installedClaudeMode(
      claudeSettingsRunning("/usr/bin/toolguard check --format claude; rm -rf /tmp/x")));
  EXPECT_FALSE(
      installedClaudeMode(claudeSettingsRunning("'/usr/bin/toolguard check --format claude")));
  EXPECT_FALSE(
      installedClaudeMode(claudeSettingsRunning("/usr/bin/toolguard check --format gemini-hook")));
}

}  // namespace agent_hooks_test
}  // namespace toolguard::cli
