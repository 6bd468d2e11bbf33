#pragma once
// Internal: policies written for other agents (Claude Code permissions, Gemini
// CLI policy files, Codex .rules files), read into toolguard's own document
// model. Every importer keeps the source file's lines in the rules it makes, so
// a load error, an example that fails and `explain` all point at the source.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "foreign_policy/policy_translators.hpp"
#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// The other agents' formats toolguard reads.
enum class ForeignFormat { Claude, Gemini, Codex };

/// Reads Codex `.rules` text (`prefix_rule(...)` entries). Throws PolicyError
/// naming file, line and column for anything it cannot read or that fails
/// (a `match`/`not_match` example the rule does not honour is a load error).
ForeignPolicy importCodexRules(std::string_view text, const std::string& file, PolicyLayer layer);

/// Reads the `permissions` block of a Claude Code settings.json.
ForeignPolicy importClaudeSettings(std::string_view text, const std::string& file,
                                   PolicyLayer layer);

/// Reads the `[[rule]]` tables of a Gemini CLI policy TOML file.
ForeignPolicy importGeminiPolicy(std::string_view text, const std::string& file, PolicyLayer layer);

}  // namespace toolguard::detail

namespace toolguard::detail {

/// The format named on the command line (`claude`, `gemini`, `codex`).
std::optional<ForeignFormat> parseForeignFormat(std::string_view name);

/// Reads another agent's policy text in the given format.
ForeignPolicy importForeignPolicy(ForeignFormat format, std::string_view text,
                                  const std::string& file, PolicyLayer layer);

}  // namespace toolguard::detail
