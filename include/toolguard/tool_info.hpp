#pragma once
// What toolguard knows about a tool: kind, metadata, policy and where its
// command or paths are in the arguments.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/verdict.hpp"

namespace toolguard {

/// What a tool does to the world, from harmless to impossible to undo.
enum class SideEffect { None, LocalRead, LocalWrite, NetworkRead, NetworkWrite, Irreversible };

/// How much damage a tool can do.
enum class RiskLevel { Low, Medium, High, Critical };

/// Whether calls of a tool need approval when no rule says otherwise:
/// never (allow), conditional (the default verdict decides), always (ask).
enum class DefaultApproval { Never, Conditional, Always };

/// The family a tool belongs to; built-in rules select tools by kind, whatever
/// the tool is called.
enum class ToolKind { Shell, FileRead, FileWrite, FileSearch, Network, Agent, Other };

/// Descriptive metadata of a tool, as in agent SDKs' tool annotations.
struct ToolMetadata {
  std::string category;  ///< free-form category, e.g. "filesystem", "shell", "mcp"
  SideEffect side_effect = SideEffect::LocalWrite;
  RiskLevel risk = RiskLevel::Medium;
  DefaultApproval default_approval = DefaultApproval::Conditional;
  bool idempotent = false;
  bool read_only = false;
};

/// Everything toolguard knows about one tool.
struct ToolInfo {
  std::string name;
  std::string description;
  nlohmann::json input_schema;  ///< JSON Schema of the arguments (null when unknown)
  ToolKind kind = ToolKind::Other;
  ToolMetadata metadata;
  std::optional<ToolPolicy> policy;    ///< the tool's own policy; unset: see effectivePolicy()
  std::string command_arg;             ///< argument holding a shell command ("" if none)
  std::vector<std::string> path_args;  ///< arguments that may hold a path or a list of paths
};

/// The tool's policy when no rule has a finding: its own policy if set, else
/// derived from default_approval (never: allow, always: confirm), else nullopt
/// (the engine's default verdict decides).
std::optional<ToolPolicy> effectivePolicy(const ToolInfo& tool);

/// The metadata as JSON: {"category", "side_effect", "risk", "read_only"} (the
/// names of toString below), as approval requests carry it.
nlohmann::json toJson(const ToolMetadata& metadata);

std::string_view toString(SideEffect value);
std::string_view toString(RiskLevel value);
std::string_view toString(DefaultApproval value);
std::string_view toString(ToolKind value);

/// Parsers for the names above ("local-write", "high", "conditional", "file-write", ...);
/// nullopt for an unknown name.
std::optional<SideEffect> parseSideEffect(std::string_view name);
std::optional<RiskLevel> parseRiskLevel(std::string_view name);
std::optional<DefaultApproval> parseDefaultApproval(std::string_view name);
std::optional<ToolKind> parseToolKind(std::string_view name);

}  // namespace toolguard
