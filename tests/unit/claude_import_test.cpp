// Importing the `permissions` block of Claude Code's settings.json: every
// rule form, decided on real calls, alone and on top of the default profile.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "foreign_policy/foreign_policy.hpp"
#include "policy/policy_document.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace claude_import_test {

namespace fs = std::filesystem;
using nlohmann::json;

// The text of tests/data/claude/NAME.
std::string readData(const std::string& name) {
  std::ifstream in(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/claude/" + name,
                   std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// True when some note of `fp` contains both `rule` and `part`.
bool hasNote(const detail::ForeignPolicy& fp, const std::string& rule, const std::string& part) {
  return std::any_of(fp.notes.begin(), fp.notes.end(), [&](const detail::ImportNote& n) {
    return n.message.find(rule) != std::string::npos && n.message.find(part) != std::string::npos;
  });
}

class ClaudeImport : public ::testing::Test {
 protected:
  void SetUp() override {
    root = dir.path().string();
    home = root + "/home";
    project = root + "/proj";
    fs::create_directories(home + "/.ssh");
    fs::create_directories(project + "/src");
    const char* old = std::getenv("HOME");
    had_home = old != nullptr;
    old_home = old != nullptr ? old : "";
    setenv("HOME", home.c_str(), 1);  // ~/ patterns, and which settings file is the user's
  }
  void TearDown() override {
    if (had_home) {
      setenv("HOME", old_home.c_str(), 1);
    } else {
      unsetenv("HOME");
    }
  }

  // Imports tests/data/claude/NAME as if it were `settings` (by default the
  // project's .claude/settings.json).
  detail::ForeignPolicy import(const std::string& name, std::string settings = "") const {
    if (settings.empty()) settings = project + "/.claude/settings.json";
    return detail::importClaudeSettings(readData(name), settings, PolicyLayer::Explicit);
  }

  // An engine for the imported file alone, or on top of the default profile.
  Engine engine(const std::string& name, bool with_default = false,
                const std::string& settings = "") const {
    Policy p;
    if (with_default) {
      mergePolicyText(p, policyProfileText("default"), "<profile:default>", PolicyLayer::Builtin);
    }
    detail::mergeDocument(p, import(name, settings).document, PolicyLayer::Explicit, true);
    return Engine(std::move(p));
  }

  Decision call(const Engine& e, const std::string& tool, json args) const {
    ToolCall c;
    c.tool = tool;
    c.args = std::move(args);
    c.context.cwd = project;
    return e.decide(c);
  }
  Verdict decide(const Engine& e, const std::string& tool, json args) const {
    return call(e, tool, std::move(args)).verdict;
  }
  Verdict bash(const Engine& e, const std::string& command) const {
    return decide(e, "Bash", {{"command", command}});
  }
  Verdict read(const Engine& e, const std::string& path) const {
    return decide(e, "Read", {{"file_path", path}});
  }
  Verdict edit(const Engine& e, const std::string& path) const {
    return decide(e, "Edit", {{"file_path", path}, {"old_string", "a"}, {"new_string", "b"}});
  }
  Verdict fetch(const Engine& e, const std::string& url) const {
    return decide(e, "WebFetch", {{"url", url}, {"prompt", "summarize"}});
  }

  testing::TempDir dir;
  std::string root, home, project, old_home;
  bool had_home = false;
};

// ---- Bash -------------------------------------------------------------------------

TEST_F(ClaudeImport, LegacyPrefixIsAWordPrefix) {
  const Engine e = engine("permissions-bash.json");
  // Bash(npm run test:*) is Bash(npm run test *): the bare command and any arguments.
  EXPECT_EQ(bash(e, "npm run test"), Verdict::Allow);
  EXPECT_EQ(bash(e, "npm run test --watch"), Verdict::Allow);
  EXPECT_EQ(bash(e, "npm run test:unit"), Verdict::Ask);
  EXPECT_EQ(bash(e, "npm run testx"), Verdict::Ask);
  EXPECT_EQ(bash(e, "npm   run  'test'"), Verdict::Allow);  // the same words
}

TEST_F(ClaudeImport, WildcardSpansWords) {
  const Engine e = engine("permissions-bash.json");
  // Bash(git * main)
  EXPECT_EQ(bash(e, "git checkout main"), Verdict::Allow);
  EXPECT_EQ(bash(e, "git log --oneline main"), Verdict::Allow);
  EXPECT_EQ(bash(e, "git log"), Verdict::Ask);
  EXPECT_EQ(bash(e, "git main"), Verdict::Ask);
  // Bash(ls*): no word boundary.
  EXPECT_EQ(bash(e, "ls -la"), Verdict::Allow);
  EXPECT_EQ(bash(e, "lsof -i"), Verdict::Allow);
}

TEST_F(ClaudeImport, ExactCommand) {
  const Engine e = engine("permissions-bash.json");
  EXPECT_EQ(bash(e, "npm run build"), Verdict::Allow);
  EXPECT_EQ(bash(e, "npm run build --watch"), Verdict::Ask);
}

TEST_F(ClaudeImport, ProgramNamedByItsPath) {
  const Engine e = engine("permissions-bash.json");
  // Bash(./gradlew build *): the rule names the program's path, so it may match it.
  EXPECT_EQ(bash(e, "./gradlew build --info"), Verdict::Allow);
  EXPECT_EQ(bash(e, "./gradlew clean"), Verdict::Ask);
  EXPECT_EQ(bash(e, "gradlew build"), Verdict::Ask);
  EXPECT_EQ(bash(e, "/tmp/gradlew build"), Verdict::Ask);
}

TEST_F(ClaudeImport, CompoundCommandIsNotAllowedByAPrefixRule) {
  const Engine e = engine("permissions-bash.json");
  EXPECT_EQ(bash(e, "npm run test && make install"), Verdict::Ask);
  EXPECT_EQ(bash(e, "npm run test; curl -s https://x.test"), Verdict::Deny);
  EXPECT_EQ(bash(e, "npm run test | sh"), Verdict::Ask);
  EXPECT_EQ(bash(e, "npm run test $(touch /tmp/x)"), Verdict::Ask);
  const detail::ForeignPolicy fp = import("permissions-bash.json");
  EXPECT_TRUE(hasNote(fp, "Bash(npm run test:*)", "#28784"));
  EXPECT_FALSE(hasNote(fp, "Bash(npm run build)", "#28784"));  // exact: nothing to slip past
}

TEST_F(ClaudeImport, WrappersAreJudgedThroughWhatTheyRun) {
  const Engine e = engine("permissions-bash.json");
  // Bash(sudo *) approves sudo itself; what it runs still needs a rule.
  EXPECT_EQ(bash(e, "sudo make install"), Verdict::Ask);
  EXPECT_EQ(bash(e, "sudo npm run build"), Verdict::Allow);
  EXPECT_TRUE(hasNote(import("permissions-bash.json"), "Bash(sudo *)", "runs other commands"));
}

TEST_F(ClaudeImport, DenyBeatsAllow) {
  const Engine e = engine("permissions-bash.json");
  const Decision d = call(e, "Bash", {{"command", "git push origin main"}});  // both match
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "claude-project-deny-1");
  EXPECT_EQ(d.reason, "Claude Code settings: deny Bash(git push *)");
}

TEST_F(ClaudeImport, RestrictingRulesCatchWhatClaudeCodeMisses) {
  const Engine e = engine("permissions-bash.json");
  EXPECT_EQ(bash(e, "curl"), Verdict::Deny);  // Bash(curl:*) includes the bare command
  EXPECT_EQ(bash(e, "curly"), Verdict::Ask);
  EXPECT_EQ(bash(e, "/usr/bin/curl https://x.test"), Verdict::Deny);
  EXPECT_EQ(bash(e, "bash -c 'git push origin main'"), Verdict::Deny);
  EXPECT_EQ(bash(e, "git 'push' origin"), Verdict::Deny);
  EXPECT_EQ(bash(e, "echo $(curl -s https://x.test)"), Verdict::Deny);
  EXPECT_EQ(bash(e, "timeout 5 rm -rf build"), Verdict::Ask);  // Bash(rm *) in ask
  EXPECT_EQ(bash(e, "rm"), Verdict::Ask);
  EXPECT_TRUE(hasNote(import("permissions-bash.json"), "Bash(git push *)", "slip past"));
}

TEST_F(ClaudeImport, PatternWithShellSyntaxMatchesTheWholeText) {
  const detail::ForeignPolicy fp = import("permissions-bash.json");
  EXPECT_TRUE(hasNote(fp, "Bash(curl * | sh)", "whole command text"));
  const auto rule = std::find_if(fp.document.rules.begin(), fp.document.rules.end(),
                                 [](const RuleSpec& r) { return r.header.id.ends_with("deny-3"); });
  ASSERT_NE(rule, fp.document.rules.end());
  ASSERT_TRUE(rule->command.has_value());
  EXPECT_FALSE(rule->shell.has_value());
}

TEST_F(ClaudeImport, BareBashAllowsEveryCommandItCanJudge) {
  const Engine e = engine("permissions-bare.json");
  EXPECT_EQ(bash(e, "make install"), Verdict::Allow);
  EXPECT_EQ(bash(e, "cd src && make"), Verdict::Allow);
  EXPECT_EQ(bash(e, "rm -rf tmp"), Verdict::Deny);  // Bash(rm -rf *) in deny
  EXPECT_EQ(bash(e, "./configure"), Verdict::Ask);  // an unusual place
  EXPECT_EQ(bash(e, "$TOOL --version"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://anything.test/"), Verdict::Allow);
  EXPECT_EQ(decide(e, "WebSearch", {{"query", "x"}}), Verdict::Deny);
}

TEST_F(ClaudeImport, BareBashOnTopOfTheDefaultProfile) {
  const Engine e = engine("permissions-bare.json", true);
  EXPECT_EQ(bash(e, "make install"), Verdict::Allow);
  EXPECT_EQ(bash(e, "rm -rf /"), Verdict::Deny);  // the built-in shell rules still hold
}

TEST_F(ClaudeImport, BashRulesOnTopOfTheDefaultProfile) {
  const Engine e = engine("permissions-bash.json", true);
  EXPECT_EQ(bash(e, "npm run test"), Verdict::Allow);
  EXPECT_EQ(bash(e, "git checkout main"), Verdict::Allow);
  EXPECT_EQ(bash(e, "git push origin main"), Verdict::Deny);
  EXPECT_EQ(bash(e, "npm run test && curl https://x.test"), Verdict::Deny);
  EXPECT_EQ(bash(e, "npm run build && python3 evil.py"), Verdict::Ask);
}

// ---- Read and Edit ------------------------------------------------------------------

TEST_F(ClaudeImport, DotSlashIsTheCurrentDirectory) {
  const Engine e = engine("permissions-files.json");
  // Read(./.env) in deny: the cwd's .env, and (gitignore reading) any below it.
  EXPECT_EQ(read(e, project + "/.env"), Verdict::Deny);
  EXPECT_EQ(read(e, project + "/pkg/.env"), Verdict::Deny);
  EXPECT_EQ(read(e, root + "/other/.env"), Verdict::Allow);
  EXPECT_EQ(edit(e, project + "/.env"), Verdict::Deny);  // a Read deny blocks edits there too
  EXPECT_TRUE(hasNote(import("permissions-files.json"), "Read(./notes.txt)",
                      "only in the current directory"));
}

TEST_F(ClaudeImport, SlashIsTheProjectRoot) {
  const Engine e = engine("permissions-files.json");
  // Edit(/src/**) in ask, from <project>/.claude/settings.json.
  EXPECT_EQ(edit(e, project + "/src/a.ts"), Verdict::Ask);
  EXPECT_EQ(edit(e, project + "/src"), Verdict::Ask);
  EXPECT_EQ(decide(e, "Write", {{"file_path", project + "/src/new.ts"}, {"content", ""}}),
            Verdict::Ask);
  EXPECT_EQ(edit(e, project + "/lib/src/a.ts"), Verdict::Allow);
  EXPECT_EQ(edit(e, "/src/a.ts"), Verdict::Allow);
}

TEST_F(ClaudeImport, SlashInUserSettingsIsTheClaudeDirectory) {
  const Engine e = engine("permissions-files.json", false, home + "/.claude/settings.json");
  EXPECT_EQ(edit(e, home + "/.claude/src/a.ts"), Verdict::Ask);
  EXPECT_EQ(edit(e, project + "/src/a.ts"), Verdict::Allow);
  EXPECT_EQ(import("permissions-files.json", home + "/.claude/settings.json")
                .document.rules.front()
                .header.id.substr(0, 12),
            "claude-user-");
}

TEST_F(ClaudeImport, SlashInAnotherFileIsItsDirectory) {
  const Engine e = engine("permissions-files.json", false, root + "/cfg [x]/team.json");
  EXPECT_EQ(edit(e, root + "/cfg [x]/src/a.ts"), Verdict::Ask);  // glob characters escaped
  EXPECT_EQ(edit(e, root + "/cfg x/src/a.ts"), Verdict::Allow);
  EXPECT_EQ(edit(e, project + "/src/a.ts"), Verdict::Allow);
}

TEST_F(ClaudeImport, DoubleSlashIsAbsoluteAndTildeIsHome) {
  const Engine e = engine("permissions-files.json");
  EXPECT_EQ(read(e, "/etc/shadow"), Verdict::Deny);  // Read(//etc/shadow)
  EXPECT_EQ(read(e, project + "/etc/shadow"), Verdict::Allow);
  EXPECT_EQ(read(e, home + "/.ssh/id_ed25519"), Verdict::Deny);  // Read(~/.ssh/**)
  EXPECT_EQ(read(e, project + "/.ssh/id_ed25519"), Verdict::Allow);
  EXPECT_EQ(edit(e, "/tmp/locked/a.txt"), Verdict::Deny);  // Edit(//tmp/locked/**)
}

TEST_F(ClaudeImport, DirectorySegmentMatchesAtAnyDepthInDenyAndAsk) {
  const Engine e = engine("permissions-files.json");
  EXPECT_EQ(read(e, project + "/secrets/key"), Verdict::Deny);  // Read(secrets/**)
  EXPECT_EQ(read(e, project + "/a/b/secrets/key"), Verdict::Deny);
  EXPECT_EQ(decide(e, "Grep", {{"pattern", "token"}, {"path", project + "/secrets"}}),
            Verdict::Deny);
  EXPECT_EQ(edit(e, project + "/pkg/docs/x.md"), Verdict::Ask);  // Edit(docs/**) in ask
  EXPECT_EQ(read(e, root + "/secrets/key"), Verdict::Allow);     // not below the cwd
}

TEST_F(ClaudeImport, WriteRuleIsReadAsAnEditRule) {
  const Engine e = engine("permissions-files.json");
  EXPECT_EQ(decide(e, "Write", {{"file_path", project + "/yarn.lock"}, {"content", ""}}),
            Verdict::Deny);
  EXPECT_EQ(edit(e, project + "/a/Cargo.lock"), Verdict::Deny);
  const detail::ForeignPolicy fp = import("permissions-files.json");
  EXPECT_TRUE(hasNote(fp, "Write(*.lock)", "never consults it"));
  EXPECT_TRUE(hasNote(fp, "Read(!sample.env)", "left out"));
}

// ---- WebFetch -----------------------------------------------------------------------

TEST_F(ClaudeImport, DomainIsExactlyTheHost) {
  const Engine e = engine("permissions-web.json");
  EXPECT_EQ(fetch(e, "https://example.com/docs"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "https://EXAMPLE.com"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "http://example.com./x?y=1"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "https://user:pw@example.com:8443/p"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "https://sub.example.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://evil-example.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://example.com.evil.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "ftp://example.com/"), Verdict::Ask);
}

TEST_F(ClaudeImport, UserinfoAndDelimiterTricksDoNotReachTheAllowedHost) {
  const Engine e = engine("permissions-web.json");
  EXPECT_EQ(fetch(e, "https://example.com@evil.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://a@example.com@evil.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://example.com:443@evil.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://evil.com\\@example.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://evil.com?@example.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://evil.com#@example.com"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://evil.com/https://example.com/"), Verdict::Ask);
}

TEST_F(ClaudeImport, SubdomainWildcard) {
  const Engine e = engine("permissions-web.json");
  // WebFetch(domain:*.docs.example.org): any depth, not the domain itself.
  EXPECT_EQ(fetch(e, "https://api.docs.example.org/"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "https://a.b.docs.example.org/"), Verdict::Allow);
  EXPECT_EQ(fetch(e, "https://docs.example.org/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://docs.example.org.evil.com/"), Verdict::Ask);
}

TEST_F(ClaudeImport, DeniedHostInEverySpelling) {
  const Engine e = engine("permissions-web.json");
  EXPECT_EQ(fetch(e, "https://evil.test/"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "HTTPS://EVIL.TEST"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://evil.test:8080/x"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://me@evil.test/"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://example.com@evil.test/"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https:evil.test/x"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "  https:\\\\evil.test"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://%65vil.test/"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://evi\tl.test/"), Verdict::Deny);
  EXPECT_EQ(fetch(e, "https://sub.evil.test/"), Verdict::Ask);  // exact host only
  EXPECT_EQ(fetch(e, "https://evil.test.example.com/"), Verdict::Ask);
  EXPECT_EQ(fetch(e, "https://notevil.test/"), Verdict::Ask);
}

// ---- MCP, tool names, other tools -----------------------------------------------------

TEST_F(ClaudeImport, McpServerAndTool) {
  const Engine e = engine("permissions-mcp.json");
  EXPECT_EQ(decide(e, "mcp__server__anything", json::object()), Verdict::Allow);  // mcp__server
  EXPECT_EQ(decide(e, "mcp__server2__x", json::object()), Verdict::Ask);
  EXPECT_EQ(decide(e, "mcp__github__get_issue", json::object()), Verdict::Allow);
  EXPECT_EQ(decide(e, "mcp__github__get_issues", json::object()), Verdict::Ask);
  EXPECT_EQ(decide(e, "mcp__linear__list_teams", json::object()), Verdict::Allow);
  EXPECT_EQ(decide(e, "mcp__github__delete_repo", json::object()), Verdict::Deny);
  EXPECT_EQ(decide(e, "mcp__danger__anything", json::object()), Verdict::Deny);
  EXPECT_EQ(decide(e, "mcp__x__read", json::object()), Verdict::Ask);  // unanchored allow glob
  EXPECT_TRUE(hasNote(import("permissions-mcp.json"), "mcp__*__read", "approves nothing"));
}

TEST_F(ClaudeImport, UnanchoredAllowGlobsAreLeftOut) {
  const detail::ForeignPolicy fp = import("permissions-bare.json");
  EXPECT_TRUE(hasNote(fp, "mcp__*", "approves nothing"));
  const Engine e = engine("permissions-bare.json");
  EXPECT_EQ(decide(e, "mcp__any__tool", json::object()), Verdict::Ask);
}

TEST_F(ClaudeImport, AgentsParametersAndOtherKeys) {
  const detail::ForeignPolicy fp = import("permissions-other.json");
  EXPECT_EQ(fp.document.workspace_roots, (std::vector<std::string>{"../shared-lib", "~/notes"}));
  EXPECT_TRUE(hasNote(fp, "defaultMode 'acceptEdits'", "not expressed"));
  EXPECT_TRUE(hasNote(fp, "disableBypassPermissionsMode", "no effect"));
  EXPECT_TRUE(hasNote(fp, "futureKey", "not read"));
  EXPECT_TRUE(hasNote(fp, "Glob(src/**)", "left out"));
  EXPECT_TRUE(hasNote(fp, "mcp__github(owner:me)", "parentheses"));
  EXPECT_TRUE(hasNote(fp, "Bash(command:rm *)", "ignores"));
  EXPECT_TRUE(hasNote(fp, "Cd(/tmp/**)", "/cd"));
  const Engine e = engine("permissions-other.json", true);
  EXPECT_EQ(decide(e, "Agent", {{"subagent_type", "Explore"}, {"prompt", "x"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Task", {{"subagent_type", "Explore"}, {"prompt", "x"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Agent", {{"subagent_type", "Plan"}, {"prompt", "x"}}), Verdict::Allow);
  EXPECT_EQ(bash(e, "ls"), Verdict::Allow);
  EXPECT_EQ(decide(e, "Bash", {{"command", "ls"}, {"run_in_background", true}}), Verdict::Ask);
}

TEST_F(ClaudeImport, BlockReadsOutsideWorkingDirectories) {
  const Engine e = engine("permissions-other.json");
  EXPECT_EQ(read(e, project + "/src/a.ts"), Verdict::Allow);
  EXPECT_EQ(read(e, root + "/shared-lib/x.h"), Verdict::Allow);  // additionalDirectories
  EXPECT_EQ(read(e, home + "/notes/todo.md"), Verdict::Allow);
  EXPECT_EQ(read(e, root + "/elsewhere/x"), Verdict::Deny);
}

// ---- The file itself ------------------------------------------------------------------

TEST_F(ClaudeImport, RulesPointAtTheirLines) {
  const detail::ForeignPolicy fp = import("permissions-bash.json");
  const std::string settings = project + "/.claude/settings.json";
  ASSERT_EQ(fp.document.rules.size(), 10u);
  const RuleSpec& first = fp.document.rules.front();
  EXPECT_EQ(first.header.id, "claude-project-allow-1");
  EXPECT_EQ(first.header.source.toString(), settings + ":4:7");
  EXPECT_EQ(first.header.layer, PolicyLayer::Explicit);
  EXPECT_EQ(first.verdict, Verdict::Allow);
  EXPECT_EQ(fp.document.rules.back().header.source.line, 17);
  EXPECT_EQ(fp.document.rules.back().verdict, Verdict::Deny);
}

TEST_F(ClaudeImport, MalformedJsonNamesTheLine) {
  try {
    import("permissions-bad-json.json");
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("/.claude/settings.json:7:"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("invalid JSON"), std::string::npos) << e.what();
  }
}

TEST_F(ClaudeImport, MalformedRuleNamesTheLine) {
  try {
    import("permissions-bad-rule.json");
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    ASSERT_EQ(e.errors().size(), 1u) << e.what();
    EXPECT_EQ(e.errors()[0].where.line, 5);
    EXPECT_EQ(e.errors()[0].where.column, 7);
    EXPECT_NE(e.errors()[0].message.find("Bash(npm run test"), std::string::npos);
  }
}

TEST_F(ClaudeImport, EveryBadRuleIsReported) {
  const std::string text = R"json({"permissions": {
    "allow": ["WebFetch(domain:https://example.com)", "WebSearch(rust)", "Bash()"],
    "deny": "Bash",
    "additionalDirectories": [3]}})json";
  try {
    (void)detail::importClaudeSettings(text, "s.json", PolicyLayer::User);
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    ASSERT_EQ(e.errors().size(), 5u) << e.what();
    EXPECT_EQ(e.errors()[0].where.toString(), "s.json:4:31");  // keys are read in order
    EXPECT_EQ(e.errors()[1].where.toString(), "s.json:2:15");
  }
}

TEST_F(ClaudeImport, NoPermissionsBlockIsAnEmptyPolicy) {
  const detail::ForeignPolicy fp = import("permissions-none.json");
  EXPECT_TRUE(fp.document.rules.empty());
  EXPECT_TRUE(fp.notes.empty());
  EXPECT_TRUE(
      detail::importClaudeSettings("  \n", "s.json", PolicyLayer::User).document.rules.empty());
  EXPECT_THROW((void)detail::importClaudeSettings("[]", "s.json", PolicyLayer::User), PolicyError);
  EXPECT_THROW(
      (void)detail::importClaudeSettings(R"({"permissions": []})", "s.json", PolicyLayer::User),
      PolicyError);
}

}  // namespace claude_import_test
}  // namespace toolguard
