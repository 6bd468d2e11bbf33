// The Guard: engine decision, rate limits, approvals, audit.
#include "toolguard/guard.hpp"

#include <exception>
#include <stdexcept>

#include "approval/approval_settling.hpp"
#include "audit/audit_detail.hpp"
#include "core/model_text.hpp"
#include "llm_step.hpp"
#include "overrule.hpp"
#include "session_step.hpp"
#include "validator_step.hpp"

namespace toolguard {
namespace {

void refuseForRateLimit(Decision& d, const RateLimitAdmission& admission) {
  SourceLocation where = admission.limit ? admission.limit->source : d.source;
  detail::overrule(d, Verdict::Deny, DecisionBasis::RateLimit, std::move(where), admission.reason,
                   detail::blockedText(admission.reason) + ".");
  d.policy_verdict = Verdict::Deny;
}

}  // namespace

Guard::Guard(Engine engine, GuardOptions options)
    : engine_(std::move(engine)),
      options_(std::move(options)),
      session_(std::make_shared<SessionApprovals>()),
      limiter_(
          std::make_shared<RateLimiter>(engine_.policy().rate_limits, options_.rate_limit_store)) {}

Decision Guard::decide(const ToolCall& call) {
  RateLimitTicket ticket;
  return decide(call, ticket);
}

Guard Guard::withEngine(Engine engine) const {
  Guard next = *this;
  next.engine_ = std::move(engine);
  return next;
}

Guard Guard::withOptions(GuardOptions options) const {
  Guard next = *this;
  next.options_ = std::move(options);
  return next;
}

Decision Guard::decide(const ToolCall& call, RateLimitTicket& running) {
  return decide(call, running, CancellationToken{});
}

Decision Guard::decide(const ToolCall& call, RateLimitTicket& running,
                       const CancellationToken& cancellation) {
  return settle(call, assess(call), running, cancellation);
}

Assessment Guard::assess(const ToolCall& call) const {
  const std::string key = options_.sessions ? sessionKeyOf(call) : "";
  if (key.empty()) return engine_.assess(call);
  // Judged with what its session saw before it.
  ToolCall in_session = call;
  in_session.context.session_state = detail::loadSession(*options_.sessions, key);
  if (!in_session.context.session_state) {
    Assessment refused = engine_.assess(call);
    refused.decision.verdict = refused.decision.policy_verdict = Verdict::Deny;
    refused.decision.reason = "the session's memory could not be read";
    refused.decision.basis = DecisionBasis::Error;
    return refused;
  }
  return engine_.assess(in_session);
}

Decision Guard::settle(const ToolCall& call, Assessment assessment) {
  RateLimitTicket ticket;
  return settle(call, std::move(assessment), ticket, CancellationToken{});
}

// The one path after the policy: escalate, the validator, rate limits, an
// ask, then the audit log, each once and in that order.
Decision Guard::settle(const ToolCall& call, Assessment assessment, RateLimitTicket& running,
                       const CancellationToken& cancellation) {
  Decision d = std::move(assessment.decision);
  const CallView* view = assessment.subject ? &assessment.subject->view() : nullptr;
  try {
    d.id = detail::newDecisionId();
    if (d.verdict == Verdict::Escalate) {
      if (options_.llm_validator && view) {
        detail::consultLlmValidator(*options_.llm_validator, *view, cancellation, d);
      } else {
        d.verdict = Verdict::Ask;
        d.resolution = "escalate becomes ask: no LLM validator is configured";
      }
    }
    if (options_.validator) {
      detail::consultValidator(options_, engine_.toolInfo(call.tool), call, cancellation, d);
    }
    RateLimitTicket ticket;
    bool limited = false;
    if (!isFinal(d.verdict) && !limiter_->empty()) {
      RateLimitAdmission admission = limiter_->admit(call, engine_.toolInfo(call.tool));
      if (admission.admitted) {
        ticket = std::move(admission.ticket);
      } else {
        refuseForRateLimit(d, admission);
        limited = true;
      }
    }
    if (!limited && d.verdict == Verdict::Ask) {
      if (!assessment.subject) throw std::logic_error("an ask without the call it is about");
      // The place is taken before settling, so a call over a limit is denied
      // without asking anyone. But a person may take minutes to answer, and
      // meanwhile the call neither runs nor should keep other calls out
      // (max_concurrent) or use up a window: it gives its place back while
      // the handler is asked, and takes one again only once allowed. If the
      // limits filled up meanwhile, the approved call is denied for the rate
      // limit (an "always allow" answer is still remembered).
      bool asked = false;
      detail::ApprovalSettler settler{options_, *session_, [&] {
                                        ticket.cancel();
                                        ticket = RateLimitTicket();
                                        asked = true;
                                      }};
      settler.settle(assessment.subject, d);
      if (asked && d.verdict == Verdict::Allow && !limiter_->empty()) {
        RateLimitAdmission admission = limiter_->admit(call, engine_.toolInfo(call.tool));
        if (admission.admitted) {
          ticket = std::move(admission.ticket);
        } else {
          refuseForRateLimit(d, admission);
        }
      }
    }
    // A call that may run is remembered by its session (an ask reported to
    // the agent runs if its user says yes).
    const bool may_run =
        d.verdict == Verdict::Allow || (d.verdict == Verdict::Ask && options_.report_ask);
    const SessionState* before =
        assessment.subject ? assessment.subject->call().context.session_state.get() : nullptr;
    if (may_run && options_.sessions && before != nullptr) {
      try {
        detail::rememberCall(*options_.sessions, sessionKeyOf(call), call, d, *before);
      } catch (const std::exception& e) {
        // Later calls would not know this one ran: it does not run.
        detail::denyAfterFailure(
            d, std::string("the session's memory could not be written: ") + e.what());
      }
    }
    if (d.verdict == Verdict::Allow) {
      running = std::move(ticket);
    } else {
      ticket.cancel();  // the call does not run: it takes no place in the limits
    }
  } catch (const std::exception& e) {
    detail::denyAfterFailure(d, std::string("internal error while settling approval: ") + e.what());
  } catch (...) {
    detail::denyAfterFailure(d, "internal error while settling approval");
  }
  if (options_.audit_log) {
    try {
      options_.audit_log->write(call, d);
    } catch (...) {
      detail::denyAfterFailure(d, detail::auditFailureText(std::current_exception()));
      running.cancel();
    }
  }
  return d;
}

}  // namespace toolguard
