#pragma once
// Internal: one parsed policy file, before it is merged into a Policy.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/policy.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

class DocNode;

/// A `tools:` entry: the fields the file set, on top of what was known before.
struct ToolEntry {
  std::string name;
  SourceLocation where;
  std::optional<std::string> description;
  std::optional<ToolKind> kind;
  std::optional<std::string> category;
  std::optional<SideEffect> side_effect;
  std::optional<RiskLevel> risk;
  std::optional<DefaultApproval> default_approval;
  std::optional<bool> idempotent;
  std::optional<bool> read_only;
  std::optional<ToolPolicy> policy;
  std::optional<std::string> command_arg;
  std::optional<std::vector<std::string>> path_args;
  std::optional<nlohmann::json> input_schema;
};

/// Sets on `tool` every field the entry sets (and its name).
void applyToolEntry(ToolInfo& tool, const ToolEntry& entry);

/// A `labels:` entry (or the call of an `after:` condition), before it is compiled.
struct LabelSpec {
  std::string label;
  RuleSpec rule;
};

/// A parsed policy file.
struct PolicyDocument {
  std::string name;
  std::optional<Verdict> default_verdict;
  SourceLocation default_where;
  std::vector<ToolEntry> tools;
  std::vector<RuleSpec> rules;  ///< examples already turned into calls
  std::vector<std::string> trusted_projects;
  SourceLocation trusted_where;
  std::vector<std::string> builtin_rules;  ///< built-in rule sets to add ("shell", "secrets")
  // paths:
  SourceLocation paths_where;
  std::optional<CaseSensitivity> case_sensitivity;
  std::optional<bool> follow_symlinks;
  std::vector<std::string> workspace_roots;
  // limits:
  SourceLocation limits_where;
  std::optional<size_t> max_argument_bytes;
  std::optional<size_t> max_argument_depth;
  std::vector<RateLimit> rate_limits;
  // llm:
  SourceLocation llm_where;
  std::optional<bool> llm_enabled;
  std::optional<std::string> llm_base_url;
  std::optional<std::string> llm_model;
  std::optional<std::string> llm_api_key_env;
  std::optional<size_t> llm_max_turns;
  std::optional<std::chrono::milliseconds> llm_timeout;
  std::optional<size_t> llm_max_input_bytes;
  // sandbox:
  SourceLocation sandbox_where;
  SandboxSettings sandbox;  ///< its lists; network and fallback below when set
  std::optional<SandboxNetwork> sandbox_network;
  std::optional<SandboxFallback> sandbox_fallback;
  // labels: and the calls of rules' after: conditions
  std::vector<LabelSpec> labels;
  // sessions:
  SourceLocation sessions_where;
  std::optional<std::chrono::seconds> session_expire_after;
  std::optional<size_t> session_max_events;
  std::optional<std::optional<Verdict>> rule_of_two;  ///< nullopt inside: off
};

/// True for a label name: a lowercase letter, then lowercase letters,
/// digits, `-` or `_`; at most 64 (policy_session_merge.cpp).
bool isLabelName(std::string_view label);

/// The message for a name that is not one (after "WHAT: 'NAME' ").
inline constexpr const char* kLabelNameRule =
    "is not a label name (a lowercase letter, then lowercase letters, digits, - or _; at most 64)";

/// Merges a document's `labels:` and `sessions:` (policy_session_merge.cpp).
void mergeSessions(Policy& policy, PolicyDocument& doc, PolicyLayer layer, bool trusted,
                   std::vector<PolicyDiagnostic>& errors);

/// Parses a policy file's text. `catalog` resolves the tools named by string
/// examples. Throws PolicyError listing every problem with file, line and column.
PolicyDocument parsePolicyDocument(std::string_view text, const std::string& name,
                                   PolicyLayer layer, const ToolCatalog& catalog);

/// What parsePolicyTree checks beyond the document's shape.
enum class TreeChecks {
  All,
  /// A tree stored at build time from a text the tests load with every
  /// check (a built-in profile): its path globs are not checked again by
  /// every process that loads it.
  CheckedAtBuild,
};

/// parsePolicyDocument for a document already read (a built-in profile's tree).
/// Without `read_examples`, the rules' examples are left out, unread.
PolicyDocument parsePolicyTree(const DocNode& root, const std::string& name, PolicyLayer layer,
                               const ToolCatalog& catalog, bool read_examples = true,
                               TreeChecks checks = TreeChecks::All);

/// Whether a layer may loosen a setting `existing` last set: never a managed
/// one from another layer, nothing from an untrusted project.
bool mayLoosenSetting(PolicyLayer existing, PolicyLayer incoming, bool trusted);

/// Why a loosening from `layer` is ignored.
std::string loosenRefusal(PolicyLayer layer, bool trusted);

/// Merges a document's `sandbox:` section (policy_sandbox.cpp).
void mergeSandbox(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted);

/// Merges a document into a policy, applying the layering rules (see
/// policy_loader.hpp). Restricted loosenings become warnings.
void mergeDocument(Policy& policy, PolicyDocument document, PolicyLayer layer, bool trusted);

}  // namespace toolguard::detail
