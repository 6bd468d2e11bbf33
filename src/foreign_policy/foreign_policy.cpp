// Choosing the reader for another agent's policy file, and the registry of
// translators the policy loader consults (declared in policy_translators.hpp).
#include "foreign_policy.hpp"

#include <array>

namespace toolguard::detail {

std::optional<ForeignFormat> parseForeignFormat(std::string_view name) {
  if (name == "claude") return ForeignFormat::Claude;
  if (name == "gemini") return ForeignFormat::Gemini;
  if (name == "codex") return ForeignFormat::Codex;
  return std::nullopt;
}

ForeignPolicy importForeignPolicy(ForeignFormat format, std::string_view text,
                                  const std::string& file, PolicyLayer layer) {
  switch (format) {
    case ForeignFormat::Claude:
      return importClaudeSettings(text, file, layer);
    case ForeignFormat::Gemini:
      return importGeminiPolicy(text, file, layer);
    case ForeignFormat::Codex:
      return importCodexRules(text, file, layer);
  }
  return importCodexRules(text, file, layer);
}

std::span<const PolicyTranslator> policyTranslators() {
  static constexpr std::array<PolicyTranslator, 3> kTranslators = {{
      {"codex", [](std::string_view f) { return f.ends_with(".rules"); }, importCodexRules},
      {"gemini", [](std::string_view f) { return f.ends_with(".toml"); }, importGeminiPolicy},
      {"claude", [](std::string_view f) { return f.ends_with(".json"); }, importClaudeSettings},
  }};
  return kTranslators;
}

}  // namespace toolguard::detail
