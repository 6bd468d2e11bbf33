// The notes an import of a Codex rules file gives, rule by rule.
#include "foreign_policy/codex_notes.hpp"

#include <algorithm>

#include "foreign_policy/shell_words.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {
namespace {

// True when toolguard never lets a command run from there meet an allow rule
// (`./gradlew`, `/opt/tool/bin/x`): see SimpleCommand::runsFromUnusualPlace.
bool unusualPlace(const std::string& first) {
  SimpleCommand command;
  command.words.push_back(ShellWord{first, false, first});
  return command.runsFromUnusualPlace();
}

// Notes for an allow rule.
std::vector<std::string> allowNotes(const CodexPrefixRule& rule) {
  const std::vector<std::string> prefix = rule.pattern.firstPrefix();
  const std::string& first = prefix.front();
  std::string n =
      "allow: toolguard judges every simple command of a compound command on its own, "
      "so `" +
      shellJoin(prefix) + " && rm -rf /tmp/x` is not allowed by this rule";
  if (first.find('/') == std::string::npos) {
    std::vector<std::string> by_path = prefix;
    by_path.front() = "/usr/bin/" + first;
    n += "; and it matches the command name only as written (Codex also resolves `" +
         shellJoin(by_path) + "` to it)";
  }
  std::vector<std::string> notes{n};
  const auto& firsts = rule.pattern.tokens.front();
  if (std::all_of(firsts.begin(), firsts.end(),
                  [](const std::string& f) { return f.find('/') != std::string::npos; }) &&
      std::all_of(firsts.begin(), firsts.end(), unusualPlace)) {
    notes.push_back(
        "this allow rule never matches in toolguard: it does not allow commands run "
        "from outside the system directories (`" +
        first + "`)");
  }
  return notes;
}

// Notes for a prompt or forbidden rule.
std::vector<std::string> restrictingNotes(const CodexPrefixRule& rule) {
  const std::string& first = rule.pattern.tokens.front().front();
  std::string n = rule.decision +
                  ": toolguard applies this rule to every simple command, also where Codex does "
                  "not look: inside $(...), subshells and scripts it does not split (redirections, "
                  "variables, control flow), and behind sudo, env, xargs or find -exec";
  if (first.find('/') == std::string::npos) {
    n += "; and to the command run by any absolute path (`/usr/bin/" + first + "`)";
  }
  std::vector<std::string> notes{n};
  const auto& firsts = rule.pattern.tokens.front();
  if (std::any_of(firsts.begin(), firsts.end(),
                  [](const std::string& f) { return f.find('=') != std::string::npos; })) {
    notes.push_back(
        "a shell reads a first word `NAME=value` as an assignment, so this rule "
        "meets only a command whose first word is quoted (`'" +
        first + "' ...`)");
  }
  return notes;
}

}  // namespace

// Picks the notes by decision.
std::vector<std::string> readingNotes(const CodexPrefixRule& rule) {
  return rule.decision == "allow" ? allowNotes(rule) : restrictingNotes(rule);
}

// Names the alternative left out.
std::string droppedAlternativeNote(const std::string& what) {
  return "allow: " + what + " is left out: no command toolguard can allow has it";
}

// Names the pattern left out.
std::string leftOutNote(const CodexPattern& pattern) {
  return "allow rule `" + pattern.text() +
         "` is not imported: toolguard cannot match any command it names safely";
}

// Names the example that would be allowed.
std::string looserExampleNote(const std::string& example) {
  return "allow rule not imported: toolguard's reading of it would allow `" + example +
         "`, which the rule's not_match says it must not";
}

// Says which way the readings differ on the example.
std::string disagreeingExampleNote(const std::string& example, bool allow, bool should_match) {
  if (allow) {
    return "example `" + example +
           "` is not allowed by toolguard's stricter reading of this rule; it is not checked";
  }
  if (!should_match) {
    return "example `" + example +
           "` is also caught by toolguard's broader reading of this rule; it is not checked";
  }
  return "example `" + example +
         "` is NOT caught by toolguard's reading of this rule: add a toolguard rule for it";
}

}  // namespace toolguard::detail
