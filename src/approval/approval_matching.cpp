// Which remembered approvals cover a call, and which bindings are offered.
#include "approval_matching.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <iterator>

#include "core/glob.hpp"

namespace toolguard::detail {
namespace {

bool isShellTool(const CallView& view) {
  return view.tool().kind == ToolKind::Shell || !view.tool().command_arg.empty();
}

// The words of a command as one line: literal text, or the source of a word
// whose value is only known at run time.
std::string commandLine(const SimpleCommand& command) {
  std::string line;
  for (const ShellWord& word : command.words) {
    if (!line.empty()) line += ' ';
    line += word.dynamic ? word.source : word.text;
  }
  return line;
}

bool writesFiles(const ShellRedirect& redirect) {
  if (redirect.op.find('>') == std::string::npos) return false;
  const std::string& target = redirect.target.text;
  if (redirect.target.dynamic) return true;
  if (target == "/dev/null" || target == "-") return false;
  // `2>&1`, `>&2`: duplicating a descriptor writes no file.
  bool descriptor = !target.empty() && std::all_of(target.begin(), target.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  return !(descriptor && redirect.op.find('&') != std::string::npos);
}

// True when a pattern may speak for this command at all.
bool patternMayCover(const SimpleCommand& command) {
  if (command.words.empty() || command.nameIsDynamic() || command.runsFromUnusualPlace()) {
    return false;
  }
  if (command.privileged || command.unknown_extra_arguments || !command.assignments.empty()) {
    return false;
  }
  if (runsArbitraryCode(command.name())) return false;
  return std::none_of(command.redirects.begin(), command.redirects.end(), writesFiles);
}

bool fullMatch(const RE2& regex, const std::string& text) {
  return regex.ok() && RE2::FullMatch(text, regex);
}

bool commandsMatch(const ShellProgram& program, const std::string& pattern) {
  if (program.parse_error || program.too_deep || program.commands.empty()) return false;
  RE2 regex(textGlobToRegex(pattern));
  // "npm run test *" also covers "npm run test" with nothing after it.
  std::optional<RE2> bare;
  if (pattern.size() > 2 && pattern.ends_with(" *")) {
    bare.emplace(textGlobToRegex(pattern.substr(0, pattern.size() - 2)));
  }
  return std::all_of(program.commands.begin(), program.commands.end(),
                     [&](const SimpleCommand& command) {
                       if (!patternMayCover(command)) return false;
                       std::string line = commandLine(command);
                       return fullMatch(regex, line) || (bare && fullMatch(*bare, line));
                     });
}

bool pathsMatch(const CallView& view, const std::string& pattern) {
  const std::vector<ResolvedPath>& paths = view.resolvedPaths();
  if (paths.empty() || view.pathError() || paths.size() != view.rawPaths().size()) return false;
  RE2::Options options;
  RE2 regex(pathGlobToRegex(pattern, view.home()), options);
  return std::all_of(paths.begin(), paths.end(), [&](const ResolvedPath& path) {
    return everyForm(path, [&](const std::string& form) { return fullMatch(regex, form); });
  });
}

bool patternCovers(const CallView& view, const std::string& pattern) {
  if (patternProblem(view.tool(), pattern)) return false;
  bool any = false;
  if (isShellTool(view)) {
    const ShellProgram* program = view.shellProgram();
    if (!program || !commandsMatch(*program, pattern)) return false;
    any = true;
  }
  if (!view.rawPaths().empty()) {
    if (!pathsMatch(view, pattern)) return false;
    any = true;
  }
  return any;
}

bool isSubcommandWord(const ShellWord& word) {
  static const RE2 kSubcommand("[A-Za-z0-9][A-Za-z0-9:_.+-]*");
  return !word.dynamic && RE2::FullMatch(word.text, kSubcommand) &&
         word.text.find('.') == std::string::npos;
}

std::optional<std::string> commandPattern(const CallView& view) {
  const ShellProgram* program = view.shellProgram();
  if (!program || program->parse_error || program->commands.size() != 1) return std::nullopt;
  const SimpleCommand& command = program->commands.front();
  if (!patternMayCover(command)) return std::nullopt;
  std::string pattern = command.words.front().text;
  if (pattern.find_first_of("*?[]\\") != std::string::npos) return std::nullopt;
  std::span<const ShellWord> rest = command.arguments();
  for (size_t i = 0; i < rest.size() && i < 2 && isSubcommandWord(rest[i]); ++i) {
    pattern += ' ' + rest[i].text;
  }
  return pattern + " *";
}

std::string parentDirectory(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::optional<std::string> pathPattern(const CallView& view) {
  const std::vector<ResolvedPath>& paths = view.resolvedPaths();
  if (paths.empty() || view.pathError()) return std::nullopt;
  std::string dir = parentDirectory(paths.front().lexical);
  for (const ResolvedPath& path : paths) {
    if (parentDirectory(path.lexical) != dir) return std::nullopt;
  }
  if (std::count(dir.begin(), dir.end(), '/') < 2 || dir == view.home()) return std::nullopt;
  if (dir.find_first_of("*?[]\\") != std::string::npos) return std::nullopt;
  return dir + "/**";
}

}  // namespace

// True when `rule` is the only rule that asked (every ask or escalate finding
// is its), or, for "", when no rule asked.
bool answersEveryAsk(const std::string& rule, const Decision& decision) {
  if (rule == "*") return true;
  bool any = false;
  for (const RuleTrace& trace : decision.consulted) {
    if (!trace.finding || !trace.rule) continue;
    Verdict verdict = trace.finding->verdict;
    if (verdict != Verdict::Ask && verdict != Verdict::Escalate) continue;
    if (trace.rule->id() != rule) return false;
    any = true;
  }
  return rule.empty() ? decision.basis != DecisionBasis::Rule : any;
}

std::optional<std::string> patternProblem(const ToolInfo& tool, const std::string& pattern) {
  size_t start = pattern.find_first_not_of(' ');
  if (start == std::string::npos) return "the pattern is empty";
  bool shell = tool.kind == ToolKind::Shell || !tool.command_arg.empty();
  if (!shell) {
    if (pattern == "/**" || pattern == "**" || pattern == "~/**" || pattern == "*") {
      return "the pattern \"" + pattern + "\" covers every path: approve the whole tool instead";
    }
    return std::nullopt;
  }
  std::string name = pattern.substr(start, pattern.find(' ', start) - start);
  if (name.find_first_of("*?[") != std::string::npos) {
    return "the command name in \"" + pattern + "\" is a wildcard: it would approve any command";
  }
  if (size_t slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (runsArbitraryCode(name)) {
    return "\"" + name + "\" runs code given to it: only exact calls of it can be approved";
  }
  return std::nullopt;
}

bool approvalCovers(const ApprovalEntry& entry, const CallView& view, const Decision& decision) {
  if (entry.tool != view.toolName()) return false;
  if (entry.binding != ApprovalBinding::ExactCall && !answersEveryAsk(entry.rule, decision)) {
    return false;
  }
  switch (entry.binding) {
    case ApprovalBinding::ExactCall:
      return entry.value == decision.approval_key;
    case ApprovalBinding::Tool:
      return true;
    case ApprovalBinding::Pattern:
      return patternCovers(view, entry.value);
  }
  return false;
}

std::string askingRule(const Decision& decision) {
  return decision.basis == DecisionBasis::Rule ? decision.rule_id : "";
}

std::vector<ApprovalOption> approvalOptions(const CallView& view, const Decision& decision) {
  std::vector<ApprovalOption> options;
  options.push_back({ApprovalBinding::ExactCall, decision.approval_key, "this exact call"});
  // A broad binding answers one rule's asks; when several rules asked, only
  // the exact call can be remembered.
  if (!answersEveryAsk(askingRule(decision), decision)) return options;
  std::optional<std::string> pattern =
      isShellTool(view) ? commandPattern(view)
                        : (view.rawPaths().empty() ? std::nullopt : pathPattern(view));
  if (pattern && patternCovers(view, *pattern)) {
    std::string description = isShellTool(view) ? "commands matching \"" + *pattern + "\""
                                                : "paths matching \"" + *pattern + "\"";
    options.push_back({ApprovalBinding::Pattern, *pattern, std::move(description)});
  }
  if (!isShellTool(view)) {
    options.push_back({ApprovalBinding::Tool, "", "every call of " + view.toolName()});
  }
  return options;
}

}  // namespace toolguard::detail

namespace toolguard {

bool runsArbitraryCode(std::string_view name) {
  static constexpr std::string_view kRunsCode[] = {
      "sh",         "bash",    "zsh",    "dash",    "ksh",     "fish",     "csh",       "tcsh",
      "busybox",    "eval",    "exec",   "source",  ".",       "sudo",     "doas",      "su",
      "pkexec",     "env",     "xargs",  "nohup",   "timeout", "nice",     "ionice",    "chroot",
      "setsid",     "watch",   "time",   "command", "builtin", "parallel", "ssh",       "docker",
      "podman",     "kubectl", "python", "python2", "python3", "node",     "deno",      "bun",
      "perl",       "ruby",    "php",    "lua",     "awk",     "gawk",     "osascript", "pwsh",
      "powershell", "npx",     "uvx",    "make"};
  if (std::find(std::begin(kRunsCode), std::end(kRunsCode), name) != std::end(kRunsCode)) {
    return true;
  }
  // python3.12, ruby3.1, node18 ...
  for (std::string_view interpreter : {"python", "ruby", "node", "perl", "php", "lua"}) {
    if (name.starts_with(interpreter) &&
        name.find_first_not_of("0123456789.", interpreter.size()) == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace toolguard
