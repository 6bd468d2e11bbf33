// explain, test, policy lint, demo and --help through the real binary.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace commands_test {

class Commands : public Cli {};

TEST_F(Commands, ExplainShowsEveryConsultedRuleAndWhyTheWinnerWon) {
  RunResult r = run({"explain"},
                    R"({"tool":"Write","args":{"file_path":"/etc/hosts"},"context":{"cwd":"/w"}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle :
       {"Tool: Write", "path file_path: \"/etc/hosts\" -> /etc/hosts", "system-write",
        "write-outside-workspace", "=> deny", "=> ask", "abstains", "Decision: deny",
        "the strictest of 2 findings", "decided by rule system-write"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }
  r = run({"explain"}, R"({"tool":"move_file","args":{"source":"","destination":"/etc/x"}})");
  EXPECT_NE(r.out.find("path destination: \"/etc/x\" -> /etc/x, outside the workspace"),
            std::string::npos)
      << r.out;
  r = run({"explain"}, R"({"tool":"launch","context":{"cwd":"/w","mode":"headless"}})");
  EXPECT_NE(r.out.find("the default verdict"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("policy said ask"), std::string::npos) << r.out;
}

TEST_F(Commands, ExplainShowsTheParsedShellProgram) {
  RunResult r = run(
      {"explain"},
      R"({"tool":"Bash","args":{"command":"echo ok && sudo bash -c 'rm -rf ~' | cat &"},"context":{"cwd":"/w"}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle :
       {"Shell program (5 simple commands)", "[1] echo ok", "[2] sudo bash -c rm -rf ~",
        "pipeline 1/2", "background", "via sudo, via bash -c, privileged",
        "rm-recursive-protected  [builtin <builtin:shell>] on command [5]", "Decision: deny",
        "decided on the command: rm -rf ~"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }
}

TEST_F(Commands, TestRunsExamplesAndTestFiles) {
  dir.write("policy.yaml", R"(
rules:
  - id: no-deploy-prod
    tool: deploy
    args: {env: prod}
    verdict: deny
    examples:
      match: [{args: {env: prod}}]
      not_match: [{args: {env: dev}}]
)");
  dir.write("cases.yaml", R"(
tests:
  - {tool: deploy, args: {env: prod}, expect: deny, rule: no-deploy-prod}
  - {tool: deploy, args: {env: dev}, expect: ask}
  - {tool: Write, args: {file_path: /etc/x}, expect: deny}
)");
  RunResult r = run(
      {"test", "-q", (dir.path() / "policy.yaml").string(), (dir.path() / "cases.yaml").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" passed, 0 failed"), std::string::npos) << r.out;

  dir.write("wrong.yaml", "tests:\n  - {tool: Write, args: {file_path: /etc/x}, expect: allow}\n");
  r = run({"test", (dir.path() / "wrong.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL " + (dir.path() / "wrong.yaml").string() + ":2:5"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("expected allow, got deny by rule system-write"), std::string::npos);
  EXPECT_NE(r.out.find(", 1 failed"), std::string::npos);
}

TEST_F(Commands, TestReportsAFailingRuleExampleAsAFailedCase) {
  dir.write("policy.yaml", R"(
rules:
  - id: etc
    kind: file-write
    path: /etc/**
    verdict: deny
    examples:
      match: [/etc/passwd, /home/x]
)");
  RunResult r = run({"test", (dir.path() / "policy.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL " + (dir.path() / "policy.yaml").string() + ":8:"), std::string::npos)
      << r.out;
}

TEST_F(Commands, LintReportsErrorsWithPositionAndWarnings) {
  dir.write("bad.yaml", "rules:\n  - {id: a, tool: Read, verdict: permit}\n");
  RunResult r = run({"policy", "lint", (dir.path() / "bad.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find((dir.path() / "bad.yaml").string() + ":2:34: error: verdict: unknown value"),
            std::string::npos)
      << r.out;

  dir.write("warn.yaml", R"(
rules:
  - {id: allow-gh, tool: mcp__github__create_issue, verdict: allow}
  - {id: no-gh, tool: "mcp__github__*", verdict: deny}
  - {id: typo, tool: Bassh, verdict: ask}
)");
  r = run({"policy", "lint", (dir.path() / "warn.yaml").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: allow rule allow-gh is shadowed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning: rule typo: unknown tool 'Bassh'"), std::string::npos);
  EXPECT_NE(r.out.find("0 errors, 2 warnings"), std::string::npos);
  r = run({"policy", "lint", "--strict", (dir.path() / "warn.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(Commands, TestTakesADirectoryOfPolicyAndTestFiles) {
  // A policy and its cases, nested, with files that are not policy files beside them.
  dir.write("policies/deploy.yaml", R"(
rules:
  - id: no-deploy-prod
    tool: deploy
    args: {env: prod}
    verdict: deny
    examples:
      match: [{args: {env: prod}}]
)");
  dir.write("policies/tests/deploy_test.yml", R"(
tests:
  - {tool: deploy, args: {env: prod}, expect: deny, rule: no-deploy-prod}
  - {tool: deploy, args: {env: dev}, expect: ask}
)");
  dir.write("policies/README.md", "not a policy\n");
  dir.write("policies/package.json", "{\"name\": \"not a policy\"}\n");
  dir.write("policies/.hidden/broken.yaml", "rules: [\n");
  const std::string policies = (dir.path() / "policies").string();
  RunResult r = run({"test", policies});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The rule's example and both cases, files in sorted order.
  EXPECT_NE(r.out.find("PASS " + policies + "/deploy.yaml:"), std::string::npos) << r.out;
  EXPECT_LT(r.out.find(policies + "/deploy.yaml:"),
            r.out.find(policies + "/tests/deploy_test.yml:"))
      << r.out;
  EXPECT_NE(r.out.find("3 passed, 0 failed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not a regular file"), std::string::npos) << r.out;

  // A failing case under the directory fails the run.
  dir.write("policies/tests/wrong.yaml",
            "tests:\n  - {tool: deploy, args: {env: prod}, expect: allow}\n");
  r = run({"test", "-q", policies});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL " + policies + "/tests/wrong.yaml:2:5"), std::string::npos) << r.out;

  // A directory with no policy file is an error, not an empty success.
  dir.write("empty/notes.txt", "nothing here\n");
  r = run({"test", (dir.path() / "empty").string()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no policy or test files (*.yaml, *.yml)"), std::string::npos) << r.out;
}

TEST_F(Commands, LintTakesADirectory) {
  dir.write("policies/a.yaml", "rules:\n  - {id: a, tool: Read, verdict: permit}\n");
  dir.write("policies/sub/b.yml", R"(
rules:
  - {id: typo, tool: Bassh, verdict: ask}
)");
  dir.write("policies/c.json", "not read: named only as a file\n");
  const std::string policies = (dir.path() / "policies").string();
  RunResult r = run({"policy", "lint", policies});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(policies + "/a.yaml:2:34: error: verdict: unknown value"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("warning: rule typo: unknown tool 'Bassh'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 1 warning\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("c.json"), std::string::npos) << r.out;

  dir.write("policies/a.yaml", "rules:\n  - {id: a, tool: Read, verdict: allow}\n");
  r = run({"policy", "lint", "--json", policies});
  nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["files"], nlohmann::json({policies + "/a.yaml", policies + "/sub/b.yml"}));
  // Of the files under the directory, only b.yml's unknown tool is reported.
  std::vector<std::string> ours;
  for (const nlohmann::json& d : report["diagnostics"]) {
    const std::string file = d["file"];
    if (file.starts_with(policies)) ours.push_back(d["severity"].get<std::string>() + " " + file);
  }
  EXPECT_EQ(ours, std::vector<std::string>{"warning " + policies + "/sub/b.yml"}) << r.out;

  dir.write("nothing/readme.md", "no policies\n");
  r = run({"policy", "lint", (dir.path() / "nothing").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("no policy or test files"), std::string::npos) << r.out;
}

TEST_F(Commands, LintAcceptsTheShippedProfiles) {
  for (const char* profile :
       {"default", "safe-chat", "developer-assistant", "document-processing"}) {
    std::string file = std::string(TOOLGUARD_SOURCE_DIR) + "/policies/" + profile + ".yaml";
    RunResult r = run({"policy", "lint", "--no-builtin", "--strict", file});
    EXPECT_EQ(r.exit_code, 0) << profile << "\n" << r.out;
  }
}

TEST_F(Commands, DemoShowsHarmlessAndHostileCalls) {
  RunResult r = run({"demo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("system-write"), std::string::npos);
  EXPECT_NE(r.out.find("guard-config-write"), std::string::npos);
  EXPECT_NE(r.out.find("allow"), std::string::npos);
  EXPECT_NE(r.out.find("ask"), std::string::npos);
  EXPECT_EQ(r.out.find("\033["), std::string::npos);  // no colour when not a terminal
}

TEST_F(Commands, EverySubcommandHasHelp) {
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"check", "--help"},
                                             {"explain", "--help"},
                                             {"test", "--help"},
                                             {"policy", "--help"},
                                             {"policy", "lint", "--help"},
                                             {"demo", "--help"}}) {
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << args[0];
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << args[0] << r.out;
  }
}

TEST_F(Commands, VersionIsPrintedAloneOrBeforeACommand) {
  // `--version` alone takes a shortcut past the parser; with more words the
  // parser answers. Both say the same.
  RunResult alone = run({"--version"});
  EXPECT_EQ(alone.exit_code, 0);
  EXPECT_EQ(alone.out, "toolguard 0.1.0\n");
  RunResult parsed = run({"--version", "check"});
  EXPECT_EQ(parsed.exit_code, 0);
  EXPECT_EQ(parsed.out, alone.out);
  EXPECT_EQ(run({"--versio"}).exit_code, 2);
}

TEST_F(Commands, UsageErrorsExitTwo) {
  EXPECT_EQ(run({}).exit_code, 2);
  EXPECT_EQ(run({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run({"check", "--format", "cursor"}).exit_code, 2);
  EXPECT_EQ(run({"check", "--batch", "--format", "claude"}).exit_code, 2);
}

}  // namespace commands_test
}  // namespace toolguard::testing

namespace toolguard::testing {
namespace commands_test {

// The labelled shell corpus (tests/data/shell-corpus.yaml, 861 commands:
// hostile rewrites of every deny and ask rule, and ordinary developer
// commands that must stay allowed) through `toolguard test`.
TEST_F(Commands, ShellCorpusPasses) {
  RunResult r = run({"test", "-q", "--no-user", "--no-project", "--no-managed",
                     std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/shell-corpus.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(" 0 failed"), std::string::npos) << r.out;
}

// Issue 27: a mistyped command is named, with what was probably meant.
TEST_F(Commands, AnUnknownCommandSaysWhatWasMeant) {
  RunResult r = run({"chek"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'chek' (did you mean 'check'?)"), std::string::npos)
      << r.err;
  r = run({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

// The benign corpus: the calls the default policy still asks about are
// labelled ask (the README says how many); every other one is allowed.
TEST_F(Commands, BenignCallsAreAskedAboutOnlyWhereLabelled) {
  RunResult r = run({"test", "-q", "--no-user", "--no-project", "--no-managed",
                     std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/benign-calls.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(" 0 failed"), std::string::npos) << r.out;
}

}  // namespace commands_test
}  // namespace toolguard::testing
