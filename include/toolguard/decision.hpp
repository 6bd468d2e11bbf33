#pragma once
// The result of judging one call.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/llm_review.hpp"
#include "toolguard/rule.hpp"
#include "toolguard/source_location.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard {

/// What one consulted rule said, for tracing and `explain`.
struct RuleTrace {
  std::shared_ptr<const Rule> rule;  ///< id, source, layer and describe() of the rule
  std::optional<Finding> finding;    ///< nullopt: the rule abstained
  /// For rules that judge shell commands: which command (index in the
  /// program) this finding is about; nullopt for the whole call.
  std::optional<size_t> command_index;
};

/// What decided a call.
enum class DecisionBasis {
  Rule,          ///< a rule's finding
  ToolPolicy,    ///< no finding; the tool's own policy
  Default,       ///< no finding, no tool policy; the default verdict
  Arguments,     ///< the arguments failed the tool's input schema or a validateArgs hook
  RateLimit,     ///< a rate limit of the policy refused the call (Guard only)
  Validator,     ///< the validation callback denied or aborted the call (Guard only)
  LlmValidator,  ///< the LLM validator allowed or denied an escalated call (Guard only)
  Error          ///< the call could not be judged (fail closed)
};

/// The lowercase name of a basis ("rule", "tool-policy", "default", "arguments",
/// "rate-limit", "validator", "llm-validator", "error").
std::string_view toString(DecisionBasis basis);

/// How an ask was settled after the policy: by a remembered approval, by a
/// person (through a handler), or by nobody (fail closed).
struct ApprovalResolution {
  /// Who settled it: "session-cache", "store", the handler's name
  /// ("terminal", "callback", "async-callback", "auto-deny"), "no-handler",
  /// "headless", "timeout", "handler-error", or "unresolved" (reported as ask).
  std::string by;
  /// "allow-once", "always-allow", "deny", or "" when nobody answered.
  std::string outcome;
  std::string binding;   ///< "exact", "pattern" or "tool" for always-allow and remembered approvals
  std::string value;     ///< the approval key or pattern the approval is bound to
  std::string scope;     ///< "session", "project", "agent" or "global"
  std::string scope_id;  ///< the session id, project root or agent id
  std::string file;      ///< the store file the approval came from or went to
  std::string reason;    ///< the person's reason for a deny, or why nobody could answer
  /// Who answered, when the handler knows them (the approver's name on
  /// `toolguard serve`'s web queue); empty otherwise.
  std::string person = {};
};

/// The final judgement of one call.
struct Decision {
  Verdict verdict = Verdict::Deny;         ///< final: never escalate
  Verdict policy_verdict = Verdict::Deny;  ///< what the policy said before resolution
  std::string reason;                      ///< for the person
  std::string model_reason;                ///< for the model (names the guard and the rule)
  std::string rule_id;                     ///< deciding rule ("" unless basis is Rule)
  SourceLocation source;                   ///< where the deciding rule or setting is defined
  DecisionBasis basis = DecisionBasis::Error;
  std::vector<RuleTrace> consulted;  ///< every rule consulted, in consultation order
  std::string resolution;            ///< how policy_verdict became verdict, if it changed
  std::string approval_key;          ///< tool + canonical arguments an approval binds to
  std::string decided_on;  ///< the simple command that decided a shell call ("" otherwise)
  /// The arguments after the validateArgs hooks changed them: what an
  /// approval prompt shows and what the tool must be run with. nullopt when
  /// they are unchanged.
  std::optional<nlohmann::json> sanitized_args;
  /// How an ask was settled (Guard only; Engine::decide leaves it empty).
  std::optional<ApprovalResolution> approval;
  std::string id;  ///< unique id of this decision (Guard only; written to the audit log)
  /// What the validation callback attached to its deny or abort (null otherwise).
  nlohmann::json extra;
  /// What the LLM validator said, when it was consulted about an escalated
  /// call (Guard only): verdict, reason, and the requests and replies.
  std::shared_ptr<const LlmReview> llm;
  /// The labels the policy's `labels:` give this call (untrusted, sensitive,
  /// outward, ...): what its session remembers of it once it runs. Worked
  /// out only for a call whose session is known (CallContext::session_state).
  std::vector<std::string> labels;
};

/// True for a rule whose finding rests on what the call's session did before
/// (the rule of two, a rule with `after:`): an approval or another agent's
/// permission must not stand in for it beyond this one call.
bool ruleLooksBack(const Rule& rule);

/// True when a rule that looks back (ruleLooksBack) had a finding stricter
/// than allow for the decision: its ask rests on the session, so nothing
/// that has not seen the session (Claude Code's own permissions, the MCP
/// proxy's connection) may answer it.
bool restsOnSession(const Decision& decision);

}  // namespace toolguard
