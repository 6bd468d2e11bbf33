// The decision engine: strictest finding wins, then tool policy, then default.
#include "toolguard/engine.hpp"

#include <algorithm>
#include <exception>

#include "core/mcp_tool_arguments.hpp"
#include "core/model_text.hpp"
#include "core/rule_conditions.hpp"
#include "core/tool_name.hpp"
#include "engine/argument_stage.hpp"
#include "engine/session_judgement.hpp"
#include "json/compact_dump.hpp"
#include "paths/file_glance.hpp"
#include "rule_judging.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {
namespace detail {

CompiledPolicy::CompiledPolicy(Policy p)
    : policy(std::move(p)),
      index(policy.rules),
      tools_by_lowercase_name(toolsByLowercaseName(policy.tools)) {
  is_path_rule.assign(policy.rules.size(), false);
  for (uint32_t i = 0; i < policy.rules.size(); ++i) {
    if (!restrictsPathByPath(*policy.rules[i])) continue;
    path_rules.push_back(i);
    is_path_rule[i] = true;
  }
  for (const ToolInfo* tool : policy.tools.all()) {
    if (tool->input_schema.is_null()) continue;
    try {
      schemas.emplace(tool->name, JsonSchema::compile(tool->input_schema));
    } catch (const std::exception& e) {
      schemas.emplace(tool->name, std::string(e.what()));
    }
  }
}

CompiledPolicy::~CompiledPolicy() = default;

const CompiledLabels& CompiledPolicy::labels() const {
  std::call_once(labels_once_,
                 [this] { labels_ = std::make_unique<const CompiledLabels>(policy.label_rules); });
  return *labels_;
}

const std::vector<PathExample>& CompiledPolicy::pathExamples() const {
  std::call_once(path_examples_once_, [this] {
    const std::string home = homeDirectory();
    for (uint32_t i : path_rules) {
      for (const std::string& glob : policy.rules[i]->pathGlobs()) {
        for (PathExample& ex : examplesOfGlob(glob, home)) {
          const bool known = std::any_of(
              path_examples_.begin(), path_examples_.end(), [&](const PathExample& other) {
                return other.text == ex.text && other.anchored == ex.anchored;
              });
          if (!known) path_examples_.push_back(std::move(ex));
        }
      }
    }
  });
  return path_examples_;
}

}  // namespace detail

namespace {

std::string modelReasonFor(const Decision& d) {
  std::string who = d.rule_id.empty() ? std::string(toString(d.basis)) : "rule " + d.rule_id;
  switch (d.verdict) {
    case Verdict::Allow:
      return "";
    case Verdict::Escalate:
    case Verdict::Ask:
      return detail::needsApprovalText(d.reason, who);
    case Verdict::Deny:
      return detail::blockedNoRetryText(d.reason, who);
    case Verdict::Abort:
      return detail::stoppedText(d.reason, who);
  }
  return d.reason;
}

Decision errorDecision(std::string message) {
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Deny;
  d.basis = DecisionBasis::Error;
  d.reason = std::move(message);
  d.source = SourceLocation{"<engine>", 0, 0};
  d.model_reason = modelReasonFor(d);  // no approval key: nothing can approve a broken call
  return d;
}

// For a program with no Guard: nothing settles escalate or ask after the engine.
void resolveWithoutGuard(Decision& d, const ToolCall& call) {
  if (d.verdict == Verdict::Escalate) {
    d.verdict = Verdict::Ask;
    d.resolution = "escalate becomes ask: no LLM validator is configured";
  }
  if (d.verdict == Verdict::Ask && call.context.mode == InteractionMode::Headless) {
    d.verdict = Verdict::Deny;
    if (!d.resolution.empty()) d.resolution += "; ";
    d.resolution += "ask becomes deny: the call is headless, no one can approve it";
  }
}

}  // namespace

ViewedCall::ViewedCall(ToolCall call, const ToolInfo* tool, std::optional<ToolInfo> owned_tool,
                       PathOptions paths, const std::vector<std::string>* extra_roots,
                       std::shared_ptr<const void> keep_alive)
    : call_(std::move(call)),
      owned_tool_(std::move(owned_tool)),
      keep_alive_(std::move(keep_alive)),
      view_(std::make_unique<CallView>(call_, owned_tool_ ? *owned_tool_ : *tool, paths,
                                       extra_roots)) {}

ViewedCall::~ViewedCall() = default;

Engine::Engine(Policy policy)
    : compiled_(std::make_shared<const detail::CompiledPolicy>(std::move(policy))) {}

const Policy& Engine::policy() const {
  return compiled_->policy;
}

const ToolInfo& Engine::toolInfo(std::string_view name) const {
  return compiled_->policy.tools.resolve(name);
}

std::string cwdBinding(const CallView& view) {
  if (view.call().context.cwd.empty() || !view.dependsOnCwd()) return "";
  // The cwd normalized (it is the first workspace root), not resolved:
  // following its symlinks costs a system call per component on every
  // shell decision (measured: a Bash decision took half as long again).
  // Two spellings of one directory are then two bindings, which only asks more.
  return " in " + view.workspaceRoots().front();
}

std::string approvalKey(const ToolCall& call) {
  std::string key;
  key.reserve(call.tool.size() + 64);
  key += call.tool;
  key += ' ';
  detail::appendCompactDump(key, call.args);
  return key;
}

