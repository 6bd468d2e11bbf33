#pragma once
// The decision engine: judges tool calls against a compiled policy.

#include <memory>

#include "toolguard/decision.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {

class CallView;

namespace detail {
struct CompiledPolicy;
}

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
  Decision decide(const ToolCall& call) const;

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
