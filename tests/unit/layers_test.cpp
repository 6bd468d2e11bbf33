#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/calls.hpp"
#include "support/policy_layers.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace layers_test {

using testing::TempDir;

ToolCall call(std::string tool, nlohmann::json args = nlohmann::json::object()) {
  return testing::makeCall(std::move(tool), std::move(args), "/w");
}

using Layers = testing::PolicyLayers;

TEST(Layers, LaterLayersOverrideDefaultsAndRulesById) {
  Layers l;
  l.user("default: deny\nrules:\n  - {id: fetch, tool: WebFetch, verdict: ask}\n");
  l.dir.write("explicit.yaml", "rules:\n  - {id: fetch, tool: WebFetch, verdict: allow}\n");
  PolicySources s = l.sources();
  s.explicit_files = {l.dir.path() / "explicit.yaml"};
  Policy p = loadPolicy(s);
  EXPECT_EQ(p.default_verdict, Verdict::Deny);
  Engine engine(p);
  Decision d = engine.decide(call("WebFetch"));
  EXPECT_EQ(d.verdict, Verdict::Allow);
  EXPECT_EQ(d.consulted.size(), 1u);  // replaced, not added
  EXPECT_EQ(d.source.file, (l.dir.path() / "explicit.yaml").string());
}

TEST(Layers, ManagedDenyAndAskCannotBeLoosened) {
  Layers l;
  l.managed(R"(
default: ask
tools:
  Read: {policy: confirm}
rules:
  - {id: no-fetch, tool: WebFetch, verdict: deny}
)");
  // A later layer cannot come after managed, but code can: it is a later merge.
  Policy p = loadPolicy(l.sources());
  mergePolicyText(p, R"(
default: allow
tools:
  Read: {policy: allow}
rules:
  - {id: no-fetch, tool: WebFetch, verdict: allow}
  - {id: fetch-ok, tool: WebFetch, verdict: allow}
)",
                  "code.yaml", PolicyLayer::Code);
  Engine engine(p);
  EXPECT_EQ(p.default_verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("WebFetch")).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("Read", {{"file_path", "a"}})).verdict, Verdict::Ask);
  EXPECT_TRUE(l.hasWarning(p, "cannot loosen a managed setting"));
}

TEST(Layers, TighteningAManagedSettingKeepsItManaged) {
  Layers l;
  l.managed("default: ask\ntools:\n  Write: {policy: confirm}\n");
  Policy p = loadPolicy(l.sources());
  mergePolicyText(p, "default: deny\ntools:\n  Write: {risk: critical}\n", "a.yaml",
                  PolicyLayer::Code);
  mergePolicyText(p, "default: allow\ntools:\n  Write: {policy: allow}\n", "b.yaml",
                  PolicyLayer::Code);
  EXPECT_EQ(p.default_verdict, Verdict::Deny);
  EXPECT_EQ(p.tools.find("Write")->policy, ToolPolicy::Confirm);
}

TEST(Layers, WritesToTheConfigurationInUseAreDenied) {
  Layers l;
  l.user("default: allow\n");
  Engine engine(loadPolicy(l.sources()));
  for (const auto& target : {l.dir.path() / "user/10-user.yaml", l.dir.path() / "managed/x.yaml"}) {
    Decision d = engine.decide(call("Write", {{"file_path", target.string()}}));
    EXPECT_EQ(d.verdict, Verdict::Deny) << target;
    EXPECT_EQ(d.rule_id, "guard-config-locations");
  }
}

TEST(Layers, WritesToToolguardsHomeAndTheGuardSkillsOfOtherAgentsAreDenied) {
  Layers l;
  l.user("default: allow\n");
  Engine engine(loadPolicy(l.sources()));
  const std::string home = homeDirectory();
  for (const std::string& target :
       {toolguardHome() + "/llm-verdicts/0123456789abcdef.jsonl",
        toolguardHome() + "/guard-skills/bash.md", home + "/.claude/guard-skills/bash.md",
        home + "/.agents/guard-skills/python.md", home + "/.bitcode/guard-skills/go.md"}) {
    Decision d = engine.decide(call("Write", {{"file_path", target}}));
    EXPECT_EQ(d.verdict, Verdict::Deny) << target;
    EXPECT_EQ(d.rule_id, "guard-config-locations") << target;
  }
}

