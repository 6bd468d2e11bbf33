// Claude Code `Bash(...)` permission rules as toolguard shell rules.
//
// Claude Code matches a rule against the text of each subcommand: `*` stands
// for any text (spaces included), a trailing ` *` that is the only wildcard
// also matches the bare command, `prefix:*` is the same as `prefix *`, and a
// pattern without `*` is one exact command. toolguard parses the pattern like
// a command (so quotes, `~` and `$HOME` read the same way as in the calls it
// judges) and matches a regex on the words of each simple command.
#include "foreign_policy/claude_bash_rules.hpp"

#include <re2/re2.h>

#include "toolguard/policy_error.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {
namespace {

// Stands for a wildcard `*` while the pattern is parsed as a command.
constexpr std::string_view kStar = "TgClaudeWildcardX";

// Claude Code's legacy `prefix:*` (only at the very end) is `prefix *`.
std::string withoutLegacySuffix(const std::string& pattern) {
  if (pattern.size() > 2 && pattern.ends_with(":*")) {
    return pattern.substr(0, pattern.size() - 2) + " *";
  }
  return pattern;
}

// The pattern with each `*` that no backslash escapes replaced by kStar.
std::string markWildcards(const std::string& pattern) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size()) {
      out.append(pattern, i, 2);
      ++i;
    } else if (pattern[i] == '*') {
      out += kStar;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// How often kStar occurs in `text`.
size_t countStars(std::string_view text) {
  size_t n = 0;
  for (size_t at = text.find(kStar); at != std::string_view::npos;
       at = text.find(kStar, at + kStar.size())) {
    ++n;
  }
  return n;
}

// RE2 for text in which kStar stands for any run of characters.
std::string starRegex(std::string_view text) {
  std::string out;
  size_t from = 0;
  for (size_t at = text.find(kStar); at != std::string_view::npos; at = text.find(kStar, from)) {
    out += RE2::QuoteMeta(std::string(text.substr(from, at - from)));
    out += ".*";
    from = at + kStar.size();
  }
  return out + RE2::QuoteMeta(std::string(text.substr(from)));
}

// RE2 for the whole command text, as Claude Code would match it (used for a
// pattern that holds shell syntax and so is not one simple command).
std::string rawTextRegex(const std::string& marked) {
  const std::string tail = " " + std::string(kStar);
  if (countStars(marked) == 1 && marked.size() > tail.size() && marked.ends_with(tail)) {
    return starRegex(marked.substr(0, marked.size() - tail.size())) + "(?: .*)?";
  }
  return starRegex(marked);
}

// RE2 on the words of a simple command joined by single spaces. A trailing
// lone wildcard also matches no words. `any_directory`: the command name may
// be written with a directory (`/bin/rm` for `rm`).
std::string wordsRegex(const SimpleCommand& command, bool any_directory) {
  size_t stars = 0;
  for (const ShellWord& w : command.words) stars += countStars(w.text);
  const bool optional_tail =
      stars == 1 && command.words.size() >= 2 && command.words.back().text == kStar;
  const size_t n = optional_tail ? command.words.size() - 1 : command.words.size();
  std::string out;
  const std::string& first = command.words.front().text;
  if (any_directory && first.find('/') == std::string::npos && countStars(first) == 0) {
    out += "(?:[^ ]*/)?";
  }
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += ' ';
    out += starRegex(command.words[i].text);
  }
  if (optional_tail) out += "(?: .*)?";
  return out;
}

// Why the parsed pattern is not one plain simple command; empty when it is.
std::string shellSyntax(const ShellProgram& program, const SimpleCommand*& top) {
  if (program.parse_error) return "it does not parse as a command";
  if (program.too_deep) return "it wraps commands too deeply";
  top = nullptr;
  for (const SimpleCommand& c : program.commands) {
    if (!c.wrappers.empty()) continue;
    if (top != nullptr) return "it holds more than one command";
    top = &c;
  }
  if (top == nullptr || top->words.empty()) return "it names no command";
  const ShellPlacement& p = top->placement;
  if (p.pipeline_length > 1) return "it is a pipeline";
  if (p.background) return "it runs in the background";
  if (p.in_subshell || p.in_command_substitution || p.in_process_substitution || p.in_function ||
      p.in_condition) {
    return "it uses shell grouping or control structures";
  }
  return "";
}

