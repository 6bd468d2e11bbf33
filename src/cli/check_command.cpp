// `toolguard check`: one call (or JSON Lines with --batch) in, decisions out.
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <iterator>
#include <optional>

#include "cli/bounded_input.hpp"
#include "cli/check_arguments.hpp"
#include "cli/check_deadline.hpp"
#include "cli/claude_mcp_servers.hpp"
#include "cli/claude_permissions.hpp"
#include "cli/commands.hpp"
#include "cli/running_binary.hpp"
#include "cli/sandboxed_command.hpp"
#include "core/model_text.hpp"
#include "core/random_bytes.hpp"
#include "front/call_front.hpp"
#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
#include "front/result_hook.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/expected.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard::cli {
namespace {

// Decides one input text through the front and answers in the check's
// format. Calls no Guard could judge deny (and are remembered for the exit
// code). The front audits every decision, malformed input's too.
struct CheckAnswerer {
  front::GuardSource guards;
  front::InputOptions input;
  front::HookStyle style;
  bool policy_failed = false;
  /// --sandbox: where an allowed shell call is confined and with what (null:
  /// no rewriting), the policy layers its sandbox reads, and the kernel.
  struct SandboxTarget {
    std::vector<std::string> workspaces;
    SandboxSettings settings;
    std::string rule;  ///< the allowing rule, when its own sandbox: adds to the settings
  };
  // The confinement of `call` as the rule `rule_id` allows it ("": before
  // a decision, the policy's own sandbox: section).
  std::function<SandboxTarget(const ToolCall&, const std::string& rule_id)> sandbox_target;
  front::PolicyOptions sandbox_policy;
  SandboxKernel sandbox_kernel;

  // Returns the rendered decision; fails, saying why, when an agent format
  // cannot be answered (the caller then exits 2). The toolguard format
  // always has an answer.
  Expected<nlohmann::json> operator()(const std::string& text) {
    // Claude Code's PostToolUse and Gemini CLI's AfterTool: a result to judge.
    if (std::optional<Expected<front::ResultHook>> result =
            front::readResultHook(text, input.format, input.default_cwd)) {
      if (!*result) return fail("invalid hook input: " + result->error());
      return answerResult(**result);
    }
    return answer(front::decideInput(text, input, guards), text);
  }

  // What a tool returned: told to the user and the model, redacted where the
  // agent takes a replacement, and remembered by the call's session.
  Expected<nlohmann::json> answerResult(const front::ResultHook& hook) {
    std::shared_ptr<SessionRepository> sessions;
    std::string problem;
    if (guards.unavailable.empty()) {
      try {
        const std::shared_ptr<Guard> guard = guards.guard_for(hook.call);
        if (guard) sessions = guard->options().sessions;
      } catch (const std::exception& e) {
        problem = std::string("the session's memory could not be reached: ") + e.what();
      }
    }
    front::ResultSinks sinks;
    sinks.sessions = sessions.get();
    sinks.audit = guards.audit_log.get();
    nlohmann::json answer = front::answerResultHook(hook, input.format, sinks, problem);
    if (!problem.empty()) std::cerr << "toolguard: " << problem << "\n";  // where the user reads it
    return answer;
  }

  // Input that was not read (too large).
  Expected<nlohmann::json> refuse(MalformedCall given) {
    return answer(front::refuseInput(std::move(given), guards), "");
  }

