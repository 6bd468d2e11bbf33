// Names of scopes, bindings and outcomes; what an entry grants; scope ids.
#include <tuple>

#include "toolguard/approval.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {

std::string_view toString(ApprovalScope scope) {
  switch (scope) {
    case ApprovalScope::Session:
      return "session";
    case ApprovalScope::Project:
      return "project";
    case ApprovalScope::Agent:
      return "agent";
    case ApprovalScope::Global:
      return "global";
  }
  return "session";
}

std::optional<ApprovalScope> parseApprovalScope(std::string_view name) {
  if (name == "session") return ApprovalScope::Session;
  if (name == "project") return ApprovalScope::Project;
  if (name == "agent") return ApprovalScope::Agent;
  if (name == "global" || name == "everywhere") return ApprovalScope::Global;
  return std::nullopt;
}

std::string_view toString(ApprovalBinding binding) {
  switch (binding) {
    case ApprovalBinding::ExactCall:
      return "exact";
    case ApprovalBinding::Pattern:
      return "pattern";
    case ApprovalBinding::Tool:
      return "tool";
  }
  return "exact";
}

std::optional<ApprovalBinding> parseApprovalBinding(std::string_view name) {
  if (name == "exact") return ApprovalBinding::ExactCall;
  if (name == "pattern") return ApprovalBinding::Pattern;
  if (name == "tool") return ApprovalBinding::Tool;
  return std::nullopt;
}

std::string_view toString(ApprovalOutcome outcome) {
  switch (outcome) {
    case ApprovalOutcome::AllowOnce:
      return "allow-once";
    case ApprovalOutcome::AlwaysAllow:
      return "always-allow";
    case ApprovalOutcome::Deny:
      return "deny";
  }
  return "deny";
}

std::string ApprovalEntry::describe() const {
  std::string what;
  switch (binding) {
    case ApprovalBinding::ExactCall:
      what = tool + ": exactly " + value;
      break;
    case ApprovalBinding::Pattern:
      what = tool + ": calls matching \"" + value + "\"";
      break;
    case ApprovalBinding::Tool:
      what = tool + ": every call";
      break;
  }
  if (binding != ApprovalBinding::ExactCall) {
    what += rule.empty() ? ", when no rule asks" : ", when rule " + rule + " asks";
  }
  what += " (" + std::string(toString(scope));
  if (!scope_id.empty()) what += " " + scope_id;
  return what + ")";
}

bool ApprovalEntry::sameGrant(const ApprovalEntry& other) const {
  return std::tie(tool, binding, value, scope, scope_id, rule) ==
         std::tie(other.tool, other.binding, other.value, other.scope, other.scope_id, other.rule);
}

std::optional<std::string> scopeIdOf(ApprovalScope scope, const CallContext& context) {
  switch (scope) {
    case ApprovalScope::Global:
      return std::string();
    case ApprovalScope::Session:
      if (context.session.empty()) return std::nullopt;
      return context.session;
    case ApprovalScope::Agent:
      if (context.agent.empty()) return std::nullopt;
      return context.agent;
    case ApprovalScope::Project: {
      const std::string& root =
          context.workspace_roots.empty() ? context.cwd : context.workspace_roots.front();
      if (root.empty() || root.front() != '/') return std::nullopt;
      return normalizePath(root, "/", "/");
    }
  }
  return std::nullopt;
}

}  // namespace toolguard
