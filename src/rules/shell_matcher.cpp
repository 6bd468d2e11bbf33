// Policy-file shell rules: token patterns, regexes on the normalized command,
// and the paths a command writes.
#include "rules/shell_matcher.hpp"

#include <algorithm>
#include <string_view>

#include "commands/command_accesses.hpp"
#include "commands/shell_facts.hpp"
#include "core/glob.hpp"
#include "core/value_matcher.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

constexpr const char* kBlanks = " \t\n\r\f\v";

// Words split at blanks (a stream per pattern cost a policy load 270k
// instructions over the default policy's few hundred patterns).
std::vector<std::string> splitTokens(std::string_view pattern) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    at = pattern.find_first_not_of(kBlanks, at);
    if (at == std::string_view::npos) return out;
    const size_t end = std::min(pattern.find_first_of(kBlanks, at), pattern.size());
    out.emplace_back(pattern.substr(at, end - at));
    at = end;
  }
}

// Token patterns: the first token is the command name; a final lone `*`
// takes any remaining words; other tokens match one word each (globs).
bool tokensMatch(const std::vector<std::string>& pattern, const SimpleCommand& command) {
  if (pattern.empty() || command.words.empty()) return false;
  if (command.nameIsDynamic() || command.runsFromUnusualPlace()) return false;
  if (!toolNameMatches(pattern[0], command.name())) return false;
  size_t w = 1;
  for (size_t t = 1; t < pattern.size(); ++t, ++w) {
    if (pattern[t] == "*" && t + 1 == pattern.size()) return true;
    if (w >= command.words.size()) return false;
    const ShellWord& word = command.words[w];
    if (pattern[t] != "*" && (word.dynamic || !toolNameMatches(pattern[t], word.text)))
      return false;
  }
  return w == command.words.size();
}

}  // namespace

CompiledShellMatcher::CompiledShellMatcher(ShellMatcher spec, bool every_write)
    : patterns_(std::move(spec.tokens)),
      regex_text_(std::move(spec.regex)),
      writes_text_(std::move(spec.writes)) {
  for (const std::string& p : patterns_) {
    if (p.find_first_not_of(kBlanks) == std::string::npos) {
      throw PolicyError(spec.where, "shell.command: empty pattern");
    }
  }
  regex_ = compileAlternatives(regex_text_, spec.where, "shell.regex");
  if (!writes_text_.empty()) {
    PathMatcher writes;
    writes.glob = writes_text_;
    writes.where = spec.where;
    writes_.emplace(writes, every_write);
  }
  if (patterns_.empty() && !regex_ && !writes_) {
    throw PolicyError(spec.where, "shell: expected command, regex or writes");
  }
}

const std::vector<std::vector<std::string>>& CompiledShellMatcher::tokens() const {
  std::call_once(split_once_, [this] {
    std::vector<std::vector<std::string>> split;  // kept only when whole
    split.reserve(patterns_.size());
    for (const std::string& p : patterns_) split.push_back(splitTokens(p));
    tokens_ = std::move(split);
  });
  return tokens_;
}

bool CompiledShellMatcher::matches(const SimpleCommand& command, const CallView& view) const {
  if (!patterns_.empty() &&
      std::none_of(tokens().begin(), tokens().end(),
                   [&](const auto& pattern) { return tokensMatch(pattern, command); })) {
    return false;
  }
  if (regex_) {
    std::string normalized;
    for (const ShellWord& w : command.words) normalized += (normalized.empty() ? "" : " ") + w.text;
    if (!RE2::FullMatch(normalized, *regex_)) return false;
  }
  if (writes_) {
    // The command's writes, found and resolved as every path rule sees them.
    const ShellProgram* program = view.shellProgram();
    if (program == nullptr) return false;
    const CommandScene scene{command, *program, view, view.home()};
    std::vector<PathAccess> writes = commandAccesses(scene);
    std::erase_if(writes, [](const PathAccess& a) { return a.kind != PathAccessKind::Write; });
    if (!writes_->matchesAccesses(writes, view)) return false;
  }
  return true;
}

std::string CompiledShellMatcher::describe() const {
  std::string text;
  for (const std::string& p : patterns_) {
    if (!text.empty()) text += " or ";
    text.append("'").append(p).append("'");
  }
  for (const std::string& r : regex_text_)
    text += (text.empty() ? "regex '" : " and regex '") + r + "'";
  for (const std::string& g : writes_text_)
    text += (text.empty() ? "writes '" : " and writes '") + g + "'";
  return "each shell command: " + text;
}

}  // namespace toolguard::detail
