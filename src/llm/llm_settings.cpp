// LLM validator settings from the environment (TOOLGUARD_LLM_*).
#include "toolguard/llm_settings.hpp"

#include <charconv>
#include <cstdlib>

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

}  // namespace

std::optional<std::string> processEnvironment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

LlmSettings applyLlmEnvironment(LlmSettings s, const EnvironmentLookup& environment) {
  const bool managed = s.layer == PolicyLayer::Managed;
  if (auto on = environment("TOOLGUARD_LLM")) {
    if (*on != "0" && *on != "1") {
      throw LlmSettingsError("TOOLGUARD_LLM='" + *on + "': expected 1 (on) or 0 (off)");
    }
    // Turning it off only ever tightens (escalate becomes ask).
    if (*on == "0" || !managed) s.enabled = *on == "1";
  }
  if (auto url = environment("TOOLGUARD_LLM_BASE_URL"); url && !managed) s.base_url = *url;
  if (auto model = environment("TOOLGUARD_LLM_MODEL"); model && !managed) s.model = *model;
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
  if (auto key = environment("TOOLGUARD_LLM_API_KEY"); key && !managed_key) {
    s.api_key = *key;
  } else if (!s.api_key_env.empty()) {
    s.api_key = environment(s.api_key_env).value_or("");
  }
  return s;
}

}  // namespace toolguard
