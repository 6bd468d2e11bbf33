// commandPrefix and commandRegex of Gemini CLI rules as toolguard `shell:`
// and `command:` cases. toolguard judges each simple command of a program on
// its own; an allow case is read narrowly (whole words), a restricting one
// broadly (also the raw command text, as Gemini CLI's documentation says).
#include <string_view>

#include "foreign_policy/gemini_cases.hpp"

namespace toolguard::detail::gemini {
namespace {

// Characters with a meaning to the shell: a prefix holding one cannot be read
// word by word (quotes, expansions, operators, globs, comments).
bool hasShellSyntax(std::string_view word) {
  return word.find_first_of("'\"\\$`;&|<>(){}*?[]~#!\n\r") != std::string_view::npos;
}

// The whitespace-separated words of a prefix.
std::vector<std::string> splitAtSpaces(const std::string& text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

// Words joined by single spaces, as toolguard's `shell.regex` sees a command.
std::string joinFirstWords(const std::vector<std::string>& words, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out += ' ';
    out += words[i];
  }
  return out;
}

// A run_shell_command case testing each simple command with `shell.regex`.
RuleSpec commandRegexCase(const CaseBuilder& b, std::string regex) {
  RuleSpec c = b.make({kShellTool});
  c.shell.emplace();
  c.shell->regex = {std::move(regex)};
  c.shell->where = b.rule.where;
  return c;
}

// A run_shell_command case testing the raw command text of the whole call.
RuleSpec commandTextCase(const CaseBuilder& b, std::string regex) {
  RuleSpec c = b.make({kShellTool});
  c.command = ValueMatcher::Regex(std::move(regex));
  c.command->where = b.rule.where;
  return c;
}

// An allow prefix: the command's first words are the prefix's words.
void addAllowPrefix(CaseBuilder& b, const Field& prefix, const std::vector<std::string>& words) {
  if (words.empty() || hasShellSyntax(prefix.text)) {
    b.note("commandPrefix '" + prefix.text +
           "' holds shell syntax (quotes, $, operators, globs) that cannot be matched word "
           "by word: this allow prefix is left out");
    return;
  }
  b.cases.push_back(
      commandRegexCase(b, quoteRegex(joinFirstWords(words, words.size())) + "(?: .*)?"));
  if (prefix.text.back() == ' ' || prefix.text.back() == '\t') {
    b.note("commandPrefix '" + prefix.text + "' is read as the words '" +
           joinFirstWords(words, words.size()) + "' (the trailing space is ignored)");
  }
}

// A restricting prefix: the raw text starts with it (the documented reading,
// which also covers `gitx` for `git`), and so does each simple command, read
// from the words before the first one holding shell syntax.
void addRestrictingPrefix(CaseBuilder& b, const Field& prefix,
                          const std::vector<std::string>& words) {
  b.broadened = true;
  b.cases.push_back(commandTextCase(b, quoteRegex(prefix.text) + ".*"));
  size_t safe = 0;
  while (safe < words.size() && !hasShellSyntax(words[safe])) ++safe;
  if (safe == 0) {
    b.cases.push_back(b.make({kShellTool}));
    b.note("commandPrefix '" + prefix.text +
           "' starts with shell syntax: every command of run_shell_command is matched");
    return;
  }
  b.cases.push_back(commandRegexCase(b, quoteRegex(joinFirstWords(words, safe)) + ".*"));
  // The same words by command name, so `/usr/bin/rm` meets a prefix `rm`.
  std::string tokens = joinFirstWords(words, safe);
  if (safe == words.size()) tokens += "*";
  RuleSpec by_name = b.make({kShellTool});
  by_name.shell.emplace();
  by_name.shell->tokens = {tokens + " *"};
  by_name.shell->where = b.rule.where;
  b.cases.push_back(std::move(by_name));
  if (safe < words.size()) {
    b.note("commandPrefix '" + prefix.text + "' holds shell syntax: each command is matched by '" +
           joinFirstWords(words, safe) + "' and what follows");
  }
}

}  // namespace

void addPrefixCases(CaseBuilder& b, const Field& prefix) {
  const std::vector<std::string> words = splitAtSpaces(prefix.text);
  if (b.allows()) {
    addAllowPrefix(b, prefix, words);
  } else {
    addRestrictingPrefix(b, prefix, words);
  }
}

void addCommandRegexCases(CaseBuilder& b, const Field& field, const ValuePattern& pattern) {
  const JsPattern& body = pattern.body;
  // A pattern matches a prefix of the command, or all of it when it ends
  // with the closing quote of the JSON string.
  const std::string rest = pattern.closed ? "" : ".*";
  if (b.allows()) {
    if (body.anchored) {
      b.note("'" + field.text +
             "' uses ^ or $, which anchor at the start or end of the arguments' JSON text in "
             "Gemini CLI, so it cannot match a command there: this allow rule is left out");
      return;
    }
    // JavaScript's `.` does not match a newline; (?-s:) keeps that.
    b.cases.push_back(commandRegexCase(b, "(?-s:" + body.re2 + ")" + rest));
    return;
  }
  b.broadened = true;
  if (body.quotes) {
    // Written against JSON-escaped text or shell quoting, which toolguard's
    // words do not have: read from the literal text the pattern starts with.
    const std::string start = quoteRegex(body.literal_prefix) + ".*";
    b.cases.push_back(commandTextCase(b, start));
    b.cases.push_back(commandRegexCase(b, start));
    b.note("'" + field.text + "' names quotes or backslashes: every command starting with '" +
           body.literal_prefix + "' is matched");
    return;
  }
  b.cases.push_back(commandTextCase(b, "(?:" + body.re2 + ")" + rest));
  b.cases.push_back(commandRegexCase(b, "(?:" + body.re2 + ")" + rest));
}

void addRedirectionGuards(CaseBuilder& b) {
  if (!b.allows() || b.rule.allow_redirection) return;
  std::vector<RuleSpec> out;
  bool guarded = false;
  for (RuleSpec& c : b.cases) {
    const bool on_shell = c.header.target.kinds.empty() && coversShell(c.header.target.tools);
    if (on_shell && c.verdict == Verdict::Allow) {
      RuleSpec guard = c;
      guard.header.target.tools = {kShellTool};
      guard.verdict = Verdict::Ask;
      guard.reason = "the command redirects input or output: " + b.reason +
                     " only without redirection (Gemini CLI asks)";
      guard.command = ValueMatcher::Regex(kRedirectionText);
      guard.command->where = b.rule.where;
      out.push_back(std::move(guard));
      guarded = true;
    }
    out.push_back(std::move(c));
  }
  b.cases = std::move(out);
  if (guarded) {
    b.note(
        "without allowRedirection Gemini CLI asks when the command redirects; toolguard asks "
        "when the command text holds '<' or '>'");
  }
}

}  // namespace toolguard::detail::gemini
