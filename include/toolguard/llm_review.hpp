#pragma once
// What the LLM validator said about one call, and the conversation that led
// there (for `toolguard explain` and the audit log).

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard {

/// The validator's answer: run it, block it, or leave it to a person.
enum class LlmVerdict { Allow, Deny, Ask };

/// The name of an LLM verdict as the model writes it ("ALLOW", "DENY", "ASK").
std::string_view toString(LlmVerdict verdict);

/// A model's reply, read strictly.
struct LlmReplyReading {
  /// Ask unless the reply was exactly one well-formed line.
  LlmVerdict verdict = LlmVerdict::Ask;
  std::string reason;  ///< after "DENY: " or "ASK: "
  bool well_formed = false;
  /// How it was read: "ALLOW", "DENY with a reason", or what was wrong with it.
  std::string note;
};

/// Reads a reply that must be exactly one line: `ALLOW`, `DENY: reason` or
/// `ASK: reason` (whitespace and line breaks at the end are ignored; the
/// reason must not be empty, hold control characters or exceed 1000 bytes). Anything else (more
/// lines, prose around it, lower case, `DENY -` without the colon, an empty reply) is not well
/// formed and reads as ask.
LlmReplyReading readLlmReply(std::string_view reply);

/// One request of a judgement and what came back.
struct LlmExchange {
  nlohmann::json request;  ///< the body sent (the API key is never in it)
  /// The assistant message as received (content and tool calls), or null.
  nlohmann::json reply;
  std::string error;  ///< why no reply came ("" when one did)
};

/// The LLM validator's review of one escalated call: its verdict, why, and the exchanges.
struct LlmReview {
  LlmVerdict verdict = LlmVerdict::Ask;
  /// Why: the model's reason, or why the model was not asked or not heard
  /// (skipped, timed out, malformed reply, ...).
  std::string reason;
  /// True when the model gave a well-formed answer: verdict is its own.
  /// False: verdict is ask because something failed (see reason).
  bool answered = false;
  bool cached = false;                 ///< taken from the session's verdict cache: nothing was sent
  std::string model;                   ///< the model asked
  std::vector<std::string> skills;     ///< skills shown to it, auto-invoked or requested
  std::vector<LlmExchange> exchanges;  ///< every request, in order
  std::string reading;                 ///< how the last reply was read (LlmReplyReading::note)
  std::chrono::milliseconds elapsed{0};
};

}  // namespace toolguard
