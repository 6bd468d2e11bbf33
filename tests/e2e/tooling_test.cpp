// Issue 26, "tooling as good as opa test and conftest", through the real
// binary: --json of explain, policy lint and test; explain --all; what
// `toolguard test` runs; "did you mean"; reasons as sentences; policy
// import's comments; approvals list; audit tail's subject, --since,
// --follow and colour.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace tooling_test {

using nlohmann::json;

class Tooling : public Cli {
 protected:
  std::string policyFile() const {
    return dir
        .write("policy.yaml", R"(rules:
  - id: no-push
    shell: "git push *"
    verdict: deny
    examples:
      match: ["git push origin main"]
      not_match: ["git status"]
)")
        .string();
  }

  static json bash(const std::string& command, const std::string& cwd = "/w") {
    return {{"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", cwd}}}};
  }

  std::string log() const { return (dir.path() / "home/.toolguard/audit.jsonl").string(); }

  // Runs the binary with `args`, stdout on a pipe, until `wanted` has been
  // printed (or 10 s passed); then stops it. What it printed.
  std::string runUntil(const std::vector<std::string>& args, const std::string& wanted,
                       const std::function<void()>& meanwhile) const {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe");
    const pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], 1);
      close(out[0]);
      close(out[1]);
      for (const auto& [k, v] : env()) {
        if (v.empty()) {
          unsetenv(k.c_str());
        } else {
          setenv(k.c_str(), v.c_str(), 1);
        }
      }
      std::vector<char*> argv = {const_cast<char*>(TOOLGUARD_BINARY)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(TOOLGUARD_BINARY, argv.data());
      _exit(127);
    }
    close(out[1]);
    std::string text;
    bool started = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (text.find(wanted) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char buffer[4096];
        const ssize_t n = read(out[0], buffer, sizeof buffer);
        if (n <= 0) break;
        text.append(buffer, static_cast<size_t>(n));
      }
      if (!started) {
        started = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // it is following now
        meanwhile();
      }
    }
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    close(out[0]);
    return text;
  }

  // Runs the binary with its stdout on a terminal (a pseudo-terminal of
  // `columns` columns, 0: unset); what it wrote there.
  std::string runOnTerminal(const std::vector<std::string>& args,
                            const std::map<std::string, std::string>& extra = {},
                            unsigned short columns = 0) const {
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
      throw std::runtime_error("no pseudo-terminal");
    }
    if (columns != 0) {
      winsize size{};
      size.ws_row = 24;
      size.ws_col = columns;
      if (ioctl(master, TIOCSWINSZ, &size) != 0) throw std::runtime_error("TIOCSWINSZ");
    }
    const std::string slave_name = ptsname(master);
    const pid_t pid = fork();
    if (pid == 0) {
      setsid();
      const int slave = open(slave_name.c_str(), O_RDWR);
      if (slave < 0) _exit(126);
      dup2(slave, 1);
      close(slave);
      close(master);
      std::map<std::string, std::string> environment = env();
      for (const auto& [k, v] : extra) environment[k] = v;
      for (const auto& [k, v] : environment) {
        if (v.empty()) {
          unsetenv(k.c_str());
        } else {
          setenv(k.c_str(), v.c_str(), 1);
        }
      }
      std::vector<char*> argv = {const_cast<char*>(TOOLGUARD_BINARY)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(TOOLGUARD_BINARY, argv.data());
      _exit(127);
    }
    std::string text;
    char buffer[4096];
    while (true) {
      const ssize_t n = read(master, buffer, sizeof buffer);
      if (n <= 0) break;  // EIO once the child closed the terminal
      text.append(buffer, static_cast<size_t>(n));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(master);
    return text;
  }
};

// --- explain --json and --all ---

