// LLM validator settings from the environment (TOOLGUARD_LLM_*, and the Go
// guard agent's BITCODE_GUARD_*).
#include "toolguard/llm_settings.hpp"

#include <charconv>
#include <cstdlib>
#include <initializer_list>

namespace toolguard {
namespace {

constexpr int kMaxTurnsLimit = 20;
constexpr long long kMaxTimeoutMs = 10LL * 60 * 1000;

long long numberFromEnvironment(const std::string& variable, const std::string& text, long long low,
                                long long high) {
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    throw LlmSettingsError(variable + "='" + text + "': expected a whole number from " +
                           std::to_string(low) + " to " + std::to_string(high));
  }
  return value;
}

// The first variable of `names` that is set, with its name.
std::optional<std::pair<std::string, std::string>> firstSet(
    const EnvironmentLookup& environment, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = environment(name)) return std::pair{std::string(name), *value};
  }
  return std::nullopt;
}

// On or off: our 1/0, or the Go guard agent's true/false.
bool switchFromEnvironment(const std::string& variable, const std::string& text) {
  if (variable.starts_with("TOOLGUARD_")) {
    if (text == "0" || text == "1") return text == "1";
    throw LlmSettingsError(variable + "='" + text + "': expected 1 (on) or 0 (off)");
  }
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw LlmSettingsError(variable + "='" + text + "': expected true (on) or false (off)");
}

}  // namespace

std::optional<std::string> processEnvironment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

LlmSettings applyLlmEnvironment(LlmSettings s, const EnvironmentLookup& environment) {
  const bool managed = s.layer == PolicyLayer::Managed;
  // Ours win; the Go guard agent's (BITCODE_GUARD*, and the older
  // BITCODE_GUARD_LLM* spellings) are read when ours are not set.
  if (auto on = firstSet(environment, {"TOOLGUARD_LLM", "BITCODE_GUARD", "BITCODE_GUARD_LLM"})) {
    const bool enabled = switchFromEnvironment(on->first, on->second);
    // Turning it off only ever tightens (escalate becomes ask).
    if (!enabled || !managed) s.enabled = enabled;
  }
  if (auto url = firstSet(environment, {"TOOLGUARD_LLM_BASE_URL", "BITCODE_GUARD_BASE_URL",
                                        "BITCODE_GUARD_LLM_BASE_URL"});
      url && !managed) {
    s.base_url = url->second;
  }
  if (auto model = firstSet(
          environment, {"TOOLGUARD_LLM_MODEL", "BITCODE_GUARD_MODEL", "BITCODE_GUARD_LLM_MODEL"});
      model && !managed) {
    s.model = model->second;
  }
  // Under a managed policy the limits may only be lowered.
  if (auto turns = environment("TOOLGUARD_LLM_MAX_TURNS")) {
    int value = static_cast<int>(
        numberFromEnvironment("TOOLGUARD_LLM_MAX_TURNS", *turns, 1, kMaxTurnsLimit));
    if (!managed || value <= s.max_turns) s.max_turns = value;
  }
  if (auto timeout = environment("TOOLGUARD_LLM_TIMEOUT_MS")) {
    std::chrono::milliseconds value(
        numberFromEnvironment("TOOLGUARD_LLM_TIMEOUT_MS", *timeout, 1, kMaxTimeoutMs));
    if (!managed || value <= s.timeout) s.timeout = value;
  }
  // A managed policy that names the key's variable keeps it.
  const bool managed_key = managed && !s.api_key_env.empty();
  if (auto key = firstSet(environment, {"TOOLGUARD_LLM_API_KEY", "BITCODE_GUARD_API_KEY",
                                        "BITCODE_GUARD_LLM_API_KEY"});
      key && !managed_key) {
    s.api_key = key->second;
  } else if (!s.api_key_env.empty()) {
    s.api_key = environment(s.api_key_env).value_or("");
  }
  return s;
}

}  // namespace toolguard
