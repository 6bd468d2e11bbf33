// Gemini CLI tool names (toolName, mcpName) as toolguard tool patterns.
#include "foreign_policy/gemini_targets.hpp"

#include <algorithm>

namespace toolguard::detail::gemini {
namespace {

// A name and whether an allow rule may use it (Gemini CLI matches it as written).
struct Candidate {
  std::string name;
  bool allow_ok = true;
};

// Legacy built-in names and their current ones (TOOL_LEGACY_ALIASES in
// packages/core/src/tools/tool-names.ts): a rule naming either matches both.
const std::pair<const char*, const char*> kLegacyNames[] = {
    {"search_file_content", "grep_search"},
};

// Every spelling of an MCP tool: `mcp_<server>_<tool>` (current Gemini CLI),
// `mcp__<server>__<tool>` (its hooks documentation), `<server>__<tool>`
// (releases before the `mcp_` prefix). `tool` may be `*`.
void mcpSpellings(const std::string& server, const std::string& tool, std::vector<Candidate>& out) {
  // Gemini CLI matches `mcp_*` and `mcp_<server>_*` as wildcards; any other
  // `*` in a composed name is compared literally and matches no real tool.
  bool allow_ok = !isWildcard(server) || (server == "*" && tool == "*");
  allow_ok = allow_ok && (tool == "*" || !isWildcard(tool));
  if (server == "*" && tool == "*") {
    out.push_back({"mcp_*", true});
    out.push_back({"*__*", true});
    return;
  }
  out.push_back({"mcp_" + server + "_" + tool, allow_ok});
  out.push_back({"mcp__" + server + "__" + tool, allow_ok});
  out.push_back({server + "__" + tool, allow_ok});
}

// The candidates for one toolName entry (without mcpName).
void plainName(const std::string& name, std::vector<Candidate>& out) {
  if (name == "*") return out.push_back({"*", true});
  if (name == "mcp_*") return mcpSpellings("*", "*", out);
  if (name.starts_with("mcp_") && name.size() > 4) {
    const std::string rest = name.substr(4);
    const size_t sep = rest.find('_');
    if (sep != std::string::npos && sep > 0 && sep + 1 < rest.size()) {
      return mcpSpellings(rest.substr(0, sep), rest.substr(sep + 1), out);
    }
  }
  if (const size_t sep = name.find("__"); sep != std::string::npos && sep > 0) {
    if (sep + 2 < name.size()) return mcpSpellings(name.substr(0, sep), name.substr(sep + 2), out);
  }
  for (const auto& [legacy, current] : kLegacyNames) {
    if (name == legacy || name == current) {
      out.push_back({legacy, true});
      out.push_back({current, true});
      return;
    }
  }
  out.push_back({name, !isWildcard(name)});
}

}  // namespace

ToolTargets readToolTargets(const GeminiRule& rule) {
  std::vector<Candidate> candidates;
  if (rule.mcp_name) {
    if (rule.tool_names.empty()) mcpSpellings(rule.mcp_name->text, "*", candidates);
    for (const Field& name : rule.tool_names) {
      mcpSpellings(rule.mcp_name->text, name.text, candidates);
    }
  } else {
    for (const Field& name : rule.tool_names) plainName(name.text, candidates);
  }
  const bool allow = rule.decision == Verdict::Allow;
  ToolTargets out;
  for (Candidate& c : candidates) {
    std::vector<std::string>& into = allow && !c.allow_ok ? out.dropped : out.tools;
    if (std::find(into.begin(), into.end(), c.name) == into.end()) into.push_back(c.name);
  }
  return out;
}

bool coversShell(const std::vector<std::string>& tools) {
  return std::any_of(tools.begin(), tools.end(),
                     [](const std::string& t) { return toolNameMatches(t, kShellTool); });
}

}  // namespace toolguard::detail::gemini
