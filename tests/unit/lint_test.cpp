#include <gtest/gtest.h>

#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace lint_test {

std::vector<std::string> lint(const std::string& text) {
  Policy policy;
  mergePolicyText(policy, text, "p.yaml", PolicyLayer::Explicit);
  std::vector<std::string> out;
  for (const auto& w : lintPolicy(policy)) out.push_back(w.where.toString() + ": " + w.message);
  return out;
}

bool contains(const std::vector<std::string>& warnings, const std::string& needle) {
  for (const auto& w : warnings) {
    if (w.find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(Lint, CleanPolicyHasNoWarnings) {
  EXPECT_TRUE(lint("rules:\n  - {id: a, tool: Bash, verdict: ask}\n").empty());
}

TEST(Lint, RulesThatCanNeverMatch) {
  auto w = lint(R"(
rules:
  - {id: above-critical, max_risk: critical, verdict: deny}
  - {id: read-is-not-write, tool: Read, kind: file-write, verdict: deny}
)");
  EXPECT_TRUE(contains(w, "p.yaml:3:5: rule above-critical can never match"));
  EXPECT_TRUE(contains(w, "p.yaml:4:5: rule read-is-not-write can never match"));
}

TEST(Lint, ConcurrencyLimitsAHookCannotEnforceAreNamed) {
  auto w = lint(R"(
rate_limits:
  - {tool: Bash, max_calls: 5, window: 1m}
  - {category: network, max_concurrent: 2}
)");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_TRUE(contains(w, "p.yaml:4:5: rate limit max_concurrent is counted within one process"));
  EXPECT_TRUE(contains(w, "not across toolguard check hooks"));
}

TEST(Lint, AllowShadowedByDeny) {
  auto w = lint(R"(
rules:
  - {id: allow-gh, tool: mcp__github__create_issue, verdict: allow}
  - {id: no-gh, tool: "mcp__github__*", verdict: deny}
  - {id: allow-fetch, tool: WebFetch, verdict: allow}
  - {id: deny-fetch-internal, tool: WebFetch, args: {url: {glob: "*internal*"}}, verdict: deny}
)");
  EXPECT_TRUE(contains(w, "allow rule allow-gh is shadowed: deny rule no-gh"));
  EXPECT_FALSE(contains(w, "allow-fetch is shadowed"));  // the deny has a condition
}

TEST(Lint, AllowRulesOnRawCommandTextAreFlagged) {
  auto w = lint(
      "rules:\n  - {id: git-ok, tool: Bash, command: {glob: 'git status*'}, verdict: allow}\n");
  EXPECT_TRUE(contains(w, "rule git-ok loosens on the raw command text"));
  EXPECT_TRUE(lint("rules:\n  - {id: no-rm, kind: shell, command: {glob: '*rm*'}, verdict: deny}\n")
                  .empty());
}

// A rule about shell commands limited to Bash never sees the same command
// through Gemini CLI's run_shell_command or another agent's shell tool.
TEST(Lint, ShellRulesOnlyOneShellToolReachesAreFlagged) {
  for (const char* rule : {"{id: no-rm, tool: Bash, command: {glob: '*rm*'}, verdict: deny}",
                           "{id: no-rm, tool: [Bash, bash], shell: 'rm *', verdict: deny}"}) {
    auto w = lint(std::string("rules:\n  - ") + rule + "\n");
    EXPECT_TRUE(contains(w, "rule no-rm judges shell commands only through Bash")) << rule;
    EXPECT_TRUE(contains(w, "run_shell_command")) << rule;
  }
  for (const char* rule : {"{id: no-rm, kind: shell, shell: 'rm *', verdict: deny}",
                           "{id: no-rm, tool: '*', shell: 'rm *', verdict: deny}",
                           "{id: reads, tool: Read, path: /etc/**, verdict: deny}"}) {
    EXPECT_FALSE(contains(lint(std::string("rules:\n  - ") + rule + "\n"), "judges shell commands"))
        << rule;
  }
}

TEST(Lint, UnknownToolNames) {
  auto w = lint("rules:\n  - {id: a, tool: [Bassh, 'mcp__x__y', 'Rea*'], verdict: ask}\n");
  EXPECT_TRUE(contains(w, "unknown tool 'Bassh'"));
  EXPECT_FALSE(contains(w, "mcp__x__y"));
  EXPECT_FALSE(contains(w, "Rea*"));
}

}  // namespace lint_test
}  // namespace toolguard
