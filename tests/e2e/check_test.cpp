// `toolguard check` through the real binary.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace check_test {

using nlohmann::json;

class Check : public Cli {};

TEST_F(Check, PrintsOneDecisionForOneCall) {
  json d = check({{"tool", "Write"},
                  {"args", {{"file_path", "../../../etc/passwd"}}},
                  {"context", {{"cwd", "/home/u/app"}}}});
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["rule"], "system-write");
  EXPECT_EQ(d["source"].get<std::string>().rfind("<profile:default>:", 0), 0u);
  EXPECT_FALSE(d["reason"].get<std::string>().empty());
  EXPECT_NE(d["model_reason"].get<std::string>().find("toolguard"), std::string::npos);

  d = check({{"tool", "Read"}, {"args", {{"file_path", "src/a.c"}}}});
  EXPECT_EQ(d["verdict"], "allow");
  EXPECT_EQ(d["rule"], nullptr);
  EXPECT_EQ(d["basis"], "tool-policy");
}

TEST_F(Check, ContextIsOptionalAndCwdDefaultsToTheProcessDirectory) {
  // Relative paths resolve against the process cwd (the test's temp dir): inside.
  json d = check({{"tool", "Write"}, {"args", {{"file_path", "notes.txt"}}}});
  EXPECT_EQ(d["verdict"], "allow");
  d = check({{"tool", "Write"}, {"args", {{"file_path", "../outside.txt"}}}});
  EXPECT_EQ(d["verdict"], "ask");
  EXPECT_EQ(d["rule"], "write-outside-workspace");
}

TEST_F(Check, HeadlessTurnsAskIntoDeny) {
  json d = check({{"tool", "Bash"},
                  {"args", {{"command", "sudo make install"}}},
                  {"context", {{"cwd", "/w"}, {"mode", "headless"}}}});
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["policy_verdict"], "ask");
  EXPECT_NE(d["resolution"].get<std::string>().find("headless"), std::string::npos);
}

TEST_F(Check, MalformedInputIsDeniedNamingTheProblem) {
  struct Case {
    std::string input;
    std::string needle;
  };
  for (const Case& c : std::vector<Case>{
           {"", "invalid JSON"},
           {"{not json", "invalid JSON"},
           {"[1,2]", "expected a JSON object"},
           {R"({"args":{}})", "tool: required"},
           {R"({"tool":""})", "tool: required"},
           {R"({"tool":"Read","args":[1]})", "args: expected a JSON object"},
           {R"({"tool":"Read","context":{"mode":"sometimes"}})", "context.mode"},
           {R"({"tool":"Read","context":{"cwd":5}})", "context.cwd: expected a string"},
           {R"({"tool":"Read","argz":{}})", "argz: unknown field"},
           {R"({"tool":"Write","context":{"roots":[""]}})", "context.roots"},
           {R"({"tool":"Read","context":{"planet":"mars"}})", "context.planet: unknown field"},
       }) {
    RunResult r = run({"check"}, c.input);
    EXPECT_EQ(r.exit_code, 0) << c.input << r.err;
    json d = json::parse(r.out);
    EXPECT_EQ(d["verdict"], "deny") << c.input;
    EXPECT_NE(d["reason"].get<std::string>().find(c.needle), std::string::npos)
        << c.input << " -> " << d["reason"];
  }
}

std::string nested(int depth) {
  return std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']');
}

TEST_F(Check, DeeplyNestedArgumentsAreDeniedNotACrash) {
  const std::string deep =
      R"({"tool":"Write","args":{"file_path":"/etc/passwd","a":)" + nested(200000) + "}}";
  RunResult r = run({"check"}, deep);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("nested deeper than"), std::string::npos);
  const std::string claude =
      R"({"tool_name":"Write","tool_input":{"file_path":"/etc/passwd","a":)" + nested(200000) +
      "}}";
  r = run({"check", "--format", "claude"}, claude);
  EXPECT_EQ(r.exit_code, 2);  // blocks the call in Claude Code
  EXPECT_NE(r.err.find("nested deeper than"), std::string::npos);
  // Within the limit, nesting is fine.
  json ok = check(
      {{"tool", "Read"}, {"args", json::parse(R"({"file_path":"a","x":)" + nested(50) + "}")}});
  EXPECT_EQ(ok["verdict"], "allow");
}

