// The validation callback step of the Guard: stricter only, fail closed.
#include "validator_step.hpp"

#include <algorithm>
#include <exception>
#include <thread>

#include "core/model_text.hpp"
#include "overrule.hpp"

namespace toolguard {

std::string_view toString(ValidationVerdict verdict) {
  switch (verdict) {
    case ValidationVerdict::Allow:
      return "allow";
    case ValidationVerdict::Deny:
      return "deny";
    case ValidationVerdict::Abort:
      return "abort";
  }
  return "deny";
}

namespace detail {
namespace {

constexpr std::chrono::milliseconds kCancellationPoll{20};

/// What the validator is handed, owned by whoever waits longest: a
/// validator that answers after the call was judged (timeout,
/// cancellation) may still read its arguments safely.
struct ValidatorInput {
  ValidationContext context;
  ToolInfo tool;
  nlohmann::json args;
};

/// Waits for the validator's answer, polling the cancellation token. A
/// deferred future (std::launch::deferred) runs here, on this thread. On a
/// timeout or a cancellation the future and the input are handed to a
/// detached thread, so a std::async future (whose destructor blocks) cannot
/// hold the call.
ValidationResult awaitAnswer(std::future<ValidationResult> answer,
                             std::shared_ptr<const ValidatorInput> input,
                             std::chrono::milliseconds timeout,
                             const CancellationToken& cancellation) {
  if (!answer.valid()) return ValidationResult::deny("the validator returned no future");
  if (answer.wait_for(std::chrono::seconds(0)) == std::future_status::deferred) {
    return answer.get();
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const bool limited = timeout.count() > 0;
  while (true) {
    auto slice = kCancellationPoll;
    if (limited) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      slice = std::clamp(left, std::chrono::milliseconds(0), kCancellationPoll);
    }
    if (answer.wait_for(slice) == std::future_status::ready) return answer.get();
    const bool cancelled = cancellation.cancelled();
    if (cancelled || (limited && std::chrono::steady_clock::now() >= deadline)) {
      std::thread([pending = std::move(answer), input]() mutable { pending.wait(); }).detach();
      return ValidationResult::deny(cancelled ? "the generation was cancelled while the "
                                                "validator was judging the call"
                                              : "the validator did not answer in time (" +
                                                    std::to_string(timeout.count()) + " ms)");
    }
  }
}

void applyAnswer(const ValidationResult& answer, Decision& d) {
  if (answer.verdict == ValidationVerdict::Allow) return;
  const bool abort = answer.verdict == ValidationVerdict::Abort;
  const std::string why = answer.reason.empty() ? "no reason given" : answer.reason;
  std::string reason =
      std::string("the validator ").append(abort ? "aborted" : "denied").append(" the call: ");
  overrule(d, abort ? Verdict::Abort : Verdict::Deny, DecisionBasis::Validator,
           SourceLocation{"<validator>", 0, 0}, reason.append(why), blockedText(why, "validator"));
  d.policy_verdict = d.verdict;
  d.extra = answer.extra;
}

}  // namespace

void consultValidator(const GuardOptions& options, const ToolInfo& tool, const ToolCall& call,
                      const CancellationToken& cancellation, Decision& d) {
  if (isFinal(d.verdict)) return;  // the policy already refused it
  ValidationResult answer;
  try {
    auto input = std::make_shared<const ValidatorInput>(
        ValidatorInput{ValidationContext{call.context.model, call.context.agent,
                                         call.context.session, cancellation},
                       tool, d.sanitized_args ? *d.sanitized_args : call.args});
    answer = awaitAnswer(options.validator(input->context, input->tool, input->args), input,
                         options.validator_timeout, cancellation);
  } catch (const std::exception& e) {
    answer = ValidationResult::deny(std::string("the validator failed: ") + e.what());
  } catch (...) {
    answer = ValidationResult::deny("the validator failed");
  }
  if (answer.verdict != ValidationVerdict::Allow && answer.verdict != ValidationVerdict::Deny &&
      answer.verdict != ValidationVerdict::Abort) {
    answer = ValidationResult::deny("the validator gave an unknown verdict");
  }
  applyAnswer(answer, d);
}

}  // namespace detail
}  // namespace toolguard
