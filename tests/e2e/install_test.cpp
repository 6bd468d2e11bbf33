// `toolguard install|uninstall claude|gemini`: the hook entry written into the
// agents' settings files (docs/agent-install.md), and the installed command
// run exactly as the agent would run it.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

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

  /// The environment, with PATH holding `bin()` (a fake `gemini` goes
  /// there) and the system's programs, so the machine's own Gemini CLI never
  /// decides what install writes.
  std::map<std::string, std::string> installEnv() const {
    std::map<std::string, std::string> vars = env();
    vars["PATH"] = bin().string() + ":/usr/bin:/bin";
    return vars;
  }
  fs::path bin() const { return dir.path() / "bin"; }

  /// A `gemini` on PATH whose --version prints `version`.
  void fakeGemini(const std::string& version) const {
    fs::create_directories(bin());
    put(bin() / "gemini", "#!/bin/sh\necho " + version + "\n");
    fs::permissions(bin() / "gemini", fs::perms::owner_all);
  }

  /// Runs toolguard with the project as the working directory.
  RunResult tg(const std::vector<std::string>& args) const {
    return runBinary(TOOLGUARD_BINARY, args, "", installEnv(), project().string());
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
                                                       ".toolguard-backup")) {
        found.push_back(entry.path());
      }
    }
    return found;
  }

  /// The hook command install writes for `format` ("claude" in tighten mode
  /// unless `options` says otherwise; "gemini-hook" without an ask).
  static std::string expectedCommand(const std::string& format, std::string options = "") {
    if (options.empty())
      options = format == "claude" ? "--mode tighten --deadline 590" : "--deadline 50";
    return fs::canonical(TOOLGUARD_BINARY).string() + " check --format " + format + " " + options +
           " || exit 2";
  }

  /// The first handler of the hook's event in `file`.
  static json installedHandler(const fs::path& file, const std::string& event) {
    return json::parse(slurp(file.string()))["hooks"][event][0]["hooks"][0];
  }

  void cycleRestoresTheFile(const std::string& agent, const fs::path& file,
                            const std::string& original, const std::vector<std::string>& update,
                            const std::function<void(ordered_json&)>& edit) const;

  /// Runs a hook command the way the agents do (`sh -c`), `payload` on stdin.
  RunResult runHook(const std::string& command, const json& payload,
                    const std::map<std::string, std::string>& extra_env = {}) const {
    std::map<std::string, std::string> environment = env();
    for (const auto& [name, value] : extra_env) environment[name] = value;
    return runBinary("/bin/sh", {"-c", command}, payload.dump(), environment, project().string());
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
      {"type":"command","command":"","timeout":600,"onFailure":"block"}]}]}})");
  expected["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = expectedCommand("claude");
  // The same command sees each result (docs/sessions.md).
  expected["hooks"]["PostToolUse"] = expected["hooks"]["PreToolUse"];
  EXPECT_EQ(json::parse(slurp(claudeUser().string())), expected);
  EXPECT_NE(r.out.find(claudeUser().string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("added hooks.PreToolUse[0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("added hooks.PostToolUse[0]"), std::string::npos) << r.out;
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
      {"name":"toolguard","type":"command","command":"","timeout":60000,
       "description":"toolguard: allow, deny or abort each tool call"}]}]}})");
  expected["hooks"]["BeforeTool"][0]["hooks"][0]["command"] = expectedCommand("gemini-hook");
  expected["hooks"]["AfterTool"] = expected["hooks"]["BeforeTool"];
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
  ASSERT_EQ(after["hooks"]["PostToolUse"].size(), 2u);
  EXPECT_EQ(after["hooks"]["PostToolUse"][0], before["hooks"]["PostToolUse"][0]);
  EXPECT_EQ(after["hooks"]["PostToolUse"][1]["hooks"][0]["command"], expectedCommand("claude"));
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
    EXPECT_EQ(slurp(file.string()), original) << agent;  // byte for byte
    EXPECT_NE(r.out.find("restored the file byte for byte"), std::string::npos) << r.out;
    EXPECT_TRUE(backups(file).empty());  // the backup went back into the file
    r = ok({"uninstall", agent});
    EXPECT_NE(r.out.find("nothing changed"), std::string::npos) << r.out;
    EXPECT_TRUE(backups(file).empty());
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
    EXPECT_TRUE(backups(file).empty());  // it held toolguard's hook and nothing else
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
  // An older hook decided (no --mode): the mode is kept; the timeout rises
  // above the check's deadline and a failure blocks.
  EXPECT_EQ(after["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            expectedCommand("claude", "--mode decide --deadline 590"));
  EXPECT_EQ(after["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 600);
  EXPECT_EQ(after["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"], "block");
  EXPECT_NE(r.out.find("kept from the installed hook"), std::string::npos) << r.out;
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

// A Claude Code hook that times out or fails must not let the call through:
// the handler blocks on failure, and the check answers before the timeout.
TEST_F(Install, TheClaudeHookBlocksOnFailureAndAnswersBeforeItsTimeout) {
  ok({"install", "claude"});
  json handler = installedHandler(claudeUser(), "PreToolUse");
  EXPECT_EQ(handler["onFailure"], "block");
  const int timeout_s = handler["timeout"];
  const std::string command = handler["command"];
  const size_t at = command.find("--deadline ");
  ASSERT_NE(at, std::string::npos) << command;
  const int deadline_s = std::stoi(command.substr(at + 11));
  EXPECT_LT(deadline_s, timeout_s);
  EXPECT_GE(timeout_s - deadline_s, 5);  // room to start the process and answer
}

// A check whose decision waits longer than its deadline (here a decision
// service that never answers) is answered deny by the deadline, exit 2,
// long before the service's own timeout.
TEST_F(Install, ACheckStillWaitingAtItsDeadlineIsBlocked) {
  const fs::path socket_path = dir.path() / "silent.sock";
  int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 8), 0);  // accepts nothing: the request waits
  std::map<std::string, std::string> vars = env();
  vars["TOOLGUARD_TOKEN"] = "t";
  const auto start = std::chrono::steady_clock::now();
  RunResult r = runBinary(TOOLGUARD_BINARY,
                          {"check", "--format", "claude", "--mode", "tighten", "--server",
                           "unix:" + socket_path.string(), "--wait", "900", "--deadline", "2"},
                          data("claude/bash_npm_test.json"), vars, project().string());
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(listener);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;  // Claude Code blocks the call
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("no decision within 2 seconds"), std::string::npos) << r.err;
  EXPECT_LT(seconds, 8.0);  // the service's own timeout (wait + 10 s) never came
}

// Installing says which mode it set; in tighten mode toolguard's allow is no
// opinion (Claude Code's permissions decide), its ask and deny stay.
TEST_F(Install, ClaudeModesSurviveIntoTheHookAndItsAnswers) {
  RunResult r = ok({"install", "claude"});
  EXPECT_NE(r.out.find("mode tighten"), std::string::npos) << r.out;
  std::string command = installedHandler(claudeUser(), "PreToolUse")["command"];
  EXPECT_EQ(command, expectedCommand("claude"));
  auto decisionOf = [&](const std::string& sample) {
    RunResult hook = runHook(command, json::parse(data("claude/" + sample)));
    EXPECT_EQ(hook.exit_code, 0) << hook.err;
    return json::parse(hook.out);
  };
  EXPECT_EQ(decisionOf("bash_npm_test.json"), json::object());  // no opinion
  EXPECT_EQ(decisionOf("read_ssh_key.json")["hookSpecificOutput"]["permissionDecision"], "ask");
  EXPECT_EQ(decisionOf("edit_etc_passwd.json")["hookSpecificOutput"]["permissionDecision"], "deny");

  r = ok({"install", "claude", "--mode", "decide"});
  EXPECT_NE(r.out.find("mode decide"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("updated hooks.PreToolUse[0].hooks[0]"), std::string::npos) << r.out;
  command = installedHandler(claudeUser(), "PreToolUse")["command"].get<std::string>();
  EXPECT_EQ(command, expectedCommand("claude", "--mode decide --deadline 590"));
  EXPECT_EQ(decisionOf("bash_npm_test.json")["hookSpecificOutput"]["permissionDecision"], "allow");
  EXPECT_EQ(decisionOf("read_ssh_key.json")["hookSpecificOutput"]["permissionDecision"], "ask");

  r = ok({"install", "claude"});  // no --mode: the installed one stays
  EXPECT_NE(r.out.find("already installed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mode decide"), std::string::npos) << r.out;
  EXPECT_EQ(tg({"install", "gemini", "--mode", "decide"}).exit_code, 2);
  EXPECT_EQ(tg({"install", "claude", "--mode", "loose"}).exit_code, 2);
}

// Claude Code 2.1.89+ in a non-interactive run (claude -p, the Agent SDKs:
// CLAUDE_CODE_ENTRYPOINT sdk-*) takes defer: the run stops so the program that
// started it can ask its user. Only there: an interactive session (cli, or no
// entrypoint) ignores defer and would let its own permissions decide, so it
// gets ask. A deny stays a deny everywhere; the choice survives a reinstall.
TEST_F(Install, AHeadlessClaudeRunGetsDeferWhenInstalledSo) {
  RunResult r = ok({"install", "claude", "--mode", "decide", "--defer-headless-asks", "yes"});
  EXPECT_NE(r.out.find("as defer"), std::string::npos) << r.out;
  std::string command = installedHandler(claudeUser(), "PreToolUse")["command"];
  EXPECT_EQ(command,
            expectedCommand("claude", "--mode decide --defer-headless-asks --deadline 590"));
  auto answer = [&](const std::string& sample, const char* entrypoint) {
    std::map<std::string, std::string> extra;
    if (entrypoint != nullptr) extra["CLAUDE_CODE_ENTRYPOINT"] = entrypoint;
    RunResult hook = runHook(command, json::parse(data("claude/" + sample)), extra);
    EXPECT_EQ(hook.exit_code, 0) << hook.err;
    return json::parse(hook.out)["hookSpecificOutput"].value("permissionDecision", "");
  };
  for (const char* headless : {"sdk-cli", "sdk-ts", "sdk-py"}) {
    SCOPED_TRACE(headless);
    EXPECT_EQ(answer("read_ssh_key.json", headless), "defer");
    EXPECT_EQ(answer("edit_etc_passwd.json", headless), "deny");
    EXPECT_EQ(answer("bash_npm_test.json", headless), "allow");
  }
  for (const char* interactive : {"cli", "claude-vscode", "", "SDK-CLI"}) {
    SCOPED_TRACE(interactive);
    EXPECT_EQ(answer("read_ssh_key.json", interactive), "ask");
  }
  EXPECT_EQ(answer("read_ssh_key.json", nullptr), "ask");

  r = ok({"install", "claude"});  // kept
  EXPECT_NE(r.out.find("already installed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("as defer"), std::string::npos) << r.out;
  r = ok({"install", "claude", "--defer-headless-asks", "no"});
  command = installedHandler(claudeUser(), "PreToolUse")["command"].get<std::string>();
  EXPECT_EQ(command, expectedCommand("claude", "--mode decide --deadline 590"));
  EXPECT_EQ(answer("read_ssh_key.json", "sdk-cli"), "ask");
  EXPECT_EQ(tg({"install", "gemini", "--defer-headless-asks", "yes"}).exit_code, 2);
  EXPECT_EQ(tg({"check", "--format", "gemini-hook", "--defer-headless-asks"}).exit_code, 2);
}

// Gemini CLI 0.36 and later show their confirmation for a hook's ask: the
// hook sends ask there, and a deny where the Gemini CLI found is older.
TEST_F(Install, GeminiGetsAnAskWhenItsVersionHonoursIt) {
  const json ask_call = {{"session_id", "s"},
                         {"transcript_path", "/tmp/t.json"},
                         {"cwd", project().string()},
                         {"hook_event_name", "BeforeTool"},
                         {"timestamp", "2026-05-01T10:00:00.000Z"},
                         {"tool_name", "run_shell_command"},
                         {"tool_input", {{"command", "rm -rf ../old-build"}}}};
  auto answer = [&] {
    std::string command = installedHandler(geminiUser(), "BeforeTool")["command"];
    RunResult hook = runHook(command, ask_call);
    EXPECT_EQ(hook.exit_code, 0) << hook.err;
    return json::parse(hook.out);
  };
  fakeGemini("0.36.0");
  RunResult r = ok({"install", "gemini"});
  EXPECT_NE(r.out.find("Gemini CLI 0.36.0"), std::string::npos) << r.out;
  EXPECT_EQ(installedHandler(geminiUser(), "BeforeTool")["command"],
            expectedCommand("gemini-hook", "--agent-asks --deadline 50"));
  json out = answer();
  EXPECT_EQ(out["decision"], "ask") << out;
  EXPECT_FALSE(out["systemMessage"].get<std::string>().empty()) << out;

  fakeGemini("0.35.3");
  r = ok({"install", "gemini"});
  EXPECT_NE(r.out.find("older than 0.36"), std::string::npos) << r.out;
  EXPECT_EQ(installedHandler(geminiUser(), "BeforeTool")["command"],
            expectedCommand("gemini-hook"));
  out = answer();
  EXPECT_EQ(out["decision"], "deny") << out;
  EXPECT_NE(out["reason"].get<std::string>().find("approval"), std::string::npos) << out;

  fs::remove(bin() / "gemini");  // none found: deny unless told
  r = ok({"install", "gemini", "--agent-asks", "yes"});
  EXPECT_EQ(answer()["decision"], "ask");
}

// Repeated install/uninstall cycles: the file comes back byte for byte and
// at most one backup exists at any time (none after uninstall). `update` is
// an install that changes the installed entry; `edit` a change someone else
// makes to the file while toolguard is installed.
void Install::cycleRestoresTheFile(const std::string& agent, const fs::path& file,
                                   const std::string& original,
                                   const std::vector<std::string>& update,
                                   const std::function<void(ordered_json&)>& edit) const {
  put(file, original);
  for (int cycle = 0; cycle < 3; ++cycle) {
    const std::string before_install = slurp(file.string());
    ok({"install", agent});
    EXPECT_NE(slurp(file.string()), before_install) << agent << " " << cycle;
    ASSERT_EQ(backups(file).size(), 1u) << agent;
    EXPECT_EQ(slurp(backups(file)[0].string()), original) << agent;
    const std::string installed = slurp(file.string());
    ok(update);  // an update keeps the first backup
    EXPECT_NE(slurp(file.string()), installed) << agent << ": the update changed nothing";
    ASSERT_EQ(backups(file).size(), 1u) << agent;
    EXPECT_EQ(slurp(backups(file)[0].string()), original) << agent;
    ok({"uninstall", agent});
    EXPECT_EQ(slurp(file.string()), original) << agent << " " << cycle;
    EXPECT_TRUE(backups(file).empty()) << agent << " " << cycle;
  }
  // Changed by someone else while installed: the change stays, the file is
  // written anew, and the file before uninstall is the one backup.
  ok({"install", agent});
  ordered_json edited = ordered_json::parse(slurp(file.string()));
  edit(edited);
  const std::string edited_text = edited.dump(2) + "\n";
  put(file, edited_text);
  RunResult r = ok({"uninstall", agent});
  ordered_json after = ordered_json::parse(slurp(file.string()));
  ordered_json expected = ordered_json::parse(original);
  edit(expected);
  EXPECT_EQ(after, expected) << agent;  // the edit kept, toolguard's entry gone
  ASSERT_EQ(backups(file).size(), 1u) << agent;
  EXPECT_EQ(slurp(backups(file)[0].string()), edited_text) << agent;
  EXPECT_NE(r.out.find("backup: "), std::string::npos) << r.out;
}

TEST_F(Install, CyclesRestoreTheFileByteForByteAndKeepAtMostOneBackup) {
  cycleRestoresTheFile("claude", claudeUser(),
                       std::string(kClaudeSettings) + "\n\n",  // odd spacing kept
                       {"install", "claude", "--mode", "decide"},
                       [](ordered_json& j) { j["model"] = "sonnet"; });
}

TEST_F(Install, GeminiCyclesRestoreTheFileByteForByteAndKeepAtMostOneBackup) {
  cycleRestoresTheFile("gemini", geminiUser(),
                       std::string(kGeminiSettings) + "\n\n",  // odd spacing kept
                       {"install", "gemini", "--agent-asks", "yes"},
                       [](ordered_json& j) { j["general"]["vimMode"] = false; });
}

// On a terminal, install asks which mode (script(1) gives it one).
TEST_F(Install, OnATerminalInstallAsksForTheClaudeMode) {
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "no script(1) to give install a terminal";
  const std::string command = fs::canonical(TOOLGUARD_BINARY).string() + " install claude";
  RunResult r = runBinary("/usr/bin/script", {"-qec", command, "/dev/null"}, "2\n", installEnv(),
                          project().string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Choose 1 or 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(chosen at the prompt)"), std::string::npos) << r.out;
  EXPECT_EQ(installedHandler(claudeUser(), "PreToolUse")["command"],
            expectedCommand("claude", "--mode decide --deadline 590"));
}

}  // namespace install_test
}  // namespace toolguard::testing
