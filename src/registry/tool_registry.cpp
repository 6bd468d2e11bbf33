// ToolRegistry: registering tools, publishing snapshots, executing calls.
#include "toolguard/tool_registry.hpp"

#include <algorithm>
#include <cctype>
#include <exception>

#include "approval/approval_settling.hpp"
#include "core/model_text.hpp"
#include "registry_state.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {

Policy defaultRegistryPolicy() {
  PolicySources sources;  // the built-in "default" profile only
  return loadPolicy(sources);
}

ToolRegistry::ToolRegistry(GuardOptions options)
    : ToolRegistry(defaultRegistryPolicy(), std::move(options)) {}

ToolRegistry::ToolRegistry(Policy policy, GuardOptions options) {
  auto first = std::make_shared<Snapshot>();
  first->guard = std::make_shared<Guard>(Engine(policy), std::move(options));
  first->policy = std::move(policy);
  current_ = std::move(first);
}

std::shared_ptr<const ToolRegistry::Snapshot> ToolRegistry::snapshot() const {
  std::lock_guard lock(mutex_);
  return current_;
}

void ToolRegistry::publish(std::shared_ptr<Snapshot> next) {
  current_ = std::move(next);
}

void ToolRegistry::registerTool(ToolInfo info, ToolFunction function) {
  if (info.name.empty()) throw RegistryError("a tool needs a name");
  if (!function) throw RegistryError("tool '" + info.name + "' has no function");
  if (!info.input_schema.is_null()) {
    try {
      (void)JsonSchema::compile(info.input_schema);
    } catch (const std::exception& e) {
      throw RegistryError("tool '" + info.name +
                          "': its input schema does not compile: " + e.what());
    }
  }
  std::lock_guard lock(mutex_);
  if (current_->find(info.name)) {
    throw RegistryError("a tool named '" + info.name + "' is already registered");
  }
  auto next = std::make_shared<Snapshot>(*current_);
  // Under a deny default only a policy given by the program, the registry's
  // default or a policy file allows; the catalog's does not.
  auto file_origin = next->policy.tool_origins.find(info.name);
  const bool sets_policy =
      info.policy.has_value() || default_policy_.has_value() ||
      (file_origin != next->policy.tool_origins.end() && file_origin->second.sets_policy);
  ToolInfo merged = detail::mergeWithCatalog(std::move(info), next->policy, default_policy_);
  next->policy.tools.add(merged);
  next->policy.tool_origins[merged.name] =
      ToolOrigin{PolicyLayer::Code, {"<registry>", 0, 0}, sets_policy};
  next->guard = std::make_shared<Guard>(current_->guard->withEngine(Engine(next->policy)));
  next->index.emplace(merged.name, next->entries.size());
  next->entries.push_back(
      std::make_shared<const Entry>(Entry{std::move(merged), std::move(function), true}));
  publish(std::move(next));
}

void ToolRegistry::setDefaultPolicy(std::optional<ToolPolicy> policy) {
  std::lock_guard lock(mutex_);
  default_policy_ = policy;
}

void ToolRegistry::setEnabled(const std::string& name, bool enabled) {
  std::lock_guard lock(mutex_);
  auto it = current_->index.find(name);
  if (it == current_->index.end()) throw RegistryError("no tool named '" + name + "'");
  auto next = std::make_shared<Snapshot>(*current_);
  auto changed = std::make_shared<Entry>(*next->entries[it->second]);
  changed->enabled = enabled;
  next->entries[it->second] = std::move(changed);
  publish(std::move(next));
}

bool ToolRegistry::isEnabled(const std::string& name) const {
  const Entry* entry = snapshot()->find(name);
  return entry != nullptr && entry->enabled;
}

bool ToolRegistry::contains(const std::string& name) const {
  return snapshot()->find(name) != nullptr;
}

std::vector<std::string> ToolRegistry::toolNames() const {
  std::vector<std::string> names;
  for (const auto& entry : snapshot()->entries) names.push_back(entry->info.name);
  return names;
}

