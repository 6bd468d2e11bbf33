// The built-in result filters: secret redaction, the judgement of results
// (secrets and instructions aimed at the agent), and the output size cap.
#include <optional>
#include <stdexcept>
#include <string_view>

#include "toolguard/audit_log.hpp"
#include "toolguard/result_scan.hpp"
#include "toolguard/session_state.hpp"
#include "toolguard/tool_filters.hpp"

namespace toolguard {
namespace {

class SecretRedactionFilter final : public ResultFilter {
 public:
  std::string name() const override { return "secret-redaction"; }

  // redactSecrets takes any JSON value, a bare string included.
  void filter(const ToolInvocation&, ToolOutcome& outcome) override {
    if (outcome.kind == OutcomeKind::Result) {
      outcome.result = redactSecrets(outcome.result);
    } else {
      outcome.reason = redactSecrets(nlohmann::json(outcome.reason)).get<std::string>();
    }
  }
};

class ResultJudgementFilter final : public ResultFilter {
 public:
  ResultJudgementFilter(std::shared_ptr<SessionRepository> sessions,
                        std::shared_ptr<AuditSink> audit)
      : sessions_(std::move(sessions)), audit_(std::move(audit)) {}

  std::string name() const override { return "result-judgement"; }

  void filter(const ToolInvocation& invocation, ToolOutcome& outcome) override {
    const bool result = outcome.kind == OutcomeKind::Result;
    // An error's text is what the tool returned too (a failing fetch's page).
    const ResultFindings findings =
        scanToolResult(result ? outcome.result : nlohmann::json(outcome.reason));
    if (findings.empty()) return;
    const std::string warning = resultWarningForModel(findings, findings.secret.has_value());
    if (!result) {
      outcome.reason =
          (findings.secret ? redactSecrets(nlohmann::json(outcome.reason)).get<std::string>()
                           : outcome.reason) +
          "\n\n" + warning;
    } else {
      outcome.result = withWarning(
          findings.secret ? redactSecrets(outcome.result) : std::move(outcome.result), warning);
    }
    // Thrown on: the registry turns it into an error outcome.
    if (audit_) {
      audit_->writeRecord(resultAuditRecord(invocation.call, findings, findings.secret.has_value(),
                                            "registry", std::chrono::system_clock::now()));
    }
    if (sessions_) rememberToolResult(*sessions_, invocation.call, findings.labels());
  }

 private:
  // The result with the model's warning beside it, in its own shape where
  // it has room for one.
  static nlohmann::json withWarning(nlohmann::json result, const std::string& warning) {
    if (result.is_string()) return result.get<std::string>() + "\n\n" + warning;
    if (result.is_object()) {
      if (auto content = result.find("content"); content != result.end() && content->is_array()) {
        content->push_back({{"type", "text"}, {"text", warning}});
      } else {
        result["toolguard_warning"] = warning;
      }
      return result;
    }
    return result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n\n" + warning;
  }

 private:
  std::shared_ptr<SessionRepository> sessions_;
  std::shared_ptr<AuditSink> audit_;
};

bool isContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// How many bytes the UTF-8 sequence starting with `lead` takes (1 for ASCII
// and for bytes that cannot start one).
size_t sequenceLength(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  if (byte >= 0xF0 && byte <= 0xF7) return 4;
  if (byte >= 0xE0) return byte <= 0xEF ? 3 : 1;
  if (byte >= 0xC0) return 2;
  return 1;
}

// The longest prefix of `text` of at most `max` bytes that does not end in
// the middle of a UTF-8 sequence (bytes that are not UTF-8 are cut anywhere).
size_t utf8Prefix(std::string_view text, size_t max) {
  if (max >= text.size()) return text.size();
  size_t start = max;
  while (start > 0 && max - start < 3 && isContinuation(text[start])) --start;
  if (isContinuation(text[start])) return max;
  return start + sequenceLength(text[start]) > max ? start : max;
}

// `text` cut to `max` bytes and marked, or nullopt when it fits.
std::optional<std::string> capped(std::string_view text, size_t max) {
  if (text.size() <= max) return std::nullopt;
  const size_t shown = utf8Prefix(text, max);
  std::string out(text.substr(0, shown));
  out += truncationMarker(shown, text.size());
  return out;
}

class OutputCapFilter final : public ResultFilter {
 public:
  explicit OutputCapFilter(size_t max_bytes) : max_bytes_(max_bytes) {}

  std::string name() const override { return "output-cap"; }

  void filter(const ToolInvocation&, ToolOutcome& outcome) override {
    if (outcome.kind == OutcomeKind::Result) {
      const nlohmann::json& result = outcome.result;
      std::optional<std::string> text =
          result.is_string()
              ? capped(result.get_ref<const std::string&>(), max_bytes_)
              : capped(result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       max_bytes_);
      if (text) outcome.result = std::move(*text);
    } else if (std::optional<std::string> reason = capped(outcome.reason, max_bytes_)) {
      // A tool's error text can be as long as its output.
      outcome.reason = std::move(*reason);
    }
  }

 private:
  size_t max_bytes_;
};

}  // namespace

std::shared_ptr<ResultFilter> secretRedactionFilter() {
  return std::make_shared<SecretRedactionFilter>();
}

std::shared_ptr<ResultFilter> resultJudgementFilter(std::shared_ptr<SessionRepository> sessions,
                                                    std::shared_ptr<AuditSink> audit) {
  return std::make_shared<ResultJudgementFilter>(std::move(sessions), std::move(audit));
}

std::shared_ptr<ResultFilter> outputCapFilter(size_t max_bytes) {
  if (max_bytes == 0) throw std::invalid_argument("outputCapFilter: max_bytes must be positive");
  return std::make_shared<OutputCapFilter>(max_bytes);
}

std::string truncationMarker(size_t shown, size_t total) {
  return "\n[toolguard: output truncated: " + std::to_string(shown) + " of " +
         std::to_string(total) + " bytes shown]";
}

}  // namespace toolguard
