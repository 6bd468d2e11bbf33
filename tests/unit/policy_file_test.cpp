#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard {
namespace policy_file_test {

Policy load(const std::string& text, PolicyLayer layer = PolicyLayer::Explicit) {
  Policy policy;
  mergePolicyText(policy, text, "p.yaml", layer);
  if (auto failures = checkRuleExamples(policy); !failures.empty()) throw PolicyError(failures);
  return policy;
}

// The first error of loading `text`, as "file:line:col: message".
std::string firstError(const std::string& text) {
  try {
    load(text);
  } catch (const PolicyError& e) {
    return e.errors().front().toString();
  }
  return "no error";
}

ToolCall call(std::string tool, nlohmann::json args, std::string cwd = "/work/app") {
  return testing::makeCall(std::move(tool), std::move(args), std::move(cwd));
}

TEST(PolicyFile, ErrorsNameFileLineColumnAndWhatWasExpected) {
  EXPECT_EQ(firstError("rules:\n  - id: a\n    verdict: allowed\n"),
            "p.yaml:3:14: verdict: unknown value 'allowed' (did you mean 'allow'?)");
  EXPECT_EQ(firstError("rules:\n  - id: a\n    verdict: permit\n"),
            "p.yaml:3:14: verdict: unknown value 'permit' (expected allow, escalate, ask, deny, "
            "abort)");
  EXPECT_EQ(firstError("default: maybe\n"),
            "p.yaml:1:10: default: unknown value 'maybe' (expected allow, escalate, ask, deny, "
            "abort)");
  EXPECT_EQ(firstError("rulez: []\n"), "p.yaml:1:1: unknown key 'rulez' (did you mean 'rules'?)");
  EXPECT_EQ(firstError("policy: []\n"),
            "p.yaml:1:1: unknown key 'policy' (expected version, default, tools, rules, "
            "builtin_rules, trusted_projects, paths, limits, rate_limits, llm, sandbox, labels, "
            "sessions, tests)");
  EXPECT_EQ(firstError("rules:\n  - id: a\n    tool: Bash\n"),
            "p.yaml:2:5: rule a: verdict is required");
  EXPECT_EQ(firstError("rules:\n  - verdict: deny\n"), "p.yaml:2:5: rule: id is required");
  EXPECT_EQ(firstError("version: 2\n"), "p.yaml:1:10: version: expected 1");
}

TEST(PolicyFile, InvalidYamlNamesThePosition) {
  std::string error = firstError("rules:\n  - id: a\n    verdict: [deny\n");
  EXPECT_EQ(error.rfind("p.yaml:", 0), 0u) << error;
  EXPECT_NE(error.find("invalid YAML"), std::string::npos);
}

TEST(PolicyFile, BadRegexAndDuplicateKeysAndIds) {
  EXPECT_EQ(firstError("rules:\n  - id: a\n    command: {regex: \"(x\"}\n    verdict: deny\n")
                .substr(0, 13),
            "p.yaml:3:14: ");
  EXPECT_NE(
      firstError("rules:\n  - id: a\n    id: b\n    verdict: deny\n").find("duplicate key 'id'"),
      std::string::npos);
  EXPECT_EQ(firstError("rules:\n  - {id: a, verdict: deny}\n  - {id: a, verdict: ask}\n"),
            "p.yaml:3:5: duplicate rule id 'a' (first defined at p.yaml:2:5)");
}

TEST(PolicyFile, AllErrorsAreReportedNotJustTheFirst) {
  try {
    load("rules:\n  - {id: a, verdict: nope}\n  - {id: b, verdict: deny, colour: red}\n");
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_EQ(e.errors().size(), 2u);
  }
}

TEST(PolicyFile, UnknownVerdictNeverLoads) {
  for (const char* v : {"Allow", "ALLOW", "yes", "true", "permit", "\"\""}) {
    EXPECT_THROW(load(std::string("rules:\n  - {id: a, verdict: ") + v + "}\n"), PolicyError) << v;
    EXPECT_THROW(load(std::string("default: ") + v + "\n"), PolicyError) << v;
  }
}

TEST(PolicyFile, ArgumentMatchers) {
  Policy p = load(R"(
default: allow
rules:
  - id: prod
    tool: deploy
    args:
      env: prod
      /options/force: true
    verdict: deny
  - id: internal-url
    tool: [fetch, WebFetch]
    args:
      url: {glob: "https://*.internal.example.com/*"}
    verdict: ask
  - id: big-number
    tool: resize
    args:
      size: {regex: "[0-9]{5,}"}
    verdict: ask
)");
  Engine engine(p);
  EXPECT_EQ(
      engine.decide(call("deploy", {{"env", "prod"}, {"options", {{"force", true}}}})).verdict,
      Verdict::Deny);
  EXPECT_EQ(
      engine.decide(call("deploy", {{"env", "prod"}, {"options", {{"force", false}}}})).verdict,
      Verdict::Allow);
  EXPECT_EQ(engine.decide(call("deploy", {{"env", "prod"}})).verdict, Verdict::Allow);
  EXPECT_EQ(
      engine.decide(call("WebFetch", {{"url", "https://db.internal.example.com/x/y"}})).verdict,
      Verdict::Ask);
  EXPECT_EQ(engine.decide(call("fetch", {{"url", "https://example.com/"}})).rule_id, "");
  EXPECT_EQ(engine.decide(call("resize", {{"size", 123456}})).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("resize", {{"size", 12}})).verdict, Verdict::Allow);
}