TEST_F(Tooling, ExplainJsonIsOneDocument) {
  RunResult r = run({"explain", "--json"},
                    R"({"tool":"Write","args":{"file_path":"/etc/hosts"},"context":{"cwd":"/w"}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["version"], 1);
  EXPECT_EQ(report["call"]["tool"], "Write");
  EXPECT_EQ(report["call"]["context"]["cwd"], "/w");
  EXPECT_EQ(report["tool"]["kind"], "file-write");
  EXPECT_EQ(report["paths"][0]["field"], "file_path");
  EXPECT_EQ(report["paths"][0]["lexical"], "/etc/hosts");
  EXPECT_EQ(report["paths"][0]["inside_workspace"], false);
  EXPECT_EQ(report["decision"]["verdict"], "deny");
  EXPECT_EQ(report["decision"]["rule"], "system-write");
  EXPECT_NE(report["decision"]["explanation"].get<std::string>().find("the strictest of 2"),
            std::string::npos);
  bool found = false;
  for (const json& rule : report["consulted"]) {
    if (rule["id"] == "system-write") {
      found = true;
      EXPECT_EQ(rule["verdict"], "deny");
      EXPECT_EQ(rule["layer"], "builtin");
    }
  }
  EXPECT_TRUE(found) << r.out;
  EXPECT_FALSE(report.contains("not_matched"));
  EXPECT_EQ(report["llm"]["status"], "off");

  r = run({"explain", "--json"}, R"({"tool":"Bash","args":{"command":"ls | wc -l"}})");
  const json shell = json::parse(r.out);
  EXPECT_EQ(shell["shell_program"]["commands"].size(), 2u);
  EXPECT_EQ(shell["shell_program"]["commands"][1]["words"][0]["text"], "wc");
  EXPECT_EQ(shell["shell_program"]["commands"][1]["notes"][0], "pipeline 2/2");

  r = run({"explain", "--json"}, "{not json");
  EXPECT_EQ(r.exit_code, 0);
  const json failed = json::parse(r.out);
  EXPECT_EQ(failed["decision"]["verdict"], "deny");
  EXPECT_NE(failed["decision"]["reason"].get<std::string>().find("invalid call: invalid JSON"),
            std::string::npos);
}

TEST_F(Tooling, ExplainAllShowsTheRulesThatDidNotMatchAndWhy) {
  const std::string policy = policyFile();
  const std::string call = bash("git status").dump();
  RunResult r = run({"explain", "--policy", policy}, call);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("no-push"), std::string::npos) << r.out;  // the index hid it
  EXPECT_NE(r.out.find("explain --all shows the others"), std::string::npos) << r.out;

  r = run({"explain", "--all", "--policy", policy}, call);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no-push  [explicit " + policy + ":2:5]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("=> no match: it does not match the command 'git status'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("system-write  [builtin"), std::string::npos);
  EXPECT_NE(r.out.find("it is for file-write tools; Bash is a shell tool"), std::string::npos)
      << r.out;

  const json report =
      json::parse(run({"explain", "--all", "--json", "--policy", policy}, call).out);
  bool found = false;
  for (const json& rule : report["not_matched"]) {
    if (rule["id"] == "no-push") {
      found = true;
      EXPECT_EQ(rule["why"], "it does not match the command 'git status'");
      EXPECT_EQ(rule["source"], policy + ":2:5");
    }
  }
  EXPECT_TRUE(found);
  // A rule is either consulted or listed as not matched, never both.
  std::set<std::string> consulted;
  for (const json& rule : report["consulted"]) consulted.insert(rule["id"].get<std::string>());
  for (const json& rule : report["not_matched"]) {
    EXPECT_EQ(consulted.count(rule["id"].get<std::string>()), 0u) << rule;
  }
}

// --- policy lint --json ---

TEST_F(Tooling, LintJsonListsEveryDiagnostic) {
  const std::string bad = dir.write("bad.yaml", R"(rules:
  - {id: a, tool: Bash, verdit: deny}
  - {id: b, tool: Bassh, verdict: ask}
)")
                              .string();
  RunResult r = run({"policy", "lint", "--json", bad});
  EXPECT_EQ(r.exit_code, 1);
  const json report = json::parse(r.out);
  EXPECT_EQ(report["version"], 1);
  EXPECT_EQ(report["files"], json::array({bad}));
  EXPECT_EQ(report["errors"], 2);  // the unknown key, and the verdict it left out
  ASSERT_GE(report["diagnostics"].size(), 1u);
  const json& first = report["diagnostics"][0];
  EXPECT_EQ(first["severity"], "error");
  EXPECT_EQ(first["file"], bad);
  EXPECT_EQ(first["line"], 2);
  EXPECT_EQ(first["column"], 25);
  EXPECT_EQ(first["source"], bad + ":2:25");
  EXPECT_EQ(first["message"], "unknown key 'verdit' in a rule (did you mean 'verdict'?)");

  const std::string warn =
      dir.write("warn.yaml", "rules:\n  - {id: typo, tool: Bassh, verdict: ask}\n").string();
  r = run({"policy", "lint", "--json", warn});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const json warned = json::parse(r.out);
  EXPECT_EQ(warned["errors"], 0);
  EXPECT_EQ(warned["warnings"], 1);
  EXPECT_EQ(warned["diagnostics"][0]["severity"], "warning");
}

// --- toolguard test ---

TEST_F(Tooling, TestRunsTheUsersExamplesAndCasesNotTheBuiltinOnes) {
  const std::string policy = policyFile();
  RunResult r = run({"test", policy});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "PASS " + policy +
                       ":6:15 rule no-push matches Bash {\"command\":\"git push origin main\"}\n"
                       "PASS " +
                       policy +
                       ":7:19 rule no-push does not match Bash {\"command\":\"git status\"}\n"
                       "2 passed, 0 failed\n");

  r = run({"test", "--builtin", "-q", policy});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  size_t passed = 0;
  std::istringstream(r.out) >> passed;
  EXPECT_GT(passed, 100u) << r.out;  // the built-in policy's own examples too
  r = run({"test", "--builtin", policy});
  EXPECT_NE(r.out.find("PASS <profile:default>:"), std::string::npos) << r.out;

  // The user's own policy files are the user's too.
  dir.write("user/mine.yaml", slurp(policy));
  r = run({"test"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("2 passed, 0 failed"), std::string::npos) << r.out;
}

// A case can describe a tool the catalog does not know (tool_entry, as in
// tools:), and a policy file can carry its own cases: it is loaded as a
// policy and its cases are run against it, verdicts checked.
TEST_F(Tooling, TestCasesDescribeTheirToolAndCanLiveInThePolicyFile) {
  const std::string policy = dir.write("docs.yaml", R"(version: 1
default: deny
rules:
  - {id: doc-tools, category: document, verdict: allow}
  - {id: ceiling, max_risk: medium, verdict: deny}
tests:
  - {name: a document tool, tool: to_pdf, tool_entry: {category: document, risk: low}, expect: allow}
  - {name: too risky, tool: publish, tool_entry: {category: document, risk: high}, expect: deny, rule: ceiling}
  - {name: unknown, tool: to_pdf, expect: deny}
  - {name: wrong, tool: publish, tool_entry: {category: document, risk: critical}, expect: allow}
)")
                                 .string();
  RunResult r = run({"test", policy});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("PASS " + policy + ":7:5 a document tool: expected allow"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("PASS " + policy + ":9:5 unknown: expected deny"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("FAIL " + policy + ":10:5 wrong: expected allow, got deny by rule ceiling"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("3 passed, 1 failed"), std::string::npos) << r.out;
  // The policy decides calls as any policy file does; its cases are ignored.
  r = run({"check", "--policy", policy},
          json({{"tool", "Read"}, {"args", {{"file_path", "a"}}}}).dump());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  // A tool entry that no tools: section could hold is an error at its place.
  const std::string bad = dir.write("bad.yaml", R"(tests:
  - {tool: x, tool_entry: {risk: extreme}, expect: deny}
)")
                              .string();
  r = run({"test", bad});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find(bad + ":2:27: error: tool_entry: tools.x.risk: unknown value 'extreme'"),
            std::string::npos)
      << r.out;
}

TEST_F(Tooling, TestWithNothingToRunIsAnError) {
  RunResult r = run({"test"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("error: nothing to test"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("0 passed"), std::string::npos) << r.out;
  const std::string no_examples =
      dir.write("plain.yaml", "rules:\n  - {id: a, tool: deploy, verdict: deny}\n").string();
  r = run({"test", "--json", no_examples});
  EXPECT_EQ(r.exit_code, 2);
  const json report = json::parse(r.out);
  EXPECT_NE(report["errors"][0]["message"].get<std::string>().find("nothing to test"),
            std::string::npos);
}

TEST_F(Tooling, TestJsonHasEveryCase) {
  const std::string policy = policyFile();
  const std::string cases = dir.write("cases.yaml", R"(tests:
  - {name: push, command: git push origin main, expect: deny, rule: no-push}
  - {name: wrong, tool: Write, args: {file_path: /etc/x}, expect: allow}
)")
                                .string();
  RunResult r = run({"test", "--json", policy, cases});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["version"], 1);
  EXPECT_EQ(report["passed"], 3);
  EXPECT_EQ(report["failed"], 1);
  ASSERT_EQ(report["cases"].size(), 4u);
  EXPECT_EQ(report["cases"][0]["kind"], "example");
  EXPECT_EQ(report["cases"][0]["rule"], "no-push");
  const json& wrong = report["cases"][3];
  EXPECT_EQ(wrong["kind"], "case");
  EXPECT_EQ(wrong["name"], "wrong");
  EXPECT_EQ(wrong["source"], cases + ":3:5");
  EXPECT_EQ(wrong["passed"], false);
  EXPECT_EQ(wrong["expect"], "allow");
  EXPECT_EQ(wrong["got"]["verdict"], "deny");
  EXPECT_EQ(wrong["got"]["rule"], "system-write");

  const std::string broken =
      dir.write("broken.yaml", "rules:\n  - {id: a, verdict: permit}\n").string();
  r = run({"test", "--json", broken});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(json::parse(r.out)["errors"][0]["source"], broken + ":2:22");
}

// --- did you mean ---

TEST_F(Tooling, MistypedNamesAreNamedWithWhatWasMeant) {
  RunResult r = run({"policy", "lnt", "x.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'policy lnt' (did you mean 'policy lint'?)"),
            std::string::npos)
      << r.err;
  r = run({"approvals", "lsit"});
  EXPECT_NE(r.err.find("(did you mean 'approvals list'?)"), std::string::npos) << r.err;

  r = run({"check", "--profile", "nope"}, bash("ls").dump());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown profile 'nope'; the profiles are default, developer-assistant, "
                       "document-processing, safe-chat"),
            std::string::npos)
      << r.err;
  r = run({"explain", "--profile", "safe-caht"}, bash("ls").dump());
  EXPECT_NE(r.err.find("(did you mean 'safe-chat'?)"), std::string::npos) << r.err;

  const std::string typo =
      dir.write("typo.yaml", "rules:\n  - {id: a, tool: Bash, verdict: dney}\n").string();
  r = run({"policy", "lint", typo});
  EXPECT_NE(r.out.find(typo + ":2:34: error: verdict: unknown value 'dney' (did you mean 'deny'?)"),
            std::string::npos)
      << r.out;

  const json d = check({{"tool", "Bash"}, {"argz", json::object()}});
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("argz: unknown field (did you mean 'args'?)"),
            std::string::npos)
      << d;
}

// --- reasons as sentences ---

TEST_F(Tooling, ReasonsAreSentencesWithoutLibraryCodes) {
  RunResult r = run({"check"}, R"({"tool":"Bash","args":{"command":"ls"})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["reason"],
            "invalid call: invalid JSON at line 1, column 39: unexpected end of "
            "input; expected '}'");
  EXPECT_EQ(r.out.find("json.exception"), std::string::npos) << r.out;
  r = run({"check", "--format", "claude"}, "{\"tool_name\": }");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("invalid JSON at line 1, column 15"), std::string::npos) << r.err;

  d = check(bash("git push --force origin main", dir.path().string()));
  EXPECT_EQ(d["rule"], "git-rewrite");
  EXPECT_NE(d["reason"].get<std::string>().find("git push overwrites or deletes remote history"),
            std::string::npos)
      << d;
  d = check(bash("git push origin :old", dir.path().string()));
  EXPECT_NE(
      d["reason"].get<std::string>().find("git push :old overwrites or deletes a remote branch"),
      std::string::npos)
      << d;
}

