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

// Words split at blanks (a stream per pattern cost a policy load 270k
// instructions over the default policy's few hundred patterns).
std::vector<std::string> splitTokens(std::string_view pattern) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    at = pattern.find_first_not_of(" \t\n\r\f\v", at);
    if (at == std::string_view::npos) return out;
    const size_t end = std::min(pattern.find_first_of(" \t\n\r\f\v", at), pattern.size());
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

CompiledShellMatcher::CompiledShellMatcher(const ShellMatcher& spec, bool every_write) {
  for (const std::string& p : spec.tokens) {
    tokens_.push_back(splitTokens(p));
    if (tokens_.back().empty()) throw PolicyError(spec.where, "shell.command: empty pattern");
    if (!text_.empty()) text_ += " or ";
    text_.append("'").append(p).append("'");
  }
  regex_ = compileAlternatives(spec.regex, spec.where, "shell.regex");
  if (!spec.writes.empty()) {
    PathMatcher writes;
    writes.glob = spec.writes;
    writes.where = spec.where;
    writes_.emplace(writes, every_write);
  }
  if (tokens_.empty() && !regex_ && !writes_) {
    throw PolicyError(spec.where, "shell: expected command, regex or writes");
  }
  for (const std::string& r : spec.regex)
    text_ += (text_.empty() ? "regex '" : " and regex '") + r + "'";
  for (const std::string& g : spec.writes)
    text_ += (text_.empty() ? "writes '" : " and writes '") + g + "'";
}

bool CompiledShellMatcher::matches(const SimpleCommand& command, const CallView& view) const {
  if (!tokens_.empty() && std::none_of(tokens_.begin(), tokens_.end(), [&](const auto& pattern) {
        return tokensMatch(pattern, command);
      })) {
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
  return "each shell command: " + text_;
}

}  // namespace toolguard::detail