namespace {

bool sameCategory(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::vector<ToolInfo> ToolRegistry::toolsWhere(
    const std::function<bool(const ToolMetadata&)>& wanted) const {
  std::vector<ToolInfo> tools;
  for (const auto& entry : snapshot()->entries) {
    if (wanted(entry->info.metadata)) tools.push_back(entry->info);
  }
  return tools;
}

std::vector<ToolInfo> ToolRegistry::toolsUpToRisk(RiskLevel max_risk) const {
  return toolsWhere([&](const ToolMetadata& m) { return m.risk <= max_risk; });
}

std::vector<ToolInfo> ToolRegistry::toolsInCategory(std::string_view category) const {
  return toolsWhere([&](const ToolMetadata& m) { return sameCategory(m.category, category); });
}

std::vector<ToolInfo> ToolRegistry::readOnlyTools() const {
  return toolsWhere([](const ToolMetadata& m) { return m.read_only; });
}

nlohmann::json ToolRegistry::toolDefinitions() const {
  auto current = snapshot();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& entry : current->entries) {
    if (!entry->enabled || detail::deniedOutright(entry->info, current->policy)) continue;
    list.push_back(detail::functionDefinition(entry->info));
  }
  return list;
}

void ToolRegistry::addInvocationFilter(std::shared_ptr<InvocationFilter> filter) {
  if (!filter) throw RegistryError("addInvocationFilter: null filter");
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<Snapshot>(*current_);
  next->invocation_filters.push_back(std::move(filter));
  publish(std::move(next));
}

void ToolRegistry::addResultFilter(std::shared_ptr<ResultFilter> filter) {
  if (!filter) throw RegistryError("addResultFilter: null filter");
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<Snapshot>(*current_);
  next->result_filters.push_back(std::move(filter));
  publish(std::move(next));
}

std::shared_ptr<Guard> ToolRegistry::guard() const {
  return snapshot()->guard;
}

namespace {

ToolOutcome outcomeOfRefusal(const Decision& decision) {
  const std::string& reason =
      decision.model_reason.empty() ? decision.reason : decision.model_reason;
  if (decision.verdict == Verdict::Abort) return ToolOutcome::aborted(reason, decision.extra);
  ToolOutcome outcome = ToolOutcome::denied(reason);
  outcome.extra = decision.extra;
  return outcome;
}

/// Denies a call of a tool that is not registered or is disabled, without
/// consulting the policy, and records it in the audit log like any decision.
ToolOutcome refuseUnrunnable(const ToolRegistry::Snapshot& snapshot, const ToolCall& call,
                             const std::string& why) {
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Deny;
  d.basis = DecisionBasis::Error;
  d.reason = why;
  d.model_reason = detail::blockedText(why);
  d.source = SourceLocation{"<registry>", 0, 0};
  d.id = detail::newDecisionId();
  if (const auto& audit = snapshot.guard->options().audit_log) {
    try {
      audit->write(call, d);
    } catch (...) {  // the call is denied either way
    }
  }
  ToolOutcome outcome = ToolOutcome::denied(d.model_reason);
  outcome.decision = std::move(d);
  return outcome;
}

ToolOutcome executeOnSnapshot(const ToolRegistry::Snapshot& snapshot, const ToolCall& call,
                              const CancellationToken& cancellation,
                              const std::function<void(const ToolInvocation&)>& on_running) {
  const ToolRegistry::Entry* entry = snapshot.find(call.tool);
  if (entry == nullptr) {
    return refuseUnrunnable(
        snapshot, call,
        "there is no tool named '" + call.tool + "'. Use one of the tools you were given.");
  }
  if (!entry->enabled) {
    return refuseUnrunnable(snapshot, call, "the tool '" + call.tool + "' is disabled.");
  }
  RateLimitTicket running;
  Decision decision = snapshot.guard->decide(call, running, cancellation);
  if (decision.verdict != Verdict::Allow) {
    ToolOutcome refused = outcomeOfRefusal(decision);
    refused.decision = std::move(decision);
    return refused;
  }
  ToolCall allowed = call;
  if (decision.sanitized_args) allowed.args = *decision.sanitized_args;
  ToolInvocation invocation{allowed, entry->info, decision, cancellation};
  if (on_running) on_running(invocation);
  ToolOutcome outcome = detail::runAllowedCall(snapshot, *entry, invocation);
  running.release();
  outcome.decision = std::move(decision);
  return outcome;
}

}  // namespace

ToolOutcome ToolRegistry::executeTool(
    const ToolCall& call, const CancellationToken& cancellation,
    const std::function<void(const ToolInvocation&)>& on_running) {
  try {
    return executeOnSnapshot(*snapshot(), call, cancellation, on_running);
  } catch (const std::exception& e) {
    return ToolOutcome::error(std::string("toolguard failed while running the call: ") + e.what());
  } catch (...) {
    return ToolOutcome::error("toolguard failed while running the call");
  }
}

}  // namespace toolguard