TEST_F(Tooling, ARelativeCwdIsAnError) {
  json d = check(bash("ls", "src"));
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["basis"], "error");
  EXPECT_EQ(d["reason"],
            "invalid call: context.cwd: expected an absolute path (the directory "
            "the agent works in), got 'src'");
  RunResult r =
      run({"check", "--format", "claude"}, R"({"hook_event_name":"PreToolUse","tool_name":"Bash",)"
                                           R"("tool_input":{"command":"ls"},"cwd":"./app"})");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cwd: expected an absolute path"), std::string::npos) << r.err;
  d = check(bash("ls", "~/project"));  // the home directory is not relative
  EXPECT_NE(d["basis"], "error") << d;
}

// --- policy import ---

TEST_F(Tooling, PolicyImportWritesEachCommentOnItsRule) {
  const std::string settings = dir.write("settings.json", R"json({
  "permissions": {
    "allow": ["Bash(npm run test:*)"],
    "deny": ["Bash(git push:*)"]
  }
}
)json")
                                   .string();
  RunResult r = run({"policy", "import", "--from", "claude", settings});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t comments = 0;
  for (const std::string& line : lines) {
    if (line.find("# from ") == std::string::npos || line.starts_with("#")) continue;
    ++comments;
    EXPECT_TRUE(line.starts_with("  - id: ")) << line;
  }
  EXPECT_EQ(comments, 2u) << r.out;
  EXPECT_NE(r.out.find("  - id: claude-settings-allow-1  # from " + settings + ":3:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  - id: claude-settings-deny-1  # from " + settings + ":4:"),
            std::string::npos)
      << r.out;
}

