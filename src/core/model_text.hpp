#pragma once
// Internal: the sentences the model reads when toolguard refuses, asks for
// or stops a call. One wording for every surface, so the model can always
// tell the guard's answer from the tool's, and knows not to retry.

#include <string>
#include <string_view>

namespace toolguard::detail {

/// The start of every refusal the model reads.
inline constexpr std::string_view kBlockedPrefix = "Blocked by toolguard";

/// The end of a refusal the model should not try to get around by retrying.
inline constexpr std::string_view kNoRetry =
    "Do not retry the same call; explain or choose another approach.";

/// "Blocked by toolguard: WHY", or "Blocked by toolguard (BY): WHY".
std::string blockedText(std::string_view why, std::string_view by = {});

/// blockedText(why, by) followed by ". " and kNoRetry.
std::string blockedNoRetryText(std::string_view why, std::string_view by = {});

/// "This call needs a person's approval (toolguard, BY): WHY".
std::string needsApprovalText(std::string_view why, std::string_view by);

/// "toolguard stopped the generation (BY): WHY".
std::string stoppedText(std::string_view why, std::string_view by);

/// `reason` when it is already a refusal (starts with kBlockedPrefix), else
/// blockedText of it ("no reason given" when empty).
std::string asBlockedText(std::string_view reason);

}  // namespace toolguard::detail
