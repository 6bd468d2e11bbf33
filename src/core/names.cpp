// String names of the core enums, and their parsers.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "toolguard/decision.hpp"
#include "toolguard/source_location.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard {
namespace {

template <typename Enum, size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, size_t N>
std::string_view nameOf(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename Enum, size_t N>
std::optional<Enum> parseName(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

constexpr NameTable<Verdict, 5> kVerdicts{{{Verdict::Allow, "allow"},
                                           {Verdict::Escalate, "escalate"},
                                           {Verdict::Ask, "ask"},
                                           {Verdict::Deny, "deny"},
                                           {Verdict::Abort, "abort"}}};
constexpr NameTable<ToolPolicy, 4> kToolPolicies{{{ToolPolicy::Allow, "allow"},
                                                  {ToolPolicy::Confirm, "confirm"},
                                                  {ToolPolicy::Deny, "deny"},
                                                  {ToolPolicy::Confirm, "ask"}}};
constexpr NameTable<SideEffect, 6> kSideEffects{{{SideEffect::None, "none"},
                                                 {SideEffect::LocalRead, "local-read"},
                                                 {SideEffect::LocalWrite, "local-write"},
                                                 {SideEffect::NetworkRead, "network-read"},
                                                 {SideEffect::NetworkWrite, "network-write"},
                                                 {SideEffect::Irreversible, "irreversible"}}};
constexpr NameTable<RiskLevel, 4> kRiskLevels{{{RiskLevel::Low, "low"},
                                               {RiskLevel::Medium, "medium"},
                                               {RiskLevel::High, "high"},
                                               {RiskLevel::Critical, "critical"}}};
constexpr NameTable<DefaultApproval, 3> kApprovals{{{DefaultApproval::Never, "never"},
                                                    {DefaultApproval::Conditional, "conditional"},
                                                    {DefaultApproval::Always, "always"}}};
constexpr NameTable<ToolKind, 7> kKinds{{{ToolKind::Shell, "shell"},
                                         {ToolKind::FileRead, "file-read"},
                                         {ToolKind::FileWrite, "file-write"},
                                         {ToolKind::FileSearch, "file-search"},
                                         {ToolKind::Network, "network"},
                                         {ToolKind::Agent, "agent"},
                                         {ToolKind::Other, "other"}}};
constexpr NameTable<DecisionBasis, 8> kBases{{{DecisionBasis::Rule, "rule"},
                                              {DecisionBasis::ToolPolicy, "tool-policy"},
                                              {DecisionBasis::Default, "default"},
                                              {DecisionBasis::Arguments, "arguments"},
                                              {DecisionBasis::RateLimit, "rate-limit"},
                                              {DecisionBasis::Validator, "validator"},
                                              {DecisionBasis::LlmValidator, "llm-validator"},
                                              {DecisionBasis::Error, "error"}}};
constexpr NameTable<InteractionMode, 2> kModes{
    {{InteractionMode::Interactive, "interactive"}, {InteractionMode::Headless, "headless"}}};
constexpr NameTable<PolicyLayer, 6> kLayers{{{PolicyLayer::Builtin, "builtin"},
                                             {PolicyLayer::User, "user"},
                                             {PolicyLayer::Project, "project"},
                                             {PolicyLayer::Explicit, "explicit"},
                                             {PolicyLayer::Managed, "managed"},
                                             {PolicyLayer::Code, "code"}}};

}  // namespace

std::string_view toString(Verdict v) {
  return nameOf(kVerdicts, v);
}
std::optional<Verdict> parseVerdict(std::string_view n) {
  return parseName(kVerdicts, n);
}
std::string_view toString(ToolPolicy v) {
  return nameOf(kToolPolicies, v);
}
std::optional<ToolPolicy> parseToolPolicy(std::string_view n) {
  return parseName(kToolPolicies, n);
}
Verdict toVerdict(ToolPolicy p) {
  switch (p) {
    case ToolPolicy::Allow:
      return Verdict::Allow;
    case ToolPolicy::Confirm:
      return Verdict::Ask;
    case ToolPolicy::Deny:
      return Verdict::Deny;
  }
  return Verdict::Deny;
}

std::string_view toString(SideEffect v) {
  return nameOf(kSideEffects, v);
}
std::string_view toString(RiskLevel v) {
  return nameOf(kRiskLevels, v);
}
std::string_view toString(DefaultApproval v) {
  return nameOf(kApprovals, v);
}
std::string_view toString(ToolKind v) {
  return nameOf(kKinds, v);
}
std::optional<SideEffect> parseSideEffect(std::string_view n) {
  return parseName(kSideEffects, n);
}
std::optional<RiskLevel> parseRiskLevel(std::string_view n) {
  return parseName(kRiskLevels, n);
}
std::optional<DefaultApproval> parseDefaultApproval(std::string_view n) {
  return parseName(kApprovals, n);
}
std::optional<ToolKind> parseToolKind(std::string_view n) {
  return parseName(kKinds, n);
}
std::string_view toString(DecisionBasis v) {
  return nameOf(kBases, v);
}
std::string_view toString(InteractionMode v) {
  return nameOf(kModes, v);
}
const char* toString(PolicyLayer v) {
  return nameOf(kLayers, v).data();
}

std::string setContextField(CallContext& c, std::string_view field, std::string value) {
  if (field == "cwd") {
    c.cwd = std::move(value);
  } else if (field == "agent") {
    c.agent = std::move(value);
  } else if (field == "session") {
    c.session = std::move(value);
  } else if (field == "model") {
    c.model = std::move(value);
  } else if (field == "role") {
    c.role = std::move(value);
  } else if (field == "mode") {
    auto mode = parseName(kModes, value);
    if (!mode) return "expected \"interactive\" or \"headless\"";
    c.mode = *mode;
  } else {
    return "unknown field (expected cwd, agent, session, model, role, mode)";
  }
  return {};
}

std::optional<ToolPolicy> effectivePolicy(const ToolInfo& tool) {
  if (tool.policy) return tool.policy;
  switch (tool.metadata.default_approval) {
    case DefaultApproval::Never:
      return ToolPolicy::Allow;
    case DefaultApproval::Always:
      return ToolPolicy::Confirm;
    case DefaultApproval::Conditional:
      return std::nullopt;
  }
  return std::nullopt;
}

std::string SourceLocation::toString() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace toolguard
