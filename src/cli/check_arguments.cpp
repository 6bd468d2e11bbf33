// `toolguard check`'s options, through CLI11 or read directly.
#include "cli/check_arguments.hpp"

#include <array>
#include <set>
#include <string_view>

#include "cli/option_flags.hpp"
#include "toolguard/policy_builder.hpp"

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
      .add_option("--format", options.format,
                  "Input and output format: toolguard, claude (a Claude Code PreToolUse hook), "
                  "gemini (a Gemini CLI safety checker), gemini-hook (a Gemini CLI BeforeTool "
                  "hook: allow or deny, ask is answered deny, abort also stops the agent)")
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
  addPolicyOptions(command, options.policy);
  addGuardOptions(command, options.guard);
}

std::string checkOptionsProblem(const CheckOptions& options) {
  if (options.batch && options.format != "toolguard") return "only with --format toolguard";
  if (options.batch && !options.server.empty()) return "not with --server";
  return "";
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
    bool* flag = name == "--batch"        ? &o.batch
                 : name == "--prompt"     ? &o.guard.prompt
                 : name == "--no-audit"   ? &o.guard.no_audit
                 : name == "--no-builtin" ? &o.policy.no_builtin
                 : name == "--no-user"    ? &o.policy.no_user
                 : name == "--no-project" ? &o.policy.no_project
                 : name == "--no-managed" ? &o.policy.no_managed
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
