#pragma once
// The filter pipeline around a tool's callback: invocation filters wrap the
// call (logging, rate limiting, caching), result filters rewrite what the
// tool returned before the model sees it (redaction, size caps).

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "toolguard/audit_log.hpp"
#include "toolguard/cancellation.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/session_state.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"
#include "toolguard/tool_outcome.hpp"

namespace toolguard {

/// One allowed call on its way to the tool. `call.args` are the arguments
/// the tool runs with (after validateArgs sanitized them).
struct ToolInvocation {
  const ToolCall& call;
  const ToolInfo& tool;
  const Decision& decision;  ///< the guard's decision (verdict allow)
  CancellationToken cancellation;
};

/// The rest of the pipeline, as seen from an invocation filter.
using InvocationNext = std::function<ToolOutcome(const ToolInvocation&)>;

/// Wraps the call of a tool: runs code before and after `next`, or answers
/// without calling it (a cache hit, a refusal). Filters run in the order
/// they were added, the first one outermost. A filter must pass on the
/// invocation it was given: `next` with any other call (changed
/// arguments) is an error outcome, since the guard judged that call only.
/// An exception thrown by a filter becomes an error outcome.
/// Implementations must be thread-safe.
class InvocationFilter {
 public:
  virtual ~InvocationFilter() = default;
  /// A short name for logs and errors ("logging", "rate-limit", ...).
  virtual std::string name() const = 0;
  virtual ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) = 0;
};

/// Rewrites an outcome right after the tool returned, in the order the
/// filters were added; results served from a cache were filtered before
/// they were stored. Sees Result and Error outcomes. Implementations must
/// be thread-safe; an exception thrown by one becomes an error outcome.
class ResultFilter {
 public:
  virtual ~ResultFilter() = default;
  virtual std::string name() const = 0;
  virtual void filter(const ToolInvocation& invocation, ToolOutcome& outcome) = 0;
};

/// One finished invocation, as the logging filter reports it.
struct InvocationRecord {
  std::string tool;
  std::string decision_id;
  OutcomeKind kind = OutcomeKind::Error;
  std::string reason;  ///< for Denied/Aborted/Error
  bool cached = false;
  std::chrono::microseconds duration{0};  ///< time spent inside the filter chain below
  nlohmann::json toJson() const;
};

/// Reports every invocation to `sink` when it ends (the sink must be thread-safe).
std::shared_ptr<InvocationFilter> loggingFilter(std::function<void(const InvocationRecord&)> sink);

/// Limits how often tools run, independently of the policy's own rate
/// limits: a call over a limit is denied with a reason that says when to
/// retry. The limits hold for the filter's lifetime.
std::shared_ptr<InvocationFilter> rateLimitFilter(std::vector<RateLimit> limits);

/// What the result cache keeps.
struct ResultCacheOptions {
  std::chrono::milliseconds ttl{std::chrono::minutes(5)};  ///< how long a result stays
  size_t max_entries = 1024;  ///< the least recently used entry goes first
};

/// Serves repeated calls of tools marked both idempotent and read-only from
/// a cache keyed by tool, canonical arguments, working directory, agent,
/// session and role. Only results are cached, never denials or errors;
/// other tools pass through. Cached results have passed the result filters
/// that existed when they were stored: add result filters before calls run.
std::shared_ptr<InvocationFilter> resultCacheFilter(ResultCacheOptions options = {});

/// Replaces credentials in tool output with "[REDACTED]" before the model
/// sees them: values of keys that name a credential and every match of the
/// built-in secret formats (see redactSecrets), in results and error texts.
std::shared_ptr<ResultFilter> secretRedactionFilter();

/// Judges each result as the hooks and the MCP proxy do (scanToolResult):
/// credentials in it become "[REDACTED]", text in it that addresses an AI
/// agent is flagged, and the model is told both beside the result
/// (resultWarningForModel): a string result gets the warning after it, an
/// MCP-shaped one ({"content": [...]}) a text block, another object the key
/// "toolguard_warning", and an array becomes its JSON text followed by the
/// warning; an error's reason is judged as text the same way. Results with
/// nothing to report pass unchanged. Add it before secretRedactionFilter
/// (which would hide what it reports) and before outputCapFilter (which
/// could cut its warning off). When `sessions` is given, the call's session
/// remembers the findings (labels sensitive, untrusted: the rule of two
/// reads them); when `audit` is given, it records them (resultAuditRecord).
/// A memory or an audit that cannot be written makes the outcome an error
/// (the model gets no result the guard could not account for).
std::shared_ptr<ResultFilter> resultJudgementFilter(
    std::shared_ptr<SessionRepository> sessions = nullptr,
    std::shared_ptr<AuditSink> audit = nullptr);

/// Caps a result at `max_bytes` (as text: a string result as is, anything
/// else as compact JSON). A longer result becomes its first bytes (cut on a
/// UTF-8 boundary) followed by a marker saying how much was left out.
std::shared_ptr<ResultFilter> outputCapFilter(size_t max_bytes);

/// The marker outputCapFilter appends, e.g.
/// "\n[toolguard: output truncated: 1000 of 52311 bytes shown]".
std::string truncationMarker(size_t shown, size_t total);

}  // namespace toolguard