TEST_F(Check, BytesThatAreNotUtf8GiveADenyDecision) {
  RunResult r = run({"check"}, "{\"tool\":\"Read\",\"args\":{\"file_path\":\"\xff\"}}");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  r = run({"check", "--batch"},
          "{\"tool\":\"Read\",\"args\":{\"file_path\":\"\xff\"}}\n"
          R"({"tool":"Read","args":{"file_path":"a"},"context":{"cwd":"/w"}})"
          "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(json::parse(first)["verdict"], "deny");
  EXPECT_EQ(json::parse(second)["verdict"], "allow");
}

TEST_F(Check, ADuplicateKeyAtAnyDepthIsDeniedNamingWhere) {
  // The guard's reader keeps the last value; an agent runtime may run the first.
  RunResult r = run({"check"}, R"({"tool":"Bash","args":{"command":"ls","command":"rm -rf ~"}})");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["basis"], "error");
  EXPECT_NE(d["reason"].get<std::string>().find("duplicate key \"command\" at /args/command"),
            std::string::npos)
      << d["reason"];
  EXPECT_NE(d["model_reason"].get<std::string>().find("/args/command"), std::string::npos);
  // The envelope, and deep inside the arguments, alike; also on --batch lines.
  r = run({"check", "--batch"},
          R"({"tool":"Read","tool":"Bash","args":{"command":"ls"}})"
          "\n"
          R"({"tool":"Read","args":{"file_path":"a","x":[{"y":{"z":1,"z":2}}]}})"
          "\n"
          R"({"tool":"Read","args":{"file_path":"a"},"context":{"cwd":"/w"}})"
          "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<json> decisions;
  for (std::string line; std::getline(lines, line);) decisions.push_back(json::parse(line));
  ASSERT_EQ(decisions.size(), 3u) << r.out;
  EXPECT_EQ(decisions[0]["verdict"], "deny");
  EXPECT_NE(decisions[0]["reason"].get<std::string>().find("at /tool"), std::string::npos);
  EXPECT_EQ(decisions[1]["verdict"], "deny");
  EXPECT_NE(decisions[1]["reason"].get<std::string>().find("at /args/x/0/y/z"), std::string::npos)
      << decisions[1]["reason"];
  EXPECT_EQ(decisions[2]["verdict"], "allow");
}

TEST_F(Check, BatchAnswersEachLineInOrder) {
  std::string input = R"({"tool":"Read","args":{"file_path":"a"},"context":{"cwd":"/w"}})"
                      "\n\n"
                      R"({"tool":"Write","args":{"file_path":"/etc/x"},"context":{"cwd":"/w"}})"
                      "\n"
                      "garbage\n"
                      R"({"tool":"Bash","args":{"command":"ls"},"context":{"cwd":"/w"}})"
                      "\n";
  RunResult r = run({"check", "--batch"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> verdicts;
  for (std::string line; std::getline(lines, line);) {
    verdicts.push_back(json::parse(line)["verdict"]);
  }
  EXPECT_EQ(verdicts, (std::vector<std::string>{"allow", "deny", "deny", "allow"}));
}

TEST_F(Check, ExplicitPolicyFilesAndProfiles) {
  dir.write("extra.yaml",
            "rules:\n  - {id: no-fetch, tool: WebFetch, verdict: deny, reason: offline}\n");
  json d = check({{"tool", "WebFetch"}, {"args", {{"url", "https://x"}}}},
                 {"--policy", (dir.path() / "extra.yaml").string()});
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["reason"], "offline");
  EXPECT_EQ(d["source"], (dir.path() / "extra.yaml").string() + ":2:5");
  d = check({{"tool", "Bash"}, {"args", {{"command", "ls"}}}}, {"--profile", "safe-chat"});
  EXPECT_EQ(d["verdict"], "deny");
}

TEST_F(Check, ABrokenPolicyDeniesAndExitsTwo) {
  dir.write("bad.yaml", "rules:\n  - {id: x, tool: Read, verdict: allowed}\n");
  RunResult r = run({"check", "--policy", (dir.path() / "bad.yaml").string()},
                    R"({"tool":"Read","args":{"file_path":"a"}})");
  EXPECT_EQ(r.exit_code, 2);
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("bad.yaml:2:"), std::string::npos) << d["reason"];
  EXPECT_NE(d["reason"].get<std::string>().find("unknown value 'allowed'"), std::string::npos);
}

TEST_F(Check, UserProjectAndManagedLayersAreFound) {
  dir.write("user/mine.yaml", "rules:\n  - {id: user-no-fetch, tool: WebFetch, verdict: deny}\n");
  dir.write(
      "repo/.toolguard/policy.yaml",
      "default: allow\nrules:\n  - {id: repo-deploy, tool: mcp__ops__deploy, verdict: allow}\n");
  std::filesystem::create_directories(dir.path() / "repo/src");
  const std::string cwd = (dir.path() / "repo/src").string();
  const json deploy = {
      {"tool", "mcp__ops__deploy"}, {"args", json::object()}, {"context", {{"cwd", cwd}}}};
  json d = check(deploy);
  EXPECT_EQ(d["verdict"], "ask");  // the untrusted repository cannot allow it
  RunResult explained = run({"explain"}, R"({"tool":"mcp__ops__deploy"})", cwd);
  EXPECT_NE(explained.out.find("warning: "), std::string::npos) << explained.out;
  EXPECT_NE(explained.out.find("untrusted project"), std::string::npos) << explained.out;
  d = check({{"tool", "WebFetch"}, {"args", json::object()}, {"context", {{"cwd", cwd}}}});
  EXPECT_EQ(d["rule"], "user-no-fetch");

  dir.write("user/trust.yaml", "trusted_projects: [" + (dir.path() / "repo").string() + "]\n");
  d = check(deploy);
  EXPECT_EQ(d["verdict"], "allow");
  EXPECT_EQ(d["rule"], "repo-deploy");

  dir.write("managed/org.yaml",
            "rules:\n  - {id: org-no-ops, tool: 'mcp__ops__*', verdict: deny}\n");
  d = check(deploy);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["rule"], "org-no-ops");
  d = check(deploy, {"--no-managed"});
  EXPECT_EQ(d["verdict"], "allow");
}

