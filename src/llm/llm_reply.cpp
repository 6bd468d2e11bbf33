// Reading the validator model's answer: one line, ALLOW / DENY: r / ASK: r.
#include <algorithm>

#include "toolguard/llm_review.hpp"

namespace toolguard {
namespace {

// A reason longer than this is not a one-line reason: the model wandered.
constexpr size_t kMaxLlmReasonBytes = 1000;

bool isControl(char c) {
  auto byte = static_cast<unsigned char>(c);
  return (byte < 0x20 && c != '\t') || byte == 0x7f;
}

LlmReplyReading malformed(std::string note) {
  LlmReplyReading reading;
  reading.note = "not well formed (" + std::move(note) + "): read as ASK";
  reading.reason = "the LLM validator's answer was not well formed";
  return reading;
}

// Reads "VERDICT: reason" after the verdict word; `rest` starts after the word.
LlmReplyReading withReason(LlmVerdict verdict, std::string_view word, std::string_view rest) {
  if (rest.empty() || rest.front() != ':') {
    return malformed(std::string(word) + " must be followed by ': reason'");
  }
  rest.remove_prefix(1);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  if (rest.empty()) return malformed(std::string(word) + " without a reason");
  if (rest.size() > kMaxLlmReasonBytes) {
    return malformed("a reason longer than " + std::to_string(kMaxLlmReasonBytes) + " bytes");
  }
  if (std::any_of(rest.begin(), rest.end(), isControl)) {
    return malformed("control characters in the reason");
  }
  LlmReplyReading reading;
  reading.verdict = verdict;
  reading.reason = std::string(rest);
  reading.well_formed = true;
  reading.note = std::string(word) + " with a reason";
  return reading;
}

}  // namespace

std::string_view toString(LlmVerdict verdict) {
  switch (verdict) {
    case LlmVerdict::Allow:
      return "ALLOW";
    case LlmVerdict::Deny:
      return "DENY";
    case LlmVerdict::Ask:
      return "ASK";
  }
  return "ASK";
}

LlmReplyReading readLlmReply(std::string_view reply) {
  while (!reply.empty() && (reply.back() == ' ' || reply.back() == '\t' || reply.back() == '\n' ||
                            reply.back() == '\r')) {
    reply.remove_suffix(1);
  }
  if (reply.empty()) return malformed("an empty reply");
  if (reply.find_first_of("\r\n") != std::string_view::npos) return malformed("more than one line");
  if (reply == "ALLOW") {
    LlmReplyReading reading;
    reading.verdict = LlmVerdict::Allow;
    reading.well_formed = true;
    reading.note = "ALLOW";
    return reading;
  }
  if (reply.starts_with("DENY")) return withReason(LlmVerdict::Deny, "DENY", reply.substr(4));
  if (reply.starts_with("ASK")) return withReason(LlmVerdict::Ask, "ASK", reply.substr(3));
  if (reply.starts_with("ALLOW")) return malformed("ALLOW must stand alone");
  return malformed("not ALLOW, DENY: reason or ASK: reason");
}

}  // namespace toolguard
