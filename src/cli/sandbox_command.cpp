// `toolguard sandbox [--workspace DIR]... -- COMMAND...`: runs COMMAND where
// the kernel holds it, as the policy's `sandbox:` section says
// (docs/sandbox.md).
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>

#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "core/random_bytes.hpp"
#include "front/policy_options.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard::cli {
namespace {

// The command was not run: the sandbox could not be set up, the kernel cannot
// hold what the policy asks and it says to ask, or the program was not found.
constexpr int kExitNotRun = 126;

struct SandboxOptions {
  front::PolicyOptions policy;
  std::vector<std::string> workspaces;
  bool explain = false;
  std::string rule;
  std::string kernel_limit;
  std::vector<std::string> command;
};

void printReport(const SandboxReport& report, std::ostream& out) {
  const SandboxKernel& kernel = report.kernel;
  out << "kernel: Landlock ABI " << kernel.landlock_abi << ", seccomp "
      << (kernel.seccomp ? "yes" : "no") << ", user namespaces "
      << (kernel.user_namespaces ? "yes" : "no") << "\n";
  for (const SandboxPart& part : report.parts) {
    out << (part.held ? "  held:     " : "  NOT HELD: ") << part.what << " (" << part.why << ")\n";
  }
}

// Records each request through the sandbox's proxy in the audit log (tool
// "sandbox-network", arguments method, host and port, verdict allow or
// deny). The log is opened at the first request; a request that cannot be
// recorded is refused (the failure is said once on stderr).
std::function<bool(const SandboxConnection&)> proxyAuditor() {
  struct State {
    std::mutex mutex;
    std::unique_ptr<AuditLog> log;
    bool failed = false;
  };
  auto state = std::make_shared<State>();
  return [state](const SandboxConnection& connection) {
    ToolCall call;
    call.tool = "sandbox-network";
    call.args = {
        {"method", connection.method}, {"host", connection.host}, {"port", connection.port}};
    Decision decision;
    decision.verdict = decision.policy_verdict =
        connection.allowed ? Verdict::Allow : Verdict::Deny;
    decision.reason = connection.reason;
    decision.rule_id = "sandbox.hosts";
    decision.basis = DecisionBasis::Rule;
    decision.id = detail::randomHex(16);
    std::lock_guard lock(state->mutex);
    if (state->failed) return false;
    try {
      if (!state->log) {
        AuditLogOptions options;
        options.path = toolguardHome() + "/audit.jsonl";
        state->log = std::make_unique<AuditLog>(auditLogOptionsFromEnvironment(options));
      }
      state->log->write(call, decision);
      return true;
    } catch (const std::exception& e) {
      state->failed = true;
      std::cerr << "toolguard sandbox: the audit log cannot be written, the proxy refuses every "
                   "request: "
                << e.what() << "\n";
      return false;
    }
  };
}

int runSandbox(const SandboxOptions& o) {
  const std::string cwd = front::currentDirectory();
  SandboxRequest request;
  request.home = homeDirectory();
  request.command = o.command;
  request.on_connection = proxyAuditor();
  for (const std::string& workspace : o.workspaces) {
    request.workspaces.push_back(workspace.starts_with("/") ? workspace : cwd + "/" + workspace);
  }
  if (request.workspaces.empty()) request.workspaces.push_back(cwd);
  if (!o.kernel_limit.empty()) {
    Expected<SandboxKernel> limit = parseSandboxKernelLimit(o.kernel_limit);
    if (!limit) {
      std::cerr << "toolguard sandbox: --kernel-limit: " << limit.error() << "\n";
      return kExitError;
    }
    request.kernel_limit = *limit;
  }
  SandboxSettings settings;
  try {
    front::EngineProvider engines(o.policy);
    const Policy& policy = engines.forCwd(cwd).engine.policy();
    if (o.rule.empty()) {
      settings = sandboxSettingsOf(policy);
    } else if (std::optional<SandboxSettings> granted = sandboxSettingsFor(policy, o.rule)) {
      settings = std::move(*granted);
    } else {
      std::cerr << "toolguard sandbox: --rule " << o.rule << ": the policy has no such rule\n";
      return kExitNotRun;
    }
  } catch (const PolicyError& e) {
    std::cerr << "toolguard sandbox: the policy could not be loaded:\n" << e.what() << "\n";
    return kExitNotRun;
  } catch (const std::exception& e) {
    std::cerr << "toolguard sandbox: " << e.what() << "\n";
    return kExitNotRun;
  }
  if (o.explain) {
    Expected<SandboxReport> report = describeSandbox(settings, request);
    if (!report) {
      std::cerr << "toolguard " << report.error() << "\n";
      return kExitError;
    }
    printReport(*report, std::cout);
    return report->complete() ? kExitOk : kExitFailed;
  }
  // The command takes this process's place where nothing is left to do
  // after it (no proxy to serve).
  Expected<int> status = execSandboxed(settings, request, [](const SandboxReport& report) {
    if (!report.complete()) {
      // Run anyway, as the policy allows (sandbox.when_unavailable: unconfined).
      std::cerr << "toolguard sandbox: runs with parts not held: " << report.missing() << "\n";
    }
    std::cout.flush();
  });
  if (!status) {
    std::cerr << "toolguard " << status.error() << "\n";
    return kExitNotRun;
  }
  return *status;
}

}  // namespace

void addSandboxCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SandboxOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sandbox",
      "Run a command where the kernel holds it: toolguard sandbox [OPTIONS] -- COMMAND "
      "[ARGS...]\nCOMMAND and everything it starts may write only in the workspaces, a private "
      "TMPDIR and the tool caches the policy names; guarded places in the workspaces stay "
      "read-only; secrets cannot be read; no network unless the policy opens it (Landlock, "
      "seccomp, a private mount and network namespace; docs/sandbox.md). Exit: COMMAND's "
      "status, or 126 when it was not run (the sandbox could not be set up).");
  cmd->add_option("--workspace", options->workspaces,
                  "A directory the command may write in (repeatable). Default: the current "
                  "directory")
      ->allow_extra_args(false);
  cmd->add_flag("--explain", options->explain,
                "Print what the sandbox would hold on this kernel, part by part, and run "
                "nothing (exit 1 when a part cannot be held)");
  cmd->add_option("--rule", options->rule,
                  "Add what this rule's own sandbox: grants (its writable places and hosts) to "
                  "the policy's sandbox: section; a hook installed with --sandbox yes passes "
                  "the rule that allowed the call");
  cmd->add_option("--kernel-limit", options->kernel_limit,
                  "Use at most these of the kernel's features, to see what an older kernel "
                  "gives: landlock=N,seccomp=yes|no,userns=yes|no (any of them)");
  addPolicyOptions(*cmd, options->policy);
  cmd->add_option("command", options->command, "The command line, after --");
  cmd->callback([options, &exit_code] {
    if (options->command.empty() && !options->explain) {
      std::cerr << "toolguard sandbox: no command (toolguard sandbox -- COMMAND [ARGS...])\n";
      exit_code = kExitError;
      return;
    }
    if (options->command.empty()) options->command = {"true"};
    exit_code = runSandbox(*options);
  });
}

}  // namespace toolguard::cli