// --- approvals list ---

TEST_F(Tooling, ApprovalsListSaysWhatItListsAndWhenThereIsNothing) {
  RunResult r = run({"approvals", "list"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "no remembered approvals (" + (dir.path() / "home/.toolguard").string() +
                       "/approvals)\n");
  r = run({"approvals", "list", "--help"});
  EXPECT_NE(r.out.find("every scope (global, project, agent, session)"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("project (default)"), std::string::npos) << r.out;

  ASSERT_EQ(run({"approvals", "add", "Read", "--scope", "agent", "--agent", "a1"}).exit_code, 0);
  ASSERT_EQ(run({"approvals", "add", "Grep", "--scope", "global"}).exit_code, 0);
  r = run({"approvals", "list"});
  EXPECT_NE(r.out.find("Read: every call"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Grep: every call"), std::string::npos) << r.out;
  r = run({"approvals", "list", "--agent", "a1"});
  EXPECT_NE(r.out.find("Read: every call"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Grep"), std::string::npos) << r.out;
  r = run({"approvals", "list", "--agent", "someone-else"});
  EXPECT_NE(r.out.find("no remembered approvals match"), std::string::npos) << r.out;
}

// --- audit tail ---

TEST_F(Tooling, AuditTailShowsTheCommandOrPath) {
  check(bash("rm -rf /", dir.path().string()));
  check({{"tool", "Write"}, {"args", {{"file_path", "/etc/x"}}}, {"context", {{"cwd", "/w"}}}});
  RunResult r = run({"audit", "tail"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" deny Bash \"rm -rf /\" rule=rm-recursive-protected reason="),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" deny Write \"/etc/x\" rule=system-write reason="), std::string::npos)
      << r.out;
}

TEST_F(Tooling, AuditSinceTakesATimeBackFromNow) {
  dir.write("home/.toolguard/audit.jsonl",
            R"({"time":"2020-01-01T00:00:00.000Z","tool":"Old","verdict":"allow","reason":"r"})"
            "\n");
  check(bash("ls", dir.path().string()));
  RunResult r = run({"audit", "tail", "--since", "1h"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Old"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("allow Bash \"ls\""), std::string::npos) << r.out;
  r = run({"audit", "query", "--since", "10000d", "--json"});
  EXPECT_EQ(json::parse(r.out).size(), 2u) << r.out;
  r = run({"audit", "tail", "--since", "1y"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a time back from now (90s, 15m, 1h, 2d, 1w)"), std::string::npos) << r.err;
}

TEST_F(Tooling, AuditTailFollowPrintsWhatIsAppended) {
  check(bash("ls", dir.path().string()));
  const std::string text =
      runUntil({"audit", "tail", "--follow", "-n", "1"}, "Write \"/etc/y\"", [&] {
        check(
            {{"tool", "Write"}, {"args", {{"file_path", "/etc/y"}}}, {"context", {{"cwd", "/w"}}}});
      });
  EXPECT_NE(text.find("allow Bash \"ls\""), std::string::npos) << text;
  EXPECT_NE(text.find("deny Write \"/etc/y\" rule=system-write"), std::string::npos) << text;
  EXPECT_EQ(text.find("Bash \"ls\"", text.find("Bash \"ls\"") + 1), std::string::npos)
      << "printed once: " << text;
}

TEST_F(Tooling, AuditColoursVerdictsOnATerminalUnlessNoColor) {
  check(bash("rm -rf /", dir.path().string()));
  EXPECT_EQ(run({"audit", "tail"}).out.find('\033'), std::string::npos);  // a pipe: no colour
  std::string shown = runOnTerminal({"audit", "tail"});
  EXPECT_NE(shown.find("\033[31mdeny\033[0m Bash"), std::string::npos) << shown;
  shown = runOnTerminal({"audit", "tail"}, {{"NO_COLOR", "1"}});
  EXPECT_EQ(shown.find('\033'), std::string::npos) << shown;
  EXPECT_NE(shown.find("deny Bash"), std::string::npos) << shown;
  EXPECT_NE(run({"audit", "tail", "--color", "always"}).out.find("\033[31mdeny"),
            std::string::npos);
  shown = runOnTerminal({"demo"}, {{"NO_COLOR", "1"}});
  EXPECT_EQ(shown.find('\033'), std::string::npos);
}

// The demo is the first thing a newcomer sees: it fits the terminal it is
// shown on (80 and 120 columns; $COLUMNS, here 72, when stdout is a pipe) and shows
// the command or the path each call is about, not the first keys of its JSON.
TEST_F(Tooling, TheDemoFitsTheTerminalAndShowsWhatEachCallTouches) {
  auto widest = [](const std::string& text) {
    size_t widest = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();  // the terminal's CR LF
      widest = std::max(widest, line.size());
    }
    return widest;
  };
  for (unsigned short columns : {80, 120}) {
    const std::string shown = runOnTerminal({"demo"}, {{"NO_COLOR", "1"}}, columns);
    EXPECT_LE(widest(shown), columns) << shown;
    EXPECT_NE(shown.find("Bash  git status && make -j4 test"), std::string::npos) << shown;
    EXPECT_NE(shown.find("Read  ~/.ssh/id_ed25519"), std::string::npos) << shown;
    EXPECT_NE(shown.find("Edit  ../../../../../../../../etc/passwd"), std::string::npos) << shown;
    EXPECT_NE(shown.find("Write  src/\\u001b[2Jinnocent.txt"), std::string::npos) << shown;
  }
  std::map<std::string, std::string> environment = env();
  environment["COLUMNS"] = "72";
  RunResult piped = runBinary(TOOLGUARD_BINARY, {"demo"}, "", environment, dir.path().string());
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_LE(widest(piped.out), 72u) << piped.out;
  EXPECT_NE(piped.out.find("deny   edit /etc/passwd through ../.."), std::string::npos)
      << piped.out;
}

}  // namespace tooling_test
}  // namespace toolguard::testing
