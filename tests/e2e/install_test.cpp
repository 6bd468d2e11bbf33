// `toolguard install|uninstall claude|gemini`: the hook entry written into the
// agents' settings files (docs/agent-install.md), and the installed command
// run exactly as the agent would run it.
#include <sys/stat.h>

#include <filesystem>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace install_test {

using nlohmann::json;
using nlohmann::ordered_json;
namespace fs = std::filesystem;

class Install : public Cli {
 protected:
  fs::path home() const { return dir.path() / "home"; }
  fs::path project() const { return dir.path() / "proj"; }
  fs::path claudeUser() const { return home() / ".claude" / "settings.json"; }
  fs::path geminiUser() const { return home() / ".gemini" / "settings.json"; }

  void SetUp() override {
    fs::create_directories(home());
    fs::create_directories(project());
  }

  /// Runs toolguard with the project as the working directory.
  RunResult tg(const std::vector<std::string>& args) const {
    return run(args, "", project().string());
  }

  /// Runs `args` and expects exit 0.
  RunResult ok(const std::vector<std::string>& args) const {
    RunResult r = tg(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return r;
  }

  /// Writes `text` as the file at `path` (creating its directory).
  static void put(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  /// The backups written next to `settings`.
  static std::vector<fs::path> backups(const fs::path& settings) {
    std::vector<fs::path> found;
    if (!fs::exists(settings.parent_path())) return found;
    for (const auto& entry : fs::directory_iterator(settings.parent_path())) {
      if (entry.path().filename().string().starts_with(settings.filename().string() +
                                                       ".toolguard-backup-")) {
        found.push_back(entry.path());
      }
    }
    return found;
  }

  /// The hook command install writes for `format`.
  static std::string expectedCommand(const std::string& format) {
    return fs::canonical(TOOLGUARD_BINARY).string() + " check --format " + format + " || exit 2";
  }

  /// Runs a hook command the way the agents do (`sh -c`), `payload` on stdin.
  RunResult runHook(const std::string& command, const json& payload) const {
    return runBinary("/bin/sh", {"-c", command}, payload.dump(), env(), project().string());
  }
};

const char* kClaudeSettings = R"json({
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/lint-bash.sh", "timeout": 5}]}
    ],
    "PostToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}
    ]
  },
  "env": {"FOO": "1"}
}
)json";

const char* kGeminiSettings = R"json({
  "general": {"vimMode": true},
  "hooksConfig": {"notifications": true},
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"name": "fmt", "type": "command", "command": "fmt.sh", "timeout": 5000}]}
    ],
    "SessionStart": [{"hooks": [{"type": "command", "command": "hello.sh"}]}]
  },
  "mcpServers": {}
}
)json";

TEST_F(Install, ClaudeUserIsTheDefaultAndCreatesTheFile) {
  RunResult r = ok({"install", "claude"});
  ASSERT_TRUE(fs::exists(claudeUser()));
  json expected = json::parse(R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
      {"type":"command","command":""}]}]}})");
  expected["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = expectedCommand("claude");
  EXPECT_EQ(json::parse(slurp(claudeUser().string())), expected);
  EXPECT_NE(r.out.find(claudeUser().string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("added hooks.PreToolUse[0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(expectedCommand("claude")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("created the file"), std::string::npos) << r.out;
  EXPECT_TRUE(backups(claudeUser()).empty());  // nothing to back up
  ok({"install", "claude", "--user"});         // same file: already there
  EXPECT_FALSE(fs::exists(project() / ".claude"));
}

TEST_F(Install, ClaudeProjectWritesTheProjectFileOnly) {
  RunResult r = ok({"install", "claude", "--project"});
  fs::path file = project() / ".claude" / "settings.json";
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(json::parse(slurp(file.string()))["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            expectedCommand("claude"));
  EXPECT_FALSE(fs::exists(claudeUser()));
  EXPECT_NE(r.out.find("project settings"), std::string::npos) << r.out;
}

TEST_F(Install, GeminiUserAndProjectGetABeforeToolEntry) {
  ok({"install", "gemini"});
  json expected = json::parse(R"({"hooks":{"BeforeTool":[{"matcher":".*","hooks":[
      {"name":"toolguard","type":"command","command":"",
       "description":"toolguard: allow, deny or abort each tool call"}]}]}})");
  expected["hooks"]["BeforeTool"][0]["hooks"][0]["command"] = expectedCommand("gemini-hook");
  EXPECT_EQ(json::parse(slurp(geminiUser().string())), expected);
  RunResult r = ok({"install", "gemini", "--project"});
  EXPECT_EQ(json::parse(slurp((project() / ".gemini" / "settings.json").string())), expected);
  EXPECT_NE(r.out.find("trusted"), std::string::npos) << r.out;
}

