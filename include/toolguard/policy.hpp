#pragma once
// A policy: the tools, rules and default that an Engine is built from.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/argument_validation.hpp"
#include "toolguard/llm_settings.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/rule.hpp"
#include "toolguard/sandbox.hpp"
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
  /// The entry's policy (or default approval) was given here, by a policy
  /// file or by code, rather than taken from the built-in catalog. Only such a
  /// policy allows or asks under a `default: deny` (see Policy::default_verdict).
  bool sets_policy = false;
};

/// How the paths in calls are read: the `paths:` section of policy files.
struct PathSettings {
  CaseSensitivity case_sensitivity = CaseSensitivity::Auto;
  bool follow_symlinks = true;               ///< false: judge paths lexically only
  std::vector<std::string> workspace_roots;  ///< extra workspace roots for every call
  PolicyLayer layer = PolicyLayer::Builtin;  ///< the layer that last set any of these

  /// How a CallView resolves paths under these settings.
  PathOptions pathOptions() const {
    PathOptions options;
    options.case_sensitivity = case_sensitivity;
    options.follow_symlinks = follow_symlinks;
    return options;
  }
};

/// Limits on a call's arguments (the `limits:` section), checked before
/// anything else looks at them, so a huge or deeply nested payload is refused
/// at once.
struct ArgumentLimits {
  size_t max_bytes = size_t{8} << 20;  ///< size of the arguments as compact JSON (8 MiB)
  size_t max_depth = kMaxArgumentDepth;
  PolicyLayer layer = PolicyLayer::Builtin;  ///< the layer that last raised a limit
};

/// The largest max_argument_bytes a policy may set (64 MiB).
inline constexpr size_t kMaxArgumentBytes = size_t{64} << 20;

/// What a rate limit counts calls per.
enum class RateLimitPer { Session, Agent };

/// At most `max_calls` calls of the matching tools per `window`, and at most
/// `max_concurrent` running at once, counted per session or per agent (the
/// `rate_limits:` section). The counts are in-process state of a Guard.
struct RateLimit {
  std::string tool = "*";  ///< tool name or wildcard (`mcp__github__*`)
  std::string category;    ///< when set, only tools of this category count
  size_t max_calls = 0;    ///< 0: no limit on the number of calls
  std::chrono::milliseconds window{0};
  RateLimitPer per = RateLimitPer::Session;
  size_t max_concurrent = 0;  ///< 0: no limit on calls running at once
  SourceLocation source;
  PolicyLayer layer = PolicyLayer::Code;
};

/// What an allow rule's own `sandbox:` adds for the calls it allows.
struct RuleSandboxGrant {
  std::vector<std::string> writable;  ///< places they may write (absolute or `~`)
  std::vector<std::string> hosts;     ///< hosts they may reach through the proxy
};

/// A `labels:` entry: the calls its rule matches get `label` in their
/// session's memory (untrusted input, sensitive data, an outward action, or
/// a name of the policy's own). The rule's verdict is not used.
struct LabelRule {
  std::string label;
  std::shared_ptr<const Rule> rule;
};

/// How sessions are remembered and judged (the `sessions:` section).
struct SessionSettings {
  /// A session whose latest call is older than this is forgotten.
  std::chrono::seconds expire_after = std::chrono::hours(12);
  /// Calls remembered per session (older ones are forgotten with their labels).
  size_t max_events = 256;
  /// What an outward call gets when its session holds untrusted input and
  /// sensitive data (the rule of two): ask, deny, or nullopt (off).
  std::optional<Verdict> rule_of_two = Verdict::Ask;
  PolicyLayer layer = PolicyLayer::Builtin;  ///< the layer that last set any of these
  SourceLocation source;
};

/// A complete, merged policy.
struct Policy {
  ToolCatalog tools = ToolCatalog::builtin();
  std::vector<std::shared_ptr<const Rule>> rules;
  /// When no rule and no tool policy decides. `deny` makes the policy an
  /// allow-list: a tool is allowed only by a rule or tool policy of the layer
  /// that set the deny or a later one (or any non-built-in layer), never by
  /// the catalog's tool policies or the built-in profiles merged before it.
  Verdict default_verdict = Verdict::Ask;
  SourceLocation default_source{"<builtin>", 0, 0};
  PolicyLayer default_layer = PolicyLayer::Builtin;
  /// Built-in rules before this index were merged before the last `default:
  /// deny`: under that default their allow findings grant nothing.
  size_t rules_before_deny_default = 0;
  std::vector<PolicyWarning> warnings;
  std::vector<std::string> trusted_projects;  ///< workspaces the user lets loosen its policy
  /// Where each tool entry that policy files or code added or changed was defined.
  std::map<std::string, ToolOrigin, std::less<>> tool_origins;
  PathSettings paths;
  ArgumentLimits limits;
  /// Check each call's arguments against its tool's input_schema (deny on a violation).
  bool validate_input_schemas = true;
  /// C++ checks of arguments (validateArgs), run in order after the rules.
  std::vector<ArgumentValidatorEntry> argument_validators;
  /// Rate limits from every layer (each can only tighten).
  std::vector<RateLimit> rate_limits;
  /// The LLM validator for escalated calls (the `llm:` section), before the
  /// TOOLGUARD_LLM_* variables are applied (applyLlmEnvironment).
  LlmSettings llm;
  /// The `sandbox:` sections: the places they add to defaultSandboxSettings()
  /// and the network and fallback as merged (sandboxSettingsOf).
  SandboxSettings sandbox;
  /// The layer that last set the sandbox's network or fallback: a looser
  /// value from a layer that may not loosen it is ignored.
  PolicyLayer sandbox_layer = PolicyLayer::Builtin;
  /// What allow rules' own `sandbox:` adds for the calls they allow, by
  /// rule id (sandboxSettingsFor).
  std::map<std::string, RuleSandboxGrant> rule_sandbox_grants;
  /// The `labels:` sections of every layer, in order.
  std::vector<LabelRule> label_rules;
  SessionSettings sessions;
};

/// What `toolguard sandbox` confines a command with under `policy`: the
/// built-in defaults with what its `sandbox:` sections add.
SandboxSettings sandboxSettingsOf(const Policy& policy);

/// The confinement of a call the rule `rule_id` allowed: sandboxSettingsOf
/// with what the rule's own `sandbox:` adds (its writable places, and its
/// hosts, which open the network through the proxy when it was none or
/// loopback). nullopt when the policy has no rule `rule_id`.
std::optional<SandboxSettings> sandboxSettingsFor(const Policy& policy, const std::string& rule_id);

/// Runs every rule's examples against the rule itself and returns one
/// diagnostic per failing example (empty when all pass). `include_builtin`
/// false skips the rules of the built-in layer (the embedded profiles, whose
/// examples the test suite checks), which keeps a hook process fast.
std::vector<PolicyDiagnostic> checkRuleExamples(const Policy& policy, bool include_builtin = true);

/// Lint warnings about a merged policy: rules that can never match, allow rules
/// shadowed by a deny, and exact tool names that no catalog knows.
std::vector<PolicyWarning> lintPolicy(const Policy& policy);

}  // namespace toolguard
