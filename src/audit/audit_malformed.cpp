// The audit record of input that could not be read as a call: the raw text
// (its first bytes), redacted as text, since it may not parse.
#include <string>
#include <string_view>

#include "audit/audit_detail.hpp"
#include "json/json_tokens.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

// A key token's text without quotes, escapes decoded when they can be.
std::string keyText(std::string_view token) {
  json decoded = json::parse(token, nullptr, false);
  if (decoded.is_string()) return decoded.get<std::string>();
  return std::string(token.substr(1, token.size() > 1 ? token.size() - 2 : 0));
}

// JSON-like text with the value after every key that names a credential
// replaced by "[REDACTED]" (the text need not parse: it may be cut short or
// malformed), then the built-in secret formats redacted as in any string.
std::string redactJsonText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '"') {
      ++i;
      continue;
    }
    const size_t end = detail::jsonStringEnd(text, i);
    size_t colon = end;
    while (colon < text.size() && detail::isJsonSpace(text[colon])) ++colon;
    if (colon >= text.size() || text[colon] != ':' ||
        !detail::isCredentialKey(keyText(text.substr(i, end - i)))) {
      i = end;
      continue;
    }
    size_t value = colon + 1;
    while (value < text.size() && detail::isJsonSpace(text[value])) ++value;
    const size_t value_end = detail::jsonValueEnd(text, value);
    out.append(text, copied, value - copied);
    out.append("\"").append(detail::kRedacted).append("\"");
    copied = value_end;
    i = value_end;
  }
  out.append(text, copied, std::string_view::npos);
  return detail::redactSecretsInText(out);
}

// A reader's error can quote the input ("last read: '...'"): the record
// keeps the error without the quote (the input is recorded, redacted).
std::string errorWithoutQuote(const std::string& error) {
  static constexpr std::string_view kQuote = "; last read: '";
  const size_t start = error.find(kQuote);
  if (start == std::string::npos) return error;
  size_t end = error.find("'; expected ", start + kQuote.size());
  if (end == std::string::npos) end = error.rfind('\'');
  if (end == std::string::npos || end < start + kQuote.size()) end = error.size() - 1;
  std::string out = error.substr(0, start + kQuote.size());
  out.append("[not recorded]");
  out.append(error, end, std::string::npos);
  return out;
}

}  // namespace

nlohmann::json malformedCallRecord(const MalformedCall& input, const Decision& decision,
                                   std::chrono::system_clock::time_point when,
                                   size_t max_input_bytes) {
  const bool cut = input.input_cut || input.input.size() > max_input_bytes;
  // Redacted with some text past the cut, so that a secret the cut would
  // split is still recognised, then cut.
  constexpr size_t kLookAhead = 8192;
  std::string recorded =
      redactJsonText(std::string_view(input.input).substr(0, max_input_bytes + kLookAhead));
  if (recorded.size() > max_input_bytes) recorded.resize(max_input_bytes);
  json record = json::object();
  record["time"] = detail::formatAuditTime(when);
  record["id"] = decision.id.empty() ? detail::randomAuditId() : decision.id;
  record["tool"] = "";
  record["malformed"] = true;
  record["error"] = detail::redactSecretsInText(errorWithoutQuote(input.error));
  if (!input.format.empty()) record["format"] = input.format;
  record["input"] = std::move(recorded);
  if (cut) record["input_truncated"] = true;
  if (input.input_bytes > 0) record["input_bytes"] = input.input_bytes;
  record["verdict"] = toString(decision.verdict);
  record["policy_verdict"] = toString(decision.policy_verdict);
  record["reason"] = detail::redactSecretsInText(errorWithoutQuote(decision.reason));
  if (!decision.source.file.empty()) record["source"] = decision.source.toString();
  record["basis"] = toString(decision.basis);
  return record;
}

}  // namespace toolguard
