// Guard plugins found where a user puts them, through the real binary.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace guard_plugins_test {

class GuardPluginsCli : public Cli {
 protected:
  nlohmann::json bash(const std::string& command, const std::string& cwd) const {
    return check({{"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", cwd}}}});
  }
};

const char* kDockerPlugin =
    "---\nid: docker\ntool: Bash\npatterns:\n"
    "  - {match: \"^docker (ps|images)\", verdict: allow, reason: listing is harmless}\n"
    "  - {match: docker, verdict: deny, reason: no containers from the agent}\n---\n"
    "Containers are started by people.\n";

TEST_F(GuardPluginsCli, AUserPluginJudgesEveryCommandOfAProgram) {
  dir.write("home/.claude/guards/docker.md", kDockerPlugin);
  const std::string cwd = (dir.path() / "home/code").string();
  nlohmann::json d = bash("ls && docker run --rm alpine", cwd);
  EXPECT_EQ(d["verdict"], "deny") << d;
  // `ls` meets the whole-text case (#3) first; `docker run` its own (#2).
  EXPECT_EQ(d["rule"], "plugin:docker#3") << d;
  EXPECT_EQ(d["reason"], "no containers from the agent");
  EXPECT_NE(d["source"].get<std::string>().find(".claude/guards/docker.md:6"), std::string::npos);
  d = bash("docker ps -a", cwd);
  EXPECT_EQ(d["verdict"], "allow") << d;
  EXPECT_EQ(bash("bash -c 'docker compose up'", cwd)["verdict"], "deny");
}

TEST_F(GuardPluginsCli, AProjectsPluginsLoadOnlyWhenTheUserTrustsTheProject) {
  dir.write("work/app/.bitcode/guards/make.yaml",
            "patterns:\n  - {match: \"^make\", verdict: deny, reason: the project forbids make}\n");
  const std::string project = (dir.path() / "work/app").string();
  EXPECT_NE(bash("make all", project)["rule"], "plugin:make#1");
  dir.write("user/trust.yaml", "trusted_projects: [" + project + "]\n");
  nlohmann::json d = bash("make all", project);
  EXPECT_EQ(d["rule"], "plugin:make#1") << d;
  EXPECT_EQ(d["verdict"], "deny");
}

TEST_F(GuardPluginsCli, ABrokenPluginDeniesEverythingAndNamesTheLine) {
  dir.write("home/.agents/guards/bad.yaml", "patterns:\n  - {match: \"(\", verdict: deny}\n");
  RunResult r = run({"check"}, R"({"tool":"Bash","args":{"command":"ls"}})");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(".agents/guards/bad.yaml:2:13: match: invalid regex '('"), std::string::npos)
      << r.out;
}

TEST_F(GuardPluginsCli, APluginFileLoadsWithPolicyToo) {
  const std::string plugin = dir.write("docker.md", kDockerPlugin).string();
  nlohmann::json d =
      check({{"tool", "Bash"}, {"args", {{"command", "docker run x"}}}}, {"--policy", plugin});
  EXPECT_EQ(d["verdict"], "deny") << d;
  EXPECT_EQ(d["rule"], "plugin:docker#2");
}

}  // namespace guard_plugins_test
}  // namespace toolguard::testing
