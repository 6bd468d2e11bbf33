// Every route to a path meets the same path rules (issue 24): each protected
// path is written (and read) through a file tool, an MCP tool and every shell
// route, under the built-in default policy, and each route must get the
// verdict the file tool gets, from the same rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace path_routes_test {

namespace fs = std::filesystem;

// The default policy's rules about paths.
const std::set<std::string> kPathRules = {
    "guard-config-write", "guard-config-locations", "system-write",
    "sensitive-write",    "code-config-write",      "write-outside-workspace",
    "private-key-read",   "env-file-read",          "read-outside-workspace"};

struct Route {
  std::string name;
  std::string tool;
  // Builds the arguments for path P (absolute or relative to the workspace).
  std::function<nlohmann::json(const std::string&)> args;
  bool same_rule = true;  // false: the route reaches the path through a tree or a glob
};

struct Protected {
  std::string path;
  Verdict verdict;
  std::string rule;
};

std::string quoted(const std::string& path) {
  return "'" + path + "'";
}

nlohmann::json shell(const std::string& command) {
  return {{"command", command}};
}

class PathRoutes : public ::testing::Test {
 protected:
  void SetUp() override {
    workspace_ = fs::path(dir_.path()) / "project";
    fs::create_directories(workspace_ / "src");
    std::ofstream(workspace_ / "src.txt") << "x\n";
    std::ofstream(workspace_ / "other.txt") << "y\n";
    Policy policy = loadPolicy(PolicySources{});
    // An MCP server's write tool, as the proxy maps it: a file-write tool
    // whose `path` argument holds a path.
    ToolInfo mcp_write;
    mcp_write.name = "mcp__fs__write_file";
    mcp_write.kind = ToolKind::FileWrite;
    mcp_write.metadata.category = "mcp";
    mcp_write.policy = ToolPolicy::Allow;
    mcp_write.path_args = {"path"};
    policy.tools.add(mcp_write);
    ToolInfo mcp_read = mcp_write;
    mcp_read.name = "mcp__fs__read_text_file";
    mcp_read.kind = ToolKind::FileRead;
    mcp_read.metadata.read_only = true;
    policy.tools.add(mcp_read);
    engine_ = std::make_unique<Engine>(std::move(policy));
  }

  Decision decide(const std::string& tool, const nlohmann::json& args) const {
    ToolCall call;
    call.tool = tool;
    call.args = args;
    call.context.cwd = workspace_.string();
    return engine_->decide(call);
  }

  // Runs every protected path through every route; each must match the first route.
  void expectSameEverywhere(const std::vector<Protected>& paths, const std::vector<Route>& routes) {
    for (const Protected& p : paths) {
      for (const Route& route : routes) {
        SCOPED_TRACE(route.name + " of " + p.path);
        const Decision d = decide(route.tool, route.args(p.path));
        if (p.verdict == Verdict::Allow) {
          // An ordinary path meets no path rule on any route (the command
          // itself may still be asked about).
          EXPECT_EQ(kPathRules.count(d.rule_id), 0u) << d.reason;
          continue;
        }
        EXPECT_EQ(d.verdict, p.verdict) << d.reason << " (rule " << d.rule_id << ")";
        if (route.same_rule) {
          EXPECT_EQ(d.rule_id, p.rule) << d.reason;
        }
      }
    }
  }