TEST_F(Install, ExistingSettingsAreKeptInOrderAndBackedUp) {
  put(claudeUser(), kClaudeSettings);
  RunResult r = ok({"install", "claude"});
  ordered_json before = ordered_json::parse(kClaudeSettings);
  ordered_json after = ordered_json::parse(slurp(claudeUser().string()));
  std::vector<std::string> keys_before, keys_after;
  for (const auto& [k, v] : before.items()) keys_before.push_back(k);
  for (const auto& [k, v] : after.items()) keys_after.push_back(k);
  EXPECT_EQ(keys_after, keys_before);
  for (const char* key : {"model", "permissions", "env"}) EXPECT_EQ(after[key], before[key]);
  EXPECT_EQ(after["hooks"]["PostToolUse"], before["hooks"]["PostToolUse"]);
  ASSERT_EQ(after["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_EQ(after["hooks"]["PreToolUse"][0], before["hooks"]["PreToolUse"][0]);
  EXPECT_EQ(after["hooks"]["PreToolUse"][1]["hooks"][0]["command"], expectedCommand("claude"));

  std::vector<fs::path> saved = backups(claudeUser());
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(slurp(saved[0].string()), kClaudeSettings);  // byte for byte
  EXPECT_NE(r.out.find("backup: " + saved[0].string()), std::string::npos) << r.out;
}

TEST_F(Install, InstallingTwiceChangesNothingTheSecondTime) {
  for (const std::string agent : {"claude", "gemini"}) {
    fs::path file = agent == "claude" ? claudeUser() : geminiUser();
    put(file, agent == "claude" ? kClaudeSettings : kGeminiSettings);
    ok({"install", agent});
    const std::string once = slurp(file.string());
    RunResult r = ok({"install", agent});
    EXPECT_NE(r.out.find("already installed"), std::string::npos) << r.out;
    EXPECT_EQ(slurp(file.string()), once);
    EXPECT_EQ(backups(file).size(), 1u) << agent;  // no backup for a no-op
  }
}

TEST_F(Install, UninstallRestoresThePreviousSettings) {
  for (const std::string agent : {"claude", "gemini"}) {
    fs::path file = agent == "claude" ? claudeUser() : geminiUser();
    const std::string original = agent == "claude" ? kClaudeSettings : kGeminiSettings;
    put(file, original);
    ok({"install", agent});
    RunResult r = ok({"uninstall", agent});
    EXPECT_NE(r.out.find(agent == "claude" ? "removed hooks.PreToolUse[1]: {\"matcher\":\"*\""
                                           : "removed hooks.BeforeTool[1]: {\"matcher\":\".*\""),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(expectedCommand(agent == "claude" ? "claude" : "gemini-hook")),
              std::string::npos)
        << r.out;
    EXPECT_EQ(ordered_json::parse(slurp(file.string())), ordered_json::parse(original)) << agent;
    EXPECT_EQ(backups(file).size(), 2u);  // one before install, one before uninstall
    r = ok({"uninstall", agent});
    EXPECT_NE(r.out.find("nothing changed"), std::string::npos) << r.out;
    EXPECT_EQ(backups(file).size(), 2u);
  }
}

TEST_F(Install, UninstallRemovesAFileThatInstallCreated) {
  for (const std::string agent : {"claude", "gemini"}) {
    fs::path file = agent == "claude" ? project() / ".claude" / "settings.json"
                                      : project() / ".gemini" / "settings.json";
    ok({"install", agent, "--project"});
    ASSERT_TRUE(fs::exists(file));
    RunResult r = ok({"uninstall", agent, "--project"});
    EXPECT_FALSE(fs::exists(file)) << agent;
    EXPECT_NE(r.out.find("removed the file"), std::string::npos) << r.out;
    std::vector<fs::path> saved = backups(file);
    ASSERT_EQ(saved.size(), 1u);  // what was removed is kept
    EXPECT_EQ(json::parse(slurp(saved[0].string()))["hooks"].size(), 1u);
  }
}

TEST_F(Install, UninstallKeepsOtherHandlersOfTheSameGroup) {
  put(claudeUser(), R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
      {"type":"command","command":"audit.sh"},
      {"type":"command","command":"/usr/local/bin/toolguard check --format claude"}]}]}})");
  RunResult r = ok({"uninstall", "claude"});
  EXPECT_NE(r.out.find("removed hooks.PreToolUse[0].hooks[1]"), std::string::npos) << r.out;
  EXPECT_EQ(json::parse(slurp(claudeUser().string())),
            json::parse(R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
                {"type":"command","command":"audit.sh"}]}]}})"));
}

