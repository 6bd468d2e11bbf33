#pragma once
// What a tool returned, judged before the model reads it: credentials that
// should not sit in the model's context, and text that addresses an AI
// agent (a page or an issue comment telling the agent what to do). Both are
// reported and become labels of the session (sensitive, untrusted).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard {

/// What a tool's result holds that its session and its user should know.
struct ResultFindings {
  /// What the first credential in it looks like ("an AWS access key id").
  std::optional<std::string> secret;
  /// The text that addresses an AI agent, clipped ("ignore all previous
  /// instructions and ..."), or a description of hidden characters.
  std::optional<std::string> instructions;

  /// The labels the result gives its session: sensitive for a credential,
  /// untrusted for instructions aimed at an agent.
  std::vector<std::string> labels() const;
  bool empty() const { return !secret && !instructions; }
};

/// Text that addresses an AI agent rather than a reader: "ignore previous
/// instructions", "you are now ...", chat-template markers (<|im_start|>,
/// [INST], <<SYS>>), "note to the AI assistant", "do not tell the user",
/// requests to send keys or tokens somewhere, and text hidden in Unicode
/// tag characters. Returns the passage (clipped), or nullopt.
std::optional<std::string> findAgentInstructions(std::string_view text);

/// findSecret and findAgentInstructions over every string of a tool's
/// result (any JSON: an MCP content array, an agent's tool_response).
ResultFindings scanToolResult(const nlohmann::json& result);

/// What the model is told beside a result with findings: not to repeat or
/// send a credential (`redacted`: it was replaced by [REDACTED]), and that
/// text addressing an agent is data from the tool, not orders from the
/// user. "" when nothing was found. Every route that judges results (the
/// hooks, the MCP proxy, the registry's filters) says the same.
std::string resultWarningForModel(const ResultFindings& findings, bool redacted);

}  // namespace toolguard
