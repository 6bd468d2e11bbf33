// What a new user's first mistakes are told, through the real binary: an
// unterminated quote, a policy whose examples fail, a mistyped option or call
// field, no command at all, counts with their nouns, and a shell rule only
// one agent's shell tool reaches.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace error_messages_test {

class ErrorMessages : public Cli {
 protected:
  std::vector<std::string> withoutConfiguration(std::vector<std::string> args) const {
    for (const char* flag : {"--no-user", "--no-project", "--no-managed"}) args.push_back(flag);
    return args;
  }
};

TEST_F(ErrorMessages, AnUnterminatedQuoteSaysSoInCheckAndExplain) {
  const std::string call =
      R"({"tool":"Bash","args":{"command":"git commit -m \"fix the build"},"context":{"cwd":"/w"}})";
  RunResult r = run(withoutConfiguration({"check"}), call);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json d = nlohmann::json::parse(r.out);
  EXPECT_EQ(d["verdict"], "ask");  // never allowed: what it runs is unknown
  EXPECT_NE(d["reason"].get<std::string>().find(
                "unterminated double quote (\") opened at line 1, column 15"),
            std::string::npos)
      << d["reason"];
  EXPECT_NE(d["model_reason"].get<std::string>().find("unterminated double quote"),
            std::string::npos);

  r = run(withoutConfiguration({"explain"}),
          R"({"tool":"Bash","args":{"command":"echo 'it is"},"context":{"cwd":"/w"}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Shell program (1 simple command; does not parse: unterminated single "
                       "quote (') opened at line 1, column 6)"),
            std::string::npos)
      << r.out;
}

TEST_F(ErrorMessages, ExplainLoadsAPolicyWhoseExamplesFailAndSaysWhy) {
  const std::string policy = dir.write("policy.yaml", R"(rules:
  - id: no-force-push
    kind: shell
    shell: "git push --force *"
    verdict: deny
    examples:
      match: ["git status"]
      not_match: ["git push --force origin main"]
)")
                                 .string();
  const std::string call =
      R"({"tool":"Bash","args":{"command":"git push --force origin main"},"context":{"cwd":"/w"}})";
  // check refuses the policy (every call denied, exit 2) ...
  RunResult r = run(withoutConfiguration({"check", "--policy", policy}), call);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["verdict"], "deny") << r.out;

  // ... explain loads it, names both failing examples and why, and explains the call.
  r = run(withoutConfiguration({"explain", "--policy", policy}), call);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  for (const std::string& needle : std::vector<std::string>{
           "Failing examples (2 examples; toolguard check refuses this policy",
           policy + ":7:15: rule no-force-push: example should match but does not",
           "it does not match the command 'git status'",
           policy + ":8:19: rule no-force-push: example should not match but does",
           "the rule says deny", "no-force-push  [explicit " + policy, "Decision: deny"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }
  r = run(withoutConfiguration({"explain", "--json", "--policy", policy}), call);
  EXPECT_EQ(r.exit_code, 1);
  const nlohmann::json report = nlohmann::json::parse(r.out);
  ASSERT_EQ(report["failing_examples"].size(), 2u) << r.out;
  EXPECT_EQ(report["failing_examples"][0]["expect"], "match");
  EXPECT_EQ(report["failing_examples"][0]["rule"], "no-force-push");
  EXPECT_EQ(report["decision"]["rule"], "no-force-push");

  // A policy whose examples pass: no such section, exit 0.
  dir.write("policy.yaml", R"(rules:
  - {id: no-force-push, kind: shell, shell: "git push --force *", verdict: deny,
     examples: {match: ["git push --force origin main"]}}
)");
  r = run(withoutConfiguration({"explain", "--policy", policy}), call);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find("Failing examples"), std::string::npos) << r.out;
}

TEST_F(ErrorMessages, AMistypedOptionIsNamedWithWhatWasMeant) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{"check", "--polcy", "p.yaml"},
            "toolguard: unknown option '--polcy' (did you mean '--policy'?); see toolguard check "
            "--help\n"},
           {{"policy", "lint", "--strictt", "p.yaml"},
            "toolguard: unknown option '--strictt' (did you mean '--strict'?); see toolguard "
            "policy lint --help\n"},
           {{"explain", "--no-usr"},
            "toolguard: unknown option '--no-usr' (did you mean '--no-user'?); see toolguard "
            "explain --help\n"},
           {{"audit", "tail", "--folow"},
            "toolguard: unknown option '--folow' (did you mean '--follow'?); see toolguard audit "
            "tail --help\n"},
           {{"check", "--frobnicate"},
            "toolguard: unknown option '--frobnicate'; see toolguard check --help\n"},
           {{"serve", "--lisen", "127.0.0.1:0"},
            "toolguard serve: unknown option '--lisen' (did you mean '--listen'?); see toolguard "
            "serve --help\n"},
       }) {
    RunResult r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.args[1];
    EXPECT_EQ(r.err, c.message) << c.args[0] << " " << c.args[1];
  }
  // Known options in every spelling are not mistaken for unknown ones.
  RunResult r = run({"audit", "tail", "-n5", "--no-such"});
  EXPECT_NE(r.err.find("unknown option '--no-such'"), std::string::npos) << r.err;
  r = run({"explain", "--policy=p.yaml", "--format", "claude", "--nope"});
  EXPECT_NE(r.err.find("unknown option '--nope'; see toolguard explain --help"), std::string::npos)
      << r.err;
}