TEST_F(Check, KeepsTheUserPolicysTreeBesideTheApprovalsAndGuardsIt) {
  dir.write("user/policy.yaml",
            "rules:\n  - {id: no-fetch, tool: WebFetch, verdict: deny, reason: not here}\n");
  const json fetch = {{"tool", "WebFetch"},
                      {"args", {{"url", "https://example.com"}}},
                      {"context", {{"cwd", "/w"}}}};
  EXPECT_EQ(check(fetch)["rule"], "no-fetch");
  const std::filesystem::path cache = dir.path() / "home/.toolguard/cache/policy-trees";
  ASSERT_TRUE(std::filesystem::exists(cache));
  EXPECT_FALSE(std::filesystem::is_empty(cache));
  EXPECT_EQ(check(fetch)["rule"], "no-fetch");  // read from the entry
  // An edit is seen at once.
  dir.write("user/policy.yaml", "rules:\n  - {id: fetch-ok, tool: WebFetch, verdict: allow}\n");
  EXPECT_EQ(check(fetch)["rule"], "fetch-ok");
  // An agent cannot write an entry: every route into toolguard's home is denied.
  const std::string entry = (cache / "0123456789abcdef.tree").string();
  json d = check({{"tool", "Write"},
                  {"args", {{"file_path", entry}, {"content", "x"}}},
                  {"context", {{"cwd", "/w"}}}});
  EXPECT_EQ(d["verdict"], "deny") << d;
  d = check({{"tool", "Bash"},
             {"args", {{"command", "printf x > " + entry}}},
             {"context", {{"cwd", "/w"}}}});
  EXPECT_EQ(d["verdict"], "deny") << d;
  // A home named only on the command line is not where the built-in rule
  // guards: no trees are kept there.
  const std::filesystem::path other = dir.path() / "other-home";
  EXPECT_EQ(check(fetch, {"--home", other.string()})["rule"], "fetch-ok");
  EXPECT_FALSE(std::filesystem::exists(other / "cache"));
}

