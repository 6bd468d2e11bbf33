// Other agents' policies through the real binary: `policy import` writes a
// toolguard policy that decides every call as the source file loaded with
// --policy does (the round trip import -> check, for each format).
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace policy_import_test {

struct ExpectedDecision {
  nlohmann::json call;  ///< toolguard format; the cwd is added
  std::string verdict;
};

class PolicyImport : public Cli {
 protected:
  std::string cwd() const {
    std::filesystem::create_directories(dir.path() / "home/project");
    return (dir.path() / "home/project").string();
  }

  // Imports `source` (a file under tests/data) and checks each call against
  // the source and the imported policy: same verdict, same deciding rule.
  void roundTrip(const std::string& from, const std::string& source,
                 const std::vector<ExpectedDecision>& cases) const {
    const std::string source_file = std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/" + source;
    const std::string imported = (dir.path() / (from + ".yaml")).string();
    RunResult r = run({"policy", "import", "--from", from, source_file, "-o", imported});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("imported "), std::string::npos) << r.err;
    const std::string text = slurp(imported);
    EXPECT_NE(text.find("# from " + source_file + ":"), std::string::npos) << text;
    for (const ExpectedDecision& c : cases) {
      nlohmann::json call = c.call;
      call["context"]["cwd"] = cwd();
      nlohmann::json direct = check(call, {"--policy", source_file});
      nlohmann::json converted = check(call, {"--policy", imported});
      EXPECT_EQ(direct["verdict"], c.verdict) << call << "\n" << direct;
      EXPECT_EQ(converted["verdict"], c.verdict) << call << "\n" << converted;
      EXPECT_EQ(direct["rule"], converted["rule"]) << call;
    }
  }

  static nlohmann::json bash(const std::string& command) {
    return {{"tool", "Bash"}, {"args", {{"command", command}}}};
  }
  static nlohmann::json tool(const std::string& name, nlohmann::json args) {
    return {{"tool", name}, {"args", std::move(args)}};
  }
};

TEST_F(PolicyImport, ClaudeCodeBashRulesRoundTrip) {
  roundTrip("claude", "claude/permissions-bash.json",
            {{bash("git push origin main"), "deny"},
             {bash("curl -s https://example.com"), "deny"},
             {bash("npm run build && curl https://example.com"), "deny"},
             {bash("rm notes.txt"), "ask"},
             {bash("ls -la"), "allow"}});
}

TEST_F(PolicyImport, ClaudeCodePathRulesRoundTrip) {
  const std::string home = (dir.path() / "home").string();
  roundTrip("claude", "claude/permissions-files.json",
            {{tool("Read", {{"file_path", ".env"}}), "deny"},
             {tool("Read", {{"file_path", home + "/.ssh/id_ed25519"}}), "deny"},
             {tool("Read", {{"file_path", "/etc/shadow"}}), "deny"},
             {tool("Edit",
                   {{"file_path", "/tmp/locked/a.txt"}, {"old_string", "a"}, {"new_string", "b"}}),
              "deny"},
             {tool("Read", {{"file_path", "notes.txt"}}), "allow"}});
}

TEST_F(PolicyImport, CodexRulesRoundTrip) {
  roundTrip("codex", "codex/example.rules",
            {{bash("git reset --hard"), "deny"},
             {bash("gh pr view 7888"), "ask"},
             {bash("git status"), "allow"},
             {bash("git status && git reset --hard HEAD~1"), "deny"},
             {bash("bash -lc 'git reset --hard'"), "deny"}});
}

TEST_F(PolicyImport, GeminiCliPrioritiesRoundTrip) {
  auto shell = [](const std::string& command) {
    return tool("run_shell_command", {{"command", command}});
  };
  // A higher-priority exception decides before a broader rule, per command.
  roundTrip("gemini", "gemini/policies/priority.toml",
            {{shell("docker ps"), "allow"},
             {shell("docker run alpine"), "deny"},
             {shell("docker ps && docker rm -f web"), "deny"},
             {shell("kubectl get pods"), "deny"},
             {shell("terraform plan"), "allow"},
             {shell("terraform apply"), "deny"}});
}

// Gemini CLI's documented examples: the first rule by priority that matches
// decides each command, so an ask for git (an unrelated command, read broadly)
// changes neither the docker ps exception above it nor the docker deny below.
TEST_F(PolicyImport, GeminiCliDocumentedExamplesKeepTheirPriorities) {
  auto shell = [](const std::string& command) {
    return tool("run_shell_command", {{"command", command}});
  };
  roundTrip("gemini", "gemini/policies/documented.toml",
            {{shell("docker ps"), "allow"},
             {shell("docker rm -f web"), "deny"},
             {shell("git status"), "ask"},
             {shell("git status && docker rm -f web"), "deny"},
             {shell("docker ps && git log"), "ask"},
             {shell("rm -rf build"), "deny"},
             {shell("git log && rm -rf build"), "deny"},
             {tool("write_file", {{"file_path", "notes.txt"}, {"content", "x"}}), "ask"}});
}

TEST_F(PolicyImport, ABrokenSourceIsAnErrorNamingTheLine) {
  const std::string bad = dir.write("bad.rules",
                                    "prefix_rule(\n  pattern = [\"rm\"],\n"
                                    "  decision = \"maybe\",\n)\n")
                              .string();
  RunResult r = run({"policy", "import", "--from", "codex", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad + ":3"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  // Loaded directly, the same file denies every call.
  r = run({"check", "--policy", bad}, bash("ls").dump());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(bad + ":3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verdict\":\"deny\""), std::string::npos) << r.out;
}

TEST_F(PolicyImport, TheFormatMustBeNamed) {
  RunResult r = run({"policy", "import", "--from", "cursor", "x.json"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace policy_import_test
}  // namespace toolguard::testing
