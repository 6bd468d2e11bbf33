// Which remembered approvals cover a call, and which bindings are offered.
#include "approval_matching.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <iterator>
#include <memory>

#include "commands/shell_facts.hpp"
#include "core/glob.hpp"
#include "pattern_commands.hpp"
#include "shell_unwrap/unwrap.hpp"

namespace toolguard::detail {
namespace {

bool isShellTool(const CallView& view) {
  return view.tool().kind == ToolKind::Shell || !view.tool().command_arg.empty();
}

// A word as the pattern sees it: its value, or for a word only known at run
// time, its text as written (which only a `*` can match).
const std::string& patternWord(const ShellWord& word) {
  return word.dynamic ? word.source : word.text;
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
  // A command that runs another one (`npm exec -- CMD`, `uv run CMD`) is
  // approved by exact call only.
  if (!unwrap(command).empty()) return false;
  return std::none_of(command.redirects.begin(), command.redirects.end(), redirectWritesAFile);
}

bool matchesWhole(const RE2& regex, const std::string& text) {
  return regex.ok() && RE2::FullMatch(text, regex);
}

// A command pattern word by word: each token matches one whole word (a glob
// within it), and a last token `*` matches any number of remaining words
// (none too), so `"terraform plan" -destroy` is not `terraform plan *`.
class CommandPattern {
 public:
  explicit CommandPattern(const std::string& pattern) {
    size_t start = 0;
    while ((start = pattern.find_first_not_of(' ', start)) != std::string::npos) {
      size_t end = std::min(pattern.find(' ', start), pattern.size());
      tokens_.push_back(pattern.substr(start, end - start));
      start = end;
    }
    rest_ = !tokens_.empty() && tokens_.back() == "*";
    if (rest_) tokens_.pop_back();
    for (const std::string& token : tokens_) {
      words_.push_back(std::make_unique<RE2>(textGlobToRegex(token)));
    }
  }

  bool matches(const SimpleCommand& command) const {
    const std::vector<ShellWord>& words = command.words;
    if (words.size() < words_.size() || (!rest_ && words.size() != words_.size())) return false;
    for (size_t i = 0; i < words_.size(); ++i) {
      if (!matchesWhole(*words_[i], patternWord(words[i]))) return false;
    }
    return !words_.empty();
  }