TEST_F(Check, AHomeNamedOnTheCommandLineOrRelativelyIsGuardedToo) {
  // Its approvals decide allows: an agent must not write them, whichever
  // way the home was named.
  const std::filesystem::path other = dir.path() / "other-home";
  const json write = {
      {"tool", "Write"},
      {"args", {{"file_path", (other / "approvals/global.json").string()}, {"content", "{}"}}},
      {"context", {{"cwd", "/w"}}}};
  json d = check(write, {"--home", other.string()});
  EXPECT_EQ(d["verdict"], "deny") << d;
  EXPECT_EQ(d["rule"], "guard-config-locations") << d;
  std::map<std::string, std::string> variables = env();
  variables["TOOLGUARD_HOME"] = "relative-home";
  const json relative = {{"tool", "Write"},
                         {"args",
                          {{"file_path", (dir.path() / "relative-home/approvals/x.json").string()},
                           {"content", "{}"}}},
                         {"context", {{"cwd", "/w"}}}};
  RunResult r = runBinary(TOOLGUARD_BINARY, {"check", "--no-audit"}, relative.dump(), variables,
                          dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny") << d;
  EXPECT_EQ(d["rule"], "guard-config-locations") << d;
}

// The statically linked command looks users up in /etc/passwd and hosts as
// numbers, in /etc/hosts and through DNS, without NSS (static_lookups.cpp).
TEST_F(Check, TheCommandFindsUsersAndHostsWithoutNss) {
  const json root_home = check(
      {{"tool", "Bash"}, {"args", {{"command", "rm -rf ~root"}}}, {"context", {{"cwd", "/tmp"}}}});
  EXPECT_EQ(root_home["verdict"], "deny") << root_home;
  EXPECT_NE(root_home["reason"].get<std::string>().find("'/root'"), std::string::npos) << root_home;
  // A user not in /etc/passwd (a directory service may know one) has a home
  // known only where the command runs: deleting it is never ordinary work.
  // (The static command of the last release crashed here, in NSS.)
  const json unknown = check({{"tool", "Bash"},
                              {"args", {{"command", "rm -rf ~no_such_user_tg"}}},
                              {"context", {{"cwd", "/tmp"}}}});
  EXPECT_EQ(unknown["verdict"], "ask") << unknown;
  EXPECT_EQ(unknown["rule"], "writes-unknown-place") << unknown;

  const std::string call = R"({"tool":"Bash","args":{"command":"ls"},"context":{"cwd":"/tmp"}})";
  std::map<std::string, std::string> environment = env();
  environment["TOOLGUARD_TOKEN"] = "t";
  auto reasonFor = [&](const std::string& server) {
    RunResult r = runBinary(TOOLGUARD_BINARY, {"check", "--server", server}, call, environment,
                            dir.path().string());
    const json d = json::parse(r.out);
    EXPECT_EQ(d["verdict"], "deny") << d;  // nothing listens there: fail closed
    return d["reason"].get<std::string>();
  };
  // localhost comes from /etc/hosts and [::1] is a number: both are found,
  // and the connection is what fails (port 1: nothing listens).
  EXPECT_NE(reasonFor("http://localhost:1").find("Connection refused"), std::string::npos);
  // (An IPv6 loopback may be switched off: only that it was not looked up.)
  EXPECT_EQ(reasonFor("http://[::1]:1").find("no address found"), std::string::npos);
  // A name nobody can resolve (the sanitizer build's command asks getaddrinfo,
  // which words it its own way): the service could not be asked, so deny.
  const std::string unknown_host = reasonFor("http://no-such-host.invalid:1");
  EXPECT_NE(unknown_host.find("could not be asked"), std::string::npos) << unknown_host;
  EXPECT_EQ(unknown_host.find("Connection refused"), std::string::npos) << unknown_host;
}

// The environment `check` runs in is the agent's (a hook is its child):
// what a program inherits from it is judged with the program.
TEST_F(Check, TheAgentsEnvironmentIsJudgedWithTheCommand) {
  const std::string workspace = dir.path().string();
  auto verdictUnder = [&](const std::map<std::string, std::string>& extra,
                          const std::string& command) {
    std::map<std::string, std::string> variables = env();
    variables.insert(extra.begin(), extra.end());
    const json call = {
        {"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", workspace}}}};
    RunResult r =
        runBinary(TOOLGUARD_BINARY, {"check", "--no-audit"}, call.dump(), variables, workspace);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  };
  const std::string system = "/usr/local/bin:/usr/bin:/bin";
  EXPECT_EQ(verdictUnder({{"PATH", system}, {"PYTEST_ADDOPTS", "-x"}}, "pytest -q")["verdict"],
            "allow");
  const json plugin =
      verdictUnder({{"PATH", system}, {"PYTEST_ADDOPTS", "-p evil_plugin"}}, "pytest -q");
  EXPECT_EQ(plugin["verdict"], "ask") << plugin;
  EXPECT_NE(plugin["reason"].get<std::string>().find("PYTEST_ADDOPTS"), std::string::npos)
      << plugin;
  // A PATH entry in the workspace finds the model's own `ls` first.
  const json planted = verdictUnder({{"PATH", workspace + "/bin:" + system}}, "ls -la");
  EXPECT_EQ(planted["verdict"], "ask") << planted;
  EXPECT_NE(planted["reason"].get<std::string>().find("PATH lists"), std::string::npos) << planted;
  const json preload = verdictUnder({{"PATH", system}, {"LD_PRELOAD", "./x.so"}}, "git status");
  EXPECT_EQ(preload["verdict"], "ask") << preload;
  // A host whose agent's commands run with another environment says so.
  EXPECT_EQ(verdictUnder({{"PATH", system},
                          {"PYTEST_ADDOPTS", "-p evil_plugin"},
                          {"TOOLGUARD_AGENT_ENVIRONMENT", "clean"}},
                         "pytest -q")["verdict"],
            "allow");
}

}  // namespace check_test
}  // namespace toolguard::testing
