// `toolguard explain`, LLM part: for an escalated call, the request the
// validator sends (key redacted), the raw reply and how it was read.
#include "cli/explain_llm.hpp"

#include <iostream>

#include "cli/guard_options.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

void printExchanges(const LlmJudgement& j, const LlmSettings& settings) {
  for (size_t i = 0; i < j.exchanges.size(); ++i) {
    const LlmExchange& e = j.exchanges[i];
    std::cout << "  request " << i + 1 << ": POST " << settings.base_url << "/chat/completions\n";
    if (!settings.api_key.empty()) std::cout << "    Authorization: Bearer [redacted]\n";
    std::cout << "    body: " << e.request.dump(2, ' ', false, json::error_handler_t::replace)
              << "\n";
    if (!e.error.empty()) {
      std::cout << "  reply " << i + 1 << ": none (" << e.error << ")\n";
    } else {
      std::cout << "  reply " << i + 1 << ": "
                << e.reply.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    }
  }
}

}  // namespace

void printLlmConsultation(const ToolCall& call, const Engine& engine, const PolicySources& sources,
                          const Decision& policy_decision) {
  std::cout << "LLM validator: ";
  std::shared_ptr<const LlmValidator> validator;
  try {
    validator = llmValidatorFor(engine.policy(), sources.project_roots, toolguardHome(), nullptr);
  } catch (const std::exception& e) {
    std::cout << "cannot be set up: " << e.what() << "\n";
    return;
  }
  if (!validator) {
    std::cout << "off (llm.enabled in a policy file or TOOLGUARD_LLM=1 turns it on)";
    if (policy_decision.policy_verdict == Verdict::Escalate) std::cout << "; escalate is ask";
    std::cout << "\n";
    return;
  }
  const LlmSettings& settings = validator->settings();
  std::cout << "model " << (settings.model.empty() ? "(none)" : settings.model) << " at "
            << (settings.base_url.empty() ? "(no base URL)" : settings.base_url) << ", "
            << settings.max_turns << " turns, " << settings.timeout.count() << " ms, key "
            << (settings.api_key.empty() ? "none" : "set") << " (" << settings.source.toString()
            << ")\n";
  if (policy_decision.policy_verdict != Verdict::Escalate) {
    std::cout << "  not consulted: only calls the policy escalates are sent to it\n";
    return;
  }
  // The same Guard step `check` runs, without the store, the log or a prompt.
  GuardOptions options;
  options.llm_validator = validator;
  options.report_ask = true;
  const Decision d = Guard(engine, std::move(options)).decide(call);
  if (!d.llm) {
    std::cout << "  not consulted\n";
    return;
  }
  const LlmJudgement& j = *d.llm;
  if (!j.skills.empty()) {
    std::cout << "  skills:";
    for (const std::string& s : j.skills) std::cout << " " << s;
    std::cout << "\n";
  }
  printExchanges(j, settings);
  std::cout << "  read as: " << j.reading << "\n";
  std::cout << "  => " << toString(j.verdict) << (j.answered ? " (the model's answer)" : "") << ": "
            << (j.reason.empty() ? "-" : j.reason) << "\n";
  std::cout << "Decision with the LLM validator: " << toString(d.verdict) << "\n";
  if (!d.resolution.empty()) std::cout << "  " << d.resolution << "\n";
}

}  // namespace toolguard::cli
