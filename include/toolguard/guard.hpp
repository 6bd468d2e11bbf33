#pragma once
// The Guard: the engine's decision plus everything after it. Rate limits,
// remembered approvals (session cache, store), asking a person, and the
// audit log.

#include <chrono>
#include <memory>

#include "toolguard/approval.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/call_validator.hpp"
#include "toolguard/cancellation.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/llm_validator.hpp"
#include "toolguard/rate_limit_store.hpp"
#include "toolguard/rate_limiter.hpp"
#include "toolguard/session_approvals.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard {

/// How a Guard settles asks and records decisions. Every member is optional.
struct GuardOptions {
  /// Who is asked when a call needs approval and nothing remembered covers
  /// it. nullptr: nobody, so ask becomes deny (unless report_ask).
  std::shared_ptr<ApprovalHandler> approval_handler;
  /// How long the handler has to answer; past it the call is denied. 0: no limit.
  std::chrono::milliseconds approval_timeout{std::chrono::minutes(5)};
  /// Remembered approvals for the project, agent and global scopes (and the
  /// session scope when store_session_approvals): an ApprovalStore, or a
  /// service's database. nullptr: none.
  std::shared_ptr<ApprovalRepository> store;
  /// Where every decision is written: an AuditLog, or a service's database.
  /// nullptr: no audit. A failed write turns the decision into deny (fail closed).
  std::shared_ptr<AuditSink> audit_log;
  /// With no handler, report ask as ask instead of denying: for hooks, whose
  /// agent asks its own user.
  bool report_ask = false;
  /// Keep "always allow for this session" in the store's session file
  /// instead of memory: for processes that live for one call (hooks).
  bool store_session_approvals = false;
  /// Where the policy's rate-limit windows are counted: nullptr counts them
  /// in this Guard's memory; a store (fileRateLimitStore) shares them with
  /// every process using it, for processes that live for one call (hooks).
  /// Consulted only for calls a limit with max_calls applies to.
  std::shared_ptr<RateLimitStore> rate_limit_store;
  /// The program's own check, consulted after the policy and before an
  /// ask is settled, for calls the policy did not deny. It can deny or
  /// abort, never loosen. Empty: none.
  CallValidator validator;
  /// How long the validator has to answer; past it the call is denied. 0: no limit.
  std::chrono::milliseconds validator_timeout{std::chrono::seconds(30)};
  /// Judges the calls the policy escalated (and nothing stricter decided):
  /// its ALLOW allows, its DENY denies, and its ASK or any failure leaves the
  /// call to the approval flow. nullptr: escalate is ask.
  std::shared_ptr<const LlmValidator> llm_validator;
  /// Where what each session saw is remembered (a SessionStore for
  /// processes that live for one call, memorySessionRepository for one that
  /// lives as long as its sessions). A call naming a session
  /// (CallContext::session) is then judged with what its session saw before
  /// (rules with `after:`, the rule of two), and once it may run it is
  /// remembered with its labels. nullptr: every call is judged alone.
  std::shared_ptr<SessionRepository> sessions;
};

/// Judges calls like Engine::decide, then:
///  0. the LLM validator (if any) settles an escalated call: allow, deny, or
///     leave it to the steps below as ask;
///  1. the validation callback (if any) may deny or abort what the policy
///     did not;
///  2. a rate limit that is full denies, saying when to retry;
///  3. an ask covered by a session approval or a store entry is allowed;
///  4. a headless call, or one with no handler, is denied (or reported as
///     ask with report_ask);
///  5. otherwise the handler is asked; allow once allows, always allow
///     also remembers the chosen binding in the chosen scope, deny denies
///     with the person's reason for the model, no answer in time denies;
///  6. with session memory, a call that may run is remembered with its
///     labels (a memory that cannot be written denies it).
/// Approvals never override a deny or an abort. Every decision gets an id
/// and goes to the audit log. Thread-safe.
class Guard {
 public:
  explicit Guard(Engine engine, GuardOptions options = {});

  /// Judges and settles one call. Never throws.
  Decision decide(const ToolCall& call);

  /// Like decide(); an allowed call also holds its place in the
  /// concurrency limits (max_concurrent) until `running` is released or
  /// destroyed. Run the tool while it lives.
  Decision decide(const ToolCall& call, RateLimitTicket& running);

  /// Like decide(call, running); `cancellation` reaches the validator.
  Decision decide(const ToolCall& call, RateLimitTicket& running,
                  const CancellationToken& cancellation);

  /// The engine's assessment of a call, for a caller that looks at the
  /// policy's verdict before settling it (the MCP proxy settles an ask on a
  /// thread of its own). Pass it to settle() unchanged.
  Assessment assess(const ToolCall& call) const;

  /// Settles what assess() returned for `call`: the LLM validator, the
  /// validation callback, rate limits, approval and the audit log, as
  /// decide() does after the engine. Never throws.
  Decision settle(const ToolCall& call, Assessment assessment);

  /// Like settle(call, assessment), holding the call's place in the limits
  /// as decide(call, running, cancellation) does.
  Decision settle(const ToolCall& call, Assessment assessment, RateLimitTicket& running,
                  const CancellationToken& cancellation);

  /// A guard with the same options, session approvals and rate-limit counts
  /// that judges with `engine` (after tools were registered). The engine's
  /// policy must have the same rate limits as this guard's.
  Guard withEngine(Engine engine) const;

  /// A guard with the same engine, session approvals and rate-limit counts
  /// that settles asks with `options` (another approval handler, say). The
  /// options' rate-limit store must be this guard's.
  Guard withOptions(GuardOptions options) const;

  /// The in-memory "always allow for this session" approvals.
  SessionApprovals& sessionApprovals() { return *session_; }

  const Engine& engine() const { return engine_; }
  const GuardOptions& options() const { return options_; }

 private:
  Engine engine_;
  GuardOptions options_;
  std::shared_ptr<SessionApprovals> session_;
  std::shared_ptr<RateLimiter> limiter_;
};

}  // namespace toolguard
