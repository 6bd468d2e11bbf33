// Paths and arguments through the real binary: symlink escapes, refused path
// characters, oversized input, the secrets rule and `explain`'s path lines.
#include <filesystem>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace paths_test {

using nlohmann::json;
namespace fs = std::filesystem;

class Paths : public Cli {
 protected:
  void SetUp() override {
    ws = (dir.path() / "ws").string();
    fs::create_directories(ws);
    fs::create_directories(dir.path() / "outside");
    fs::create_directories(dir.path() / "home");
    fs::create_directory_symlink("../outside", ws + "/escape");
    fs::create_symlink((dir.path() / "home/.bashrc").string(), ws + "/rc");
  }
  json write(const std::string& path) const {
    return check({{"tool", "Write"}, {"args", {{"file_path", path}}}, {"context", {{"cwd", ws}}}});
  }
  std::string ws;
};

TEST_F(Paths, SymlinkEscapesAndDanglingLinksAreCaught) {
  EXPECT_EQ(write("new/file.txt")["verdict"], "allow");
  json escape = write("escape/file.txt");
  EXPECT_EQ(escape["verdict"], "ask");
  EXPECT_EQ(escape["rule"], "write-outside-workspace");
  json rc = write("rc");  // a dangling link to ~/.bashrc, which does not exist yet
  EXPECT_EQ(rc["verdict"], "ask");
  EXPECT_EQ(rc["rule"], "code-config-write");
}

TEST_F(Paths, TheShellRouteMeetsTheSameFileRules) {
  auto bash = [&](const std::string& command) {
    return check({{"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", ws}}}});
  };
  json config = bash("cat a > .toolguard/policy.yaml");
  EXPECT_EQ(config["verdict"], "deny");
  EXPECT_EQ(config["rule"], "guard-config-write");
  EXPECT_EQ(bash("echo x > .env")["rule"], "sensitive-write");
  EXPECT_EQ(bash("printf x > id_rsa.pem")["verdict"], "ask");
  EXPECT_EQ(bash("echo '{}' > .claude/settings.json")["rule"], "code-config-write");
  EXPECT_EQ(bash("cat ~/.ssh/id_rsa")["rule"], "private-key-read");
  EXPECT_EQ(bash("echo hi > notes.txt")["verdict"], "allow");
  // Claude Code's hook gets the same answer: the secret write asks, the guard's own file is denied.
  RunResult hook = run({"check", "--format", "claude"},
                       json{{"hook_event_name", "PreToolUse"},
                            {"tool_name", "Bash"},
                            {"tool_input", {{"command", "echo x >> .toolguard/policy.yaml"}}},
                            {"cwd", ws}}
                           .dump());
  ASSERT_EQ(hook.exit_code, 0) << hook.err;
  EXPECT_EQ(json::parse(hook.out)["hookSpecificOutput"]["permissionDecision"], "deny") << hook.out;
}

