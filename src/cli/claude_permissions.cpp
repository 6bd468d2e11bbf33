// A person's standing approvals in Claude Code, checked the safe way.
#include "claude_permissions.hpp"

#include <filesystem>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::cli {

bool claudeSettingsAllow(const ToolCall& call, const std::string& home) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files = {fs::path(home) / ".claude" / "settings.json",
                                 "/etc/claude-code/managed-settings.json"};
  if (!call.context.cwd.empty()) {
    files.push_back(fs::path(call.context.cwd) / ".claude" / "settings.json");
    files.push_back(fs::path(call.context.cwd) / ".claude" / "settings.local.json");
  }
  Policy policy;
  policy.default_verdict = Verdict::Ask;
  bool any = false;
  for (const fs::path& file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;
    try {
      mergePolicyFile(policy, file, PolicyLayer::Explicit, true);
      any = true;
    } catch (const std::exception&) {
      return false;  // a broken settings file approves nothing
    }
  }
  if (!any) return false;
  const Decision d = Engine(std::move(policy)).decide(call);
  return d.basis == DecisionBasis::Rule && d.policy_verdict == Verdict::Allow;
}

}  // namespace toolguard::cli
