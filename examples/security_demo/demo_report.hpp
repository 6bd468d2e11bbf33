#pragma once
// Printing the demo's steps and checking each against what the demo expects.
//
// Every step prints one line:
//   [ok] write_file {"path":"../../etc/passwd"} -> denied: Blocked by toolguard ...
// or, when toolguard did something else than the demo expects:
//   [UNEXPECTED] ... followed by what was expected.
// A mode succeeds when none of its steps was unexpected.

#include <iosfwd>
#include <string>
#include <string_view>

#include "toolguard/tool_call.hpp"
#include "toolguard/tool_outcome.hpp"

namespace demo {

/// What the demo expects of one guarded call.
struct Expect {
  toolguard::OutcomeKind kind = toolguard::OutcomeKind::Result;
  /// Text that must appear in what the model receives (modelContent()); "" for any.
  std::string text;
  /// The rule that must have decided the call (Decision::rule_id); "" for any.
  std::string rule;
  /// Who must have settled the approval (ApprovalResolution::by, e.g. "store"); "" for any.
  std::string approved_by;

  static Expect result(std::string text = {});
  static Expect denied(std::string text = {}, std::string rule = {});
  static Expect error(std::string text = {});
};

/// Prints headings, notes and steps to one stream and counts the surprises.
class Report {
 public:
  explicit Report(std::ostream& out);

  /// "== Mode 1: ... ==" and an empty line before it.
  void heading(std::string_view title);
  /// "-- title --": a group of steps inside a mode.
  void section(std::string_view title);
  /// A line of explanation (indented, so steps stand out).
  void note(std::string_view text);
  /// A block of text (a file, a rendered prompt), every line indented by
  /// `indent`. Printed as it is: pass text already safe for a terminal
  /// (renderApprovalRequest's output, JSON, or terminalSafe(text)).
  void block(std::string_view text, std::string_view indent = "     | ");

  /// Prints the call and its outcome and whether the outcome matches `expect`.
  /// Returns true when it does.
  bool step(const toolguard::ToolCall& call, const toolguard::ToolOutcome& outcome,
            const Expect& expect);

  /// A check that is not a tool call ("isSafeShellArg("main") -> safe").
  bool check(std::string_view what, bool as_expected, std::string_view expected = {});

  /// True when no step or check so far was unexpected.
  bool allAsExpected() const { return unexpected_ == 0; }
  int unexpectedCount() const { return unexpected_; }

  std::ostream& out() { return out_; }

 private:
  std::ostream& out_;
  int unexpected_ = 0;
};

/// One call for display: `tool {"arg":"value"}` (arguments as compact JSON,
/// so control characters and quotes from a model show as escapes).
std::string describeCall(const toolguard::ToolCall& call);

/// One outcome for display: `result: "..."` (shortened), `denied: <reason>`,
/// `aborted: <reason>` or `error: <reason>`.
std::string describeOutcome(const toolguard::ToolOutcome& outcome);

}  // namespace demo
