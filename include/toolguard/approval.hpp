#pragma once
// Approvals: what a person can answer when a call needs approval, what an
// "always allow" is bound to, and the handlers that ask.

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/decision.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {

class ViewedCall;  // toolguard/engine.hpp

/// Where and for how long an "always allow" holds.
enum class ApprovalScope {
  Session,  ///< this session (the call's session id)
  Project,  ///< this project (the call's first workspace root, else its cwd)
  Agent,    ///< this agent (the call's agent id)
  Global    ///< everywhere
};

/// The lowercase name of a scope ("session", "project", "agent", "global").
std::string_view toString(ApprovalScope scope);

/// Parses a scope name; "everywhere" is accepted for "global". nullopt if unknown.
std::optional<ApprovalScope> parseApprovalScope(std::string_view name);

/// What an "always allow" is bound to.
enum class ApprovalBinding {
  ExactCall,  ///< this exact call: tool plus canonical arguments (the approval key)
  Pattern,    ///< a command pattern (`npm run test *`) or a path glob (`/work/src/**`)
  Tool        ///< every call of the tool
};

/// The lowercase name of a binding ("exact", "pattern", "tool").
std::string_view toString(ApprovalBinding binding);

/// Parses a binding name. nullopt if unknown.
std::optional<ApprovalBinding> parseApprovalBinding(std::string_view name);

/// One remembered "always allow".
struct ApprovalEntry {
  std::string tool;  ///< the tool's exact name
  ApprovalBinding binding = ApprovalBinding::ExactCall;
  std::string value;  ///< ExactCall: the approval key; Pattern: the pattern; Tool: ""
  ApprovalScope scope = ApprovalScope::Session;
  std::string scope_id;  ///< session id, project root or agent id; "" for Global
  /// When it was added, RFC 3339 UTC ("2026-11-23T10:00:00Z"); ApprovalStore::add
  /// fills it in when it is empty.
  std::string created;
  std::string note;  ///< how it was added ("terminal prompt", "approvals add", "import FILE")
  /// Pattern and Tool entries: the rule whose ask this answers. Empty: the
  /// entry answers only asks that come from the tool's policy or the default,
  /// never a rule's (so approving a tool does not approve writing its .env).
  /// "*": every ask, whatever made it.
  std::string rule;

  /// What the entry is bound to, for people: `Bash: commands matching "npm run test *"`.
  std::string describe() const;

  /// True when both entries grant the same thing (tool, binding, value, scope,
  /// scope id, rule); created and note do not count.
  bool sameGrant(const ApprovalEntry& other) const;
};

/// The scope id a call has for a scope: its session id, its project root
/// (first workspace root, else cwd, normalized), its agent id, or "" for
/// Global. nullopt when the call has none (no session or agent id, no cwd).
std::optional<std::string> scopeIdOf(ApprovalScope scope, const CallContext& context);

/// One "always allow" binding the person may choose.
struct ApprovalOption {
  ApprovalBinding binding = ApprovalBinding::ExactCall;
  std::string value;        ///< as in ApprovalEntry::value
  std::string description;  ///< for the prompt: "this exact call", `commands matching "git push *"`
};

/// What a person is asked about.
struct ApprovalRequest {
  ToolCall call;      ///< the call as it would run (sanitized arguments when a hook changed them)
  Decision decision;  ///< the policy's decision: verdict ask, its reason and rule
  /// What the tool is, as the policy knows it (category, side effect, risk),
  /// so the person sees how much is at stake beside the call and the reason.
  ToolMetadata tool;
  std::vector<ApprovalOption> options;   ///< bindings offered for "always allow" (never empty)
  std::vector<ApprovalScope> scopes;     ///< scopes offered for "always allow" (never empty)
  std::chrono::milliseconds timeout{0};  ///< how long the person has; 0 means no limit
  /// The call as the policy judged it, viewed once (its parsed command, its
  /// resolved paths), for a handler that shows or keeps more than `call`.
  /// Set by the Guard; may be null in a request made elsewhere.
  std::shared_ptr<const ViewedCall> subject = nullptr;
};

/// What the person answered.
enum class ApprovalOutcome { AllowOnce, AlwaysAllow, Deny };

/// The lowercase name of an outcome ("allow-once", "always-allow", "deny").
std::string_view toString(ApprovalOutcome outcome);

/// A person's answer to an ApprovalRequest.
struct ApprovalAnswer {
  ApprovalOutcome outcome = ApprovalOutcome::Deny;
  size_t option = 0;  ///< AlwaysAllow: index into ApprovalRequest::options
  ApprovalScope scope = ApprovalScope::Session;  ///< AlwaysAllow: one of ApprovalRequest::scopes
  std::string reason;                            ///< Deny: optional reason, passed to the model
  /// Deny: false when no person answered (the prompt timed out, the
  /// terminal closed or was missing) and `reason` says why. Then the model
  /// reads only `reason` up to its first " (" or ": " (what happened, e.g.
  /// "no terminal to ask on"); the rest (a device's error, a service's
  /// address or answer) is for the person and the audit log.
  bool by_person = true;
  /// Who answered, when the handler knows them (the approver's name on
  /// `toolguard serve`'s web queue); recorded in ApprovalResolution::person.
  std::string person = {};
};

/// Asks someone to approve a call. Implementations must answer (or let the
/// future throw); the Guard denies when the answer does not come in time.
class ApprovalHandler {
 public:
  virtual ~ApprovalHandler() = default;
  /// The name recorded in ApprovalResolution::by ("terminal", "callback", ...).
  virtual std::string name() const = 0;
  /// Starts asking; the future delivers the answer.
  virtual std::future<ApprovalAnswer> ask(const ApprovalRequest& request) = 0;
};

/// A handler that calls `callback` (on a thread of its own, so the Guard can
/// stop waiting after its timeout; what the callback captures must stay alive
/// until it returns). An exception from the callback denies.
std::shared_ptr<ApprovalHandler> callbackApprovalHandler(
    std::function<ApprovalAnswer(const ApprovalRequest&)> callback);

/// A handler whose callback returns a future (it may answer from any thread).
/// An exception, from the callback or through the future, denies.
std::shared_ptr<ApprovalHandler> asyncApprovalHandler(
    std::function<std::future<ApprovalAnswer>(const ApprovalRequest&)> callback);

/// A handler that denies every request, with `reason` for the model.
std::shared_ptr<ApprovalHandler> autoDenyApprovalHandler(
    std::string reason = "no one is available to approve tool calls");

/// A handler that sends each ask to `toolguard serve` at `url`
/// ("http://HOST:PORT", "unix:/PATH" or "https://...") with an agent token:
/// the ask waits in the service's queue (`GET /v1/asks`, the web page) until
/// a person answers there or the request's timeout passes (no timeout: 300
/// s). The answer comes back to this Guard, which remembers an "always" in
/// its own store. The service unreachable, an error or no answer in time:
/// deny, with the reason.
std::shared_ptr<ApprovalHandler> remoteApprovalHandler(std::string url, std::string token);

/// True when `name` (a command's name) runs code given to it, so a pattern
/// over its arguments would approve anything: shells, interpreters, `eval`,
/// `sudo`, `env`, `xargs`, `exec`, `ssh`, ...
bool runsArbitraryCode(std::string_view command_name);

}  // namespace toolguard
