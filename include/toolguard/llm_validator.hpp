#pragma once
// The LLM validator: asks a language model about calls the rules leave
// undecided (escalate). The call it judges was written by a model that may
// have been hijacked, so the call is shown only as data inside fences made
// of a random nonce, whole or not at all; the answer is read strictly; and
// every failure (timeout, connection, HTTP error, a malformed answer, too
// many turns, cancellation) is ask, never allow. With max_turns above 1 it
// is a guard agent: it may load skills through a `skill` tool first.

#include <memory>
#include <mutex>
#include <string>

#include "toolguard/call_view.hpp"
#include "toolguard/cancellation.hpp"
#include "toolguard/guard_skills.hpp"
#include "toolguard/llm_review.hpp"
#include "toolguard/llm_settings.hpp"

namespace toolguard {

/// Remembers well-formed answers per session, so the same call (tool,
/// canonical arguments, working directory) is not sent twice. Thread-safe.
class LlmVerdictCache {
 public:
  virtual ~LlmVerdictCache() = default;
  /// The cached answer for `key` in `session`, if any.
  virtual std::optional<LlmReview> find(const std::string& session, const std::string& key) = 0;
  /// Remembers an answer (only answered judgements are stored).
  virtual void store(const std::string& session, const std::string& key,
                     const LlmReview& judgement) = 0;
};

/// A cache in memory, for a process that judges many calls (a library user,
/// the MCP proxy). Keeps at most `max_entries` answers, forgetting the oldest.
std::shared_ptr<LlmVerdictCache> memoryLlmVerdictCache(size_t max_entries = 4096);

/// A cache in files under `dir` (one per session), for processes that judge
/// one call each (hooks). A file that cannot be read or written is ignored:
/// the call is then sent again, never allowed without an answer.
std::shared_ptr<LlmVerdictCache> fileLlmVerdictCache(std::string dir);

/// The prompt of one judgement, built before anything is sent.
struct LlmPrompt {
  std::string system;     ///< job, rules, skills, and the fenced call
  std::string user;       ///< the request to answer
  std::string nonce;      ///< the fence's random part, chosen per request
  size_t call_bytes = 0;  ///< size of the fenced call text
  bool too_long = false;  ///< call_bytes exceeds max_input_bytes: nothing may be sent
};

/// Builds the prompt for a call (exposed for tests, benchmarks and explain).
/// `skills` are shown in full (the auto-invoked ones); `offered` are listed
/// by name for the `skill` tool (empty: single-turn).
LlmPrompt buildLlmPrompt(const CallView& view, const LlmSettings& settings,
                         const std::vector<const GuardSkill*>& skills,
                         const std::vector<const GuardSkill*>& offered);

/// Judges escalated calls with a model. Thread-safe; one instance serves
/// many calls.
class LlmValidator {
 public:
  /// `cache` may be null (no caching).
  LlmValidator(LlmSettings settings, GuardSkillLibrary skills,
               std::shared_ptr<LlmVerdictCache> cache = memoryLlmVerdictCache());

  /// Reviews one escalated call: the model's verdict and why. Never throws;
  /// any failure is an ask with the reason.
  /// `use_cache` false always asks the model (explain).
  LlmReview review(const CallView& view, const CancellationToken& cancellation = {},
                   bool use_cache = true) const;

  const LlmSettings& settings() const { return settings_; }
  const GuardSkillLibrary& skills() const { return skills_; }

 private:
  LlmSettings settings_;
  GuardSkillLibrary skills_;
  std::shared_ptr<LlmVerdictCache> cache_;
};

}  // namespace toolguard