TEST(Layers, ManagedWinsOverUserWhateverTheUserSays) {
  Layers l;
  l.user("default: allow\nrules:\n  - {id: all-ok, tool: '*', verdict: allow}\n");
  l.managed("rules:\n  - {id: no-mcp-delete, tool: 'mcp__*__delete_*', verdict: deny}\n");
  Engine engine(loadPolicy(l.sources()));
  EXPECT_EQ(engine.decide(call("mcp__gh__delete_repo")).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("mcp__gh__list")).verdict, Verdict::Allow);
}

TEST(Layers, UntrustedProjectCannotLoosenTheUsersPolicy) {
  Layers l;
  l.user("default: ask\nrules:\n  - {id: fetch, tool: WebFetch, verdict: ask}\n");
  l.project(R"(
default: allow
tools:
  Bash: {policy: allow, risk: low}
  my_tool: {policy: allow}
rules:
  - {id: fetch, tool: WebFetch, verdict: allow}
  - {id: shell-ok, tool: Bash, verdict: allow}
  - {id: no-deploy, tool: deploy, verdict: deny}
)");
  Policy p = loadPolicy(l.sources());
  Engine engine(p);
  EXPECT_EQ(p.default_verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("WebFetch")).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("Bash", {{"command", "ls"}})).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("my_tool")).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("deploy")).verdict, Verdict::Deny);  // tightening is kept
  EXPECT_EQ(p.tools.find("Bash")->metadata.risk, RiskLevel::High);
  EXPECT_TRUE(l.hasWarning(p, "untrusted project"));
}