TEST_F(Install, AHookOfAnotherToolguardPathIsUpdatedInPlace) {
  put(claudeUser(), R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
      {"type":"command","command":"/old/bin/toolguard check --format claude","timeout":30}]}]}})");
  RunResult r = ok({"install", "claude"});
  EXPECT_NE(r.out.find("updated hooks.PreToolUse[0].hooks[0]"), std::string::npos) << r.out;
  json after = json::parse(slurp(claudeUser().string()));
  ASSERT_EQ(after["hooks"]["PreToolUse"].size(), 1u);
  EXPECT_EQ(after["hooks"]["PreToolUse"][0]["hooks"][0]["command"], expectedCommand("claude"));
  EXPECT_EQ(after["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 30);
}

TEST_F(Install, MalformedSettingsFailClosedAndChangeNothing) {
  const std::string broken = "{\n  \"model\": \"opus\",\n  \"hooks\": {,}\n}\n";
  for (const std::string& command : {std::string("install"), std::string("uninstall")}) {
    put(claudeUser(), broken);
    RunResult r = tg({command, "claude"});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find(claudeUser().string() + ":3:13: invalid JSON"), std::string::npos)
        << r.err;
    EXPECT_EQ(slurp(claudeUser().string()), broken);
    EXPECT_TRUE(backups(claudeUser()).empty());
  }
}