 private:
  std::vector<std::string> tokens_;
  std::vector<std::unique_ptr<RE2>> words_;
  bool rest_ = false;
};

std::vector<std::string> patternTokens(const std::string& pattern) {
  std::vector<std::string> tokens;
  for (size_t at = 0; (at = pattern.find_first_not_of(' ', at)) != std::string::npos;) {
    const size_t end = pattern.find(' ', at);
    tokens.push_back(pattern.substr(at, end - at));
    at = end;
  }
  return tokens;
}

// Every command the pattern's words match, with only the harmless options of
// the listed command it names (pattern_commands.hpp).
bool commandsMatch(const ShellProgram& program, const std::string& pattern,
                   const std::string& cwd) {
  if (program.parse_error || program.too_deep || program.commands.empty()) return false;
  const auto listed = patternCommandOf(patternTokens(pattern));
  if (!listed) return false;
  const CommandPattern compiled(pattern);
  return std::all_of(program.commands.begin(), program.commands.end(),
                     [&](const SimpleCommand& command) {
                       return patternMayCover(command) && compiled.matches(command) &&
                              onlyHarmlessWords(command, *listed->first, listed->second, cwd);
                     });
}

bool pathsMatch(const CallView& view, const std::string& pattern) {
  const std::vector<ResolvedPath>& paths = view.resolvedPaths();
  if (paths.empty() || view.pathError() || paths.size() != view.rawPaths().size()) return false;
  RE2::Options options;
  RE2 regex(pathGlobToRegex(pattern, view.home()), options);
  return std::all_of(paths.begin(), paths.end(), [&](const ResolvedPath& path) {
    return everyForm(path, [&](const std::string& form) { return matchesWhole(regex, form); });
  });
}

bool patternCovers(const CallView& view, const std::string& pattern) {
  if (!checkApprovalPattern(view.tool(), pattern)) return false;
  bool any = false;
  if (isShellTool(view)) {
    const ShellProgram* program = view.shellProgram();
    if (!program || !commandsMatch(*program, pattern, view.call().context.cwd)) return false;
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
  size_t taken = 0;
  for (; taken < rest.size() && taken < 2 && isSubcommandWord(rest[taken]); ++taken) {
    pattern += ' ' + rest[taken].text;
  }
  // `sed *`, `tar *`, `git *`: a bare name covers every option, including
  // those that run code (`sed 1e`, `tar --to-command`, `git -c core.pager`).
  if (taken == 0) return std::nullopt;
  return pattern + " *";
}

std::string parentOrRoot(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::optional<std::string> pathPattern(const CallView& view) {
  const std::vector<ResolvedPath>& paths = view.resolvedPaths();
  if (paths.empty() || view.pathError()) return std::nullopt;
  std::string dir = parentOrRoot(paths.front().lexical);
  for (const ResolvedPath& path : paths) {
    if (parentOrRoot(path.lexical) != dir) return std::nullopt;
  }
  const std::string home = normalizePath(view.home(), "/", "/");
  if (std::count(dir.begin(), dir.end(), '/') < 2 || dir == home) return std::nullopt;
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

Expected<void> checkApprovalPattern(const ToolInfo& tool, const std::string& pattern) {
  size_t start = pattern.find_first_not_of(' ');
  if (start == std::string::npos) return fail("the pattern is empty");
  bool shell = tool.kind == ToolKind::Shell || !tool.command_arg.empty();
  if (!shell) {
    // Too broad when it matches places no approval should reach at once.
    RE2 regex(pathGlobToRegex(pattern, "/home/user"));
    bool everywhere = true;
    for (const char* probe : {"/etc/passwd", "/home/user/.ssh/id_rsa", "/usr/bin/x"}) {
      everywhere = everywhere && matchesWhole(regex, probe);
    }
    if (everywhere) {
      return fail("the pattern \"" + pattern +
                  "\" covers every path: approve the whole tool instead");
    }
    return {};
  }
  std::string name = pattern.substr(start, pattern.find(' ', start) - start);
  if (name.find_first_of("*?[") != std::string::npos) {
    return fail("the command name in \"" + pattern +
                "\" is a wildcard: it would approve any command");
  }
  if (!patternCommandOf(patternTokens(pattern))) {
    return fail("\"" + pattern.substr(start) +
                "\" can be remembered only for calls of the exact command: a pattern may name "
                "only a command that runs no project code and no code given to it, and whose "
                "options toolguard knows (" +
                patternCommandList() + ")");
  }
  return {};
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
  // An ask that rests on the session (the rule of two, after:) is answered
  // for this call only: a broader approval would answer it in every later
  // session, whatever that session saw.
  if (restsOnSession(decision)) return options;
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

bool runsArbitraryCode(std::string_view command_name) {
  // Case folded: on case-insensitive file systems `BASH` runs bash.
  std::string lowered(command_name);
  for (char& c : lowered) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  const std::string_view name = lowered;
  static constexpr std::string_view kRunsCode[] = {
      "sh",      "bash",     "zsh",    "dash",      "ksh",       "fish",    "csh",
      "tcsh",    "busybox",  "eval",   "exec",      "source",    ".",       "sudo",
      "doas",    "su",       "pkexec", "env",       "xargs",     "nohup",   "timeout",
      "nice",    "ionice",   "chroot", "setsid",    "watch",     "time",    "command",
      "builtin", "parallel", "ssh",    "docker",    "podman",    "kubectl", "python",
      "python2", "python3",  "node",   "deno",      "bun",       "perl",    "ruby",
      "php",     "lua",      "awk",    "gawk",      "osascript", "pwsh",    "powershell",
      "npx",     "uvx",      "make",   "sed",       "tar",       "find",    "rsync",
      "strace",  "ltrace",   "flock",  "script",    "expect",    "java",    "rscript",
      "tclsh",   "mawk",     "nawk",   "gdb",       "vim",       "vi",      "nvim",
      "emacs",   "less",     "man",    "git-shell", "unshare",   "nsenter", "systemd-run",
      "at",      "batch",    "crontab"};
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
