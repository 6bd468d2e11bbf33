// The shell commands a write adds to a build file, judged before it is written.
#include "build_file_judgement.hpp"

#include <algorithm>

#include "commands/build_files.hpp"
#include "rule_judging.hpp"
#include "written_content.hpp"

namespace toolguard::detail {
namespace {

constexpr size_t kMaxScriptBytes = 1 << 20;  // per call: larger texts are asked about

// Anything but an allow: escalate (an unknown command: ask, or the LLM
// validator when one is set) included.
bool restricts(Verdict v) {
  return v != Verdict::Allow;
}

// Named when the commands a write adds to a build file cannot be read.
class UnreadBuildFileRule final : public Rule {
 public:
  UnreadBuildFileRule()
      : Rule(RuleHeader{"build-file-unread", SourceLocation{"<builtin:shell>", 0, 0},
                        PolicyLayer::Builtin, RuleTarget{}}) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override {
    return "a build file whose new commands cannot be read (too many, or the file as it will be is "
           "not known) -> ask";
  }
};

const std::shared_ptr<const Rule>& unreadBuildFileRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const UnreadBuildFileRule>();
  return rule;
}

// The commands of `after` that `before` did not have (each line counted as
// often as it appears): what this write adds to the file.
std::vector<std::string> addedScripts(BuildFile kind, const std::string& before,
                                      const std::string& after) {
  std::vector<std::string> old_scripts = buildFileScripts(kind, before);
  std::sort(old_scripts.begin(), old_scripts.end());
  std::vector<bool> used(old_scripts.size(), false);
  std::vector<std::string> added;
  for (std::string& script : buildFileScripts(kind, after)) {
    // A link between commands of a new file, all of which are judged.
    if (before.empty() && script.starts_with(kUnjudgedLinkText)) continue;
    auto it = std::lower_bound(old_scripts.begin(), old_scripts.end(), script);
    while (it != old_scripts.end() && *it == script && used[it - old_scripts.begin()]) ++it;
    if (it != old_scripts.end() && *it == script) {
      used[it - old_scripts.begin()] = true;
    } else {
      added.push_back(std::move(script));
    }
  }
  return added;
}

// What a file of this kind will hold after the write, as far as it can be
// judged: the commands it adds, or why it cannot be judged.
struct AddedCommands {
  std::vector<std::string> scripts;
  std::string unjudged;  // non-empty: the write asks, for this reason
};

AddedCommands addedCommands(BuildFile kind, const WrittenContent& written) {
  AddedCommands out;
  if (written.cell) {
    out.scripts = buildFileScripts(BuildFile::Notebook, *written.cell);
    if (written.after) {  // a notebook tool given a whole file too: both
      for (std::string& s : buildFileScripts(kind, *written.after)) out.scripts.push_back(s);
    }
    return out;
  }
  if (!written.after) {
    out.unjudged = written.before ? "the edit's text to replace is not in the file"
                                  : "the file could not be read to see it as it will be";
    return out;
  }
  out.scripts = addedScripts(kind, written.before.value_or(""), *written.after);
  return out;
}

}  // namespace

void judgeBuildFileContent(const CompiledPolicy& compiled, const CallView& view,
                           StrictestFinding& best, Decision& d) {
  if (view.tool().kind == ToolKind::Shell) return;
  // Only a call that writes a file can write a build file (most calls do not:
  // nothing is read for them).
  const std::vector<PathAccess>& accesses = view.pathAccesses();
  if (std::none_of(accesses.begin(), accesses.end(), [](const PathAccess& access) {
        return access.kind == PathAccessKind::Write && access.shape == PathShape::File;
      })) {
    return;
  }
  if (!writesText(view.call().args)) {
    // A build file written with no text of the call's own (moved or copied
    // onto it, `move_file` to a Makefile): what it will hold is not known.
    for (const PathAccess& access : accesses) {
      if (access.kind != PathAccessKind::Write || access.shape != PathShape::File) continue;
      const BuildFile kind = buildFileKind(access.path.lexical);
      if (!buildFileHasShellText(kind) || access.route.starts_with("args.file_path") ||
          access.route.starts_with("args.path")) {
        continue;
      }
      Finding unread{Verdict::Ask, describeBuildFile(kind) + " written here (" +
                                       access.path.lexical + ") from elsewhere (" + access.route +
                                       "): what it will hold is not known"};
      best.consider(unread, unreadBuildFileRule().get(), "");
      d.consulted.push_back(RuleTrace{unreadBuildFileRule(), unread, std::nullopt});
    }
    return;
  }
  ToolInfo shell;
  shell.name = "Bash";
  shell.kind = ToolKind::Shell;
  shell.command_arg = "command";
  for (const PathAccess& access : accesses) {
    if (access.kind != PathAccessKind::Write || access.shape != PathShape::File) continue;
    const std::string& real =
        access.path.resolved.empty() ? access.path.lexical : access.path.resolved;
    const WrittenContent written = writtenContent(view.call().args, real);
    // The kind by either name, or by what the file starts with (a #! line).
    BuildFile kind = buildFileKind(access.path.lexical);
    if (kind == BuildFile::None) kind = buildFileKind(real);
    for (const std::string* text :
         {written.after ? &*written.after : nullptr, written.before ? &*written.before : nullptr}) {
      if (kind == BuildFile::None && text != nullptr) kind = buildFileKind(real, *text);
    }
    for (const std::string& fragment : written.fragments) {
      if (kind == BuildFile::None) kind = buildFileKind(real, fragment);
    }
    if (written.cell && kind == BuildFile::None) kind = BuildFile::Notebook;
    if (!buildFileHasShellText(kind)) continue;
    const std::string what =
        describeBuildFile(kind) + " written here (" + access.path.lexical + ")";
    const AddedCommands added = addedCommands(kind, written);
    size_t bytes = 0;
    for (const std::string& s : added.scripts) bytes += s.size();
    if (!added.unjudged.empty() || bytes > kMaxScriptBytes) {
      Finding unread{
          Verdict::Ask,
          what + ": " +
              (added.unjudged.empty() ? std::string("it holds more commands than toolguard reads")
                                      : added.unjudged)};
      best.consider(unread, unreadBuildFileRule().get(), "");
      d.consulted.push_back(RuleTrace{unreadBuildFileRule(), unread, std::nullopt});
      continue;
    }
    for (const std::string& script : added.scripts) {
      if (const std::optional<std::string> setting = unjudgedBuildText(script)) {
        Finding unread{Verdict::Ask, what + ": " + *setting +
                                         " changes what the tool runs in a way toolguard "
                                         "does not judge"};
        best.consider(unread, unreadBuildFileRule().get(), "");
        d.consulted.push_back(RuleTrace{unreadBuildFileRule(), unread, std::nullopt});
        continue;
      }
      ToolCall call;
      call.tool = shell.name;
      call.args = {{"command", std::string(scriptCommand(script))}};
      call.context = view.call().context;
      const CallView inner(call, shell, compiled.policy.paths.pathOptions(),
                           &compiled.policy.paths.workspace_roots);
      Decision judged;
      judgeRules(compiled, inner, judged);
      // Every command the write adds is judged as the shell tool's would be:
      // one that is not known to be harmless (an unknown program, a name or
      // value known only when it runs) makes the write ask too.
      if (judged.basis != DecisionBasis::Rule || !restricts(judged.policy_verdict)) continue;
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

}  // namespace toolguard::detail
