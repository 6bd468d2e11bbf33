// Gemini CLI policy files (TOML [[rule]] tables) imported into toolguard: each
// supported form, decided on real calls (docs/formats/gemini-cli-policy.md).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "foreign_policy/foreign_policy.hpp"
#include "foreign_policy/gemini_regex.hpp"
#include "policy/policy_document.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace gemini_import_test {

const std::string kDataDir = std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/gemini/policies/";

// The text of a sample policy file.
std::string sample(const std::string& name) {
  std::ifstream in(kDataDir + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A sample file imported under its own name.
detail::ForeignPolicy importSample(const std::string& name) {
  return detail::importGeminiPolicy(sample(name), name, PolicyLayer::Explicit);
}

// An engine for an imported policy, alone or on top of the default profile.
Engine engineFor(detail::ForeignPolicy imported, bool on_default_profile = false) {
  Policy p;
  if (on_default_profile) {
    mergePolicyText(p, policyProfileText("default"), "<profile:default>", PolicyLayer::Builtin);
  }
  detail::mergeDocument(p, std::move(imported.document), PolicyLayer::Explicit, true);
  return Engine(std::move(p));
}

// The decision on one call made in /workspace.
Decision decideCall(const Engine& engine, std::string tool, nlohmann::json args) {
  ToolCall call;
  call.tool = std::move(tool);
  call.args = std::move(args);
  call.context.cwd = "/workspace";
  return engine.decide(call);
}

// The verdict on one call.
Verdict verdictOf(const Engine& engine, std::string tool, nlohmann::json args) {
  return decideCall(engine, std::move(tool), std::move(args)).verdict;
}

// The verdict on a run_shell_command call.
Verdict shell(const Engine& engine, const std::string& command) {
  return verdictOf(engine, "run_shell_command", {{"command", command}});
}

// True when some note mentions `text`.
bool hasNote(const detail::ForeignPolicy& imported, const std::string& text) {
  for (const auto& n : imported.notes) {
    if (n.message.find(text) != std::string::npos) return true;
  }
  return false;
}

// An engine for policy text.
Engine engineForText(const std::string& text) {
  return engineFor(detail::importGeminiPolicy(text, "inline.toml", PolicyLayer::Explicit));
}

// One rule on run_shell_command with the given extra lines.
std::string shellRule(const std::string& decision, int priority, const std::string& extra) {
  return "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"" + decision +
         "\"\npriority = " + std::to_string(priority) + "\n" + extra + "\n";
}

// The first error of an import that must fail.
PolicyDiagnostic importError(const std::string& text, const std::string& file = "bad.toml") {
  try {
    (void)detail::importGeminiPolicy(text, file, PolicyLayer::Explicit);
  } catch (const PolicyError& e) {
    return e.errors().front();
  }
  ADD_FAILURE() << "the import did not fail";
  return {};
}

TEST(GeminiImport, ToolNameAsStringListAndWildcard) {
  const Engine e = engineFor(importSample("tools.toml"));
  const Decision write = decideCall(e, "write_file", {{"file_path", "a.txt"}, {"content", "x"}});
  EXPECT_EQ(write.verdict, Verdict::Deny);
  EXPECT_EQ(write.reason, "no writes here");
  EXPECT_EQ(write.source.line, 2);
  EXPECT_EQ(verdictOf(e, "list_directory", {{"dir_path", "."}}), Verdict::Ask);
  EXPECT_EQ(verdictOf(e, "glob", {{"pattern", "*.md"}}), Verdict::Ask);
  EXPECT_EQ(verdictOf(e, "save_memory", {{"fact", "x"}}), Verdict::Allow);  // "*"
  EXPECT_EQ(verdictOf(e, "mcp_any_tool", {}), Verdict::Allow);
}

TEST(GeminiImport, LegacyToolNameAlsoNamesTheCurrentOne) {
  const Engine e = engineFor(importSample("tools.toml"));
  EXPECT_EQ(verdictOf(e, "grep_search", {{"pattern", "x"}}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "search_file_content", {{"pattern", "x"}}), Verdict::Deny);
}

TEST(GeminiImport, HigherPriorityAllowInsideALowerDeny) {
  const Engine e = engineFor(importSample("tools.toml"));
  EXPECT_EQ(verdictOf(e, "google_web_search", {{"query", "x"}}), Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "web_fetch", {{"prompt", "x"}}), Verdict::Deny);
}

TEST(GeminiImport, AllowEverythingStillAsksForRedirections) {
  const Engine e = engineFor(importSample("tools.toml"));
  EXPECT_EQ(shell(e, "ls -la"), Verdict::Allow);
  EXPECT_EQ(shell(e, "ls -la > listing.txt"), Verdict::Ask);
}

TEST(GeminiImport, CommandPrefixString) {
  const Engine e = engineFor(importSample("shell.toml"));
  EXPECT_EQ(shell(e, "git status"), Verdict::Allow);
  EXPECT_EQ(shell(e, "git"), Verdict::Allow);
  EXPECT_EQ(shell(e, "git log --oneline -n 5"), Verdict::Allow);
  EXPECT_NE(shell(e, "github-release create"), Verdict::Allow);  // whole words only
  EXPECT_EQ(shell(e, "ls"), Verdict::Ask);                       // no rule: escalated, asked
}

TEST(GeminiImport, CommandPrefixList) {
  const Engine e = engineFor(importSample("shell.toml"));
  EXPECT_EQ(shell(e, "npm test"), Verdict::Allow);
  EXPECT_EQ(shell(e, "npm test -- --watch=false"), Verdict::Allow);
  EXPECT_EQ(shell(e, "npm run lint --fix"), Verdict::Allow);
  EXPECT_EQ(shell(e, "npm install left-pad"), Verdict::Ask);
}

TEST(GeminiImport, HigherPriorityDenyInsideALowerAllow) {
  const Engine e = engineFor(importSample("shell.toml"));
  const Decision push = decideCall(e, "run_shell_command", {{"command", "git push origin main"}});
  EXPECT_EQ(push.verdict, Verdict::Deny);
  EXPECT_EQ(push.reason, "pushing is for people");
  EXPECT_EQ(push.source.line, 15);
}

TEST(GeminiImport, CommandRegexAsksUser) {
  const Engine e = engineFor(importSample("shell.toml"));
  EXPECT_EQ(shell(e, "curl -s https://example.com/x"), Verdict::Ask);
  EXPECT_EQ(shell(e, "git status && curl https://api.example.com"), Verdict::Ask);
}

TEST(GeminiImport, DenyPrefixCatchesEveryWayOfNamingTheCommand) {
  const Engine e = engineFor(importSample("shell.toml"));
  EXPECT_EQ(shell(e, "rm -rf build"), Verdict::Deny);
  EXPECT_EQ(shell(e, "/usr/bin/rm -rf build"), Verdict::Deny);
  EXPECT_EQ(shell(e, "cd build && rm -rf out"), Verdict::Deny);
}

TEST(GeminiImport, CompoundCommandThroughAnAllowPrefix) {
  const detail::ForeignPolicy imported = importSample("shell.toml");
  EXPECT_TRUE(hasNote(imported, "each simple command of a compound command"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(shell(e, "git status && rm -rf /"), Verdict::Deny);
  EXPECT_EQ(shell(e, "git status; python3 -c 'print(1)'"), Verdict::Ask);
  EXPECT_EQ(shell(e, "git log $(rm -rf ~)"), Verdict::Deny);
  EXPECT_EQ(shell(e, "git status | sh"), Verdict::Ask);
  EXPECT_EQ(shell(e, "git status && git diff"), Verdict::Allow);
}

TEST(GeminiImport, AllowPrefixAsksWhenTheCommandRedirects) {
  const detail::ForeignPolicy imported = importSample("shell.toml");
  EXPECT_TRUE(hasNote(imported, "allowRedirection"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(shell(e, "git log > /tmp/log.txt"), Verdict::Ask);
  const std::string text =
      "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\n"
      "decision = \"allow\"\npriority = 1\nallowRedirection = true\n";
  const Engine redirecting =
      engineFor(detail::importGeminiPolicy(text, "r.toml", PolicyLayer::Explicit));
  EXPECT_EQ(shell(redirecting, "git log > /tmp/log.txt"), Verdict::Allow);
}

TEST(GeminiImport, PriorityOrderAndTies) {
  const Engine e = engineFor(importSample("priority.toml"));
  EXPECT_EQ(shell(e, "docker ps"), Verdict::Allow);
  EXPECT_EQ(shell(e, "docker ps -a"), Verdict::Allow);
  EXPECT_EQ(shell(e, "docker run --rm alpine"), Verdict::Deny);
  EXPECT_EQ(shell(e, "kubectl get pods"), Verdict::Deny);  // the allow is shadowed
  EXPECT_EQ(shell(e, "kubectl apply -f x.yaml"), Verdict::Deny);
  EXPECT_EQ(shell(e, "terraform plan"), Verdict::Allow);  // tie: first in the file
  EXPECT_EQ(shell(e, "terraform apply"), Verdict::Deny);
}

TEST(GeminiImport, CasesFollowPriorityThenFileOrder) {
  const detail::ForeignPolicy imported = importSample("priority.toml");
  ASSERT_FALSE(imported.document.rules.empty());
  const RuleSpec& rule = imported.document.rules.front();
  EXPECT_EQ(rule.header.id, "gemini:priority.toml");
  std::vector<int> lines;
  for (const RuleSpec& c : rule.first_match) {
    if (lines.empty() || lines.back() != c.header.source.line)
      lines.push_back(c.header.source.line);
  }
  // kubectl deny (600), docker ps allow (500), docker deny (100), terraform
  // plan allow (70), terraform deny (70), kubectl get allow (50).
  EXPECT_EQ(lines, (std::vector<int>{15, 8, 2, 28, 34, 21}));
}

TEST(GeminiImport, McpNameAndToolNames) {
  const Engine e = engineFor(importSample("mcp.toml"));
  EXPECT_EQ(verdictOf(e, "mcp_jira_search", {{"q", "x"}}), Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "mcp__jira__search", {{"q", "x"}}), Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "jira__search", {{"q", "x"}}), Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "mcp_jira_create_issue", {}), Verdict::Ask);
  const Decision untrusted = decideCall(e, "mcp_untrusted_read", {});
  EXPECT_EQ(untrusted.verdict, Verdict::Deny);
  EXPECT_EQ(untrusted.reason, "This server is not trusted by the admin.");
  EXPECT_EQ(verdictOf(e, "mcp_github_create_pr", {}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "mcp__github__create_pr", {}), Verdict::Deny);
}

TEST(GeminiImport, WildcardGeminiComparesLiterallyIsLeftOutOfAllow) {
  const detail::ForeignPolicy imported = importSample("mcp.toml");
  EXPECT_TRUE(hasNote(imported, "mcp_*_delete_everything"));
  const Engine e = engineFor(imported);
  EXPECT_NE(verdictOf(e, "mcp_x_delete_everything", {}), Verdict::Allow);
}

TEST(GeminiImport, ArgsPatternOnOneArgument) {
  const Engine e = engineFor(importSample("args.toml"));
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "/etc/hosts"}, {"content", ""}}),
            Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "/workspace/src/main_loop.cpp"}}),
            Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "/workspace/src/Main.cpp"}}), Verdict::Ask);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "/workspace/README.md"}}), Verdict::Ask);
  EXPECT_EQ(verdictOf(e, "read_file", {{"file_path", "/workspace/.env"}}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "read_file", {{"file_path", "/workspace/.env.example"}}), Verdict::Allow);
}

