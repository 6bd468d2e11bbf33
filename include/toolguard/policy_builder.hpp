#pragma once
// A fluent C++ policy builder with the same power as policy files.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/engine.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard {

/// Builds a Policy (and an Engine) in code:
///
///   auto engine = PolicyBuilder()
///                     .allow("read_file").allow("filesystem_*")
///                     .requireApproval("write_file")
///                     .deny("mcp__github__delete_*", "deleting on GitHub is not allowed")
///                     .maxRisk(RiskLevel::High)
///                     .defaultAction(Verdict::Deny)
///                     .build();
///
/// Patterns are exact names or wildcards (`*`, `?`). Deny beats approval,
/// approval beats allow and allow beats the default, whatever the order of the
/// calls: every rule is consulted and the strictest finding wins.
class PolicyBuilder {
 public:
  /// Starts from the built-in tool catalog, no rules, default verdict ask.
  PolicyBuilder();

  /// Starts from an existing policy (e.g. loaded from files).
  explicit PolicyBuilder(Policy base);

  PolicyBuilder& allow(std::string_view tool_pattern, std::string reason = {});
  PolicyBuilder& deny(std::string_view tool_pattern, std::string reason = {});
  PolicyBuilder& requireApproval(std::string_view tool_pattern, std::string reason = {});
  PolicyBuilder& abort(std::string_view tool_pattern, std::string reason = {});

  PolicyBuilder& allowCategory(std::string_view category, std::string reason = {});
  PolicyBuilder& denyCategory(std::string_view category, std::string reason = {});
  PolicyBuilder& requireApprovalForCategory(std::string_view category, std::string reason = {});

  /// Tools whose risk is above `level` are denied.
  PolicyBuilder& maxRisk(RiskLevel level);

  /// The verdict when no rule and no tool policy decides (allow, ask or deny).
  PolicyBuilder& defaultAction(Verdict verdict);

  /// The policy given to tools registered from now on that have none of their
  /// own. Tools registered earlier keep theirs.
  PolicyBuilder& setDefaultPolicy(ToolPolicy policy);

  /// Registers (or replaces) a tool's description and policy.
  PolicyBuilder& registerTool(ToolInfo tool);

  /// Adds a declarative rule (argument, command, path and context matchers).
  /// Its layer is Code and its source "<code>" unless set.
  PolicyBuilder& rule(RuleSpec spec);

  /// Gives `label` to the calls `matchers` matches, as a policy file's
  /// `labels:` entry does: a session remembers it, `after:` conditions and
  /// the rule of two (untrusted, sensitive, outward) read it. The spec's
  /// verdict and reason are not used. Throws PolicyError for a name that is
  /// not a label name (a lowercase letter, then lowercase letters, digits,
  /// `-` or `_`) or a matcher that does not compile.
  PolicyBuilder& label(std::string label, RuleSpec matchers);

  /// How sessions are remembered and judged (a policy file's `sessions:`):
  /// how long, how many calls, and the rule of two's verdict.
  PolicyBuilder& sessions(SessionSettings settings);

  /// Adds a rule implemented in C++.
  PolicyBuilder& rule(std::shared_ptr<const Rule> custom_rule);

  /// Adds a validateArgs hook for the tools matching `tool_pattern` (a name or
  /// wildcard): it runs after the rules and before any approval, and may
  /// sanitize the arguments or reject the call. Hooks run in the order added.
  PolicyBuilder& validateArgs(std::string_view tool_pattern, std::string name,
                              ArgumentValidator validator);

  /// Adds a workspace root for every call, besides each call's cwd and roots.
  PolicyBuilder& workspaceRoot(std::string root);

  /// How path names compare (auto: ask the file system holding each path).
  PolicyBuilder& caseSensitivity(CaseSensitivity value);

  /// Limits on a call's arguments (bytes as compact JSON, nesting depth at
  /// most kMaxArgumentDepth).
  PolicyBuilder& argumentLimits(size_t max_bytes, size_t max_depth = kMaxArgumentDepth);

  /// Adds a rate limit (see RateLimit); a Guard built on the policy enforces it.
  PolicyBuilder& rateLimit(RateLimit limit);

  /// What a sandboxed command gets, as a `sandbox:` section would say it:
  /// the lists are added to the built-in defaults (sandboxSettingsOf); the
  /// network and the fallback replace the policy's.
  PolicyBuilder& sandbox(const SandboxSettings& additions);

  /// Adds the rules, tools and default of a policy file (an explicit layer).
  PolicyBuilder& policyFile(const std::filesystem::path& file);

  /// Adds a ready-made profile shipped with toolguard (see policyProfiles()).
  PolicyBuilder& profile(std::string_view name);

  /// The policy built so far, with every rule example checked.
  /// Throws PolicyError when an example fails.
  Policy buildPolicy() const;

  /// An engine for the policy built so far.
  Engine build() const;

 private:
  PolicyBuilder& addPatternRule(std::string_view tool_pattern, Verdict verdict, std::string reason);
  PolicyBuilder& addCategoryRule(std::string_view category, Verdict verdict, std::string reason);
  std::string nextId(std::string_view stem);

  Policy policy_;
  std::optional<ToolPolicy> default_tool_policy_;
  int counter_ = 0;
};

/// Names of the ready-made profiles embedded in toolguard ("default",
/// "safe-chat", "developer-assistant", "document-processing").
std::vector<std::string> policyProfiles();

/// The YAML text of a ready-made profile, or nullptr for an unknown name.
const char* policyProfileText(std::string_view name);

}  // namespace toolguard