  Expected<nlohmann::json> answer(const front::FrontDecision& r, const std::string& text) {
    const front::CallFormat format = input.format;
    switch (r.outcome) {
      case front::FrontDecision::Outcome::Malformed:
        if (format != front::CallFormat::Toolguard) return fail("invalid hook input: " + r.error);
        return front::renderDecision(r.decision, "", format);
      case front::FrontDecision::Outcome::NotJudged:
        policy_failed = true;
        if (format != front::CallFormat::Toolguard) {
          return fail("policy error:\n" + r.error +
                      (r.audit_problem.empty() ? "" : "\n" + r.audit_problem));
        }
        return front::renderDecision(r.decision, r.call->tool, format);
      case front::FrontDecision::Outcome::Deferred:  // only where decides_here is set
        return fail("internal error: the call was not decided");
      case front::FrontDecision::Outcome::Decided:
        break;
    }
    const ToolCall& call = *r.call;
    const Decision& d = r.decision;
    // Neither Claude Code's settings nor the MCP proxy answers an ask that
    // rests on the session (the rule of two, after:): they have not seen it.
    if (format == front::CallFormat::Claude && !restsOnSession(d)) {
      try {
        // An ask the person already answered in Claude Code's own settings
        // (permissions.allow, "don't ask again"): no decision, so Claude
        // Code's permission flow applies them. A deny is never deferred.
        if (d.verdict == Verdict::Ask && claudeSettingsAllow(call, homeDirectory())) {
          return nlohmann::json::object();
        }
        if (std::optional<Decision> left = leftToTheProxy(d, call, text)) {
          // An explicit allow in both modes: with no opinion (tighten),
          // Claude Code would ask before the proxy asks again.
          front::HookStyle handed_over = style;
          handed_over.allow_is_no_opinion = false;
          return front::renderDecision(*left, call.tool, format, handed_over);
        }
      } catch (const std::exception&) {
        // Claude Code's settings could not be read: the decision stands.
      }
    }
    if (sandbox_target && d.verdict == Verdict::Allow) {
      if (std::optional<nlohmann::json> tool_input = shellToolInput(call, format)) {
        return confined(d, call, std::move(*tool_input));
      }
    }
    return front::renderDecision(d, call.tool, format, style);
  }

  // The tool input of a shell call (Claude Code's Bash, Gemini CLI's
  // run_shell_command) whose command is a string, or nullopt: the call's
  // arguments are the agent's tool_input as it sent it.
  static std::optional<nlohmann::json> shellToolInput(const ToolCall& call,
                                                      front::CallFormat format) {
    if (format != front::CallFormat::Claude && format != front::CallFormat::GeminiHook) {
      return std::nullopt;
    }
    const bool claude = format == front::CallFormat::Claude;
    if (call.tool != (claude ? "Bash" : "run_shell_command") || !call.args.is_object()) {
      return std::nullopt;
    }
    auto command = call.args.find("command");
    if (command == call.args.end() || !command->is_string()) return std::nullopt;
    return call.args;
  }

  // --sandbox: whether this call, if allowed, runs in a sandbox that holds
  // all of what the policy asks, with no network, and writes neither the
  // home directory nor the whole file system: then the workspace's own code
  // may run without a question (rule shell-confined-code).
  bool runsConfined(const ToolCall& call) const {
    if (!sandbox_target || !shellToolInput(call, input.format)) return false;
    const SandboxTarget target = sandbox_target(call, "");
    if ((target.settings.network != SandboxNetwork::None &&
         target.settings.network != SandboxNetwork::Loopback) ||
        !sandboxShortfall(target.settings, sandbox_kernel).empty()) {
      return false;
    }
    const std::string home = homeDirectory();
    for (const std::string& workspace : target.workspaces) {
      const std::string root = workspace.ends_with('/') ? workspace : workspace + "/";
      if (root == "/" || (home + "/").starts_with(root)) return false;
    }
    return true;
  }

  // --sandbox: an allowed shell call runs its command under `toolguard
  // sandbox`, through the agent's own way of changing a tool's input (the
  // rest of the input is kept as the agent sent it). Where this kernel
  // cannot hold what the policy's sandbox asks for and the policy says to
  // ask (sandbox.when_unavailable), the answer is an ask instead: the call
  // is never silently run with less. The audit keeps the policy's decision.
  nlohmann::json confined(const Decision& d, const ToolCall& call,
                          nlohmann::json tool_input) const {
    const front::CallFormat format = input.format;
    const SandboxTarget target = sandbox_target(call, d.rule_id);
    const std::string shortfall = sandboxShortfall(target.settings, sandbox_kernel);
    Decision shown = d;
    if (!shortfall.empty() && target.settings.when_unavailable == SandboxFallback::Ask) {
      shown.verdict = Verdict::Ask;
      shown.reason = "the sandbox cannot hold " + shortfall +
                     " on this kernel, and the policy asks a person then "
                     "(sandbox.when_unavailable); the policy allowed it: " +
                     d.reason;
      auditAnswer(call, d, shown);
      return front::renderDecision(shown, call.tool, format, style);
    }
    if (!shortfall.empty()) shown.reason += " (run in the sandbox without: " + shortfall + ")";
    nlohmann::json answer = front::renderDecision(shown, call.tool, format, style);
    nlohmann::json rewritten = tool_input;
    rewritten["command"] =
        sandboxedShellCommand(runningBinary(), target.workspaces, sandbox_policy,
                              tool_input["command"].get<std::string>(), target.rule);
    if (format == front::CallFormat::Claude) {
      answer["hookSpecificOutput"]["updatedInput"] = std::move(rewritten);
    } else {
      answer["hookSpecificOutput"] = {{"hookEventName", "BeforeTool"},
                                      {"tool_input", std::move(rewritten)}};
    }
    return answer;
  }

