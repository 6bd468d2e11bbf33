#pragma once
// Verdicts: what toolguard says about one tool call, and per-tool policies.

#include <optional>
#include <string_view>

namespace toolguard {

/// The outcome of judging a tool call, ordered from least to most strict:
/// allow < escalate (let the LLM validator decide) < ask (a person must approve)
/// < deny (blocked, with a reason for the model) < abort (stop the generation).
enum class Verdict { Allow = 0, Escalate = 1, Ask = 2, Deny = 3, Abort = 4 };

/// The lowercase name of a verdict ("allow", "escalate", "ask", "deny", "abort").
std::string_view toString(Verdict verdict);

/// Parses a verdict name; exact lowercase names only. Unknown names give nullopt
/// (callers turn that into a load error: an unknown verdict is never allow).
std::optional<Verdict> parseVerdict(std::string_view name);

/// The stricter of two verdicts (abort > deny > ask > escalate > allow).
constexpr Verdict strictest(Verdict a, Verdict b) {
  return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

/// True when `a` is strictly stricter than `b`.
constexpr bool isStricter(Verdict a, Verdict b) {
  return static_cast<int>(a) > static_cast<int>(b);
}

/// True for deny and abort: verdicts that nothing after the rules (an
/// approval, the LLM validator, a person) may turn into allow.
constexpr bool isFinal(Verdict verdict) {
  return verdict == Verdict::Deny || verdict == Verdict::Abort;
}

/// A tool's own policy, used when no rule has a finding for a call:
/// ALLOW runs it, CONFIRM asks a person, DENY blocks it.
enum class ToolPolicy { Allow, Confirm, Deny };

/// The lowercase name of a tool policy ("allow", "confirm", "deny").
std::string_view toString(ToolPolicy policy);

/// Parses "allow", "confirm" (or its synonym "ask") and "deny"; nullopt otherwise.
std::optional<ToolPolicy> parseToolPolicy(std::string_view name);

/// The verdict a tool policy stands for (confirm is ask).
Verdict toVerdict(ToolPolicy policy);

}  // namespace toolguard
