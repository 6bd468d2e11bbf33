// argsPattern of Gemini CLI rules: a JavaScript regex searched in the JSON
// text of the arguments (keys sorted). toolguard has no matcher over that
// text, so a pattern `"name":"...` is read as a test of the string argument
// `name`; any other pattern makes a restricting rule match every call of its
// tools and an allow rule is left out.
#include <algorithm>
#include <cctype>
#include <optional>

#include "foreign_policy/gemini_cases.hpp"

namespace toolguard::detail::gemini {
namespace {

// `"name":"rest`: the argument a pattern starts with and what follows it.
struct FieldPattern {
  std::string key;
  std::string rest;
};

// Splits a pattern of the form `"name":"rest` (name a plain identifier).
std::optional<FieldPattern> splitFieldPattern(const std::string& p) {
  if (p.size() < 4 || p[0] != '"') return std::nullopt;
  size_t i = 1;
  while (i < p.size() &&
         (std::isalnum(static_cast<unsigned char>(p[i])) || p[i] == '_' || p[i] == '-')) {
    ++i;
  }
  if (i == 1 || p.compare(i, 3, "\":\"") != 0) return std::nullopt;
  return FieldPattern{p.substr(1, i - 1), p.substr(i + 3)};
}

// Arguments of Gemini CLI's tools that hold lists: `"name":"` never matches
// them there, while a toolguard matcher would test each element.
bool isListArgument(const std::string& key) {
  return key == "paths" || key == "include" || key == "exclude";
}

// Every tool kind but the shell: an allow case on `command` must not allow a
// shell call whole (its simple commands are judged by the shell cases).
std::vector<ToolKind> nonShellKinds() {
  return {ToolKind::FileRead, ToolKind::FileWrite, ToolKind::FileSearch,
          ToolKind::Network,  ToolKind::Agent,     ToolKind::Other};
}

// The text before the first character JSON escapes (quote, backslash, control).
std::string beforeEscapes(const std::string& text) {
  const auto it = std::find_if(text.begin(), text.end(), [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  });
  return std::string(text.begin(), it);
}

// A case testing argument `key` with `matchers` (all must hold).
RuleSpec argumentCase(const CaseBuilder& b, std::vector<std::string> tools, const std::string& key,
                      std::vector<ValueMatcher> matchers) {
  RuleSpec c = b.make(std::move(tools));
  for (ValueMatcher& m : matchers) {
    m.where = b.rule.args_pattern->where;
    c.args.emplace_back(key, std::move(m));
  }
  return c;
}

// An allow rule: the string argument starts with (or, closed, is) a match of
// the pattern, and holds no character JSON escapes, so that its JSON text is
// the text Gemini CLI tests.
void addAllowField(CaseBuilder& b, std::vector<std::string> tools, const FieldPattern& f,
                   const ValuePattern& value, bool exclude_shell) {
  const Field& field = *b.rule.args_pattern;
  const JsPattern& body = value.body;
  if (isListArgument(f.key)) {
    b.note("argsPattern '" + field.text + "': argument '" + f.key +
           "' holds a list, which the pattern never matches in Gemini CLI: left out");
    return;
  }
  if (body.anchored || body.quotes) {
    b.note("argsPattern '" + field.text +
           "' uses anchors, quotes or backslashes, which refer to the JSON text of all "
           "arguments: this allow rule is left out");
    return;
  }
  std::vector<ValueMatcher> matchers;
  if (value.closed && body.all_literal) {
    matchers.push_back(ValueMatcher::Equals(body.literal_prefix));
  } else {
    matchers.push_back(ValueMatcher::Regex("(?-s:" + body.re2 + ")" + (value.closed ? "" : ".*")));
    matchers.push_back(ValueMatcher::Regex(R"([^"\\\x00-\x1f]*)"));
  }
  RuleSpec c = argumentCase(b, std::move(tools), f.key, std::move(matchers));
  if (exclude_shell) c.header.target.kinds = nonShellKinds();
  b.cases.push_back(std::move(c));
  b.note("argsPattern '" + field.text + "' is read as a test of the top-level string argument '" +
         f.key + "'");
}

// A restricting rule: the argument starts with (or, closed, is) a match of the
// pattern; a pattern about quotes or backslashes, which JSON escapes, is read
// from the literal text it starts with.
void addRestrictingField(CaseBuilder& b, std::vector<std::string> tools, const FieldPattern& f,
                         const ValuePattern& value) {
  const Field& field = *b.rule.args_pattern;
  const JsPattern& body = value.body;
  const std::string rest = value.closed ? "" : ".*";
  ValueMatcher m;
  if (body.quotes) {
    const std::string start = beforeEscapes(body.literal_prefix);
    m = ValueMatcher::Regex(quoteRegex(start) + ".*");
    b.broadened = true;
    b.note("argsPattern '" + field.text + "' names quotes or backslashes: read as argument '" +
           f.key + "' starting with '" + start + "'");
  } else if (value.closed && body.all_literal) {
    m = ValueMatcher::Equals(body.literal_prefix);
  } else if (body.all_literal) {
    m = ValueMatcher::Regex(quoteRegex(body.literal_prefix) + ".*");
  } else {
    m = ValueMatcher::Regex("(?:" + body.re2 + ")" + rest);
  }
  b.cases.push_back(argumentCase(b, std::move(tools), f.key, {std::move(m)}));
}

}  // namespace

void addArgsPatternCases(CaseBuilder& b, const ToolTargets& targets, const Field& field) {
  const std::optional<FieldPattern> f = splitFieldPattern(field.text);
  if (!f) {
    if (b.allows()) {
      b.note("argsPattern '" + field.text +
             "' does not start with \"name\":\" and cannot be read as a test of one argument: "
             "this allow rule is left out");
      return;
    }
    b.broadened = true;
    b.cases.push_back(b.make(targets.tools));
    b.note("argsPattern '" + field.text +
           "' does not start with \"name\":\": the rule matches every call of its tools");
    return;
  }
  const ValuePattern rest = readValuePattern(f->rest, field.where, "argsPattern");
  std::vector<std::string> others = targets.tools;
  const bool shell = f->key == "command" && coversShell(targets.tools);
  if (shell) {
    // The shell tool's command: each simple command, like commandRegex.
    addCommandRegexCases(b, field, rest);
    std::erase(others, std::string(kShellTool));
    if (others.empty()) return;
  }
  if (b.allows()) {
    addAllowField(b, std::move(others), *f, rest, shell);
  } else {
    addRestrictingField(b, std::move(others), *f, rest);
  }
}

}  // namespace toolguard::detail::gemini
