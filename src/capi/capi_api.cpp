// The C API's entry points (include/toolguard/toolguard.h): each catches
// everything, so no exception crosses into C.
#include <cstdlib>
#include <cstring>
#include <memory>

#include "capi/capi_types.hpp"
#include "front/call_json.hpp"

namespace {

tg_verdict verdictOf(toolguard::Verdict verdict) {
  switch (verdict) {
    case toolguard::Verdict::Allow:
      return TG_VERDICT_ALLOW;
    case toolguard::Verdict::Ask:
      return TG_VERDICT_ASK;
    case toolguard::Verdict::Abort:
      return TG_VERDICT_ABORT;
    default:  // deny, and escalate (never final) fails closed
      return TG_VERDICT_DENY;
  }
}

}  // namespace

extern "C" {

const char* tg_version(void) {
  return TOOLGUARD_VERSION;
}

const char* tg_error_message(const tg_error* error) {
  return error == nullptr ? "" : error->message.c_str();
}

void tg_error_free(tg_error* error) {
  delete error;
}

void tg_string_free(char* text) {
  std::free(text);
}

tg_guard* tg_guard_new(const char* options_json, tg_error** error) {
  try {
    return new tg_guard(readGuardSettings(options_json));
  } catch (const std::exception& e) {
    setError(error, e.what());
  } catch (...) {
    setError(error, "tg_guard_new: unknown error");
  }
  return nullptr;
}

void tg_guard_free(tg_guard* guard) {
  delete guard;
}

void tg_guard_set_asker(tg_guard* guard, tg_ask_fn asker, void* user_data) {
  if (guard == nullptr) return;
  std::lock_guard lock(guard->mutex);
  chooseAsker(*guard, asker, user_data);
  // Each Guard keeps its session approvals and rate-limit counts, and asks
  // the new asker from now on.
  guard->guards->setApprovalHandler(guard->base.approval_handler);
}

tg_decision* tg_guard_decide(tg_guard* guard, const char* call_json, size_t call_length,
                             tg_error** error) {
  if (guard == nullptr || call_json == nullptr) {
    setError(error,
             guard == nullptr ? "tg_guard_decide: guard is NULL" : "tg_guard_decide: call is NULL");
    return nullptr;
  }
  try {
    auto out = std::make_unique<tg_decision>();
    out->decision = decideCallText(*guard, std::string_view(call_json, call_length), out->tool);
    return out.release();
  } catch (const std::exception& e) {
    setError(error, std::string("tg_guard_decide: ") + e.what());
  } catch (...) {
    setError(error, "tg_guard_decide: unknown error");
  }
  return nullptr;
}

char* tg_guard_check(tg_guard* guard, const char* call_json, tg_error** error) {
  std::unique_ptr<tg_decision, void (*)(tg_decision*)> decision(
      tg_guard_decide(guard, call_json, call_json ? std::strlen(call_json) : 0, error),
      tg_decision_free);
  if (!decision) return nullptr;
  const char* text = tg_decision_json(decision.get());
  char* out = text ? static_cast<char*>(std::malloc(std::strlen(text) + 1)) : nullptr;
  if (out == nullptr) {
    setError(error, "tg_guard_check: out of memory");
    return nullptr;
  }
  return std::strcpy(out, text);
}

tg_verdict tg_decision_verdict(const tg_decision* d) {
  return d == nullptr ? TG_VERDICT_DENY : verdictOf(d->decision.verdict);
}

int tg_decision_policy_verdict(const tg_decision* d) {
  if (d == nullptr) return TG_VERDICT_DENY;
  return d->decision.policy_verdict == toolguard::Verdict::Escalate
             ? TG_POLICY_ESCALATE
             : static_cast<int>(verdictOf(d->decision.policy_verdict));
}

const char* tg_decision_reason(const tg_decision* d) {
  return d == nullptr ? "" : d->decision.reason.c_str();
}

const char* tg_decision_model_reason(const tg_decision* d) {
  return d == nullptr ? "" : d->decision.model_reason.c_str();
}

const char* tg_decision_rule(const tg_decision* d) {
  return d == nullptr ? "" : d->decision.rule_id.c_str();
}

const char* tg_decision_json(tg_decision* d) {
  if (d == nullptr) return nullptr;
  try {
    if (d->json.empty()) {
      d->json = toolguard::front::decisionJsonLine(d->decision, d->tool);
    }
    return d->json.c_str();
  } catch (...) {
    return nullptr;
  }
}

void tg_decision_free(tg_decision* d) {
  delete d;
}

}  // extern "C"
