// `toolguard check`'s options, through CLI11 or read directly.
#include "cli/check_arguments.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <string_view>

#include "cli/option_flags.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard::cli {
namespace {

constexpr std::array<std::string_view, 4> kFormats = {"toolguard", "claude", "gemini",
                                                      "gemini-hook"};

bool isFormat(std::string_view value) {
  for (std::string_view f : kFormats) {
    if (f == value) return true;
  }
  return false;
}

// 1 to 86400 written plainly (CLI11 also reads 0x.. and 0.. forms, and
// those are left to it).
std::optional<int> plainTimeout(std::string_view text) {
  if (text.empty() || text.size() > 5 || text[0] < '1' || text[0] > '9') return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > 86400) return std::nullopt;
  return value;
}

}  // namespace

void addCheckOptions(CLI::App& command, CheckOptions& options) {
  command
      .add_option(
          "--format", options.format,
          "Input and output format: toolguard, claude (a Claude Code PreToolUse hook), "
          "gemini (a Gemini CLI safety checker), gemini-hook (a Gemini CLI BeforeTool "
          "hook: allow or deny, ask is answered deny unless --agent-asks, abort also stops the "
          "agent)")
      ->check(CLI::IsMember(std::vector<std::string>(kFormats.begin(), kFormats.end())));
  command.add_flag("--batch", options.batch,
                   "Read JSON Lines, print one decision per line, in order (toolguard format)");
  command.add_option("--server", options.server,
                     "Send the call to `toolguard serve` at URL (http://HOST:PORT, unix:/PATH or "
                     "https://...) instead of deciding here; the token is read from "
                     "TOOLGUARD_TOKEN. Unreachable, slow or garbled: deny (fail closed). "
                     "Default: $TOOLGUARD_SERVER");
  command
      .add_option("--wait", options.wait_s,
                  "With --server: how long an ask may wait for a person in the service's "
                  "queue, seconds (0: report ask)")
      ->check(CLI::Range(0, 86400));
  command
      .add_option("--mode", options.mode,
                  "With --format claude: decide (toolguard's allow skips Claude Code's prompt) "
                  "or tighten (toolguard's allow is no opinion: Claude Code's own permissions "
                  "decide); deny and ask are the same in both")
      ->check(CLI::IsMember({"decide", "tighten"}));
  command.add_flag("--agent-asks", options.agent_asks,
                   "With --format gemini-hook: answer an ask with \"ask\" (Gemini CLI 0.36 and "
                   "later show their confirmation prompt) instead of a deny");
  command.add_flag("--defer-headless-asks", options.defer_headless_asks,
                   "With --format claude: in a non-interactive run (claude -p, the Agent SDK) "
                   "answer an ask with \"defer\" (Claude Code 2.1.89+ stops the run so the program "
                   "that started it can ask its user and resume it); an interactive session "
                   "still gets ask");
  command.add_flag("--sandbox", options.sandbox,
                   "With --format claude (and --mode decide) or gemini-hook: answer an allowed "
                   "shell call with its command rewritten to run under `toolguard sandbox` "
                   "(the workspaces, the policy's sandbox: section; docs/sandbox.md)");
  command.add_option("--sandbox-kernel-limit", options.sandbox_kernel_limit,
                     "With --sandbox: use at most these kernel features, to see what an older "
                     "kernel gives (landlock=N,seccomp=yes|no,userns=yes|no)");
  command
      .add_option("--deadline", options.deadline_s,
                  "Answer within SECONDS whatever waits: a call not decided by then is denied, "
                  "and --wait / --approval-timeout are bounded below it (0: none)")
      ->check(CLI::Range(0, 86400));
  addPolicyOptions(command, options.policy);
  addGuardOptions(command, options.guard);
}

std::string checkOptionsProblem(const CheckOptions& options) {
  if (options.batch && options.format != "toolguard")
    return "--batch: only with --format toolguard";
  if (options.batch && !options.server.empty()) return "--batch: not with --server";
  if (options.batch && options.deadline_s > 0) return "--batch: not with --deadline";
  if (options.mode != "decide" && options.format != "claude")
    return "--mode: only with --format claude";
  if (options.agent_asks && options.format != "gemini-hook") {
    return "--agent-asks: only with --format gemini-hook";
  }
  if (options.defer_headless_asks && options.format != "claude") {
    return "--defer-headless-asks: only with --format claude";
  }
  if (options.sandbox && options.format != "claude" && options.format != "gemini-hook") {
    return "--sandbox: only with --format claude or gemini-hook";
  }
  if (!options.sandbox_kernel_limit.empty() &&
      (!options.sandbox || !parseSandboxKernelLimit(options.sandbox_kernel_limit))) {
    return "--sandbox-kernel-limit: only with --sandbox, as "
           "landlock=N,seccomp=yes|no,userns=yes|no";
  }
  if (options.sandbox && options.format == "claude" && options.mode == "tighten") {
    return "--sandbox: only with --mode decide (an allow that is no opinion cannot rewrite the "
           "command)";
  }
  return "";
}

