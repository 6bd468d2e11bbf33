// A shell program that does not parse is never allowed, whatever the rules say.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/shell.hpp"

namespace toolguard {
namespace unreadable_program_test {

Engine allowEverything() {
  Policy policy;
  mergePolicyText(policy, "rules:\n  - {id: all, shell: {regex: \".*\"}, verdict: allow}\n",
                  "p.yaml", PolicyLayer::Explicit);
  return Engine(policy);
}

TEST(UnreadableProgram, AnAllowRuleDoesNotAllowAProgramThatDoesNotParse) {
  Engine engine = allowEverything();
  Decision d = engine.decide(testing::makeCall("Bash", {{"command", "echo ok"}}));
  EXPECT_EQ(d.verdict, Verdict::Allow);
  d = engine.decide(testing::makeCall("Bash", {{"command", "echo ok; cat <(ls"}}));
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "shell-unreadable-program");
  EXPECT_NE(d.reason.find("does not parse"), std::string::npos) << d.reason;
}

TEST(UnreadableProgram, AStricterRuleStillDecides) {
  Policy policy;
  mergePolicyText(policy, "rules:\n  - {id: no-cat, shell: \"cat *\", verdict: deny}\n", "p.yaml",
                  PolicyLayer::Explicit);
  Engine engine(policy);
  Decision d = engine.decide(testing::makeCall("Bash", {{"command", "cat x; echo \"open"}}));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "no-cat");
}

// An unterminated quote is named, with where it was opened, not a generic
// parse failure; the program is still never allowed.
TEST(UnreadableProgram, AnUnterminatedQuoteSaysSo) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"echo \"hi", "unterminated double quote (\") opened at line 1, column 6"},
      {"echo 'hi", "unterminated single quote (') opened at line 1, column 6"},
      {"ls\necho $'abc", "unterminated $'...' quote opened at line 2, column 6"},
      {"echo `date", "unterminated backquote (`) opened at line 1, column 6"},
      {"echo \"$(printf '%s' ')')\" \"x",
       "unterminated double quote (\") opened at line 1, column 27"},
      {"echo \"$(ls\"", "unterminated double quote (\") opened at line 1, column 11"},
      {"echo it\\'s 'fine", "unterminated single quote (') opened at line 1, column 12"},
  };
  for (const auto& [command, message] : cases) {
    ShellProgram p = parseShellProgram(command);
    EXPECT_TRUE(p.parse_error) << command;
    EXPECT_EQ(p.error, message) << command;
  }
  // Balanced quotes with another mistake keep the parser's own message; a
  // quote in a comment or a here-document is not an open quote.
  for (const std::string command :
       {"echo hi $(ls", "cat <<EOF\n'\nEOF\n)", "echo ok # it's ) fine\n)"}) {
    ShellProgram p = parseShellProgram(command);
    EXPECT_TRUE(p.parse_error) << command;
    EXPECT_EQ(p.error.find("unterminated"), std::string::npos) << command << ": " << p.error;
  }
  Engine engine = allowEverything();
  Decision d = engine.decide(testing::makeCall("Bash", {{"command", "git commit -m \"fix"}}));
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_NE(d.reason.find("unterminated double quote (\") opened at line 1, column 15"),
            std::string::npos)
      << d.reason;
}

}  // namespace unreadable_program_test
}  // namespace toolguard
