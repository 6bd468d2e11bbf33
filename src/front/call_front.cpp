// The front: bytes in, an audited decision out, for every surface.
#include "front/call_front.hpp"

#include <chrono>
#include <exception>
#include <stdexcept>

#include "audit/audit_detail.hpp"
#include "core/model_text.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::front {
namespace {

// How much of a malformed input the front keeps for its audit record: the
// recorded bytes and the text past them that redaction reads ahead.
constexpr size_t kKeptInputBytes = kMaxRecordedInputBytes + (size_t{16} << 10);

// Writes the record `make` gives; the problem, or "" when it was written (or
// there is no log).
template <typename MakeRecord>
std::string writeAudit(const GuardSource& guards, MakeRecord make) noexcept {
  if (!guards.audit_log) return "";
  try {
    guards.audit_log->writeRecord(make());
    return "";
  } catch (...) {
    return detail::auditFailureText(std::current_exception());
  }
}

// A deny for a call no Guard judged: the person reads why, the model only
// that it was blocked and the kind of failure.
FrontDecision notJudged(ToolCall call, std::string why, std::string model_reason,
                        SourceLocation where, const GuardSource& guards) {
  FrontDecision out;
  out.outcome = FrontDecision::Outcome::NotJudged;
  Decision& d = out.decision;
  d = inputErrorDecision("");
  d.reason = why;
  d.model_reason = std::move(model_reason);
  d.source = std::move(where);
  out.audit_problem =
      writeAudit(guards, [&] { return auditRecord(call, d, std::chrono::system_clock::now()); });
  if (!out.audit_problem.empty()) d.reason += "; " + out.audit_problem;
  out.error = std::move(why);
  out.call = std::move(call);
  return out;
}

FrontDecision decideCall(ToolCall call, const GuardSource& guards) {
  if (!guards.unavailable.empty()) {
    return notJudged(std::move(call), guards.unavailable, detail::blockedText(guards.unavailable),
                     SourceLocation{}, guards);
  }
  try {
    const std::shared_ptr<Guard> guard = guards.guard_for(call);
    if (!guard) throw std::logic_error("no guard");
    FrontDecision out;
    out.outcome = FrontDecision::Outcome::Decided;
    if (guards.decides_here) {
      // Assessing is the engine's alone (no session to read, by the first
      // question); what settling would wait for is seen in its verdict.
      std::optional<Assessment> assessed;
      if (guards.decides_here(*guard, call, nullptr)) assessed = guard->assess(call);
      if (!assessed || !guards.decides_here(*guard, call, &assessed->decision)) {
        out.outcome = FrontDecision::Outcome::Deferred;
        out.call = std::move(call);
        return out;
      }
      out.decision = guard->settle(call, std::move(*assessed));
    } else {
      out.decision = guard->decide(call);
    }
    out.call = std::move(call);
    return out;
  } catch (const PolicyError& e) {
    return notJudged(std::move(call), std::string("the policy could not be loaded: ") + e.what(),
                     detail::blockedText("its policy could not be loaded"),
                     e.errors().empty() ? SourceLocation{} : e.errors()[0].where, guards);
  } catch (const std::exception& e) {
    return notJudged(std::move(call), std::string("the call could not be judged: ") + e.what(),
                     detail::blockedText("the call could not be judged"), SourceLocation{}, guards);
  }
}

// The last resort of a front that must not throw: a deny, unaudited.
FrontDecision internalError(const char* what) noexcept {
  FrontDecision out;
  out.outcome = FrontDecision::Outcome::NotJudged;
  try {
    out.error = std::string("internal error: ") + what;
    out.decision = inputErrorDecision(out.error);
  } catch (...) {
    out.decision.verdict = out.decision.policy_verdict = Verdict::Deny;  // nothing allocates
  }
  return out;
}

}  // namespace

FrontDecision refuseInput(MalformedCall input, const GuardSource& guards) noexcept {
  try {
    FrontDecision out;
    out.outcome = FrontDecision::Outcome::Malformed;
    out.decision = inputErrorDecision(input.error);
    out.audit_problem = writeAudit(guards, [&] {
      return malformedCallRecord(input, out.decision, std::chrono::system_clock::now());
    });
    if (!out.audit_problem.empty()) {
      input.error += "; " + out.audit_problem;
      out.decision = inputErrorDecision(input.error);
    }
    out.error = std::move(input.error);
    return out;
  } catch (const std::exception& e) {
    return internalError(e.what());
  } catch (...) {
    return internalError("unknown");
  }
}

FrontDecision decideInput(const std::string& text, const InputOptions& options,
                          const GuardSource& guards) noexcept {
  try {
    ParsedCall parsed = parseCallText(text, options.format, options.default_cwd);
    if (!parsed.call) {
      FrontDecision out =
          refuseInput(MalformedCall{text.substr(0, kKeptInputBytes), text.size() > kKeptInputBytes,
                                    text.size(), parsed.error, options.format_name},
                      guards);
      out.not_json = parsed.not_json;
      return out;
    }
    if (options.adjust) options.adjust(*parsed.call);
    return decideCall(std::move(*parsed.call), guards);
  } catch (const std::exception& e) {
    return internalError(e.what());
  } catch (...) {
    return internalError("unknown");
  }
}

}  // namespace toolguard::front
