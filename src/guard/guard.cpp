// The Guard: engine decision, rate limits, approvals, audit.
#include "toolguard/guard.hpp"

#include <exception>

#include "approval/approval_settling.hpp"
#include "llm_step.hpp"
#include "overrule.hpp"
#include "validator_step.hpp"

namespace toolguard {
namespace {

void refuseForRateLimit(Decision& d, const RateLimitAdmission& admission) {
  SourceLocation where = admission.limit ? admission.limit->source : d.source;
  detail::overrule(d, Verdict::Deny, DecisionBasis::RateLimit, std::move(where), admission.reason,
                   "Blocked by toolguard: " + admission.reason + ".");
  d.policy_verdict = Verdict::Deny;
}

void failClosed(Decision& d, const std::string& why) {
  if (d.verdict == Verdict::Abort) return;
  d.verdict = Verdict::Deny;
  d.reason = why;
  d.model_reason = "Blocked by toolguard: " + why;
  if (!d.resolution.empty()) d.resolution += "; ";
  d.resolution += "denied: " + why;
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
  Decision d = engine_.decide(call);
  try {
    d.id = detail::newDecisionId();
    if (options_.llm_validator && d.policy_verdict == Verdict::Escalate &&
        detail::needsApproval(d)) {
      detail::consultLlmValidator(*options_.llm_validator, engine_, call, cancellation, d);
    }
    if (options_.validator) {
      detail::consultValidator(options_, engine_.toolInfo(call.tool), call, cancellation, d);
    }
    RateLimitTicket ticket;
    bool limited = false;
    // A headless ask (already deny) may still be allowed by a remembered
    // approval: it counts against the limits too.
    if ((!isFinal(d.verdict) || detail::needsApproval(d)) && !limiter_->empty()) {
      RateLimitAdmission admission = limiter_->admit(call, engine_.toolInfo(call.tool));
      if (admission.admitted) {
        ticket = std::move(admission.ticket);
      } else {
        refuseForRateLimit(d, admission);
        limited = true;
      }
    }
    if (!limited && detail::needsApproval(d)) {
      // The place is taken before settling, so a call over a limit is denied
      // without asking anyone. But a person may take minutes to answer, and
      // meanwhile the call neither runs nor should keep other calls out
      // (max_concurrent) or use up a window: it gives its place back while
      // the handler is asked, and takes one again only once allowed. If the
      // limits filled up meanwhile, the approved call is denied for the rate
      // limit (an "always allow" answer is still remembered).
      bool asked = false;
      detail::ApprovalSettler settler{engine_, options_, *session_, [&] {
                                        ticket.cancel();
                                        ticket = RateLimitTicket();
                                        asked = true;
                                      }};
      settler.settle(call, d);
      if (asked && d.verdict == Verdict::Allow && !limiter_->empty()) {
        RateLimitAdmission admission = limiter_->admit(call, engine_.toolInfo(call.tool));
        if (admission.admitted) {
          ticket = std::move(admission.ticket);
        } else {
          refuseForRateLimit(d, admission);
        }
      }
    }
    if (d.verdict == Verdict::Allow) {
      running = std::move(ticket);
    } else {
      ticket.cancel();  // the call does not run: it takes no place in the limits
    }
  } catch (const std::exception& e) {
    failClosed(d, std::string("internal error while settling approval: ") + e.what());
  } catch (...) {
    failClosed(d, "internal error while settling approval");
  }
  if (options_.audit_log) {
    try {
      options_.audit_log->write(call, d);
    } catch (const std::exception& e) {
      failClosed(d, std::string("the audit log could not be written: ") + e.what());
      running.cancel();
    } catch (...) {
      failClosed(d, "the audit log could not be written");
      running.cancel();
    }
  }
  return d;
}

}  // namespace toolguard