TEST_F(ErrorMessages, ACallFieldSpelledAsAnotherAgentSpellsItIsNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"tool":"Bash","arguments":{"command":"ls"}})",
       "arguments: unknown field (did you mean 'args'?)"},
      {R"({"tool":"Bash","argumnts":{"command":"ls"}})",
       "argumnts: unknown field (did you mean 'args'?)"},
      {R"({"name":"Bash","args":{"command":"ls"}})", "name: unknown field (did you mean 'tool'?)"},
      {R"({"tool_name":"Bash","tool_input":{"command":"ls"}})",
       "tool_input: unknown field (did you mean 'args'?)"},  // keys are read in order
      {R"({"tool":"Bash","args":{},"cwd":"/w"})",
       "cwd: unknown field (did you mean 'context.cwd'?)"},
      {R"({"tool":"Read","args":{},"context":{"session_id":"s1"}})",
       "context.session_id: unknown field (did you mean 'session'?)"},
      {R"({"tool":"Read","args":{},"context":{"cdw":"/w"}})",
       "context.cdw: unknown field (did you mean 'cwd'?)"},
      {R"({"tool":"Read","args":{},"context":{"planet":"mars"}})",
       "context.planet: unknown field (expected cwd, agent, session, model, role, mode, roots)"},
  };
  for (const auto& [call, message] : cases) {
    RunResult r = run(withoutConfiguration({"check"}), call);
    ASSERT_EQ(r.exit_code, 0) << call << r.err;
    const nlohmann::json d = nlohmann::json::parse(r.out);
    EXPECT_EQ(d["verdict"], "deny") << call;
    EXPECT_EQ(d["reason"], "invalid call: " + message) << call;
  }
}

TEST_F(ErrorMessages, BareToolguardListsItsCommandsAndHelpListsServe) {
  RunResult bare = run({});
  EXPECT_EQ(bare.exit_code, 2);  // still a usage error for a script
  RunResult help = run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const RunResult* r : {&bare, &help}) {
    for (const char* command : {"check", "explain", "test", "policy", "demo", "validate", "audit",
                                "approvals", "mcp", "install", "uninstall", "serve"}) {
      EXPECT_NE(r->out.find("\n  " + std::string(command) + " "), std::string::npos)
          << command << "\n"
          << r->out;
    }
    EXPECT_EQ(r->out.find("A subcommand is required"), std::string::npos);
  }
  EXPECT_EQ(bare.out, help.out);
  EXPECT_NE(help.out.find("Usage: toolguard "), std::string::npos) << help.out;
  // A mistyped `serve` is named like any other command.
  RunResult r = run({"serv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'serv' (did you mean 'serve'?)"), std::string::npos)
      << r.err;
}

TEST_F(ErrorMessages, ACountOfOneTakesTheSingular) {
  dir.write("bad.yaml", "rules:\n  - {id: a, tool: Read, verdict: permit}\n");
  RunResult r = run({"policy", "lint", (dir.path() / "bad.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\n1 error, 0 warnings\n"), std::string::npos) << r.out;
  dir.write("warn.yaml", "rules:\n  - {id: typo, tool: Bassh, verdict: ask}\n");
  r = run({"policy", "lint", (dir.path() / "warn.yaml").string()});
  EXPECT_NE(r.out.find("\n0 errors, 1 warning\n"), std::string::npos) << r.out;

  r = run(withoutConfiguration({"explain"}),
          R"({"tool":"Bash","args":{"command":"ls"},"context":{"cwd":"/w"}})");
  EXPECT_NE(r.out.find("Shell program (1 simple command)"), std::string::npos) << r.out;
  r = run(withoutConfiguration({"explain"}),
          R"({"tool":"Bash","args":{"command":"ls; pwd"},"context":{"cwd":"/w"}})");
  EXPECT_NE(r.out.find("Shell program (2 simple commands)"), std::string::npos) << r.out;
}

TEST_F(ErrorMessages, LintWarnsAboutAShellRuleOnlyBashReaches) {
  const std::string only_bash = dir.write("only-bash.yaml", R"(rules:
  - {id: no-force-push, tool: Bash, shell: "git push --force *", verdict: deny}
)")
                                    .string();
  RunResult r = run({"policy", "lint", only_bash});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(
      r.out.find(only_bash + ":2:5: warning: rule no-force-push judges shell commands only through "
                             "Bash: the same command through another agent's shell tool ("),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("run_shell_command"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("use kind: shell instead of tool:"), std::string::npos) << r.out;
  EXPECT_EQ(run({"policy", "lint", "--strict", only_bash}).exit_code, 1);

  // What the warning says is true: Gemini CLI's tool runs the command unseen.
  r = run(
      withoutConfiguration({"check", "--policy", only_bash}),
      R"({"tool":"run_shell_command","args":{"command":"git push --force origin main"},"context":{"cwd":"/w"}})");
  EXPECT_NE(nlohmann::json::parse(r.out)["rule"], "no-force-push") << r.out;

  const std::string every_shell = dir.write("every-shell.yaml", R"(rules:
  - {id: no-force-push, kind: shell, shell: "git push --force *", verdict: deny}
  - {id: all-shells, tool: "*", command: {glob: "*--force*"}, verdict: ask}
)")
                                      .string();
  r = run({"policy", "lint", every_shell});
  EXPECT_EQ(r.out.find("judges shell commands only"), std::string::npos) << r.out;
  r = run(
      withoutConfiguration({"check", "--policy", every_shell}),
      R"({"tool":"run_shell_command","args":{"command":"git push --force origin main"},"context":{"cwd":"/w"}})");
  EXPECT_EQ(nlohmann::json::parse(r.out)["rule"], "no-force-push") << r.out;
}

}  // namespace error_messages_test
}  // namespace toolguard::testing