// Redirections that write or read no file: `2>&1`, `>&2`, `> /dev/null`.
bool harmlessRedirects(const SimpleCommand& command) {
  for (const ShellRedirect& r : command.redirects) {
    const std::string& target = r.target.text;
    const bool fd_copy = (r.op == ">&" || r.op == "<&") && !target.empty() &&
                         target.find_first_not_of("0123456789-") == std::string::npos;
    if (!fd_copy && target != "/dev/null") return false;
  }
  return true;
}

const char* const kCompoundNote =
    "Claude Code has been seen to approve a whole compound command through a prefix rule like "
    "this one (anthropics/claude-code#28784, #94314); toolguard allows a command only when "
    "every simple command in it is allowed";
const char* const kWrapperNote =
    "the command this rule approves runs other commands: Claude Code approves those too, "
    "toolguard judges what sudo, env, bash -c, xargs and the like run on its own";
const char* const kNameWildcardNote =
    "the `*` stands for the command name: toolguard never lets it match a name known only at "
    "run time or a program run from an unusual place (./x)";
const char* const kRestrictNote =
    "Claude Code matches the command text as written, so /usr/bin/x, bash -c '...', sudo and "
    "quoted words slip past this rule; toolguard matches every simple command of the program "
    "by its words, wherever it is nested";

// A rule matching the whole command text (a pattern with shell syntax).
ClaudeMapping rawTextRule(const std::string& marked, const std::string& why,
                          const ClaudeRuleContext& rule) {
  if (!rule.restricts()) {
    return leftOut("the pattern is not one simple command (" + why +
                   "); Claude Code matches each subcommand on its own, so this allow rule "
                   "approves nothing, and toolguard leaves it out");
  }
  ClaudeMapping m = wholeTools({"Bash"});
  m.rule->command = ValueMatcher::Regex(rawTextRegex(marked));
  m.rule->command->where = rule.where;
  m.notes.push_back("the pattern is not one simple command (" + why +
                    "), so in Claude Code it matches no subcommand; toolguard matches it against "
                    "the whole command text instead");
  return m;
}

}  // namespace

ClaudeMapping mapBareBash(const ClaudeRuleContext& rule) {
  if (rule.restricts()) return wholeTools({"Bash"});
  ClaudeMapping m = wholeTools({"Bash"});
  m.rule->shell.emplace();
  m.rule->shell->regex = {".*"};
  m.rule->shell->tokens = {"* *"};  // a name known before it runs, from a usual place
  m.rule->shell->where = rule.where;
  m.notes.push_back(
      "toolguard still judges each simple command: one whose name is known only at run time, "
      "or a program run from an unusual place (./x), is not allowed by this rule, and the "
      "built-in shell rules of the default profile still deny or ask where they do");
  return m;
}

ClaudeMapping mapBashPattern(const std::string& pattern, const ClaudeRuleContext& rule) {
  if (pattern.find(kStar) != std::string::npos) {
    throw PolicyError(rule.where, "'" + rule.text + "': the pattern holds a reserved word");
  }
  const std::string marked = markWildcards(withoutLegacySuffix(pattern));
  const ShellProgram program = parseShellProgram(marked);
  const SimpleCommand* top = nullptr;
  if (const std::string why = shellSyntax(program, top); !why.empty()) {
    return rawTextRule(marked, why, rule);
  }
  ClaudeMapping m = wholeTools({"Bash"});
  if (!top->assignments.empty() || !harmlessRedirects(*top)) {
    if (!rule.restricts()) {
      return leftOut(
          "the pattern sets a variable or redirects to a file, which toolguard's shell rules do "
          "not match; an allow rule without them would approve more, so it is left out");
    }
    m.notes.push_back(
        "the variable assignment or redirection in the pattern is not matched: toolguard applies "
        "the rule to the command whatever it sets or redirects");
  }
  m.rule->shell.emplace();
  m.rule->shell->where = rule.where;
  m.rule->shell->regex = {wordsRegex(*top, rule.restricts())};
  const bool has_wildcard = countStars(marked) > 0;
  if (rule.restricts()) {
    m.notes.push_back(kRestrictNote);
    return m;
  }
  // A name known before it runs, from a usual place, unless the rule names
  // the program by its path (`./gradlew`): then the regex asks for that path.
  const std::string& first = top->words.front().text;
  if (first.find('/') == std::string::npos) m.rule->shell->tokens = {"* *"};
  if (has_wildcard) m.notes.push_back(kCompoundNote);
  if (program.commands.size() > 1) m.notes.push_back(kWrapperNote);
  if (countStars(first) > 0 && first.find('/') == std::string::npos) {
    m.notes.push_back(kNameWildcardNote);
  }
  return m;
}

}  // namespace toolguard::detail
