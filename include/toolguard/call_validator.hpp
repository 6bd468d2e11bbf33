#pragma once
// The validation callback: a program's own judgement of a call, consulted
// after the policy. It can make a decision stricter (deny, abort), never
// looser.

#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/cancellation.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard {

/// Who is calling, as the validator sees it.
struct ValidationContext {
  std::string model;    ///< model id ("" if not known)
  std::string agent;    ///< agent id
  std::string session;  ///< session id
  /// Cancelled when the generation is stopped; a long validator should give up.
  CancellationToken cancellation;
};

/// What a validator says: let the policy's decision stand (allow), block
/// the call with a reason the model reads (deny), or stop the whole
/// generation (abort).
enum class ValidationVerdict { Allow, Deny, Abort };

/// The lowercase name of a validation verdict ("allow", "deny", "abort").
std::string_view toString(ValidationVerdict verdict);

/// A validator's answer.
struct ValidationResult {
  ValidationVerdict verdict = ValidationVerdict::Deny;
  std::string reason;  ///< why (required for deny and abort; shown to the model)
  /// Anything the program wants to hand to whoever handles an abort (or a
  /// deny): it reaches the abort event and ToolOutcome::extra untouched.
  nlohmann::json extra;

  static ValidationResult allow() { return {ValidationVerdict::Allow, "", nullptr}; }
  static ValidationResult deny(std::string reason, nlohmann::json extra = nullptr) {
    return {ValidationVerdict::Deny, std::move(reason), std::move(extra)};
  }
  static ValidationResult abort(std::string reason, nlohmann::json extra = nullptr) {
    return {ValidationVerdict::Abort, std::move(reason), std::move(extra)};
  }
};

/// The validation callback: (context, tool, arguments) -> a future answer.
/// Arguments are those the tool would run with (after validateArgs). It may
/// answer at once (a ready future), later (a promise, std::async), or in
/// the guard's thread (a std::launch::deferred future, which has no
/// timeout). An exception, a broken future or no answer within
/// GuardOptions::validator_timeout denies the call. The three references
/// stay valid until the future is ready, even after a timeout, so an
/// asynchronous validator may capture them by reference.
using CallValidator = std::function<std::future<ValidationResult>(
    const ValidationContext& context, const ToolInfo& tool, const nlohmann::json& args)>;

}  // namespace toolguard
