#pragma once
// The decision engine: judges tool calls against a compiled policy.

#include <memory>
#include <optional>

#include "toolguard/decision.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard {

class CallView;

namespace detail {
struct CompiledPolicy;
}

/// One call as the policy judged it and as it will run: the tool name the
/// policy knows it by, the arguments after sanitizing, and the CallView that
/// every later step (the LLM validator, approvals, an approval request)
/// reads, so the call's command is parsed once. Neither copied nor moved
/// (the view refers to its members); shared through a shared_ptr.
class ViewedCall {
 public:
  /// Views `call` as `tool` describes it (`tool` must outlive this, or be
  /// `owned_tool`); `keep_alive` holds what the path options' roots live in.
  ViewedCall(ToolCall call, const ToolInfo* tool, std::optional<ToolInfo> owned_tool,
             PathOptions paths, const std::vector<std::string>* extra_roots,
             std::shared_ptr<const void> keep_alive);
  ~ViewedCall();
  ViewedCall(const ViewedCall&) = delete;
  ViewedCall& operator=(const ViewedCall&) = delete;

  /// The call as it will run.
  const ToolCall& call() const { return call_; }
  /// The view of call(), with its parsed command and resolved paths.
  const CallView& view() const { return *view_; }

 private:
  ToolCall call_;
  std::optional<ToolInfo> owned_tool_;
  std::shared_ptr<const void> keep_alive_;
  std::unique_ptr<CallView> view_;
};

/// The policy's judgement of one call before anything settles it.
struct Assessment {
  /// verdict equals policy_verdict: escalate and ask are as the policy left
  /// them (an invalid call is a deny); no resolution, no id.
  Decision decision;
  /// The call as it will run, viewed; null when the call could not be read
  /// (then the decision is a deny for the error).
  std::shared_ptr<const ViewedCall> subject;
};

/// Judges calls. Immutable once built: one instance serves many threads with
/// no locks; reloading a policy builds a new Engine. Copies share the same
/// compiled policy.
class Engine {
 public:
  /// Compiles a policy into indexes (exact-name hash map, wildcard prefix tree,
  /// category and kind maps) so a decision only consults rules that can apply.
  explicit Engine(Policy policy);

  /// Judges one call. Every applicable rule is consulted and the strictest
  /// finding wins; with no finding the tool's policy, then the default verdict
  /// decides. Escalate becomes ask (no LLM validator is configured), and ask
  /// becomes deny for headless calls. Never throws: an internal error is a deny.
  /// For a program that settles nothing itself; a Guard uses assess().
  Decision decide(const ToolCall& call) const;

  /// The policy's judgement of one call, unresolved (escalate and ask as the
  /// policy said, whatever the call's mode), with the call viewed as it will
  /// run. What Guard settles. Never throws: an internal error is a deny.
  Assessment assess(const ToolCall& call) const;

  /// The policy this engine was built from.
  const Policy& policy() const;

  /// What the engine knows about a tool (generic description for unknown names).
  const ToolInfo& toolInfo(std::string_view name) const;

 private:
  std::shared_ptr<const detail::CompiledPolicy> compiled_;
};

/// The canonical form of a call: tool name and the arguments as JSON with
/// sorted keys. Decision::approval_key, which exact approvals bind to, is
/// this followed by cwdBinding() of the call.
std::string approvalKey(const ToolCall& call);

/// " in DIR" when what the call does depends on its working directory (a
/// shell command, a relative path: CallView::dependsOnCwd) and it has one;
/// DIR is the cwd normalized (`.` and `..` removed; symlinks are not
/// followed, which would cost system calls on every decision). "" otherwise
/// (only absolute paths, no cwd). So `rm -rf build` approved in /work/app is
/// not approved in /work/other.
std::string cwdBinding(const CallView& view);

}  // namespace toolguard
