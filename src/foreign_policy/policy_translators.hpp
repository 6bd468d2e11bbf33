#pragma once
// Internal: the policy loader's registry of other agents' formats. Each
// translator turns one format (Claude Code settings, Gemini CLI policy TOML,
// Codex .rules) into the policy model; the loader (src/policy_loader) asks
// the registry which one reads a file and never names a format itself. The
// registry is defined beside the translators (foreign_policy.cpp).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/policy_document.hpp"
#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// Something `toolguard policy import` tells the user about one source rule:
/// toolguard reads it more strictly than the source agent would, or cannot
/// express part of it (then it is left out or tightened, never loosened).
struct ImportNote {
  SourceLocation where;  ///< the source rule's file, line and column
  std::string message;
};

/// A policy read from another agent's format, with what the import noticed.
struct ForeignPolicy {
  PolicyDocument document;  ///< rules carry the source file's locations
  std::vector<ImportNote> notes;
};

/// One other agent's policy format.
struct PolicyTranslator {
  std::string_view name;  ///< as `policy import --from` names it: claude, gemini, codex
  /// True for a file of this format, from its name (`*.json`, `*.toml`, `*.rules`).
  bool (*reads_file)(std::string_view file);
  /// Reads the text; throws PolicyError naming file, line and column.
  ForeignPolicy (*translate)(std::string_view text, const std::string& file, PolicyLayer layer);
};

/// Every format toolguard reads besides its own YAML.
std::span<const PolicyTranslator> policyTranslators();

/// The translator for a file, or nullptr for toolguard's own YAML.
const PolicyTranslator* translatorOfFile(std::string_view file);

/// The translator named `name`, or nullptr.
const PolicyTranslator* translatorNamed(std::string_view name);

}  // namespace toolguard::detail
