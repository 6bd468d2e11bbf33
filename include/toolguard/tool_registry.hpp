#pragma once
// The tool registry: register tools with toolguard and let it run them.
// Every call goes through the whole pipeline and comes back as a value.

#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/guard.hpp"
#include "toolguard/tool_filters.hpp"
#include "toolguard/tool_outcome.hpp"

namespace toolguard {

/// A tool's implementation: gets the allowed call (arguments already
/// sanitized) and returns its output as JSON. It may throw: the exception
/// becomes an error outcome. It should give up when the invocation's
/// cancellation token is cancelled.
using ToolFunction = std::function<nlohmann::json(const ToolInvocation& invocation)>;

/// Thrown by ToolRegistry::registerTool for a tool it cannot register.
class RegistryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Tools an agent may call, and the guard they are called through.
///
/// executeTool(call) runs, in this order:
///  1. the policy decision (Engine: rules, tool policy, default);
///  2. validateArgs hooks and the tool's input schema (part of the decision);
///  3. the validation callback (GuardOptions::validator), stricter only;
///  4. rate limits and approval of an ask (session cache, store, handler);
///  5. the invocation filters, outermost first;
///  6. the tool's callback;
///  7. the result filters.
/// A headless registry (no approval handler) denies what needs approval
/// unless the approval store already allows it. Thread-safe: tools can be
/// registered and enabled while calls run; each call uses the tools and
/// policy as they were when it started.
class ToolRegistry {
 public:
  /// A registry judging calls with `policy` (the built-in default policy
  /// when omitted: see defaultRegistryPolicy()).
  explicit ToolRegistry(GuardOptions options = {});
  ToolRegistry(Policy policy, GuardOptions options);

  /// Registers a tool. Its policy, when unset, becomes the registry's
  /// default policy (setDefaultPolicy) as it is now. When the policy's
  /// catalog already knows the name (built-in tools such as Bash or Write,
  /// or tools of policy files), what the program left unset is taken from
  /// the catalog (kind, command and path arguments, category, description,
  /// schema), the more cautious metadata wins, and so does the stricter of
  /// the two tool policies: registering a tool never loosens what the
  /// policy says about it. Throws RegistryError for an empty or duplicate
  /// name, a missing function, or an input schema that does not compile.
  void registerTool(ToolInfo info, ToolFunction function);

  /// Sets the policy of tools registered from now on that have none of
  /// their own; tools already registered keep theirs. nullopt: the
  /// policy's default verdict decides.
  void setDefaultPolicy(std::optional<ToolPolicy> policy);

  /// Enables or disables a registered tool; a call of a disabled tool is
  /// denied and it is left out of toolDefinitions(). Throws RegistryError
  /// for an unknown name.
  void setEnabled(const std::string& name, bool enabled);
  bool isEnabled(const std::string& name) const;
  bool contains(const std::string& name) const;

  /// Names of the registered tools, in registration order.
  std::vector<std::string> toolNames() const;

  /// The registered tools (as merged with the catalog) whose metadata
  /// answers a question, in registration order: risk at most `max_risk`,
  /// category equal to `category` (ASCII case-insensitively), or read-only.
  /// Disabled tools are included; isEnabled() tells them apart.
  std::vector<ToolInfo> toolsUpToRisk(RiskLevel max_risk) const;
  std::vector<ToolInfo> toolsInCategory(std::string_view category) const;
  std::vector<ToolInfo> readOnlyTools() const;

  /// The tools the model may call, as OpenAI-style function definitions
  /// ([{"type":"function","function":{"name","description","parameters"}}]),
  /// in registration order. Disabled tools and tools the policy denies
  /// outright (tool policy deny, or a deny rule with no conditions that
  /// targets them) are left out.
  nlohmann::json toolDefinitions() const;

  /// Adds a filter at the end of its chain.
  void addInvocationFilter(std::shared_ptr<InvocationFilter> filter);
  void addResultFilter(std::shared_ptr<ResultFilter> filter);

  /// Runs one call through the whole pipeline (see the class comment).
  /// Never throws. An unregistered tool is denied without asking anyone.
  /// `on_running`, when set, is called once the guard allowed the call,
  /// just before the invocation filters run (the agent loop's "running"
  /// event); an exception from it is an error outcome.
  ToolOutcome executeTool(const ToolCall& call, const CancellationToken& cancellation = {},
                          const std::function<void(const ToolInvocation&)>& on_running = {});

  /// The guard as it is now (session approvals, engine, options).
  std::shared_ptr<Guard> guard() const;

  /// Internal: a registered tool, and the immutable state each call runs on.
  struct Entry;
  struct Snapshot;

 private:
  std::shared_ptr<const Snapshot> snapshot() const;
  std::vector<ToolInfo> toolsWhere(const std::function<bool(const ToolMetadata&)>& wanted) const;
  void publish(std::shared_ptr<Snapshot> next);

  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> current_;
  std::optional<ToolPolicy> default_policy_;
};

/// The policy a registry uses when none is given: the built-in "default"
/// profile (the same rules `toolguard check` starts from).
Policy defaultRegistryPolicy();

}  // namespace toolguard