TEST(GeminiImport, ArgsPatternOnTheShellCommand) {
  const Engine e = engineFor(importSample("args.toml"));
  EXPECT_EQ(shell(e, "make all"), Verdict::Allow);
  EXPECT_EQ(shell(e, "make"), Verdict::Allow);
  EXPECT_EQ(shell(e, "makeself x"), Verdict::Ask);
  EXPECT_EQ(shell(e, "make && curl x | sh"), Verdict::Ask);
}

TEST(GeminiImport, ArgsPatternNotOnOneArgumentRestrictsTheWholeTool) {
  const detail::ForeignPolicy imported = importSample("args.toml");
  EXPECT_TRUE(hasNote(imported, "matches every call of its tools"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(verdictOf(e, "replace", {{"file_path", "a.txt"}, {"old_string", "a"}}), Verdict::Deny);
}

TEST(GeminiImport, ModesAndHiddenConditions) {
  const detail::ForeignPolicy imported = importSample("modes.toml");
  EXPECT_TRUE(hasNote(imported, "approval modes autoEdit, yolo only"));
  EXPECT_TRUE(hasNote(imported, "[[safety_checker]]"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(verdictOf(e, "google_web_search", {{"query", "x"}}), Verdict::Ask);  // left out
  EXPECT_EQ(verdictOf(e, "web_fetch", {{"prompt", "x"}}), Verdict::Allow);       // has default
  EXPECT_EQ(shell(e, "ls"), Verdict::Deny);  // plan only: every mode
  EXPECT_EQ(verdictOf(e, "list_directory", {{"dir_path", "."}}), Verdict::Ask);  // yolo only
  EXPECT_EQ(verdictOf(e, "save_memory", {{"fact", "x"}}), Verdict::Ask);  // subagent: left out
  EXPECT_EQ(verdictOf(e, "read_many_files", {{"include", {"a.md"}}}), Verdict::Deny);
}

TEST(GeminiImport, OnTopOfTheDefaultProfile) {
  const Engine e = engineFor(importSample("shell.toml"), true);
  EXPECT_EQ(shell(e, "git status"), Verdict::Allow);
  EXPECT_EQ(shell(e, "git push --force origin main"), Verdict::Deny);
  EXPECT_EQ(shell(e, "rm -rf /"), Verdict::Deny);
  EXPECT_EQ(shell(e, "git status && rm -rf ~"), Verdict::Deny);
  EXPECT_EQ(shell(e, "npm test"), Verdict::Allow);
  EXPECT_EQ(verdictOf(e, "read_file", {{"file_path", "src/main.cpp"}}), Verdict::Allow);
}

TEST(GeminiImport, MalformedTomlNamesTheLine) {
  const PolicyDiagnostic d = importError(sample("malformed.toml"), "malformed.toml");
  EXPECT_EQ(d.where.file, "malformed.toml");
  EXPECT_EQ(d.where.line, 3);
  EXPECT_NE(d.message.find("invalid TOML"), std::string::npos);
}

TEST(GeminiImport, UnknownDecisionNamesTheLine) {
  const PolicyDiagnostic d =
      importError("[[rule]]\ntoolName = \"x\"\ndecision = \"maybe\"\npriority = 1\n");
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 12);
  EXPECT_NE(d.message.find("maybe"), std::string::npos);
  EXPECT_NE(d.toString().find("bad.toml:3:12"), std::string::npos);
}

TEST(GeminiImport, BadRegexesNameTheLine) {
  const std::string head =
      "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"deny\"\n"
      "priority = 1\n";
  PolicyDiagnostic d = importError(head + "commandRegex = \"git (push\"\n");
  EXPECT_EQ(d.where.line, 5);
  d = importError(head + "commandRegex = \"rm(?= -rf)\"\n");
  EXPECT_EQ(d.where.line, 5);
  EXPECT_NE(d.message.find("lookahead"), std::string::npos);
  d = importError(head + "argsPattern = '(\\w+) \\1'\n");
  EXPECT_EQ(d.where.line, 5);
  EXPECT_NE(d.message.find("backreference"), std::string::npos);
  d = importError(head + "argsPattern = '(?<!x)y'\n");
  EXPECT_NE(d.message.find("lookbehind"), std::string::npos);
}

TEST(GeminiImport, InvalidRulesNameTheLine) {
  PolicyDiagnostic d = importError("\n[[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\n");
  EXPECT_EQ(d.where.line, 2);
  EXPECT_NE(d.message.find("priority is required"), std::string::npos);
  d = importError("[[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\npriority = 1000\n");
  EXPECT_EQ(d.where.line, 4);
  d = importError(
      "[[rule]]\ntoolName = \"write_file\"\ncommandPrefix = \"git\"\n"
      "decision = \"deny\"\npriority = 1\n");
  EXPECT_NE(d.message.find("run_shell_command"), std::string::npos);
  d = importError(
      "[[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\npriority = 1\n"
      "modes = [\"turbo\"]\n");
  EXPECT_EQ(d.where.line, 5);
  d = importError("[[rule]]\ndecision = \"deny\"\npriority = 1\n");
  EXPECT_NE(d.message.find("toolName is required"), std::string::npos);
}

TEST(GeminiImport, UnknownKeysAreIgnoredWithANote) {
  const detail::ForeignPolicy imported = detail::importGeminiPolicy(
      "[[rule]]\ntoolName = \"write_file\"\ndecision = \"deny\"\npriority = 1\nreason = \"x\"\n",
      "k.toml", PolicyLayer::Explicit);
  EXPECT_TRUE(hasNote(imported, "'reason' is not a field"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "a"}}), Verdict::Deny);
}

TEST(GeminiImport, JavaScriptPatternsAreReadIntoRe2) {
  const SourceLocation where{"p.toml", 1, 1};
  using detail::gemini::readJsPattern;
  EXPECT_EQ(readJsPattern("(?<verb>a)\\u0062[^]\\/", where, "x").re2,
            "(?P<verb>a)\\x{0062}(?s:.)/");
  EXPECT_EQ(readJsPattern("git (commit|push)", where, "x").literal_prefix, "git ");
  EXPECT_EQ(readJsPattern("ab?c", where, "x").literal_prefix, "a");
  EXPECT_EQ(readJsPattern("a|b", where, "x").literal_prefix, "");
  EXPECT_TRUE(readJsPattern("rm \\-rf", where, "x").all_literal);
  EXPECT_TRUE(readJsPattern("^git", where, "x").anchored);
  EXPECT_TRUE(detail::gemini::geminiRefusesPattern("(a+)+b"));
  EXPECT_FALSE(detail::gemini::geminiRefusesPattern("(ab)+c"));
}

TEST(GeminiImport, CommandPatternEndingInAQuoteIsTheWholeCommand) {
  const Engine e = engineForText(shellRule("allow", 10, "argsPattern = '\"command\":\"ls\"'"));
  EXPECT_EQ(shell(e, "ls"), Verdict::Allow);
  EXPECT_EQ(shell(e, "ls -la"), Verdict::Ask);
}

TEST(GeminiImport, RestrictingPrefixWithShellSyntaxIsReadFromItsFirstWords) {
  const detail::ForeignPolicy imported = detail::importGeminiPolicy(
      shellRule("deny", 10, "commandPrefix = \"echo $HOME\""), "i.toml", PolicyLayer::Explicit);
  EXPECT_TRUE(hasNote(imported, "holds shell syntax"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(shell(e, "echo hello"), Verdict::Deny);
  EXPECT_EQ(shell(e, "printf hello"), Verdict::Ask);
}

TEST(GeminiImport, AllowPrefixWithShellSyntaxIsLeftOut) {
  const detail::ForeignPolicy imported =
      detail::importGeminiPolicy(shellRule("allow", 10, "commandPrefix = \"cd src && make\""),
                                 "i.toml", PolicyLayer::Explicit);
  EXPECT_TRUE(hasNote(imported, "left out"));
  EXPECT_EQ(shell(engineFor(imported), "cd src && make"), Verdict::Ask);
}

TEST(GeminiImport, BroadenedAskDoesNotShadowALaterDeny) {
  const Engine e = engineForText(shellRule("ask_user", 500, "commandPrefix = \"git\"") +
                                 shellRule("deny", 100, "commandPrefix = \"git push\""));
  EXPECT_EQ(shell(e, "git status"), Verdict::Ask);
  EXPECT_EQ(shell(e, "git push"), Verdict::Deny);
}

// Issue 27: a priority-100 allow for `docker ps` over a priority-50 ask for
// `docker` is an exception in Gemini CLI, and stays one.
TEST(GeminiImport, AHigherPriorityAllowIsAnExceptionToABroadenedAsk) {
  const Engine e = engineForText(shellRule("allow", 100, "commandPrefix = \"docker ps\"") +
                                 shellRule("ask_user", 50, "commandPrefix = \"docker\"") +
                                 shellRule("deny", 10, "commandPrefix = \"docker rm\""));
  EXPECT_EQ(shell(e, "docker ps"), Verdict::Allow);
  EXPECT_EQ(shell(e, "docker ps -a"), Verdict::Allow);
  EXPECT_EQ(shell(e, "docker images"), Verdict::Ask);
  EXPECT_EQ(shell(e, "ls && docker images"), Verdict::Ask);  // the broader reading
  EXPECT_EQ(shell(e, "docker rm x"), Verdict::Deny);         // never hidden by the ask
}

TEST(GeminiImport, PatternGeminiRefusesToLoad) {
  const std::string pattern = "argsPattern = '\"command\":\"(a+)+'";
  const detail::ForeignPolicy allow =
      detail::importGeminiPolicy(shellRule("allow", 1, pattern), "i.toml", PolicyLayer::Explicit);
  EXPECT_TRUE(hasNote(allow, "refuses to load"));
  EXPECT_EQ(shell(engineFor(allow), "aaa"), Verdict::Ask);
  const Engine deny = engineForText(shellRule("deny", 1, pattern));
  EXPECT_EQ(shell(deny, "aaa"), Verdict::Deny);
}

TEST(GeminiImport, InteractiveFlag) {
  const std::string head =
      "[[rule]]\ntoolName = \"google_web_search\"\ndecision = \"allow\"\n"
      "priority = 1\n";
  const Engine headless = engineForText(head + "interactive = false\n");
  EXPECT_EQ(verdictOf(headless, "google_web_search", {{"query", "x"}}), Verdict::Ask);
  const Engine interactive = engineForText(head + "interactive = true\n");
  EXPECT_EQ(verdictOf(interactive, "google_web_search", {{"query", "x"}}), Verdict::Allow);
}

TEST(GeminiImport, RestrictingArgsPatternAboutJsonEscapesIsBroadened) {
  const detail::ForeignPolicy imported = detail::importGeminiPolicy(
      "[[rule]]\ntoolName = \"write_file\"\ndecision = \"deny\"\npriority = 1\n"
      "argsPattern = '\"content\":\"secret\\\\\"'\n",
      "i.toml", PolicyLayer::Explicit);
  EXPECT_TRUE(hasNote(imported, "names quotes or backslashes"));
  const Engine e = engineFor(imported);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "a"}, {"content", "secret"}}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "write_file", {{"file_path", "a"}, {"content", "public"}}),
            Verdict::Allow);
}

TEST(GeminiImport, EveryMcpServer) {
  const Engine e = engineForText(
      "[[rule]]\ntoolName = \"*\"\nmcpName = \"*\"\ndecision = \"deny\"\npriority = 1\n");
  EXPECT_EQ(verdictOf(e, "mcp_github_create_pr", {}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "mcp__github__create_pr", {}), Verdict::Deny);
  EXPECT_EQ(verdictOf(e, "read_file", {{"file_path", "a"}}), Verdict::Allow);
}

TEST(GeminiImport, EmptyPatternsAreErrors) {
  const PolicyDiagnostic d = importError(shellRule("allow", 1, "argsPattern = ''"));
  EXPECT_EQ(d.where.line, 5);
  EXPECT_NE(d.message.find("must not be empty"), std::string::npos);
}

}  // namespace gemini_import_test
}  // namespace toolguard
