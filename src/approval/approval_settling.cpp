// Settling an ask: session cache, store, then the person (or nobody).
#include "approval_settling.hpp"

#include <algorithm>

#include "approval_matching.hpp"
#include "core/model_text.hpp"
#include "core/random_bytes.hpp"
#include "store_format.hpp"

namespace toolguard::detail {
namespace {

void allow(Decision& d, ApprovalResolution how, const std::string& note) {
  d.verdict = Verdict::Allow;
  d.model_reason.clear();
  if (!d.resolution.empty()) d.resolution += "; ";
  d.resolution += note;
  d.approval = std::move(how);
}

void deny(Decision& d, ApprovalResolution how, const std::string& reason,
          const std::string& model_reason) {
  d.verdict = Verdict::Deny;
  d.reason = reason;
  d.model_reason = model_reason + " " + std::string(kNoRetry);
  if (!d.resolution.empty()) d.resolution += "; ";
  d.resolution += "denied: " + reason;
  d.approval = std::move(how);
}

// What the model reads when nobody approved an ask: why it needed approval
// (the policy's reason, read before deny() replaces it) and what happened.
std::string unapprovedModelReason(const Decision& d, const std::string& what_happened) {
  std::string who = d.rule_id.empty() ? std::string(toString(d.basis)) : "rule " + d.rule_id;
  return blockedText(d.reason, who) + ". It needs a person's approval and " + what_happened + ".";
}

// What the model reads of why no person answered: the handler's reason up to
// its first " (" or ": ", where the details for the person and the audit log
// begin (the terminal's device error, a service's address and answer).
std::string plainCauseForModel(const std::string& handler_reason) {
  size_t end = std::min(handler_reason.find(" ("), handler_reason.find(": "));
  std::string cause = handler_reason.substr(0, end);
  return cause.empty() ? "no answer" : cause;
}

// Who settled an ask, with no binding (nothing remembered).
ApprovalResolution settledBy(std::string by, std::string outcome, std::string reason) {
  ApprovalResolution how;
  how.by = std::move(by);
  how.outcome = std::move(outcome);
  how.reason = std::move(reason);
  return how;
}

// Who answered, for reasons: "alice through serve" when the handler names the
// person, else the handler ("terminal").
std::string answeredBy(const std::string& by, const ApprovalAnswer& answer) {
  return answer.person.empty() ? by : answer.person + " through " + by;
}

// The handler failed or answered outside what was asked: fail closed.
void handlerFailed(Decision& d, const std::string& why) {
  deny(d, settledBy("handler-error", "", why), "needs approval: " + why,
       blockedText("the approval could not be obtained."));
}

ApprovalResolution remembered(std::string by, const ApprovalEntry& entry, std::string file) {
  return ApprovalResolution{std::move(by),
                            "always-allow",
                            std::string(toString(entry.binding)),
                            entry.value,
                            std::string(toString(entry.scope)),
                            entry.scope_id,
                            std::move(file),
                            "",
                            ""};
}

// Session is offered when it can be remembered: in memory, or in the store
// under the call's session id.
std::vector<ApprovalScope> offeredScopes(const CallContext& context, const GuardOptions& options) {
  std::vector<ApprovalScope> scopes;
  for (ApprovalScope scope : {ApprovalScope::Session, ApprovalScope::Project, ApprovalScope::Agent,
                              ApprovalScope::Global}) {
    bool in_memory = scope == ApprovalScope::Session && !options.store_session_approvals;
    if (in_memory || scopeIdOf(scope, context)) scopes.push_back(scope);
  }
  return scopes;
}

}  // namespace

std::string newDecisionId() {
  return randomHex(16);
}

void ApprovalSettler::settle(const std::shared_ptr<const ViewedCall>& subject, Decision& d) const {
  const CallView& view = subject->view();
  const ToolCall& call = subject->call();  // as it will run

  for (const ApprovalEntry& entry : session.entries(call.context.session)) {
    if (approvalCovers(entry, view, d)) {
      return allow(d, remembered("session-cache", entry, ""),
                   "allowed: approved for this session (" + entry.describe() + ")");
    }
  }
  if (options.store) {
    ApprovalListing listing = options.store->lookup(call.context);
    for (const std::string& error : listing.errors) {
      if (!d.resolution.empty()) d.resolution += "; ";
      d.resolution += "approvals not read from " + error;
    }
    for (const ApprovalEntry& entry : listing.entries) {
      if (approvalCovers(entry, view, d)) {
        return allow(
            d, remembered("store", entry, options.store->locationOf(entry.scope, entry.scope_id)),
            "allowed: remembered approval (" + entry.describe() + ")");
      }
    }
  }
  if (call.context.mode == InteractionMode::Headless) {
    return deny(d, settledBy("headless", "", "the call is headless"),
                "needs approval and the call is headless: " + d.reason,
                unapprovedModelReason(d, "none can be asked (the call is headless)"));
  }
  if (!options.approval_handler) {
    if (options.report_ask) {
      d.approval = settledBy("unresolved", "", "");
      return;
    }
    return deny(d, settledBy("no-handler", "", "no approval handler"),
                "needs approval and no one can be asked: " + d.reason,
                unapprovedModelReason(d, "no one can be asked"));
  }
  ApprovalRequest request{call,
                          d,
                          view.tool().metadata,
                          approvalOptions(view, d),
                          offeredScopes(call.context, options),
                          options.approval_timeout,
                          subject};
  if (before_asking) before_asking();
  const std::string by = options.approval_handler->name();
  ApprovalAnswer answer;
  try {
    std::future<ApprovalAnswer> pending = options.approval_handler->ask(request);
    if (options.approval_timeout.count() > 0 &&
        pending.wait_for(options.approval_timeout) == std::future_status::timeout) {
      std::string why =
          "no answer within " + std::to_string(options.approval_timeout.count()) + " ms";
      return deny(d, settledBy("timeout", "", why), "needs approval: " + why,
                  unapprovedModelReason(d, "no one approved it in time"));
    }
    answer = pending.get();
  } catch (const std::exception& e) {
    std::string why = by + " failed: " + e.what();
    return handlerFailed(d, why);
  }
  switch (answer.outcome) {
    case ApprovalOutcome::AllowOnce: {
      ApprovalResolution how = settledBy(by, "allow-once", "");
      how.person = answer.person;
      return allow(d, std::move(how), "allowed once by " + answeredBy(by, answer));
    }
    case ApprovalOutcome::Deny: {
      if (!answer.by_person) {
        std::string why = by + ": " + (answer.reason.empty() ? "no answer" : answer.reason);
        return deny(d, settledBy(by, "", why), "needs approval, none given: " + why,
                    unapprovedModelReason(
                        d, "no one approved it (" + plainCauseForModel(answer.reason) + ")"));
      }
      const std::string who = answer.person.empty() ? "a person" : answeredBy(by, answer);
      std::string reason =
          answer.reason.empty() ? "denied by " + who : "denied by " + who + ": " + answer.reason;
      std::string told = answer.reason.empty()
                             ? "A person declined this call."
                             : "A person declined this call: " + answer.reason + ".";
      ApprovalResolution how = settledBy(by, "deny", answer.reason);
      how.person = answer.person;
      return deny(d, std::move(how), reason, told);
    }
    case ApprovalOutcome::AlwaysAllow:
      break;
    default: {  // not an answer toolguard knows: fail closed
      std::string why = by + " gave an unknown answer";
      return handlerFailed(d, why);
    }
  }
  const bool scope_offered =
      std::find(request.scopes.begin(), request.scopes.end(), answer.scope) != request.scopes.end();
  if (answer.option >= request.options.size() || !scope_offered) {
    std::string why = by + " answered with a binding or scope that was not offered";
    return handlerFailed(d, why);
  }
  const ApprovalOption& option = request.options[answer.option];
  ApprovalEntry entry{
      call.tool,
      option.binding,
      option.value,
      answer.scope,
      scopeIdOf(answer.scope, call.context).value_or(""),
      currentUtcTimestamp(),
      "approved through " + by + (answer.person.empty() ? "" : " by " + answer.person),
      option.binding == ApprovalBinding::ExactCall ? "" : askingRule(d)};
  ApprovalResolution how{by,
                         "always-allow",
                         std::string(toString(entry.binding)),
                         entry.value,
                         std::string(toString(entry.scope)),
                         entry.scope_id,
                         "",
                         "",
                         answer.person};
  std::string note = "allowed always by " + answeredBy(by, answer) + " (" + entry.describe() + ")";
  const bool in_memory =
      entry.scope == ApprovalScope::Session &&
      !(options.store_session_approvals && options.store && !entry.scope_id.empty());
  if (in_memory || !options.store) {
    ApprovalEntry cached = entry;
    cached.scope_id = call.context.session;
    session.add(std::move(cached));
    if (!in_memory) note += "; no store: remembered for this session only";
  } else {
    try {
      options.store->add(entry);
      how.file = options.store->locationOf(entry.scope, entry.scope_id);
    } catch (const std::exception& e) {
      // The person allowed this call; only remembering it failed.
      note += "; not remembered: " + std::string(e.what());
    }
  }
  allow(d, std::move(how), note);
}

}  // namespace toolguard::detail
