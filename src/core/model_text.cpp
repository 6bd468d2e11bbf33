// The model-facing sentences of refusals, asks and stops.
#include "core/model_text.hpp"

namespace toolguard::detail {

std::string blockedText(std::string_view why, std::string_view by) {
  std::string text(kBlockedPrefix);
  if (!by.empty()) text.append(" (").append(by).append(")");
  return text.append(": ").append(why);
}

std::string blockedNoRetryText(std::string_view why, std::string_view by) {
  return blockedText(why, by).append(". ").append(kNoRetry);
}

std::string needsApprovalText(std::string_view why, std::string_view by) {
  return std::string("This call needs a person's approval (toolguard, ")
      .append(by)
      .append("): ")
      .append(why);
}

std::string stoppedText(std::string_view why, std::string_view by) {
  return std::string("toolguard stopped the generation (").append(by).append("): ").append(why);
}

std::string asBlockedText(std::string_view reason) {
  if (reason.starts_with(kBlockedPrefix)) return std::string(reason);
  return blockedText(reason.empty() ? std::string_view("no reason given") : reason);
}

}  // namespace toolguard::detail
