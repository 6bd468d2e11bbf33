#pragma once
// Which remembered approvals cover a call, and which bindings a person is
// offered for "always allow".

#include <optional>
#include <string>
#include <vector>

#include "toolguard/approval.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// True when `entry` grants `view`'s call, which `decision` asked about:
/// same tool, and the exact approval key, or every command / every path
/// form matching the pattern, or the whole tool; a Pattern or Tool entry
/// only for an ask of its rule (or, without a rule, one no rule made). A pattern never covers a
/// shell program that does not parse, a command whose name is dynamic or that runs arbitrary code,
/// a command with assignments or redirections that write files, or a call with no command and no
/// path.
bool approvalCovers(const ApprovalEntry& entry, const CallView& view, const Decision& decision);

/// The bindings offered for "always allow" of a call: this exact call
/// always; a pattern when one can be derived safely (a single simple command
/// that does not run arbitrary code: its name and up to two sub-command
/// words then `*`; the directory of the paths then `/**`); the whole tool
/// unless it is a shell tool. Only the exact call when several rules asked.
std::vector<ApprovalOption> approvalOptions(const CallView& view, const Decision& decision);

/// The rule whose ask a broad binding chosen now would answer ("" when the
/// tool's policy or the default asked).
std::string askingRule(const Decision& decision);

/// True when `rule` made every ask or escalate finding of the decision (for
/// "": no rule asked).
bool answersEveryAsk(const std::string& rule, const Decision& decision);

/// Fails, saying why, when `pattern` may not be remembered for `tool` (too
/// broad, or over a command that runs arbitrary code).
Expected<void> checkApprovalPattern(const ToolInfo& tool, const std::string& pattern);

}  // namespace toolguard::detail
