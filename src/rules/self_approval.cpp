// An agent must not approve itself: toolguard's own approval, hook and policy
// commands, and the other agents' permission switches, run as shell commands.
#include "self_approval.hpp"

#include <algorithm>

#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

// The words that are not options, in order (option values are not told apart:
// enough to find sub-commands).
std::vector<std::string> operands(const SimpleCommand& c) {
  std::vector<std::string> out;
  for (const ShellWord& w : c.arguments()) {
    if (!w.text.starts_with('-')) out.push_back(w.text);
  }
  return out;
}

bool hasWord(const SimpleCommand& c, std::initializer_list<std::string_view> words) {
  const auto args = c.arguments();
  return std::any_of(args.begin(), args.end(), [&](const ShellWord& w) {
    return std::any_of(words.begin(), words.end(), [&](std::string_view o) {
      return w.text == o ||
             (w.text.starts_with(o) && w.text.size() > o.size() && w.text[o.size()] == '=');
    });
  });
}

// `--option VALUE` or `--option=VALUE` with one of the values.
bool optionIs(const SimpleCommand& c, std::initializer_list<std::string_view> options,
              std::initializer_list<std::string_view> values) {
  const auto args = c.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    for (std::string_view o : options) {
      std::string_view value;
      if (args[i].text == o && i + 1 < args.size()) value = args[i + 1].text;
      if (args[i].text.starts_with(std::string(o) + "=")) {
        value = std::string_view(args[i].text).substr(o.size() + 1);
      }
      if (!value.empty() && oneOf(value, values)) return true;
    }
  }
  return false;
}

std::optional<std::string> toolguardCommand(const SimpleCommand& c) {
  const std::vector<std::string> ops = operands(c);
  if (ops.empty()) return std::nullopt;
  const std::string& sub = ops[0];
  const std::string next = ops.size() > 1 ? ops[1] : "";
  if (sub == "approvals" && oneOf(next, {"add", "remove", "clear", "import"})) {
    return "toolguard approvals " + next + " changes what toolguard lets through";
  }
  if (sub == "install" || sub == "uninstall") {
    return "toolguard " + sub + " changes the agent's hooks";
  }
  if (sub == "pins" && next == "approve") {
    return "toolguard pins approve shows the agent an MCP tool toolguard held back";
  }
  return std::nullopt;
}

std::optional<std::string> claudeCommand(const SimpleCommand& c) {
  const std::vector<std::string> ops = operands(c);
  if (hasWord(c, {"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"}) ||
      optionIs(c, {"--permission-mode"}, {"bypassPermissions", "acceptEdits"})) {
    return "claude without its permission checks";
  }
  if (!ops.empty() && ops[0] == "config" && ops.size() > 1 &&
      oneOf(ops[1], {"set", "add", "remove"})) {
    return "claude config " + ops[1] + " changes Claude Code's settings";
  }
  if (!ops.empty() && ops[0] == "mcp" && ops.size() > 1 &&
      oneOf(ops[1], {"add", "add-json", "add-from-claude-desktop", "remove"})) {
    return "claude mcp " + ops[1] + " changes the programs Claude Code starts";
  }
  return std::nullopt;
}

std::optional<std::string> geminiCommand(const SimpleCommand& c) {
  const std::vector<std::string> ops = operands(c);
  if (hasWord(c, {"--yolo", "-y"}) || optionIs(c, {"--approval-mode"}, {"yolo", "auto_edit"})) {
    return "gemini without asking before tool calls";
  }
  if (!ops.empty() && oneOf(ops[0], {"mcp", "extensions"}) && ops.size() > 1 &&
      oneOf(ops[1], {"add", "remove", "install", "uninstall", "enable", "link"})) {
    return "gemini " + ops[0] + " " + ops[1] + " changes the programs Gemini CLI starts";
  }
  return std::nullopt;
}

std::optional<std::string> codexCommand(const SimpleCommand& c) {
  const std::vector<std::string> ops = operands(c);
  if (hasWord(c, {"--dangerously-bypass-approvals-and-sandbox", "--yolo"}) ||
      optionIs(c, {"-a", "--ask-for-approval"}, {"never"}) ||
      optionIs(c, {"-s", "--sandbox"}, {"danger-full-access"})) {
    return "codex without its approvals or sandbox";
  }
  if (!ops.empty() && ops[0] == "mcp" && ops.size() > 1 && oneOf(ops[1], {"add", "remove"})) {
    return "codex mcp " + ops[1] + " changes the programs Codex starts";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> changesApprovals(const SimpleCommand& command) {
  if (command.words.empty() || command.nameIsDynamic()) return std::nullopt;
  const std::string_view name = command.commandName();
  if (name == "toolguard") return toolguardCommand(command);
  if (name == "claude") return claudeCommand(command);
  if (name == "gemini") return geminiCommand(command);
  if (name == "codex") return codexCommand(command);
  return std::nullopt;
}

}  // namespace toolguard::detail