bool claudeRunIsHeadless(const char* entrypoint) {
  // Claude Code sets CLAUDE_CODE_ENTRYPOINT for its hooks: "cli" in an
  // interactive session, "sdk-cli" under -p, "sdk-ts" / "sdk-py" from the
  // Agent SDKs. Anything else (unset, an IDE) is taken as interactive,
  // where Claude Code ignores defer and its own permissions would decide.
  return entrypoint != nullptr && std::string_view(entrypoint).starts_with("sdk-");
}

front::HookStyle hookStyleOf(const CheckOptions& options) {
  front::HookStyle style;
  style.allow_is_no_opinion = options.format == "claude" && options.mode == "tighten";
  style.agent_asks = options.format == "gemini-hook" && options.agent_asks;
  style.ask_is_defer = options.format == "claude" && options.defer_headless_asks &&
                       claudeRunIsHeadless(std::getenv("CLAUDE_CODE_ENTRYPOINT"));
  return style;
}

int boundedWait(int wait_s, int deadline_s) {
  if (deadline_s <= 0) return wait_s;
  // The check's own work before and after the wait (policy, audit, answer).
  constexpr int kOwnWorkS = 5;
  return std::max(0, std::min(wait_s, deadline_s - kOwnWorkS));
}

std::optional<CheckOptions> readPlainCheckArguments(int argc, const char* const* argv) {
  CheckOptions o;
  std::set<std::string_view> seen;  // a repeated single option is CLI11's to judge
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.substr(0, 2) != "--") return std::nullopt;
    std::string_view name = arg, value;
    bool has_value = false;
    if (const size_t equals = arg.find('='); equals != std::string_view::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
      has_value = true;
    }
    const bool repeatable = name == "--policy" || name == "--profile";
    if (!repeatable && !seen.insert(name).second) return std::nullopt;
    bool* flag = name == "--batch"                 ? &o.batch
                 : name == "--agent-asks"          ? &o.agent_asks
                 : name == "--defer-headless-asks" ? &o.defer_headless_asks
                 : name == "--sandbox"             ? &o.sandbox
                 : name == "--prompt"              ? &o.guard.prompt
                 : name == "--no-audit"            ? &o.guard.no_audit
                 : name == "--no-builtin"          ? &o.policy.no_builtin
                 : name == "--no-user"             ? &o.policy.no_user
                 : name == "--no-project"          ? &o.policy.no_project
                 : name == "--no-managed"          ? &o.policy.no_managed
                                                   : nullptr;
    if (flag != nullptr) {
      if (has_value) return std::nullopt;  // `--no-user=false` and the like
      *flag = true;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) return std::nullopt;
      value = argv[++i];
    }
    // A value that looks like an option, or none: CLI11 decides what it means.
    if (value.empty() || value[0] == '-') return std::nullopt;
    if (name == "--format" && isFormat(value)) {
      o.format = value;
    } else if (name == "--mode" && (value == "decide" || value == "tighten")) {
      o.mode = value;
    } else if (std::optional<int> deadline = plainTimeout(value);
               name == "--deadline" && deadline) {
      o.deadline_s = *deadline;
    } else if (name == "--home") {
      o.guard.home = value;
    } else if (name == "--server") {
      o.server = value;
    } else if (std::optional<int> wait = plainTimeout(value); name == "--wait" && wait) {
      o.wait_s = *wait;
    } else if (name == "--audit-log") {
      o.guard.audit_log = value;
    } else if (name == "--project") {
      o.policy.project = value;
    } else if (name == "--policy") {
      o.policy.policy_files.emplace_back(value);
    } else if (name == "--profile" && policyProfileText(value) != nullptr) {
      o.policy.profiles.emplace_back(value);
    } else if (std::optional<int> seconds = plainTimeout(value);
               name == "--approval-timeout" && seconds) {
      o.guard.approval_timeout_s = *seconds;
    } else {
      return std::nullopt;
    }
  }
  if (!checkOptionsProblem(o).empty()) return std::nullopt;
  return o;
}

}  // namespace toolguard::cli
