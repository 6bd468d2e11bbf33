// The shell commands a write puts into a build file, judged before it is written.
#include "build_file_judgement.hpp"

#include <algorithm>

#include "rule_judging.hpp"
#include "shell/build_files.hpp"

namespace toolguard::detail {
namespace {

constexpr size_t kMaxScriptBytes = 1 << 20;  // per call: larger texts are asked about

// The texts a write call puts into its file: whole contents or an edit's new text.
std::vector<std::string> writtenTexts(const nlohmann::json& args) {
  std::vector<std::string> out;
  if (!args.is_object()) return out;
  for (const char* key : {"content", "contents", "file_text", "text", "new_string", "new_str",
                          "code", "new_content"}) {
    auto it = args.find(key);
    if (it != args.end() && it->is_string()) out.push_back(it->get<std::string>());
  }
  if (auto edits = args.find("edits"); edits != args.end() && edits->is_array()) {
    for (const auto& edit : *edits) {
      if (!edit.is_object()) continue;
      for (const char* key : {"new_string", "new_str", "newText", "new_text"}) {
        auto it = edit.find(key);
        if (it != edit.end() && it->is_string()) out.push_back(it->get<std::string>());
      }
    }
  }
  return out;
}

// Findings about what cannot be known before the tool runs: make's own
// variables read as run-time values, recipe syntax that is not bash.
bool knownOnlyWhenRun(const std::string& rule_id) {
  return rule_id == "shell-unparseable" || rule_id == "shell-unreadable-program" ||
         rule_id == "shell-dynamic-command" || rule_id == "shell-unknown-command" ||
         rule_id == "writes-unknown-place";
}

bool restricts(Verdict v) {
  return v == Verdict::Ask || v == Verdict::Deny || v == Verdict::Abort;
}

// Named when a build file's commands are too many to read.
class UnreadBuildFileRule final : public Rule {
 public:
  UnreadBuildFileRule()
      : Rule(RuleHeader{"build-file-unread", SourceLocation{"<builtin:shell>", 0, 0},
                        PolicyLayer::Builtin, RuleTarget{}}) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override {
    return "a build file whose commands are too many to read -> ask";
  }
};

const std::shared_ptr<const Rule>& unreadBuildFileRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const UnreadBuildFileRule>();
  return rule;
}

}  // namespace

void judgeBuildFileContent(const CompiledPolicy& compiled, const CallView& view, Judgement& best,
                           Decision& d) {
  if (view.tool().kind == ToolKind::Shell) return;
  // Only a call that writes a file can write a build file (most calls do not:
  // their texts are not even gathered).
  const std::vector<PathAccess>& accesses = view.pathAccesses();
  if (std::none_of(accesses.begin(), accesses.end(), [](const PathAccess& access) {
        return access.kind == PathAccessKind::Write && access.shape == PathShape::File;
      })) {
    return;
  }
  const std::vector<std::string> texts = writtenTexts(view.call().args);
  if (texts.empty()) return;
  ToolInfo shell;
  shell.name = "Bash";
  shell.kind = ToolKind::Shell;
  shell.command_arg = "command";
  for (const PathAccess& access : view.pathAccesses()) {
    if (access.kind != PathAccessKind::Write || access.shape != PathShape::File) continue;
    for (const std::string& text : texts) {
      const BuildFile kind = buildFileKind(access.path.lexical, text);
      if (kind == BuildFile::None) continue;
      const std::string what =
          describeBuildFile(kind) + " written here (" + access.path.lexical + ")";
      std::vector<std::string> scripts = buildFileScripts(kind, text);
      size_t bytes = 0;
      for (const std::string& s : scripts) bytes += s.size();
      if (bytes > kMaxScriptBytes) {
        Finding too_large{Verdict::Ask, what + " holds more commands than toolguard reads"};
        best.consider(too_large, unreadBuildFileRule().get(), "");
        d.consulted.push_back(RuleTrace{unreadBuildFileRule(), too_large, std::nullopt});
        continue;
      }
      for (const std::string& script : scripts) {
        ToolCall call;
        call.tool = shell.name;
        call.args = {{"command", script}};
        call.context = view.call().context;
        const CallView inner(call, shell, compiled.policy.paths.pathOptions(),
                             &compiled.policy.paths.workspace_roots);
        Decision judged;
        judgeRules(compiled, inner, judged);
        if (judged.basis != DecisionBasis::Rule || !restricts(judged.policy_verdict) ||
            knownOnlyWhenRun(judged.rule_id)) {
          continue;
        }
        // The rule that gave the strictest finding, named in this decision.
        for (RuleTrace& trace : judged.consulted) {
          if (!trace.finding || trace.rule->id() != judged.rule_id ||
              trace.finding->verdict != judged.policy_verdict) {
            continue;
          }
          Finding finding{judged.policy_verdict,
                          what + " would run `" + judged.decided_on + "`: " + judged.reason,
                          trace.finding->decided_by};
          best.consider(finding, trace.rule.get(), "");
          trace.finding = finding;
          trace.command_index.reset();
          d.consulted.push_back(std::move(trace));
          break;
        }
      }
    }
  }
}

}  // namespace toolguard::detail