  testing::TempDir dir_;
  fs::path workspace_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(PathRoutes, EveryWayOfWritingAProtectedFileGetsTheFileToolsVerdict) {
  const std::vector<Protected> paths = {
      {".toolguard/policy.yaml", Verdict::Deny, "guard-config-write"},
      {"~/.toolguard/approvals.json", Verdict::Deny, "guard-config-write"},
      {".claude/guards/allow.yaml", Verdict::Deny, "guard-config-write"},
      {"/etc/passwd", Verdict::Deny, "system-write"},
      {".env", Verdict::Ask, "sensitive-write"},
      {"id_rsa.pem", Verdict::Ask, "sensitive-write"},
      {"config/.env.production", Verdict::Ask, "sensitive-write"},
      {".claude/settings.json", Verdict::Ask, "code-config-write"},
      {".claude/settings.local.json", Verdict::Ask, "code-config-write"},
      {".gemini/settings.json", Verdict::Ask, "code-config-write"},
      {".codex/config.toml", Verdict::Ask, "code-config-write"},
      {".mcp.json", Verdict::Ask, "code-config-write"},
      {".vscode/tasks.json", Verdict::Ask, "code-config-write"},
      {".vscode/launch.json", Verdict::Ask, "code-config-write"},
      {".git/hooks/pre-commit", Verdict::Ask, "code-config-write"},
      {".git/config", Verdict::Ask, "code-config-write"},
      {"~/.bashrc", Verdict::Ask, "code-config-write"},
      {"../elsewhere/notes.txt", Verdict::Ask, "write-outside-workspace"},
      {"src/ordinary.c", Verdict::Allow, ""},
  };
  // A path as the shell sees it: ~ stays unquoted so that bash expands it.
  auto word = [](const std::string& p) {
    return p.starts_with("~/") ? "~/" + quoted(p.substr(2)) : quoted(p);
  };
  const std::vector<Route> routes = {
      {"Write", "Write",
       [](auto& p) {
         return nlohmann::json{{"file_path", p}};
       }},
      {"Edit", "Edit",
       [](auto& p) {
         return nlohmann::json{{"file_path", p}};
       }},
      {"Gemini write_file", "write_file",
       [](auto& p) {
         return nlohmann::json{{"file_path", p}};
       }},
      {"MCP write", "mcp__fs__write_file",
       [](auto& p) {
         return nlohmann::json{{"path", p}};
       }},
      {"> redirection", "Bash", [&](auto& p) { return shell("echo x > " + word(p)); }},
      {">> redirection", "Bash", [&](auto& p) { return shell("echo x >> " + word(p)); }},
      {">| redirection", "Bash", [&](auto& p) { return shell("echo x >| " + word(p)); }},
      {"&> redirection", "Bash", [&](auto& p) { return shell("make &> " + word(p)); }},
      {"here-doc target", "Bash",
       [&](auto& p) { return shell("cat <<EOF > " + word(p) + "\nx\nEOF"); }},
      {"tee", "Bash", [&](auto& p) { return shell("echo x | tee -a " + word(p)); }},
      {"cp", "Bash", [&](auto& p) { return shell("cp src.txt " + word(p)); }},
      {"mv", "Bash", [&](auto& p) { return shell("mv src.txt " + word(p)); }},
      {"install", "Bash", [&](auto& p) { return shell("install -m 644 src.txt " + word(p)); }},
      {"ln", "Bash", [&](auto& p) { return shell("ln -sf src.txt " + word(p)); }},
      {"sed -i", "Bash", [&](auto& p) { return shell("sed -i s/a/b/ " + word(p)); }},
      {"dd of=", "Bash", [&](auto& p) { return shell("dd if=src.txt of=" + word(p)); }},
      {"truncate", "Bash", [&](auto& p) { return shell("truncate -s 0 " + word(p)); }},
      {"touch", "Bash", [&](auto& p) { return shell("touch " + word(p)); }},
      {"rm", "Bash", [&](auto& p) { return shell("rm -f " + word(p)); }},
      {"printf into", "Bash", [&](auto& p) { return shell("printf x > " + word(p)); }},
      {"after cd", "Bash",
       [&](auto& p) {
         const bool relative = !p.starts_with('/') && !p.starts_with('~');
         return shell("cd src && echo x > " + std::string(relative ? "../" : "") + word(p));
       }},
      {"bash -c", "Bash", [&](auto& p) { return shell("bash -c \"echo x > " + word(p) + "\""); }},
      {"Codex argv", "shell",
       [&](auto& p) {
         return nlohmann::json{{"command", {"bash", "-lc", "echo x > " + word(p)}}};
       }},
  };
  expectSameEverywhere(paths, routes);
}

TEST_F(PathRoutes, EveryWayOfReadingASecretGetsTheFileToolsVerdict) {
  const std::vector<Protected> paths = {
      {"~/.ssh/id_rsa", Verdict::Ask, "private-key-read"},
      {"~/.aws/credentials", Verdict::Ask, "private-key-read"},
      {".netrc", Verdict::Ask, "private-key-read"},
      {".env", Verdict::Ask, "env-file-read"},
      {"config/.env.local", Verdict::Ask, "env-file-read"},
      {"/proc/self/environ", Verdict::Ask, "private-key-read"},
      {"src/main.c", Verdict::Allow, ""},
  };
  auto word = [](const std::string& p) {
    return p.starts_with("~/") ? "~/" + quoted(p.substr(2)) : quoted(p);
  };
  auto dir = [](const std::string& p) {
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
  };
  auto base = [](const std::string& p) { return p.substr(p.rfind('/') + 1); };
  const std::vector<Route> routes = {
      {"Read", "Read",
       [](auto& p) {
         return nlohmann::json{{"file_path", p}};
       }},
      {"Gemini read_file", "read_file",
       [](auto& p) {
         return nlohmann::json{{"absolute_path", p}};
       }},
      {"MCP read", "mcp__fs__read_text_file",
       [](auto& p) {
         return nlohmann::json{{"path", p}};
       }},
      {"cat", "Bash", [&](auto& p) { return shell("cat " + word(p)); }},
      {"head", "Bash", [&](auto& p) { return shell("head -n 5 " + word(p)); }},
      {"tail", "Bash", [&](auto& p) { return shell("tail -f " + word(p)); }},
      {"xxd", "Bash", [&](auto& p) { return shell("xxd " + word(p)); }},
      {"base64", "Bash", [&](auto& p) { return shell("base64 -w0 " + word(p)); }},
      {"diff", "Bash", [&](auto& p) { return shell("diff other.txt " + word(p)); }},
      {"grep", "Bash", [&](auto& p) { return shell("grep -n KEY " + word(p)); }},
      {"awk", "Bash", [&](auto& p) { return shell("awk '{print $1}' " + word(p)); }},
      {"< redirection", "Bash", [&](auto& p) { return shell("wc -l < " + word(p)); }},
      {"$(<file)", "Bash", [&](auto& p) { return shell("echo \"$(<" + word(p) + ")\""); }},
      {"cp source", "Bash", [&](auto& p) { return shell("cp " + word(p) + " src/copy.txt"); }},
      {"git diff --no-index", "Bash",
       [&](auto& p) { return shell("git diff --no-index other.txt " + word(p)); }},
      {"xargs cat", "Bash", [&](auto& p) { return shell("echo " + word(p) + " | xargs cat"); }},
      {"xargs -I", "Bash", [&](auto& p) { return shell("xargs -I{} cat {} <<< " + word(p)); }},
      {"find -exec cat", "Bash",
       [&](auto& p) {
         return shell("find " + word(dir(p)) + " -name " + quoted(base(p)) + " -exec cat {} \\;");
       },
       false},
      {"glob", "Bash",
       [&](auto& p) { return shell("cat " + word(dir(p)) + "/" + base(p).substr(0, 3) + "*"); },
       false},
  };
  expectSameEverywhere(paths, routes);
}

TEST_F(PathRoutes, SearchToolsAimedAtSecretsAsk) {
  for (const char* glob : {".env*", "*.pem", "**/.env", ".env.{local,production}", "id_rsa*"}) {
    SCOPED_TRACE(glob);
    EXPECT_EQ(decide("Grep", {{"pattern", "KEY"}, {"glob", glob}}).verdict, Verdict::Ask);
    EXPECT_EQ(decide("search_file_content", {{"pattern", "KEY"}, {"include", glob}}).verdict,
              Verdict::Ask);
    EXPECT_EQ(decide("Bash", shell(std::string("rg KEY -g '") + glob + "'")).verdict, Verdict::Ask);
    EXPECT_EQ(decide("Bash", shell(std::string("grep -r KEY --include='") + glob + "' .")).verdict,
              Verdict::Ask);
  }
  // Ordinary searches stay allowed: a glob that takes ordinary names is not aimed at secrets.
  for (const char* glob : {"*.ts", "*", "**/*", "src/**/*.c", "*.{c,h}"}) {
    SCOPED_TRACE(glob);
    EXPECT_EQ(decide("Grep", {{"pattern", "TODO"}, {"glob", glob}}).verdict, Verdict::Allow);
    EXPECT_EQ(decide("Bash", shell(std::string("rg TODO -g '") + glob + "'")).verdict,
              Verdict::Allow);
  }
  EXPECT_EQ(decide("Bash", shell("grep -r TODO src")).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Grep", {{"pattern", "TODO"}, {"path", "src"}}).verdict, Verdict::Allow);
}

TEST_F(PathRoutes, RecursiveReadsAndDeletesMeetTheRulesOfWhatTheyReach) {
  // A recursive read of a directory of keys reads the keys.
  EXPECT_EQ(decide("Bash", shell("grep -r BEGIN ~/.ssh")).rule_id, "private-key-read");
  EXPECT_EQ(decide("Grep", {{"pattern", "BEGIN"}, {"path", "~/.ssh"}}).rule_id, "private-key-read");
  // A recursive delete of a directory that holds toolguard's configuration deletes it.
  fs::create_directories(workspace_ / ".toolguard");
  EXPECT_EQ(decide("Bash", shell("rm -rf .")).verdict, Verdict::Deny);
  EXPECT_EQ(decide("Bash", shell("rm -rf .")).rule_id, "guard-config-write");
  EXPECT_NE(decide("Bash", shell("rm -rf src")).rule_id, "guard-config-write");
  // Deleting by a glob aimed at keys.
  EXPECT_EQ(decide("Bash", shell("find . -name '*.pem' -delete")).verdict, Verdict::Ask);
  EXPECT_EQ(decide("Bash", shell("rm -f *.pem")).verdict, Verdict::Ask);
}

// A recursive read prints what it finds at any depth: a named secret deep
// in the tree is read, and a tree too large to look through may hold one.
TEST_F(PathRoutes, RecursiveReadsReachSecretsAtAnyDepth) {
  const std::vector<std::string> readers = {"grep -rn TODO .", "grep -r TODO backend",
                                            "rg --hidden TODO .", "find . -print0 | xargs -0 cat"};
  for (const std::string& command : readers) {
    EXPECT_EQ(decide("Bash", shell(command)).verdict, Verdict::Allow) << command;
  }
  fs::create_directories(workspace_ / "backend/config/deep");
  std::ofstream(workspace_ / "backend/config/deep/.env") << "API_TOKEN=x\n";
  for (const std::string& command : readers) {
    const Decision d = decide("Bash", shell(command));
    EXPECT_EQ(d.verdict, Verdict::Ask) << command;
    EXPECT_EQ(d.rule_id, "env-file-read") << command << ": " << d.reason;
  }
  // Outside the tree read, it is not reached.
  EXPECT_EQ(decide("Bash", shell("grep -rn TODO src")).verdict, Verdict::Allow);
  // Names the rules give by a glob (`id_rsa*`, `*.key`) are met at any depth
  // too; rg and ag, which skip hidden files, meet the visible ones.
  fs::remove_all(workspace_ / "backend");
  EXPECT_EQ(decide("Bash", shell("rg TODO .")).verdict, Verdict::Allow);
  fs::create_directories(workspace_ / "src/auth");
  std::ofstream(workspace_ / "src/auth/credentials.py") << "x\n";
  EXPECT_EQ(decide("Bash", shell("rg TODO .")).verdict, Verdict::Allow);
  fs::create_directories(workspace_ / "deploy/certs");
  std::ofstream(workspace_ / "deploy/certs/tls.key") << "k\n";
  for (const char* command : {"rg BEGIN .", "ag BEGIN .", "grep -rn BEGIN deploy"}) {
    const Decision d = decide("Bash", shell(command));
    EXPECT_EQ(d.rule_id, "private-key-read") << command << ": " << d.reason;
  }
  fs::remove_all(workspace_ / "deploy");
  // A tree larger than is read before deciding asks: a secret may be below.
  fs::remove_all(workspace_ / "backend");
  fs::create_directories(workspace_ / "big");
  for (int i = 0; i < 10001; ++i) std::ofstream(workspace_ / "big" / std::to_string(i));
  EXPECT_EQ(decide("Bash", shell("grep -rn TODO big")).verdict, Verdict::Ask);
  EXPECT_EQ(decide("Bash", shell("grep -rn TODO src")).verdict, Verdict::Allow);
}

// Names handed at run time to a program that opens them follow links: a
// committed link to a key is read where it leads.
TEST_F(PathRoutes, RunTimeNamesFollowLinks) {
  const std::vector<std::string> openers = {"find src -exec cat {} +",
                                            "find src -print0 | xargs -0 cat",
                                            "git ls-files -z | xargs -0 cat --"};
  for (const std::string& command : openers) {
    EXPECT_EQ(decide("Bash", shell(command)).verdict, Verdict::Allow) << command;
  }
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  fs::create_symlink(fs::path(home) / ".ssh/id_rsa", workspace_ / "src/k");
  for (const std::string& command : openers) {
    const Decision d = decide("Bash", shell(command));
    EXPECT_EQ(d.rule_id, "private-key-read") << command << ": " << d.reason;
  }
  // grep -r does not follow links it meets; grep -R, rg -L, ag -f, ack
  // --follow and diff -r do.
  EXPECT_EQ(decide("Bash", shell("grep -rn TODO src")).verdict, Verdict::Allow);
  for (const char* command :
       {"grep -R KEY src", "grep --dereference-recursive KEY src", "rg -L KEY src",
        "rg --follow KEY src", "ag -f KEY src", "ack --follow KEY src", "diff -r src other"}) {
    EXPECT_EQ(decide("Bash", shell(command)).rule_id, "private-key-read") << command;
  }
}

// Globs as bash expands them: a wildcard above the last part reaches any
// depth (`cat */*` reads `deploy/a/b/id_rsa`), past the number of names
// read here a glob asks, and rg's other ways to hidden files count.
TEST_F(PathRoutes, GlobsAndSearchesReachWhatTheyFind) {
  fs::create_directories(workspace_ / "deploy/a/b");
  std::ofstream(workspace_ / "deploy/a/b/id_rsa") << "k\n";
  for (const char* command : {"cat */*", "cat ./*/*", "tail -n +1 */*", "cat deploy/*/*/*"}) {
    EXPECT_EQ(decide("Bash", shell(command)).verdict, Verdict::Ask) << command;
  }
  EXPECT_EQ(decide("Bash", shell("cat src/*")).verdict, Verdict::Allow);
  EXPECT_NE(decide("Bash", shell("shopt -s dotglob; cat *")).verdict, Verdict::Allow);
  fs::remove_all(workspace_ / "deploy");
  fs::create_directories(workspace_ / "many");
  for (int i = 0; i < 1030; ++i) std::ofstream(workspace_ / "many" / ("f" + std::to_string(i)));
  EXPECT_EQ(decide("Bash", shell("cat many/*")).verdict, Verdict::Ask);
  fs::remove_all(workspace_ / "many");
  fs::create_directories(workspace_ / "sub");
  std::ofstream(workspace_ / "sub/.env") << "A=1\n";
  EXPECT_EQ(decide("Bash", shell("rg SECRET")).verdict, Verdict::Allow);
  for (const char* command :
       {"rg -u -u SECRET", "rg -g '*' SECRET", "rg --iglob '.ENV' SECRET", "rg -uu SECRET"}) {
    EXPECT_EQ(decide("Bash", shell(command)).rule_id, "env-file-read") << command;
  }
}

TEST_F(PathRoutes, GlobsAreExpandedAsBashWould) {
  std::ofstream(workspace_ / ".env") << "KEY=1\n";
  // `.e*` does not look like a secret's name, but bash expands it to .env.
  EXPECT_EQ(decide("Bash", shell("cat .e*")).rule_id, "env-file-read");
  EXPECT_EQ(decide("Bash", shell("cat .[e]nv")).rule_id, "env-file-read");
  EXPECT_EQ(decide("Bash", shell("cat {.e,x}nv")).rule_id, "env-file-read");
  // A glob across many directories is judged as a glob, never by walking the
  // file system (which a hostile command could make endless).
  EXPECT_EQ(decide("Bash", shell("cat /*/*/*/*/*/*/*/*/*/*")).verdict, Verdict::Ask);
  EXPECT_EQ(decide("Bash", shell("cat ~/.ss?/id_*")).rule_id, "private-key-read");
}

TEST_F(PathRoutes, RunTimePartsAreJudgedByTheNamesAroundThem) {
  EXPECT_EQ(decide("Bash", shell("cat \"$DIR/.ssh/id_rsa\"")).verdict, Verdict::Ask);
  EXPECT_EQ(decide("Bash", shell("echo x > \"$X/.env\"")).verdict, Verdict::Ask);
  EXPECT_EQ(decide("Bash", shell("echo x > /etc/$NAME")).verdict, Verdict::Deny);
}

TEST_F(PathRoutes, ShellToolsDirectoryArgumentIsWhereTheCommandsRun) {
  // Gemini's run_shell_command runs in `directory`: `> passwd` there is /etc/passwd.
  const Decision d =
      decide("run_shell_command", {{"command", "echo x > passwd"}, {"directory", "/etc"}});
  EXPECT_EQ(d.rule_id, "system-write");
  EXPECT_EQ(
      decide("shell", {{"command", {"bash", "-lc", "echo x > .env"}}, {"workdir", "sub"}}).rule_id,
      "sensitive-write");
}

TEST_F(PathRoutes, TheReasonNamesTheCommandsPath) {
  const Decision d = decide("Bash", shell("ls && echo x > .env"));
  EXPECT_EQ(d.rule_id, "sensitive-write");
  EXPECT_EQ(d.decided_on.rfind("echo x", 0), 0u) << d.decided_on;  // not `ls`
  EXPECT_NE(d.reason.find("> (redirection) writes " + (workspace_ / ".env").string()),
            std::string::npos)
      << d.reason;
}

TEST_F(PathRoutes, HarmlessDevicesAndPublicSystemFilesStayAllowed) {
  EXPECT_EQ(decide("Bash", shell("make 2>/dev/null >/dev/null")).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Write", {{"file_path", "/dev/null"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Bash", shell("cat /etc/os-release")).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Read", {{"file_path", "/usr/include/stdio.h"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Bash", shell("head -c 16 /dev/urandom | xxd")).verdict, Verdict::Allow);
  EXPECT_EQ(decide("Bash", shell("echo hi | cat")).verdict, Verdict::Allow);
}

}  // namespace path_routes_test
}  // namespace toolguard