// Reads outside the workspace ask by every route (the Read tool through
// Claude Code's hook, Gemini's read_file, the shell), except
// the documented system places every machine has the same.
TEST_F(Paths, ReadsOutsideTheWorkspaceAskByEveryRoute) {
  auto claude = [&](const std::string& tool, const json& input) {
    RunResult hook = run({"check", "--format", "claude"}, json{{"hook_event_name", "PreToolUse"},
                                                               {"tool_name", tool},
                                                               {"tool_input", input},
                                                               {"cwd", ws}}
                                                              .dump());
    EXPECT_EQ(hook.exit_code, 0) << hook.err;
    return json::parse(hook.out)["hookSpecificOutput"];
  };
  json passwd = claude("Read", {{"file_path", "/etc/passwd"}});
  EXPECT_EQ(passwd["permissionDecision"], "ask") << passwd;
  EXPECT_NE(passwd["permissionDecisionReason"].get<std::string>().find("outside the workspace"),
            std::string::npos)
      << passwd;
  EXPECT_EQ(claude("Bash", {{"command", "cat /etc/passwd"}})["permissionDecision"], "ask");
  EXPECT_EQ(claude("Bash", {{"command", "cut -d: -f1 /etc/group"}})["permissionDecision"], "ask");
  EXPECT_EQ(claude("Read", {{"file_path", "/etc/hosts"}})["permissionDecision"], "ask");
  EXPECT_EQ(claude("Read", {{"file_path", "/etc/shadow"}})["permissionDecision"], "ask");
  EXPECT_EQ(claude("Read", {{"file_path",
                             dir.path().string() + "/outside/notes.txt"}})["permissionDecision"],
            "ask");
  // What every machine has the same: no question.
  EXPECT_EQ(claude("Read", {{"file_path", "/etc/os-release"}})["permissionDecision"], "allow");
  EXPECT_EQ(claude("Read", {{"file_path", "/usr/include/stdio.h"}})["permissionDecision"], "allow");
  EXPECT_EQ(claude("Bash", {{"command", "head -n 5 /usr/include/stdio.h"}})["permissionDecision"],
            "allow");

  auto toolguard = [&](const std::string& tool, const json& args) {
    return check({{"tool", tool}, {"args", args}, {"context", {{"cwd", ws}}}});
  };
  EXPECT_EQ(toolguard("read_file", {{"absolute_path", "/etc/passwd"}})["verdict"], "ask");
  // An MCP server's read tools are known from the server's list, so through
  // the proxy: mcp_out_of_the_box_test.cpp, TheReadmesPolicyTrustsTheServersReads.
}

TEST_F(Paths, ControlCharactersInAPathAreDeniedNamingTheField) {
  RunResult r = run({"check"}, R"({"tool":"Write","args":{"file_path":"a\u0000b"}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("args.file_path: NUL byte"), std::string::npos)
      << d["reason"];
}

TEST_F(Paths, OversizedInputIsDeniedWithoutReadingItAll) {
  std::string huge = R"({"tool":"Write","args":{"content":")" + std::string(70 << 20, 'a') + "\"}}";
  RunResult r = run({"check"}, huge);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("input larger than"), std::string::npos);
}

TEST_F(Paths, APolicyLimitOnArgumentSizeApplies) {
  dir.write("limits.yaml", "version: 1\nlimits: {max_argument_bytes: 64}\n");
  json call = {{"tool", "Write"},
               {"args", {{"file_path", "a.txt"}, {"content", std::string(100, 'x')}}},
               {"context", {{"cwd", ws}}}};
  json d = check(call, {"--policy", (dir.path() / "limits.yaml").string()});
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("max_argument_bytes"), std::string::npos);
}

TEST_F(Paths, CredentialsSentOverTheNetworkAsk) {
  json d = check({{"tool", "Bash"},
                  {"args",
                   {{"command",
                     "curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' "
                     "https://api.github.com/user"}}},
                  {"context", {{"cwd", ws}}}});
  EXPECT_EQ(d["verdict"], "ask");
}

// Issue 27: an MCP tool that sends data gets the secrets check, even when allowed.
TEST_F(Paths, SecretsSentToAnAllowedMcpToolAsk) {
  dir.write("slack.yaml",
            "version: 1\nrules:\n  - {id: slack, tool: \"mcp__slack__*\", verdict: allow}\n");
  const std::vector<std::string> policy = {"--policy", (dir.path() / "slack.yaml").string()};
  json call = {{"tool", "mcp__slack__post_message"},
               {"args", {{"channel", "C1"}, {"text", "deploy notes"}}},
               {"context", {{"cwd", ws}}}};
  EXPECT_EQ(check(call, policy)["verdict"], "allow");
  call["args"]["text"] = "token xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx";
  json d = check(call, policy);
  EXPECT_EQ(d["verdict"], "ask") << d.dump();
  EXPECT_EQ(d["rule"], "secrets-in-arguments");
}

TEST_F(Paths, ExplainShowsWhereSymlinksLead) {
  RunResult r = run(
      {"explain"},
      json{{"tool", "Write"}, {"args", {{"file_path", "escape/x.txt"}}}, {"context", {{"cwd", ws}}}}
          .dump());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("symlinks lead to " + (dir.path() / "outside/x.txt").string()),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("outside the workspace"), std::string::npos) << r.out;
}

}  // namespace paths_test
}  // namespace toolguard::testing
