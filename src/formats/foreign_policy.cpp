// Choosing the reader for another agent's policy file.
#include "foreign_policy.hpp"

namespace toolguard::detail {

std::optional<ForeignFormat> foreignFormatOfFile(const std::string& file) {
  if (file.ends_with(".rules")) return ForeignFormat::Codex;
  if (file.ends_with(".toml")) return ForeignFormat::Gemini;
  if (file.ends_with(".json")) return ForeignFormat::Claude;
  return std::nullopt;
}

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

}  // namespace toolguard::detail
