#pragma once
// The demo's four modes. Each builds its own ToolRegistry, runs a scripted
// series of calls through registry.executeTool() and reports every outcome.
// Each returns true when every step came out as the demo expects.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "demo_report.hpp"
#include "toolguard/approval.hpp"

namespace demo {

/// What every mode works with.
struct DemoSettings {
  /// The project the calls are made in: every call's cwd and workspace.
  std::filesystem::path workspace;
  /// The toolguard home for the approval store (mode 4): --home, or a
  /// temporary directory, never the user's ~/.toolguard unless asked for.
  std::filesystem::path home;
  /// Mode 3's answers from --answers, in order; nullopt: ask on the terminal.
  std::optional<std::vector<toolguard::ApprovalAnswer>> answers;
};

/// Parses --answers: keys separated by commas, each `y` or `1` (allow once)
/// or `n` or `3` (deny), a deny optionally with a reason for the model after
/// a colon: "y,n:use the staging file instead". Returns false (and says why
/// in `error`) for anything else.
bool parseAnswerKeys(const std::string& keys, std::vector<toolguard::ApprovalAnswer>& answers,
                     std::string& error);

/// 1. Tool policies: ALLOW runs, CONFIRM asks (and nobody can answer here),
/// DENY refuses and hides the tool from the model; setDefaultPolicy; the
/// result filters (secret redaction, output cap).
bool runPoliciesMode(const DemoSettings& settings, Report& report);

/// 2. Argument and path validation: input schemas, validateArgs hooks that
/// sanitize or reject, the default policy's path rules, shell commands,
/// isSafeShellArg.
bool runValidationMode(const DemoSettings& settings, Report& report);

/// 3. The confirmation prompt: a CONFIRM tool called twice; a person (or
/// --answers) allows once or denies with a reason the model receives.
bool runPromptMode(const DemoSettings& settings, Report& report);

/// 4. Persistent permissions: an "always allow" in the approval store
/// survives a restart and covers that exact call only.
bool runPermissionsMode(const DemoSettings& settings, Report& report);

}  // namespace demo