namespace {

// The policy's judgement of a call: its shape, the rules, then the tool's
// policy and the default; a path no tool should be given is denied.
// `binding` receives the directory an exact approval of the call binds to.
Assessment assessCall(const std::shared_ptr<const detail::CompiledPolicy>& shared,
                      const ToolCall& call, std::string& binding) {
  const detail::CompiledPolicy& compiled = *shared;
  const Policy& policy = compiled.policy;
  if (Expected<void> shape = detail::checkArgumentShape(call, policy.limits); !shape) {
    return {errorDecision(shape.error()), nullptr};
  }
  // An MCP tool the policy's catalog does not list (a hook call names it
  // without its schema) is read as the MCP proxy reads a listed one:
  // arguments named like paths are path accesses, one named like a command
  // is a shell command.
  std::optional<ToolInfo> inferred;
  if (call.tool.starts_with("mcp__") && policy.tools.find(call.tool) == nullptr) {
    inferred = detail::mcpToolFromArguments(call, policy.default_verdict);
  }
  const ToolInfo& info = inferred ? *inferred : policy.tools.resolve(call.tool);
  if (Expected<void> names = detail::checkArgumentNames(call, info); !names) {
    return {errorDecision(names.error()), nullptr};
  }
  auto subject = std::make_shared<const ViewedCall>(call, &info, std::move(inferred),
                                                    policy.paths.pathOptions(),
                                                    &policy.paths.workspace_roots, shared);
  const CallView& view = subject->view();
  if (const std::optional<std::string>& bad_path = view.pathError()) {
    return {errorDecision(*bad_path), std::move(subject)};
  }
  Assessment a{Decision{}, std::move(subject)};
  detail::judgeRules(compiled, view, a.decision);
  binding = cwdBinding(view);
  return a;
}

}  // namespace

Decision Engine::decide(const ToolCall& call) const {
  Decision d = assess(call).decision;
  if (d.basis == DecisionBasis::Error) return d;
  resolveWithoutGuard(d, call);
  d.model_reason = modelReasonFor(d);
  return d;
}

Assessment Engine::assess(const ToolCall& call) const {
  try {
    if (call.tool.empty()) return {errorDecision("the call has no tool name"), nullptr};
    // A host that compares names as C strings would run "Bash" for "Bash\0...";
    // white space (tabs, newlines) is judged below as the tool it pads.
    if (std::any_of(call.tool.begin(), call.tool.end(), [](char c) {
          const auto byte = static_cast<unsigned char>(c);
          return (byte < 0x20 && (byte < '\t' || byte > '\r')) || byte == 0x7f;
        })) {
      return {errorDecision("the tool name holds a control character"), nullptr};
    }
    // A name that imitates a known tool is that tool (BASH, "Bash "), or,
    // when it hides the imitation (zero-width, full-width), refused.
    if (auto imitation = detail::imitatedTool(call.tool, compiled_->policy.tools,
                                              compiled_->tools_by_lowercase_name)) {
      if (imitation->disguised) {
        return {errorDecision("the tool name imitates '" + imitation->tool +
                              "' with invisible or look-alike characters"),
                nullptr};
      }
      ToolCall as_known = call;
      as_known.tool = imitation->tool;
      Assessment a = assess(as_known);
      // The same key (arguments, directory), under the name the call used.
      Decision& d = a.decision;
      d.approval_key = d.approval_key.starts_with(as_known.tool + ' ')
                           ? call.tool + d.approval_key.substr(as_known.tool.size())
                           : approvalKey(call);
      return a;
    }
    const detail::FileGlance glance;  // each place looked up once per decision
    std::string binding;
    Assessment a = assessCall(compiled_, call, binding);
    if (a.decision.basis == DecisionBasis::Error) return a;
    Decision& d = a.decision;
    if (!isFinal(d.policy_verdict)) {
      detail::ArgumentOutcome checked = detail::checkArguments(*compiled_, call);
      if (checked.rejection) {
        d.basis = DecisionBasis::Arguments;
        d.policy_verdict = Verdict::Deny;
        d.reason = std::move(*checked.rejection);
        d.rule_id.clear();
        d.source = SourceLocation{"<arguments>", 0, 0};
        d.decided_on.clear();
      } else if (checked.sanitized) {
        // The tool runs with the sanitized arguments: judge those too, and
        // keep the stricter judgement; the call viewed is the one that runs.
        ToolCall sanitized = call;
        sanitized.args = std::move(*checked.sanitized);
        std::string sanitized_binding;
        Assessment again = assessCall(compiled_, sanitized, sanitized_binding);
        if (again.decision.basis == DecisionBasis::Error) return again;
        binding = std::move(sanitized_binding);  // the key binds what will run
        a.subject = std::move(again.subject);
        // The sanitized judgement describes what will run: it stands unless
        // the original one was stricter.
        if (!isStricter(d.policy_verdict, again.decision.policy_verdict)) {
          d = std::move(again.decision);
        }
        d.sanitized_args = std::move(sanitized.args);
      }
    }
    d.verdict = d.policy_verdict;
    d.approval_key = d.sanitized_args ? approvalKey(ToolCall{call.tool, *d.sanitized_args, {}})
                                      : approvalKey(call);
    d.approval_key += binding;
    d.model_reason = modelReasonFor(d);
    return a;
  } catch (const std::exception& e) {
    return {errorDecision(std::string("internal error: ") + e.what()), nullptr};
  } catch (...) {
    return {errorDecision("internal error"), nullptr};
  }
}

}  // namespace toolguard