  // The audit holds the policy's decision (written by the front); when the
  // agent is answered otherwise, a second record says what it was answered,
  // naming the first (`answers`). Not written: the answer, an ask, stands.
  void auditAnswer(const ToolCall& call, const Decision& decided, Decision answered) const {
    if (!guards.audit_log) return;
    try {
      answered.id = detail::randomHex(16);
      nlohmann::json record = auditRecord(call, answered, std::chrono::system_clock::now());
      record["answers"] = decided.id;
      guards.audit_log->writeRecord(record);
    } catch (const std::exception& e) {
      std::cerr << "toolguard: the answer could not be audited: " << e.what() << "\n";
    }
  }

  // A call of an MCP server that runs behind `toolguard mcp` in the user's
  // Claude Code configuration: the proxy judges it with the same policy and
  // asks there, so an allow or an ask is allowed here, explicitly in either
  // mode (Claude Code does not ask a second time); a deny or an abort is
  // given here as well.
  static std::optional<Decision> leftToTheProxy(const Decision& d, const ToolCall& call,
                                                const std::string& hook_input) {
    if (d.verdict != Verdict::Allow && d.verdict != Verdict::Ask) return std::nullopt;
    if (!call.tool.starts_with("mcp__")) return std::nullopt;
    const nlohmann::json input = nlohmann::json::parse(hook_input, nullptr, false);
    const nlohmann::json hook_server =
        input.is_object() ? input.value("mcp_server", nlohmann::json()) : nlohmann::json();
    std::optional<std::string> server = claudeServerBehindProxy(call, homeDirectory(), hook_server);
    if (!server) return std::nullopt;
    Decision left = d;
    left.verdict = Verdict::Allow;
    left.model_reason.clear();
    left.reason = "left to toolguard mcp, which guards the MCP server \"" + *server +
                  "\" and judges the call there" +
                  (d.verdict == Verdict::Ask ? " (and asks there: " + d.reason + ")" : "");
    return left;
  }
};

// The largest input accepted: the largest argument limit a policy may set,
// plus room for the envelope (tool name, context, hook fields).
constexpr size_t kMaxInputBytes = kMaxArgumentBytes + (size_t{64} << 10);

std::string tooLargeMessage() {
  return "input larger than " + std::to_string(kMaxInputBytes) + " bytes";
}

// The BeforeTool answer when a hook call fails: exit 2 already blocks (stderr
// is the reason); a deny on stdout blocks too in the Gemini CLI revisions that
// read stdout whatever the exit code.
nlohmann::json geminiHookError(const std::string& error) {
  Decision d = front::inputErrorDecision(error);
  d.model_reason = detail::blockedText(error);
  return front::renderDecision(d, "", front::CallFormat::GeminiHook);
}

// The answer when the decision is not ready by the deadline: a deny, on
// stdout (toolguard's own and Gemini's formats; Claude Code reads exit 2 and
// stderr) and stderr, with exit 2, which blocks in both agents.
std::pair<std::string, std::string> lateAnswer(int deadline_s, front::CallFormat format) {
  const std::string why = "no decision within " + std::to_string(deadline_s) +
                          " seconds (--deadline); the call is blocked";
  std::string out;
  if (format != front::CallFormat::Claude) {
    Decision d = front::inputErrorDecision(why);
    d.reason = why;
    d.model_reason = detail::blockedText(why);
    out = front::dumpLine(front::renderDecision(d, "", format)) + "\n";
  }
  return {out, "toolguard: " + why + "\n"};
}

}  // namespace

