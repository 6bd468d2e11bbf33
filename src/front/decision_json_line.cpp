// The decision object of `toolguard check` written straight to text, in the
// order nlohmann's std::map gives decisionToJson (keys sorted), so both write
// the same bytes (a unit test compares them on the shell corpus and on
// settled asks).
#include "front/call_json.hpp"
#include "json/compact_dump.hpp"

namespace toolguard::front {
namespace {

using ObjectWriter = detail::JsonObjectWriter;

void appendApproval(std::string& out, const ApprovalResolution& a) {
  ObjectWriter o(out);
  for (const auto& [name, value] : {std::pair{"binding", &a.binding},
                                    {"by", &a.by},
                                    {"file", &a.file},
                                    {"outcome", &a.outcome},
                                    {"person", &a.person},
                                    {"reason", &a.reason},
                                    {"scope", &a.scope},
                                    {"scope_id", &a.scope_id},
                                    {"value", &a.value}}) {
    if (!value->empty()) o.string(name, *value);
  }
  o.close();
}

void appendLlm(std::string& out, const LlmReview& j) {
  ObjectWriter o(out);
  o.key("answered") += j.answered ? "true" : "false";
  o.key("cached") += j.cached ? "true" : "false";
  o.string("model", j.model);
  o.string("reason", j.reason);
  o.key("requests") += std::to_string(j.exchanges.size());
  o.text("verdict", toString(j.verdict));
  o.close();
}

}  // namespace

std::string decisionJsonLine(const Decision& d, const std::string& tool) {
  std::string out;
  out.reserve(256 + d.reason.size() + d.model_reason.size() + d.approval_key.size());
  ObjectWriter o(out);
  if (d.approval) appendApproval(o.key("approval"), *d.approval);
  if (!d.approval_key.empty()) o.string("approval_key", d.approval_key);
  o.text("basis", toString(d.basis));
  if (!d.decided_on.empty()) o.string("decided_on", d.decided_on);
  if (!d.id.empty()) o.string("id", d.id);
  if (!d.labels.empty()) o.strings("labels", d.labels);
  if (d.llm) appendLlm(o.key("llm"), *d.llm);
  o.string("model_reason", d.model_reason);
  if (d.policy_verdict != d.verdict) o.text("policy_verdict", toString(d.policy_verdict));
  o.string("reason", d.reason);
  if (d.policy_verdict != d.verdict || !d.resolution.empty()) o.string("resolution", d.resolution);
  if (d.rule_id.empty()) {
    o.key("rule") += "null";
  } else {
    o.string("rule", d.rule_id);
  }
  if (d.sanitized_args) {
    o.value("sanitized_args", *d.sanitized_args);
  }
  o.string("source", d.source.toString());
  o.string("tool", tool);
  o.text("verdict", toString(d.verdict));
  o.close();
  return out;
}

}  // namespace toolguard::front