TEST(Layers, UntrustedProjectCannotRedescribeNewToolsToEscapeUserRules) {
  Layers l;
  l.user(R"(
rules:
  - {id: low-risk-only, max_risk: low, verdict: deny}
  - {id: no-mcp, category: mcp, verdict: deny}
)");
  l.project(R"(
tools:
  mcp__x__wipe: {risk: low, category: harmless, kind: file-read, read_only: true}
  brand_new: {risk: low, policy: allow}
  scary_new: {risk: critical, policy: deny}
)");
  Policy p = loadPolicy(l.sources());
  Engine engine(p);
  Decision d = engine.decide(call("mcp__x__wipe"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(p.tools.find("mcp__x__wipe")->metadata.category, "mcp");
  EXPECT_EQ(engine.decide(call("brand_new")).verdict, Verdict::Deny);        // still medium risk
  EXPECT_EQ(p.tools.find("scary_new")->metadata.risk, RiskLevel::Critical);  // tightening kept
  EXPECT_EQ(p.tools.find("scary_new")->policy, ToolPolicy::Deny);
  EXPECT_TRUE(l.hasWarning(p, "tool mcp__x__wipe: looser settings ignored"));
}

TEST(Layers, TrustedProjectMayLoosen) {
  Layers l;
  l.user("trusted_projects: [" + (l.dir.path() / "project").string() + "]\n");
  l.project("default: allow\nrules:\n  - {id: shell-ok, tool: Bash, verdict: allow}\n");
  Policy p = loadPolicy(l.sources());
  Engine engine(p);
  EXPECT_EQ(p.default_verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("Bash", {{"command", "ls"}})).verdict, Verdict::Allow);
}

TEST(Layers, OnlyUserFilesCanTrustAProject) {
  Layers l;
  l.project("trusted_projects: [" + (l.dir.path() / "project").string() + "]\ndefault: allow\n");
  Policy p = loadPolicy(l.sources());
  EXPECT_EQ(p.default_verdict, Verdict::Ask);
  EXPECT_TRUE(l.hasWarning(p, "only user policy files can trust a project"));
}

TEST(Layers, FilesOfALayerLoadInNameOrder) {
  Layers l;
  l.dir.write("user/b.yaml", "default: allow\n");
  l.dir.write("user/a.yaml", "default: deny\n");
  l.dir.write("user/notes.txt", "not: a policy\n");
  Policy p = loadPolicy(l.sources());
  EXPECT_EQ(p.default_verdict, Verdict::Allow);
  EXPECT_EQ(p.default_source.file, (l.dir.path() / "user/b.yaml").string());
}

TEST(Layers, AnErrorInAnyLayerFailsTheWholeLoad) {
  Layers l;
  l.user("default: allow\n");
  l.project("rules:\n  - {id: x, verdict: sometimes}\n");
  try {
    loadPolicy(l.sources());
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_NE(e.errors()[0].where.file.find("project/.toolguard/policy.yaml"), std::string::npos);
    EXPECT_EQ(e.errors()[0].where.line, 2);
  }
}

TEST(Layers, DiscoveryFindsTheNearestProjectAndSkipsHome) {
  TempDir dir;
  dir.write("repo/.toolguard/policy.yaml", "");
  std::filesystem::create_directories(dir.path() / "repo/src/deep");
  setenv("TOOLGUARD_CONFIG_DIR", (dir.path() / "cfg").c_str(), 1);
  setenv("TOOLGUARD_MANAGED_DIR", (dir.path() / "managed").c_str(), 1);
  PolicySources s = discoverPolicySources(dir.path() / "repo/src/deep");
  EXPECT_EQ(s.project_roots, std::vector<std::filesystem::path>{dir.path() / "repo"});
  EXPECT_EQ(s.user_dir, dir.path() / "cfg");
  EXPECT_EQ(s.managed_dir, dir.path() / "managed");

  const char* old_home = getenv("HOME");
  std::string saved = old_home ? old_home : "";
  dir.write("home/.toolguard/approvals.json", "{}");
  std::filesystem::create_directories(dir.path() / "home/code");
  setenv("HOME", (dir.path() / "home").c_str(), 1);
  PolicySources h = discoverPolicySources(dir.path() / "home/code");
  EXPECT_TRUE(h.project_roots.empty());
  setenv("HOME", saved.c_str(), 1);
  unsetenv("TOOLGUARD_CONFIG_DIR");
  unsetenv("TOOLGUARD_MANAGED_DIR");
}

TEST(Layers, PolicyFilesMustBeRegularFilesOfBoundedSize) {
  Layers l;
  std::filesystem::create_directories(l.dir.path() / "user");
  ASSERT_EQ(mkfifo((l.dir.path() / "user/fifo.yaml").c_str(), 0600), 0);
  try {
    loadPolicy(l.sources());  // must not block on the FIFO
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_NE(e.errors()[0].message.find("not a regular file"), std::string::npos);
  }
  std::filesystem::remove(l.dir.path() / "user/fifo.yaml");
  l.user("# " + std::string(kMaxPolicyFileBytes, 'x') + "\n");
  EXPECT_THROW(loadPolicy(l.sources()), PolicyError);
}

TEST(Layers, EveryAncestorProjectLoadsSoAVendoredOneCannotHideTheTrustedOne) {
  TempDir dir;
  dir.write("cfg/trust.yaml", "trusted_projects: [" + (dir.path() / "repo").string() + "]\n");
  dir.write("repo/.toolguard/policy.yaml",
            "rules:\n  - {id: no-prod, kind: file-write, path: 'prod/**', verdict: deny}\n");
  dir.write("repo/vendor/lib/.toolguard/policy.yaml", "default: allow\n");
  setenv("TOOLGUARD_CONFIG_DIR", (dir.path() / "cfg").c_str(), 1);
  PolicySources s = discoverPolicySources(dir.path() / "repo/vendor/lib");
  unsetenv("TOOLGUARD_CONFIG_DIR");
  ASSERT_EQ(s.project_roots.size(), 2u);
  EXPECT_EQ(s.project_roots[0], dir.path() / "repo");
  s.managed_dir.clear();
  Policy p = loadPolicy(s);
  Engine engine(p);
  ToolCall c = call("Write", {{"file_path", (dir.path() / "repo/prod/x").string()}});
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Deny);
  EXPECT_EQ(p.default_verdict, Verdict::Ask);  // the vendored directory is not trusted
}

TEST(Layers, ProjectDirectoriesOthersCanWriteAreIgnored) {
  TempDir dir;
  dir.write("shared/.toolguard/policy.yaml", "rules:\n  - {id: x, verdict: deny}\n");
  std::filesystem::permissions(dir.path() / "shared/.toolguard",
                               std::filesystem::perms::others_write,
                               std::filesystem::perm_options::add);
  EXPECT_TRUE(discoverPolicySources(dir.path() / "shared").project_roots.empty());
}

TEST(Layers, UnknownProfileFails) {
  PolicySources s;
  s.profiles = {"nope"};
  EXPECT_THROW(loadPolicy(s), PolicyError);
}

}  // namespace layers_test
}  // namespace toolguard
