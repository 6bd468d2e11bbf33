// `toolguard explain`, LLM part: for an escalated call, the request the
// validator sends (key redacted), the raw reply and how it was read.
#include "cli/explain_llm.hpp"

#include <algorithm>
#include <sstream>

#include "core/counted.hpp"
#include "front/call_json.hpp"
#include "front/guard_options.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

json exchangesJson(const LlmReview& j, const LlmSettings& settings) {
  json out = json::array();
  for (const LlmExchange& e : j.exchanges) {
    out.push_back({{"url", settings.base_url + "/chat/completions"},
                   {"request", e.request},
                   {"reply", e.error.empty() ? e.reply : json(nullptr)},
                   {"error", e.error.empty() ? json(nullptr) : json(e.error)}});
  }
  return out;
}

std::string pretty(const json& value) {
  return value.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace

json llmReport(const ToolCall& call, const Engine& engine, const PolicySources& sources,
               const Decision& policy_decision) {
  const bool escalated = policy_decision.policy_verdict == Verdict::Escalate;
  std::shared_ptr<const LlmValidator> validator;
  try {
    validator =
        front::llmValidatorFor(engine.policy(), sources.project_roots, toolguardHome(), nullptr);
  } catch (const std::exception& e) {
    return {{"status", "unavailable"}, {"error", e.what()}, {"escalated", escalated}};
  }
  if (!validator) return {{"status", "off"}, {"escalated", escalated}};
  const LlmSettings& settings = validator->settings();
  json out = {{"status", "not-consulted"},
              {"escalated", escalated},
              {"model", settings.model},
              {"base_url", settings.base_url},
              {"max_turns", settings.max_turns},
              {"timeout_ms", settings.timeout.count()},
              {"api_key", !settings.api_key.empty()},
              {"settings_source", settings.source.toString()}};
  if (!escalated) return out;
  // The same Guard step `check` runs, without the store, the log or a prompt.
  GuardOptions options;
  options.llm_validator = validator;
  options.report_ask = true;
  const Decision d = Guard(engine, std::move(options)).decide(call);
  if (!d.llm) return out;
  const LlmReview& j = *d.llm;
  out["status"] = "consulted";
  out["skills"] = j.skills;
  out["exchanges"] = exchangesJson(j, settings);
  out["reading"] = j.reading;
  out["verdict"] = toString(j.verdict);
  out["answered"] = j.answered;
  out["reason"] = j.reason;
  json decision = front::decisionToJson(d, call.tool);
  out["decision"] = std::move(decision);
  return out;
}

std::string llmReportText(const json& llm) {
  std::ostringstream out;
  out << "LLM validator: ";
  const std::string status = llm.value("status", "");
  const bool escalated = llm.value("escalated", false);
  if (status == "unavailable") {
    out << "cannot be set up: " << llm.value("error", "") << "\n";
    return out.str();
  }
  if (status == "off") {
    out << "off (llm.enabled in a policy file or TOOLGUARD_LLM=1 turns it on)";
    if (escalated) out << "; escalate is ask";
    out << "\n";
    return out.str();
  }
  const std::string model = llm.value("model", "");
  const std::string base_url = llm.value("base_url", "");
  out << "model " << (model.empty() ? "(none)" : model) << " at "
      << (base_url.empty() ? "(no base URL)" : base_url) << ", "
      << detail::counted(
             static_cast<size_t>(std::max<int64_t>(0, llm.value("max_turns", int64_t{0}))), "turn",
             "turns")
      << ", " << llm.value("timeout_ms", int64_t{0}) << " ms, key "
      << (llm.value("api_key", false) ? "set" : "none") << " (" << llm.value("settings_source", "")
      << ")\n";
  if (status != "consulted") {
    out << (escalated ? "  not consulted\n"
                      : "  not consulted: only calls the policy escalates are sent to it\n");
    return out.str();
  }
  if (const json& skills = llm.at("skills"); !skills.empty()) {
    out << "  skills:";
    for (const json& s : skills) out << " " << s.get<std::string>();
    out << "\n";
  }
  size_t i = 0;
  for (const json& e : llm.at("exchanges")) {
    ++i;
    out << "  request " << i << ": POST " << e.value("url", "") << "\n";
    if (llm.value("api_key", false)) out << "    Authorization: Bearer [redacted]\n";
    out << "    body: " << pretty(e.at("request")) << "\n";
    if (e.at("error").is_string()) {
      out << "  reply " << i << ": none (" << e.at("error").get<std::string>() << ")\n";
    } else {
      out << "  reply " << i << ": " << pretty(e.at("reply")) << "\n";
    }
  }
  const std::string reason = llm.value("reason", "");
  out << "  read as: " << llm.value("reading", "") << "\n";
  out << "  => " << llm.value("verdict", "")
      << (llm.value("answered", false) ? " (the model's answer)" : "") << ": "
      << (reason.empty() ? "-" : reason) << "\n";
  const json& d = llm.at("decision");
  out << "Decision with the LLM validator: " << d.value("verdict", "") << "\n";
  if (const std::string resolution = d.value("resolution", ""); !resolution.empty()) {
    out << "  " << resolution << "\n";
  }
  return out.str();
}

}  // namespace toolguard::cli
