#pragma once
// A policy: the tools, rules and default that an Engine is built from.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "toolguard/policy_error.hpp"
#include "toolguard/rule.hpp"
#include "toolguard/source_location.hpp"
#include "toolguard/tool_catalog.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard {

/// Something worth telling the author of a policy that does not stop it loading
/// (a rule that can never match, a loosening the layer was not allowed to make, ...).
struct PolicyWarning {
  SourceLocation where;
  std::string message;
};

/// The layer and position that last defined a tool's entry.
struct ToolOrigin {
  PolicyLayer layer = PolicyLayer::Builtin;
  SourceLocation source;
};

/// A complete, merged policy.
struct Policy {
  ToolCatalog tools = ToolCatalog::builtin();
  std::vector<std::shared_ptr<const Rule>> rules;
  Verdict default_verdict = Verdict::Ask;  ///< when no rule and no tool policy decides
  SourceLocation default_source{"<builtin>", 0, 0};
  PolicyLayer default_layer = PolicyLayer::Builtin;
  std::vector<PolicyWarning> warnings;
  std::vector<std::string> trusted_projects;  ///< workspaces the user lets loosen its policy
  /// Where each tool entry that policy files or code added or changed was defined.
  std::map<std::string, ToolOrigin, std::less<>> tool_origins;
};

/// Runs every rule's examples against the rule itself and returns one
/// diagnostic per failing example (empty when all pass). `include_builtin`
/// false skips the rules of the built-in layer (the embedded profiles, whose
/// examples the test suite checks), which keeps a hook process fast.
std::vector<PolicyDiagnostic> checkRuleExamples(const Policy& policy, bool include_builtin = true);

/// Lint warnings about a merged policy: rules that can never match, allow rules
/// shadowed by a deny, and exact tool names that no catalog knows.
std::vector<PolicyWarning> lintPolicy(const Policy& policy);

}  // namespace toolguard