TEST(PolicyFile, ListValuesMatchWhenAnyElementDoes) {
  Policy p = load(R"(
default: allow
rules:
  - id: secret-label
    tool: tag
    args: {labels: {equals: secret}}
    verdict: deny
)");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("tag", {{"labels", {"a", "secret"}}})).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("tag", {{"labels", {"a", "b"}}})).verdict, Verdict::Allow);
}

TEST(PolicyFile, ListShorthandAndOneOfMatchAnyValue) {
  Policy p = load(R"(
default: allow
rules:
  - {id: modes, tool: t, args: {mode: [force, wipe]}, verdict: deny}
  - {id: sizes, tool: t, args: {size: {one_of: [1, 2]}}, verdict: ask}
)");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("t", {{"mode", "wipe"}})).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("t", {{"mode", "dry"}})).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("t", {{"size", 2}})).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("t", {{"size", "2"}})).verdict, Verdict::Allow);
  EXPECT_THROW(load("rules:\n  - {id: a, args: {x: {one_of: []}}, verdict: deny}\n"), PolicyError);
}

TEST(PolicyFile, PathMatchersUseTheResolvedPathAndTheWorkspace) {
  Policy p = load(R"(
default: allow
rules:
  - id: etc
    kind: file-write
    path: /etc/**
    verdict: deny
  - id: outside
    kind: file-write
    path: {outside_workspace: true}
    verdict: ask
)");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("Write", {{"file_path", "../../etc/hosts"}}, "/a/b")).rule_id,
            "etc");
  EXPECT_EQ(engine.decide(call("Write", {{"file_path", "src/new.c"}})).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("Write", {{"file_path", "/work/app2/x"}})).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("move_file", {{"source", "a"}, {"destination", "/tmp/a"}})).verdict,
            Verdict::Ask);
  EXPECT_EQ(engine.decide(call("read_multiple_files", {{"paths", {"/etc/passwd"}}})).verdict,
            Verdict::Allow);  // a read, not a write
  ToolCall extra = call("Write", {{"file_path", "/srv/shared/x"}});
  extra.context.workspace_roots = {"/srv/shared"};
  EXPECT_EQ(engine.decide(extra).verdict, Verdict::Allow);
  extra.context.workspace_roots = {""};  // an empty root is no root
  EXPECT_EQ(engine.decide(extra).verdict, Verdict::Ask);
  // Empty path strings are skipped, not resolved to the cwd.
  EXPECT_EQ(engine.decide(call("move_file", {{"source", ""}, {"destination", "/etc/x"}})).rule_id,
            "etc");
}

TEST(PolicyFile, ContextMatchers) {
  Policy p = load(R"(
default: allow
rules:
  - id: small-models-no-shell
    kind: shell
    context: {model: {glob: "*-mini"}}
    verdict: deny
  - id: headless-net
    kind: network
    context: {mode: headless}
    verdict: deny
)");
  Engine engine(p);
  ToolCall c = call("Bash", {{"command", "ls"}});
  c.context.model = "gpt-5-mini";
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Deny);
  c.context.model = "big-model";
  EXPECT_EQ(engine.decide(c).rule_id, "");
  EXPECT_THROW(load("rules:\n  - {id: a, context: {planet: mars}, verdict: deny}\n"), PolicyError);
}

TEST(PolicyFile, ToolsSectionAddsAndChangesTools) {
  Policy p = load(R"(
default: deny
tools:
  deploy:
    kind: shell
    command_arg: script
    category: ops
    risk: critical
    policy: confirm
  Read:
    policy: deny
rules:
  - id: no-rm-deploy
    tool: deploy
    command: {glob: "*rm -rf*"}
    verdict: abort
    examples:
      match: ["rm -rf /srv"]
      not_match: ["ls"]
)");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("deploy", {{"script", "echo"}})).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("deploy", {{"script", "x; rm -rf /"}})).verdict, Verdict::Abort);
  EXPECT_EQ(engine.decide(call("Read", {{"file_path", "a"}})).verdict, Verdict::Deny);
  EXPECT_EQ(p.tools.find("deploy")->metadata.risk, RiskLevel::Critical);
  EXPECT_THROW(load("tools:\n  x: {risk: extreme}\n"), PolicyError);
  EXPECT_THROW(load("tools:\n  x: {policy: sometimes}\n"), PolicyError);
}

TEST(PolicyFile, ExamplesAreCheckedAtLoadTime) {
  const std::string failing = R"(
rules:
  - id: etc
    kind: file-write
    path: /etc/**
    verdict: deny
    examples:
      match: [/etc/passwd, /home/me/notes]
)";
  try {
    load(failing);
    FAIL();
  } catch (const PolicyError& e) {
    ASSERT_EQ(e.errors().size(), 1u);
    EXPECT_EQ(e.errors()[0].where.line, 8);
    EXPECT_NE(e.errors()[0].message.find("should match but does not"), std::string::npos);
  }
  const std::string not_match_fails = R"(
rules:
  - id: etc
    tool: Write
    path: /etc/**
    verdict: deny
    examples:
      not_match: [{tool: Write, args: {file_path: /etc/x}}]
)";
  EXPECT_THROW(load(not_match_fails), PolicyError);
  EXPECT_THROW(load("rules:\n  - id: a\n    tool: 'mcp__*'\n    verdict: deny\n"
                    "    examples: {match: [just-a-string]}\n"),
               PolicyError);
}

TEST(PolicyFile, YamlScalarsFollowTheCoreSchema) {
  Policy p = load(R"(
default: allow
rules:
  - id: norway
    tool: country
    args: {code: no}
    verdict: deny
  - id: quoted-number
    tool: count
    args: {n: "5"}
    verdict: deny
)");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("country", {{"code", "no"}})).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("country", {{"code", false}})).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("count", {{"n", "5"}})).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("count", {{"n", 5}})).verdict, Verdict::Allow);
}

TEST(PolicyFile, ShellRulesJudgeEachSimpleCommand) {
  Policy p = load(R"(
builtin_rules: [shell]
rules:
  - id: allow-terraform-plan
    shell: "terraform plan *"
    verdict: allow
    examples:
      match: ["terraform plan", "cd infra && terraform plan -out x", "$(echo terraform) plan"]
      not_match: ["terraform apply", "./terraform plan", "$(cat name) plan"]
  - id: no-push-main
    shell: {regex: "git push( .*)? main"}
    verdict: deny
  - id: no-env-writes
    shell: {writes: [.env, .env.*]}
    verdict: deny
)");
  Engine engine(p);
  auto bash = [&](const std::string& command) {
    return engine.decide(call("Bash", {{"command", command}}));
  };
  EXPECT_EQ(bash("terraform plan -out plan.bin").verdict, Verdict::Allow);
  EXPECT_EQ(bash("terraform plan && rm -rf ~").verdict,
            Verdict::Deny);  // the other command decides
  EXPECT_EQ(bash("terraform plan; terraform apply").verdict, Verdict::Ask);
  EXPECT_EQ(bash("ls && git push -u origin main").rule_id, "no-push-main");
  EXPECT_EQ(bash("echo A=1 >> .env").rule_id, "no-env-writes");
  EXPECT_EQ(bash("echo A=1 >> notes.txt").verdict, Verdict::Allow);
  EXPECT_THROW(load("rules:\n  - {id: a, shell: {regex: '(x'}, verdict: deny}\n"), PolicyError);
  EXPECT_THROW(load("rules:\n  - {id: a, shell: {colour: red}, verdict: deny}\n"), PolicyError);
}

// Token patterns are split into words only when a command is first matched;
// what is wrong with them is still found when the policy loads.
TEST(PolicyFile, ShellPatternsSplitLateAreCheckedAtLoad) {
  EXPECT_EQ(firstError("rules:\n  - id: a\n    shell: ['ls *', \"  \\t \"]\n    verdict: deny\n"),
            "p.yaml:3:12: shell.command: empty pattern");
  EXPECT_EQ(firstError("rules:\n  - id: a\n    shell: {command: []}\n    verdict: deny\n"),
            "p.yaml:3:12: shell: expected command, regex or writes");
  // The same from code, where no parser looked first.
  RuleSpec spec;
  spec.header.id = "a";
  spec.shell.emplace().tokens = {"ls *", " \t\n "};
  EXPECT_THROW(compileRule(spec), PolicyError);
  spec.shell.emplace();
  EXPECT_THROW(compileRule(spec), PolicyError);
  spec.shell.emplace().tokens = {"ls *"};
  EXPECT_NO_THROW(compileRule(spec));
  // Blanks of any kind between words, and around them, separate words only.
  Policy p = load(
      "builtin_rules: [shell]\nrules:\n  - id: plan\n    shell: \"  terraform\\t plan   *  \"\n"
      "    verdict: allow\n");
  Engine engine(p);
  EXPECT_EQ(engine.decide(call("Bash", {{"command", "terraform plan -out x"}})).verdict,
            Verdict::Allow);
  EXPECT_NE(engine.decide(call("Bash", {{"command", "terraform apply"}})).verdict, Verdict::Allow);
}

TEST(PolicyFile, EmptyFileIsAnEmptyPolicy) {
  Policy p = load("");
  EXPECT_TRUE(p.rules.empty());
  EXPECT_EQ(p.default_verdict, Verdict::Ask);
}

}  // namespace policy_file_test
}  // namespace toolguard
