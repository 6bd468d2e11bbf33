#pragma once
// Settings of the LLM validator: which OpenAI-compatible endpoint judges the
// calls the rules leave undecided (escalate), and within what limits. Set in
// policy files (`llm:`) and by TOOLGUARD_LLM_* environment variables.

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "toolguard/source_location.hpp"

namespace toolguard {

/// The LLM validator's settings.
struct LlmSettings {
  bool enabled = false;  ///< consult the validator at all (TOOLGUARD_LLM=1|0)
  /// Base URL up to the API version, e.g. "http://127.0.0.1:8080/v1"
  /// (TOOLGUARD_LLM_BASE_URL).
  std::string base_url;
  std::string model;  ///< model id sent in each request (TOOLGUARD_LLM_MODEL)
  /// The environment variable holding the API key when TOOLGUARD_LLM_API_KEY
  /// is unset. Policy files name the variable; they never hold the key.
  std::string api_key_env;
  /// The key itself, read from the environment; sent only as the
  /// Authorization header, never logged, audited or printed.
  std::string api_key;
  /// Requests per judgement (TOOLGUARD_LLM_MAX_TURNS, 1..20). 1: the
  /// single-turn validator; more: the guard agent, which may load skills.
  int max_turns = 5;
  /// Time for one whole judgement, every turn included (TOOLGUARD_LLM_TIMEOUT_MS).
  std::chrono::milliseconds timeout{20000};
  /// The longest call (tool, description and arguments as the validator
  /// would see them) it is shown; a longer one is not truncated but left to
  /// a person (ask).
  size_t max_input_bytes = size_t{32} << 10;
  /// The layer that last set any of the fields above, and where.
  PolicyLayer layer = PolicyLayer::Builtin;
  SourceLocation source;

  /// True when enabled and the endpoint and model are known.
  bool usable() const { return enabled && !base_url.empty() && !model.empty(); }
};

/// A bad TOOLGUARD_LLM_* value; the message names the variable.
class LlmSettingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads an environment variable: nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// The process environment (getenv).
std::optional<std::string> processEnvironment(const std::string& name);

/// `settings` with the TOOLGUARD_LLM_* variables applied on top, and the API
/// key read (TOOLGUARD_LLM_API_KEY, else the variable api_key_env names).
/// Under a managed `llm:` section (any field set by the managed layer makes
/// the whole section managed) the environment may turn the validator off
/// and lower the turn and time limits, nothing else: it never turns it on,
/// points it at another endpoint or model, or replaces a managed
/// api_key_env's key. Throws LlmSettingsError naming the
/// variable for a value that is not valid (TOOLGUARD_LLM=yes, a timeout of
/// "fast", ...).
LlmSettings applyLlmEnvironment(LlmSettings settings,
                                const EnvironmentLookup& environment = processEnvironment);

}  // namespace toolguard
