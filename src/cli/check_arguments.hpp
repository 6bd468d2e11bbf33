#pragma once
// The options of `toolguard check`, read by CLI11 or, for the plain forms a
// hook is configured with, directly: a hook starts one check process per tool
// call, and building CLI11's parser for check's dozen options was a tenth of
// such a process (140k of 1.3M instructions).

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "front/call_json.hpp"
#include "front/guard_options.hpp"
#include "front/policy_options.hpp"

namespace toolguard::cli {

/// What `toolguard check` was asked to do.
struct CheckOptions {
  front::PolicyOptions policy;
  front::GuardCliOptions guard;
  std::string format = "toolguard";
  bool batch = false;
  /// --server URL: send the call to `toolguard serve` there instead of
  /// deciding here (else $TOOLGUARD_SERVER; the token in $TOOLGUARD_TOKEN).
  std::string server;
  /// --wait SECONDS: how long an ask may wait there for a person (0: it is
  /// reported as ask, as a local check reports it).
  int wait_s = 0;
  /// --mode tighten (claude format): an allow is answered with no opinion,
  /// so Claude Code's own permissions decide; "decide" (the default): an
  /// allow skips Claude Code's prompt.
  std::string mode = "decide";
  /// --agent-asks (gemini-hook format): an ask is answered "ask", which
  /// Gemini CLI 0.36 and later turn into its confirmation prompt (older
  /// revisions would run the call, so by default an ask is a deny).
  bool agent_asks = false;
  /// --defer-headless-asks (claude format): in a non-interactive Claude Code
  /// run (claude -p, the Agent SDK: CLAUDE_CODE_ENTRYPOINT starts with
  /// "sdk-"), an ask is answered "defer", so the program that runs Claude
  /// Code can ask its user and resume; an interactive session still gets ask.
  bool defer_headless_asks = false;
  /// --sandbox (claude with --mode decide, gemini-hook): an allowed shell
  /// call is answered with its command rewritten to run under `toolguard
  /// sandbox` (Claude Code's updatedInput, Gemini CLI's tool_input).
  bool sandbox = false;
  /// --sandbox-kernel-limit SPEC: with --sandbox, use at most these kernel
  /// features (`landlock=N,seccomp=no,userns=no`), to see what an older
  /// kernel gives.
  std::string sandbox_kernel_limit;
  /// --deadline SECONDS: the answer is given within this time whatever waits
  /// (a deny when the decision is not ready; --wait and --approval-timeout
  /// are bounded below it). 0: no deadline. `install` sets it below the
  /// hook's timeout, so the agent never kills a check that is still deciding.
  int deadline_s = 0;
};

/// The hook answer's shape the options ask for (--mode, --agent-asks).
front::HookStyle hookStyleOf(const CheckOptions& options);

/// Whether Claude Code's CLAUDE_CODE_ENTRYPOINT (null when unset) names a
/// non-interactive run (claude -p, the Agent SDKs), where it honours defer.
bool claudeRunIsHeadless(const char* entrypoint);

/// The longest `--wait` / `--approval-timeout` under `deadline_s`: what is
/// left once the check's own work (a few seconds at most) is set aside.
int boundedWait(int wait_s, int deadline_s);

/// Adds check's options to `command` (CLI11: help, mistakes, every form).
void addCheckOptions(CLI::App& command, CheckOptions& options);

/// Check's arguments (those after "check") read without CLI11 when each is
/// a plain form: a known flag once, `--name VALUE` or `--name=VALUE` with a
/// value CLI11 would take as it is. nullopt for anything else (help, a
/// mistake, a repeated option, a value that needs converting): CLI11 then
/// reads them, so both ways always agree (a unit test compares them).
std::optional<CheckOptions> readPlainCheckArguments(int argc, const char* const* argv);

/// The options' own rule that CLI11 checks after parsing: "" when they fit
/// together, else the message.
std::string checkOptionsProblem(const CheckOptions& options);

}  // namespace toolguard::cli