int runCheck(const CheckOptions& given) {
  CheckOptions o = given;
  if (const char* server = std::getenv("TOOLGUARD_SERVER"); o.server.empty() && server) {
    o.server = server;
  }
  // Every wait ends before the deadline, which ends before the agent's own
  // timeout for the hook (install sets both).
  o.wait_s = boundedWait(o.wait_s, o.deadline_s);
  o.guard.approval_timeout_s = boundedWait(o.guard.approval_timeout_s, o.deadline_s);
  if (o.deadline_s > 0) {
    auto [late_out, late_err] = lateAnswer(o.deadline_s, front::callFormatNamed(o.format));
    startCheckDeadline(o.deadline_s, std::move(late_out), std::move(late_err));
  }
  if (!o.server.empty() && !o.batch) return runRemoteCheck(o);
  // Never torn down: the process ends after its answer, and freeing a policy
  // rule by rule would cost a hook a sixth of its work. (Held by a static, so
  // the leak checker sees it as reachable; audit and approvals, which own
  // files, are closed as usual.)
  static front::EngineProvider* kept_engines = nullptr;
  front::PolicyOptions policy = o.policy;
  // The user's policy files' trees, kept beside the approvals
  // (policy_tree_cache.hpp), only where the built-in guard-config-locations
  // rule denies agents every write: toolguard's home as $TOOLGUARD_HOME or
  // the default names it, absolute (not a --home given on the command line).
  if (const std::string home = toolguardHome(); o.guard.home.empty() && home.starts_with('/')) {
    policy.tree_cache_dir = home + "/cache/policy-trees";
  }
  // The approvals and the audit log of a --home are guarded like the default's.
  if (!o.guard.home.empty()) policy.guarded_dirs.push_back(o.guard.home);
  kept_engines = new front::EngineProvider(policy);
  front::EngineProvider& engines = *kept_engines;
  std::unique_ptr<front::GuardProvider> guards;
  CheckAnswerer answerer;
  try {
    guards = std::make_unique<front::GuardProvider>(o.guard);
    answerer.guards.audit_log = guards->auditLog();
    answerer.guards.guard_for = [&engines, provider = guards.get()](const ToolCall& call) {
      return provider->forProject(engines.forCwd(call.context.cwd));
    };
  } catch (const std::exception& e) {
    answerer.guards.unavailable =
        std::string("approvals and audit could not be set up: ") + e.what();
  }
  answerer.input = {front::callFormatNamed(o.format), o.format, front::currentDirectory(), {}};
  if (o.sandbox) {
    answerer.input.adjust = [&answerer](ToolCall& call) {
      call.context.confined = answerer.runsConfined(call);
    };
  }
  answerer.style = hookStyleOf(o);
  if (o.sandbox) {
    answerer.sandbox_policy = o.policy;
    answerer.sandbox_kernel = probeSandboxKernel();
    if (!o.sandbox_kernel_limit.empty()) {
      answerer.sandbox_kernel = limitSandboxKernel(
          answerer.sandbox_kernel, *parseSandboxKernelLimit(o.sandbox_kernel_limit));
    }
    answerer.sandbox_target = [&engines](const ToolCall& call, const std::string& rule_id) {
      // The project the call is made in (its root, as the policy found it),
      // the call's own workspaces and Claude Code's project directory; the
      // cwd when there is none.
      std::vector<std::string> roots;
      auto add = [&roots](const std::string& root) {
        if (root.starts_with('/') && std::find(roots.begin(), roots.end(), root) == roots.end()) {
          roots.push_back(root);
        }
      };
      try {
        for (const auto& root : engines.forCwd(call.context.cwd).project_roots) add(root.string());
      } catch (const std::exception&) {
        // The policy did not load: the call was not allowed either.
      }
      for (const std::string& root : call.context.workspace_roots) add(root);
      if (const char* project = std::getenv("CLAUDE_PROJECT_DIR")) add(project);
      if (roots.empty()) add(call.context.cwd);
      SandboxSettings settings;
      std::string rule;
      try {
        const Policy& policy = engines.forCwd(call.context.cwd).engine.policy();
        settings = sandboxSettingsOf(policy);
        if (policy.rule_sandbox_grants.contains(rule_id)) {
          settings = *sandboxSettingsFor(policy, rule_id);
          rule = rule_id;
        }
      } catch (const std::exception&) {
        settings = defaultSandboxSettings();  // the call was allowed, so the policy loaded
      }
      return CheckAnswerer::SandboxTarget{std::move(roots), std::move(settings), std::move(rule)};
    };
  }
  if (o.batch) {
    std::string line;
    bool too_large = false;
    size_t line_bytes = 0;
    while (readBoundedLine(std::cin, kMaxInputBytes, line, too_large, kMaxRecordedInputBytes,
                           &line_bytes)) {
      if (!too_large && line.find_first_not_of(" \t\r") == std::string::npos) continue;
      nlohmann::json out;
      try {
        // --batch reads only the toolguard format, which always has an answer;
        // were there none, the line is denied like any failure.
        Expected<nlohmann::json> answered =
            too_large ? answerer.refuse(
                            MalformedCall{line, true, line_bytes, tooLargeMessage(), o.format})
                      : answerer(line);
        out = answered ? std::move(*answered)
                       : front::renderDecision(front::inputErrorDecision(answered.error()), "",
                                               front::CallFormat::Toolguard);
      } catch (const std::exception& e) {  // one bad line never stops the others
        out = front::renderDecision(
            front::inputErrorDecision(std::string("internal error: ") + e.what()), "",
            front::CallFormat::Toolguard);
      }
      std::cout << front::dumpLine(out) << '\n' << std::flush;
    }
    return answerer.policy_failed ? kExitError : kExitOk;
  }
  std::string text;
  const Expected<nlohmann::json> out =
      readBounded(std::cin, kMaxInputBytes, text, kMaxRecordedInputBytes)
          ? answerer(text)
          : answerer.refuse(MalformedCall{text, true, 0, tooLargeMessage(), o.format});
  claimCheckAnswer();
  if (!out) {
    std::cerr << "toolguard: " << out.error() << "\n";
    if (answerer.input.format == front::CallFormat::GeminiHook) {
      std::cout << front::dumpLine(geminiHookError(out.error())) << '\n';
    }
    return kExitError;
  }
  std::cout << front::dumpLine(*out) << '\n';
  if (answerer.input.format == front::CallFormat::GeminiHook &&
      out->value("decision", "") == "deny") {
    // Read by the Gemini CLI revisions that take a blocking reason from stderr.
    std::cerr << "toolguard: " << out->value("reason", "") << "\n";
  }
  return answerer.policy_failed ? kExitError : kExitOk;
}

void addCheckCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Read one tool call as JSON on stdin and print the decision as JSON.\n"
      "Input: {\"tool\": NAME, \"args\": {...}, \"context\": {\"cwd\": DIR, \"agent\": ..., "
      "\"session\": ..., \"model\": ..., \"role\": ..., \"mode\": \"interactive\"|\"headless\"}}\n"
      "Output: {\"verdict\": allow|ask|deny|abort, \"reason\", \"model_reason\", \"rule\", "
      "\"source\", \"approval\", ...}. Malformed input (including a key twice in one object) is "
      "denied, never a crash.\n"
      "An ask is settled by remembered approvals (toolguard approvals); with --prompt a "
      "person is asked on the terminal, else ask is reported. Headless calls never ask. "
      "Every decision is appended to the audit log, denials of malformed input too (their "
      "first 4 KiB, redacted).");
  addCheckOptions(*cmd, *options);
  cmd->callback([options, &exit_code] {
    if (std::string problem = checkOptionsProblem(*options); !problem.empty()) {
      throw CLI::ValidationError(problem);
    }
    exit_code = runCheck(*options);
  });
}

}  // namespace toolguard::cli
