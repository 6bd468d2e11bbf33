// The elicitation/create request that asks the person through the MCP
// client, and reading its answer.
#include "mcp/elicitation.hpp"

#include <algorithm>

#include "mcp/jsonrpc.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

constexpr size_t kMaxArgumentText = 2000;
constexpr size_t kMaxReason = 1000;

std::string elicitedArgumentsText(const ApprovalRequest& request) {
  std::string text = request.call.args.dump(2, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxArgumentText) {
    size_t more = text.size() - kMaxArgumentText;
    text.resize(kMaxArgumentText);
    text += "\n… (" + std::to_string(more) + " more bytes)";
  }
  return text;
}

/// The offered "always allow" that binds the exact call in the session scope,
/// if the request offers both.
std::optional<size_t> exactCallOption(const ApprovalRequest& request) {
  auto scope = std::find(request.scopes.begin(), request.scopes.end(), ApprovalScope::Session);
  if (scope == request.scopes.end()) return std::nullopt;
  for (size_t i = 0; i < request.options.size(); ++i) {
    if (request.options[i].binding == ApprovalBinding::ExactCall) return i;
  }
  return std::nullopt;
}

ApprovalAnswer denied(std::string reason, bool by_person) {
  ApprovalAnswer answer;
  answer.outcome = ApprovalOutcome::Deny;
  answer.reason = std::move(reason);
  answer.by_person = by_person;
  return answer;
}

}  // namespace

json elicitationParams(const ApprovalRequest& request, const std::string& server,
                       const std::string& tool) {
  std::string message = "toolguard: the agent wants to call the tool \"" + tool +
                        "\" of the MCP server \"" + server +
                        "\".\nIt needs your approval: " + request.decision.reason;
  if (!request.decision.rule_id.empty()) message += " (rule " + request.decision.rule_id + ")";
  message += "\nArguments:\n" + elicitedArgumentsText(request);
  json choices = json::array({kAllowOnce});
  if (exactCallOption(request)) choices.push_back(kAllowSession);
  choices.push_back(kDeny);
  json properties = {
      {"decision",
       {{"type", "string"}, {"title", "Run this tool call?"}, {"enum", std::move(choices)}}},
      {"reason",
       {{"type", "string"},
        {"title", "Reason"},
        {"description", "Optional: why you deny it (the agent reads this)"}}}};
  return {{"mode", "form"},
          {"message", std::move(message)},
          {"requestedSchema",
           {{"type", "object"},
            {"properties", std::move(properties)},
            {"required", json::array({"decision"})}}}};
}

ApprovalAnswer readElicitationAnswer(const json& response, const ApprovalRequest& request) {
  if (auto error = response.find("error"); error != response.end()) {
    std::string what = errorMessageOf(*error, "");
    return denied("the MCP client could not ask: " + terminalSafe(what.substr(0, kMaxReason)),
                  false);
  }
  auto result = response.find("result");
  if (result == response.end() || !result->is_object()) {
    return denied("the MCP client's answer to the approval request has no result", false);
  }
  auto action = result->find("action");
  if (action == result->end() || !action->is_string()) {
    return denied("the MCP client's answer to the approval request has no action", false);
  }
  std::string reason;
  auto content = result->find("content");
  if (content != result->end() && content->is_object()) {
    auto r = content->find("reason");
    if (r != content->end() && r->is_string()) {
      reason = r->get<std::string>().substr(0, kMaxReason);
    }
  }
  if (*action == "decline" || *action == "cancel") {
    return denied(reason, true);  // without a reason: "A person declined this call."
  }
  if (*action != "accept") {
    return denied("the MCP client answered with an unknown action", false);
  }
  const json* choice = nullptr;
  if (content != result->end() && content->is_object()) {
    auto c = content->find("decision");
    if (c != content->end() && c->is_string()) choice = &*c;
  }
  if (choice == nullptr) return denied("the MCP client's answer holds no decision", false);
  ApprovalAnswer answer;
  if (*choice == kAllowOnce) {
    answer.outcome = ApprovalOutcome::AllowOnce;
  } else if (*choice == kAllowSession && exactCallOption(request)) {
    answer.outcome = ApprovalOutcome::AlwaysAllow;
    answer.option = *exactCallOption(request);
    answer.scope = ApprovalScope::Session;
  } else if (*choice == kDeny) {
    return denied(reason, true);
  } else {
    return denied("the MCP client answered with a choice that was not offered", false);
  }
  return answer;
}

}  // namespace toolguard::mcp
