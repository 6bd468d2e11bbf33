// The audit record of input that could not be read as a call: the raw text
// (its first bytes), redacted as text, since it may not parse.
#include <string>
#include <string_view>

#include "audit/audit_detail.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The end of the string token starting at text[begin] == '"' (one past its
// closing quote, or the end of the text when it is not closed).
size_t stringEnd(std::string_view text, size_t begin) {
  for (size_t i = begin + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

// The end of the value starting at text[begin]: a string, a balanced object
// or array (strings inside skipped), or a bare word up to a delimiter. Text
// that ends early ends the value.
size_t valueEnd(std::string_view text, size_t begin) {
  if (begin >= text.size()) return begin;
  if (text[begin] == '"') return stringEnd(text, begin);
  if (text[begin] == '{' || text[begin] == '[') {
    size_t depth = 0;
    for (size_t i = begin; i < text.size(); ++i) {
      if (text[i] == '"') {
        i = stringEnd(text, i) - 1;
      } else if (text[i] == '{' || text[i] == '[') {
        ++depth;
      } else if ((text[i] == '}' || text[i] == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return text.size();
  }
  size_t i = begin;
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' && !isSpace(text[i]))
    ++i;
  return i;
}

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
    const size_t end = stringEnd(text, i);
    size_t colon = end;
    while (colon < text.size() && isSpace(text[colon])) ++colon;
    if (colon >= text.size() || text[colon] != ':' ||
        !detail::isCredentialKey(keyText(text.substr(i, end - i)))) {
      i = end;
      continue;
    }
    size_t value = colon + 1;
    while (value < text.size() && isSpace(text[value])) ++value;
    const size_t value_end = valueEnd(text, value);
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
