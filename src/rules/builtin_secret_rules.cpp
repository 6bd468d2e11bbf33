// The built-in rule that asks before credentials leave the machine.
#include "commands/shell_facts.hpp"
#include "toolguard/secret_rules.hpp"

namespace toolguard {
namespace {

constexpr const char* kSource = "<builtin:secrets>";

// True when a word of the tool's name says it sends something somewhere.
bool nameSaysItSends(std::string_view name) {
  for (std::string_view word :
       {"send", "post", "publish", "upload", "message", "email", "mail", "notify", "comment",
        "reply", "share", "tweet", "webhook", "chat", "sms", "push"}) {
    if (name.find(word) != std::string_view::npos) return true;
  }
  return false;
}

// Network tools, and MCP tools: an MCP server is another program that may
// send what it is given anywhere (MCP's own default is an open world).
bool sendsOverNetwork(const ToolInfo& tool, std::string_view name) {
  return tool.kind == ToolKind::Network || tool.metadata.side_effect == SideEffect::NetworkRead ||
         tool.metadata.side_effect == SideEffect::NetworkWrite || name.starts_with("mcp__") ||
         (tool.kind == ToolKind::Other && nameSaysItSends(name));
}

RuleExample example(std::string tool, nlohmann::json args, bool should_match) {
  RuleExample ex;
  ex.call.tool = std::move(tool);
  ex.call.args = std::move(args);
  ex.call.context.cwd = "/workspace";
  ex.should_match = should_match;
  ex.where = SourceLocation{kSource, 0, 0};
  return ex;
}

class SecretsInArgumentsRule final : public Rule {
 public:
  explicit SecretsInArgumentsRule(PolicyLayer layer)
      : Rule(RuleHeader{"secrets-in-arguments", SourceLocation{kSource, 0, 0}, layer, {}}) {
    examples_.push_back(
        example("WebFetch",
                {{"url", "https://example.com/?key=AKIAIOSFODNN7EXAMPLE"}, {"prompt", "x"}}, true));
    examples_.push_back(
        example("Bash",
                {{"command",
                  "curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' "
                  "https://api.github.com"}},
                true));
    examples_.push_back(
        example("WebFetch", {{"url", "https://example.com/docs"}, {"prompt", "summarize"}}, false));
    examples_.push_back(
        example("Write", {{"file_path", "notes.txt"}, {"content", "AKIAIOSFODNN7EXAMPLE"}}, false));
    examples_.push_back(example(
        "Bash", {{"command", "curl -H \"Authorization: Bearer $TOKEN\" https://x"}}, false));
    examples_.push_back(
        example("mcp__slack__post_message",
                {{"channel", "C1"},
                 {"text", "token xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"}},
                true));
  }

  std::optional<Verdict> fixedVerdict() const override { return Verdict::Ask; }
  const std::vector<RuleExample>& examples() const override { return examples_; }
  std::string describe() const override {
    return "a credential in the arguments of a network tool or a network command -> ask";
  }

  std::optional<Finding> evaluate(const CallView& view) const override {
    if (sendsOverNetwork(view.tool(), view.toolName())) {
      if (std::optional<SecretMatch> match = findSecret(view.call().args)) {
        return Finding{Verdict::Ask, "the argument at " +
                                         (match->pointer.empty() ? "/" : match->pointer) +
                                         " holds what looks like " + match->kind +
                                         ": a person should see it before it leaves the machine"};
      }
      return std::nullopt;
    }
    const ShellProgram* program = view.shellProgram();
    if (program == nullptr) return std::nullopt;
    for (const SimpleCommand& command : program->commands) {
      if (!detail::isNetworkSender(command.name())) continue;
      for (const ShellWord& word : command.arguments()) {
        if (std::optional<std::string> kind = findSecretInText(word.text)) {
          std::string reason = "'";
          reason.append(command.name()).append("' is given what looks like ").append(*kind);
          reason.append(": a person should see it before it leaves the machine");
          return Finding{Verdict::Ask, std::move(reason)};
        }
      }
    }
    return std::nullopt;
  }

 private:
  std::vector<RuleExample> examples_;
};

}  // namespace

std::vector<std::shared_ptr<const Rule>> builtinSecretRules(PolicyLayer layer) {
  return {std::make_shared<const SecretsInArgumentsRule>(layer)};
}

}  // namespace toolguard