TEST_F(Install, CommentsAndUnexpectedShapesAreRefused) {
  const std::string commented = "{\n  // my model\n  \"model\": \"pro\"\n}\n";
  put(geminiUser(), commented);
  RunResult r = tg({"install", "gemini"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("comments"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(geminiUser().string()), commented);

  const std::string odd = R"({"hooks": {"PreToolUse": "toolguard"}})";
  put(claudeUser(), odd);
  r = tg({"install", "claude"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("hooks.PreToolUse: expected an array"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(claudeUser().string()), odd);

  put(claudeUser(), "[]");
  r = tg({"install", "claude"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected a JSON object"), std::string::npos) << r.err;
  EXPECT_TRUE(backups(claudeUser()).empty());
}

TEST_F(Install, ASymlinkedSettingsFileIsWrittenThrough) {
  fs::path real = dir.path() / "dotfiles" / "claude-settings.json";
  put(real, kClaudeSettings);
  fs::create_directories(claudeUser().parent_path());
  fs::create_symlink(real, claudeUser());
  ok({"install", "claude"});
  EXPECT_TRUE(fs::is_symlink(claudeUser()));
  EXPECT_EQ(json::parse(slurp(real.string()))["hooks"]["PreToolUse"].size(), 2u);
  ok({"uninstall", "claude"});
  EXPECT_TRUE(fs::is_symlink(claudeUser()));
  EXPECT_EQ(ordered_json::parse(slurp(real.string())), ordered_json::parse(kClaudeSettings));

  fs::remove(real);  // dangling: refused
  RunResult r = tg({"install", "claude"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(real));
}

TEST_F(Install, TheFileKeepsItsMode) {
  put(claudeUser(), kClaudeSettings);
  ASSERT_EQ(::chmod(claudeUser().c_str(), 0600), 0);
  ok({"install", "claude"});
  struct stat st;
  ASSERT_EQ(::stat(claudeUser().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  ASSERT_EQ(::stat(backups(claudeUser()).at(0).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST_F(Install, DryRunWritesNothing) {
  put(claudeUser(), kClaudeSettings);
  RunResult r = ok({"install", "claude", "--dry-run"});
  EXPECT_NE(r.out.find("would add hooks.PreToolUse[1]"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(claudeUser().string()), kClaudeSettings);
  EXPECT_TRUE(backups(claudeUser()).empty());
}

TEST_F(Install, WarnsWhenTheSettingsSwitchHooksOff) {
  put(geminiUser(), R"({"hooksConfig": {"enabled": false}})");
  RunResult r = ok({"install", "gemini"});
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  put(claudeUser(), R"({"disableAllHooks": true})");
  r = ok({"install", "claude"});
  EXPECT_NE(r.err.find("disableAllHooks"), std::string::npos) << r.err;
}

TEST_F(Install, AnExplicitSettingsFile) {
  put(project() / ".claude" / "settings.local.json", kClaudeSettings);
  RunResult r = ok({"install", "claude", "--settings", ".claude/settings.local.json"});
  fs::path file = project() / ".claude" / "settings.local.json";
  EXPECT_NE(r.out.find(file.string()), std::string::npos) << r.out;
  EXPECT_EQ(json::parse(slurp(file.string()))["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_FALSE(fs::exists(project() / ".claude" / "settings.json"));
  EXPECT_FALSE(fs::exists(claudeUser()));
  ok({"uninstall", "claude", "--settings", file.string()});
  EXPECT_EQ(ordered_json::parse(slurp(file.string())), ordered_json::parse(kClaudeSettings));
}

TEST_F(Install, UsageErrors) {
  EXPECT_EQ(tg({"install", "cursor"}).exit_code, 2);
  EXPECT_EQ(tg({"install", "claude", "--user", "--project"}).exit_code, 2);
  EXPECT_EQ(tg({"install"}).exit_code, 2);
}

TEST_F(Install, TheInstalledClaudeCommandDeniesRmRfHome) {
  ok({"install", "claude"});
  std::string command =
      json::parse(slurp(claudeUser().string()))["hooks"]["PreToolUse"][0]["hooks"][0]["command"];
  json payload = {{"session_id", "s"},
                  {"cwd", project().string()},
                  {"hook_event_name", "PreToolUse"},
                  {"tool_name", "Bash"},
                  {"tool_input", {{"command", "rm -rf ~"}}}};
  RunResult r = runHook(command, payload);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["hookSpecificOutput"]["permissionDecision"], "deny") << out;
  EXPECT_FALSE(out["hookSpecificOutput"]["permissionDecisionReason"].get<std::string>().empty());
}

// Issue 26: a hook whose binary is gone must block (exit 2), not exit 127,
// which both agents take as "go ahead".
TEST_F(Install, TheInstalledCommandBlocksWhenToolguardIsGone) {
  const fs::path copy = dir.path() / "bin" / "toolguard";
  fs::create_directories(copy.parent_path());
  fs::copy_file(TOOLGUARD_BINARY, copy);
  fs::permissions(copy, fs::perms::owner_all);
  RunResult installed =
      runBinary(copy.string(), {"install", "claude"}, "", env(), project().string());
  ASSERT_EQ(installed.exit_code, 0) << installed.err;
  EXPECT_EQ(installed.err.find("build tree"), std::string::npos) << installed.err;
  std::string command =
      json::parse(slurp(claudeUser().string()))["hooks"]["PreToolUse"][0]["hooks"][0]["command"];
  json payload = {{"session_id", "s"},
                  {"cwd", project().string()},
                  {"hook_event_name", "PreToolUse"},
                  {"tool_name", "Bash"},
                  {"tool_input", {{"command", "ls"}}}};
  ASSERT_EQ(runHook(command, payload).exit_code, 0);
  fs::remove(copy);
  RunResult gone = runHook(command, payload);
  EXPECT_EQ(gone.exit_code, 2) << gone.out << gone.err;  // Claude Code blocks the call
  // Uninstall still finds the entry it wrote.
  RunResult removed =
      runBinary(TOOLGUARD_BINARY, {"uninstall", "claude"}, "", env(), project().string());
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_NE(removed.out.find("removed"), std::string::npos) << removed.out;
}

TEST_F(Install, WarnsAboutABuildTreeAndSaysWhatToDoNext) {
  RunResult r = ok({"install", "claude"});
  EXPECT_NE(r.err.find("build tree"), std::string::npos) << r.err;  // TOOLGUARD_BINARY is one
  EXPECT_NE(r.out.find("restart Claude Code"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("toolguard policy import --from claude"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("toolguard approvals"), std::string::npos) << r.out;
}

TEST_F(Install, TheInstalledGeminiCommandBlocksAWriteToEtcPasswd) {
  ok({"install", "gemini", "--project"});
  std::string command =
      json::parse(slurp((project() / ".gemini" / "settings.json")
                            .string()))["hooks"]["BeforeTool"][0]["hooks"][0]["command"];
  json payload = {{"session_id", "s"},
                  {"transcript_path", "/tmp/t.json"},
                  {"cwd", project().string()},
                  {"hook_event_name", "BeforeTool"},
                  {"timestamp", "2026-05-01T10:00:00.000Z"},
                  {"tool_name", "write_file"},
                  {"tool_input", {{"file_path", "/etc/passwd"}, {"content", "x"}}}};
  RunResult r = runHook(command, payload);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["decision"], "deny") << out;
  EXPECT_FALSE(out["reason"].get<std::string>().empty());
}

}  // namespace install_test
}  // namespace toolguard::testing
