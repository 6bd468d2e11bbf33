// Printing the demo's steps and checking each against what the demo expects.
#include "demo_report.hpp"

#include <ostream>

#include "toolguard/terminal_prompt.hpp"

namespace demo {

using toolguard::OutcomeKind;

namespace {

// Results can be long; the demo shows their start (the full text is what the
// model receives: ToolOutcome::modelContent()).
constexpr size_t kShownResultChars = 140;

// JSON text that is plain ASCII: non-ASCII characters as \uXXXX, bytes that
// are not UTF-8 replaced. Safe to print and to cut anywhere.
std::string asciiJson(const nlohmann::json& value) {
  return value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::string expectedText(const Expect& expect) {
  std::string text(toolguard::toString(expect.kind));
  if (!expect.text.empty()) text += " containing \"" + expect.text + "\"";
  if (!expect.rule.empty()) text += ", decided by rule " + expect.rule;
  if (!expect.approved_by.empty()) text += ", approved by " + expect.approved_by;
  return text;
}

bool matches(const toolguard::ToolOutcome& outcome, const Expect& expect) {
  if (outcome.kind != expect.kind) return false;
  if (!expect.text.empty() && outcome.modelContent().find(expect.text) == std::string::npos) {
    return false;
  }
  if (!expect.rule.empty() && (!outcome.decision || outcome.decision->rule_id != expect.rule)) {
    return false;
  }
  if (!expect.approved_by.empty()) {
    const auto& decision = outcome.decision;
    if (!decision || !decision->approval || decision->approval->by != expect.approved_by) {
      return false;
    }
  }
  return true;
}

}  // namespace

Expect Expect::result(std::string text) {
  return {OutcomeKind::Result, std::move(text), {}, {}};
}

Expect Expect::denied(std::string text, std::string rule) {
  return {OutcomeKind::Denied, std::move(text), std::move(rule), {}};
}

Expect Expect::error(std::string text) {
  return {OutcomeKind::Error, std::move(text), {}, {}};
}

std::string describeCall(const toolguard::ToolCall& call) {
  return toolguard::terminalSafe(call.tool) + " " + asciiJson(call.args);
}

std::string describeOutcome(const toolguard::ToolOutcome& outcome) {
  std::string kind(toolguard::toString(outcome.kind));
  if (outcome.kind != OutcomeKind::Result) {
    // Reasons can quote what the model sent (a path, a command): terminalSafe
    // keeps escape sequences in them from reaching the terminal.
    return kind + ": " + toolguard::terminalSafe(outcome.reason);
  }
  std::string shown = asciiJson(outcome.result);
  if (shown.size() > kShownResultChars) {
    shown = shown.substr(0, kShownResultChars) + "... (" + std::to_string(shown.size()) +
            " chars as JSON)";
  }
  return kind + ": " + shown;
}

Report::Report(std::ostream& out) : out_(out) {}

void Report::heading(std::string_view title) {
  out_ << "\n== " << title << " ==\n";
}

void Report::section(std::string_view title) {
  out_ << "\n-- " << title << " --\n";
}

void Report::note(std::string_view text) {
  out_ << "   " << text << "\n";
}

void Report::block(std::string_view text, std::string_view indent) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out_ << indent << text.substr(start, end - start) << "\n";
    start = end + 1;
  }
}

bool Report::step(const toolguard::ToolCall& call, const toolguard::ToolOutcome& outcome,
                  const Expect& expect) {
  const bool ok = matches(outcome, expect);
  out_ << (ok ? "[ok] " : "[UNEXPECTED] ") << describeCall(call) << " -> "
       << describeOutcome(outcome) << "\n";
  if (const auto& decision = outcome.decision) {
    // The arguments the tool ran with, when a validateArgs hook changed them.
    if (decision->sanitized_args) {
      out_ << "     sanitized to: " << asciiJson(*decision->sanitized_args) << "\n";
    }
    // A rule that asked, when the model's text does not name it (the ask was
    // then denied because nobody could answer).
    if (outcome.kind != OutcomeKind::Result && !decision->rule_id.empty() &&
        outcome.reason.find(decision->rule_id) == std::string::npos) {
      out_ << "     rule " << decision->rule_id << ": " << toolguard::terminalSafe(decision->reason)
           << "\n";
    }
  }
  if (!ok) {
    ++unexpected_;
    out_ << "     expected: " << expectedText(expect) << "\n";
  }
  return ok;
}

bool Report::check(std::string_view what, bool as_expected, std::string_view expected) {
  out_ << (as_expected ? "[ok] " : "[UNEXPECTED] ") << what << "\n";
  if (!as_expected) {
    ++unexpected_;
    if (!expected.empty()) out_ << "     expected: " << expected << "\n";
  }
  return as_expected;
}

}  // namespace demo
