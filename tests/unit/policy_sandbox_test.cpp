// The `sandbox:` section of policy files: read with file:line:column errors,
// merged so that no untrusted project (and no layer under a managed one)
// loosens it, and turned into the settings a sandboxed command gets.
#include <gtest/gtest.h>

#include "support/policy_layers.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace policy_sandbox_test {

using testing::TempDir;

using Layers = testing::PolicyLayers;

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(PolicySandbox, TheDefaultsHoldWithoutASection) {
  Layers l;
  const SandboxSettings settings = sandboxSettingsOf(loadPolicy(l.sources()));
  EXPECT_EQ(settings.network, SandboxNetwork::None);
  EXPECT_EQ(settings.when_unavailable, SandboxFallback::Ask);
  EXPECT_TRUE(contains(settings.deny_read, "~/.ssh"));
  EXPECT_TRUE(contains(settings.deny_read, ".env"));
  EXPECT_TRUE(contains(settings.read_only, ".git/hooks/"));
  EXPECT_TRUE(contains(settings.read_only, ".toolguard/"));
  EXPECT_TRUE(contains(settings.writable, "~/.cache"));
}

TEST(PolicySandbox, AUserFileAddsAndLoosens) {
  Layers l;
  l.dir.write("user/sandbox.yaml", R"(sandbox:
  writable: [~/.local/share/pnpm, /opt/cache]
  read_only: [Makefile]
  deny_read: ["*.p12", ~/.config/op]
  deny_read_except: [test.pem]
  network: open
  when_unavailable: unconfined
)");
  const Policy policy = loadPolicy(l.sources());
  EXPECT_TRUE(policy.warnings.empty()) << policy.warnings[0].message;
  const SandboxSettings settings = sandboxSettingsOf(policy);
  EXPECT_TRUE(contains(settings.writable, "/opt/cache"));
  EXPECT_TRUE(contains(settings.writable, "~/.cache"));  // the defaults stay
  EXPECT_TRUE(contains(settings.read_only, "Makefile"));
  EXPECT_TRUE(contains(settings.deny_read, "*.p12"));
  EXPECT_TRUE(contains(settings.deny_read_except, "test.pem"));
  EXPECT_EQ(settings.network, SandboxNetwork::Open);
  EXPECT_EQ(settings.when_unavailable, SandboxFallback::Unconfined);
}

TEST(PolicySandbox, AnUntrustedProjectOnlyTightens) {
  Layers l;
  l.dir.write("project/.toolguard/policy.yaml", R"(sandbox:
  writable: ["~"]
  read_only: [deploy/]
  deny_read: [prod.cfg]
  deny_read_except: [.env]
  network: open
  hosts: [evil.example]
  when_unavailable: unconfined
)");
  const Policy policy = loadPolicy(l.sources());
  const SandboxSettings settings = sandboxSettingsOf(policy);
  EXPECT_TRUE(settings.hosts.empty());
  EXPECT_FALSE(contains(settings.writable, "~"));
  EXPECT_EQ(settings.writable.size(), defaultSandboxSettings().writable.size());
  EXPECT_FALSE(contains(settings.deny_read_except, ".env"));
  EXPECT_EQ(settings.network, SandboxNetwork::None);
  EXPECT_EQ(settings.when_unavailable, SandboxFallback::Ask);
  EXPECT_TRUE(contains(settings.read_only, "deploy/"));
  EXPECT_TRUE(contains(settings.deny_read, "prod.cfg"));
  for (const char* refused :
       {"sandbox.writable ignored", "sandbox.deny_read_except ignored", "sandbox.hosts ignored",
        "sandbox.network open ignored", "sandbox.when_unavailable unconfined ignored"}) {
    EXPECT_TRUE(l.hasWarning(policy, refused)) << refused;
  }
}

// The managed layer is merged last: whatever the user's file says, its
// tightening stands.
TEST(PolicySandbox, AManagedNetworkCannotBeOpenedByTheUser) {
  Layers l;
  l.dir.write("managed/policy.yaml", "sandbox:\n  network: none\n  when_unavailable: ask\n");
  l.dir.write("user/sandbox.yaml", "sandbox:\n  network: open\n  when_unavailable: unconfined\n");
  const Policy policy = loadPolicy(l.sources());
  const SandboxSettings settings = sandboxSettingsOf(policy);
  EXPECT_EQ(settings.network, SandboxNetwork::None);
  EXPECT_EQ(settings.when_unavailable, SandboxFallback::Ask);
}

TEST(PolicySandbox, MistakesAreNamedWithTheirPlace) {
  Layers l;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sandbox:\n  network: everywhere\n", "2:12: sandbox.network: unknown value"},
      {"sandbox:\n  writeable: [/x]\n", "2:3: sandbox: unknown key 'writeable'"},
      {"sandbox:\n  writable: [cache]\n", "2:13: sandbox.writable: cache is not an absolute"},
      {"sandbox:\n  deny_read: [\"[z-a]\"]\n", "2:14: sandbox.deny_read: path glob '[z-a]'"},
      {"sandbox:\n  deny_read: [../up]\n", "2:14: sandbox.deny_read: path glob '../up'"},
      {"sandbox: [none]\n", "1:10: sandbox: expected a mapping"},
      {"sandbox:\n  when_unavailable: maybe\n", "2:21: sandbox.when_unavailable: unknown value"},
      {"sandbox:\n  hosts: [\"*.com\"]\n", "2:10: sandbox.hosts: '*.com': *. before a top-level"},
      {"sandbox:\n  hosts: [\"example.com:0\"]\n", "sandbox.hosts: 'example.com:0': the port"},
      {"sandbox:\n  hosts: [\"exa mple.com\"]\n", "'exa mple.com': expected a host name"},
      {"sandbox:\n  hosts: [\"*.10.0.0.1\"]\n", "'*.10.0.0.1': *. goes only before a name"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    l.dir.write("user/sandbox.yaml", text);
    try {
      loadPolicy(l.sources());
      ADD_FAILURE() << "loaded";
    } catch (const PolicyError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(PolicySandbox, AUserFileSendsTheNetworkThroughTheProxy) {
  Layers l;
  l.dir.write("user/sandbox.yaml",
              "sandbox:\n  network: proxy\n  hosts: [registry.npmjs.org, \"*.github.com\"]\n");
  const SandboxSettings settings = sandboxSettingsOf(loadPolicy(l.sources()));
  EXPECT_EQ(settings.network, SandboxNetwork::Proxy);
  EXPECT_EQ(settings.hosts, (std::vector<std::string>{"registry.npmjs.org", "*.github.com"}));
}

TEST(PolicySandbox, TheBuilderAddsToTheDefaults) {
  SandboxSettings additions;
  additions.writable = {"/srv/cache"};
  additions.network = SandboxNetwork::Open;
  const SandboxSettings settings =
      sandboxSettingsOf(PolicyBuilder().sandbox(additions).buildPolicy());
  EXPECT_TRUE(contains(settings.writable, "/srv/cache"));
  EXPECT_TRUE(contains(settings.writable, "~/.cache"));
  EXPECT_EQ(settings.network, SandboxNetwork::Open);
}

// A rule's own sandbox: grants its calls more places and hosts; the grant
// goes with the rule (an untrusted project's allow is dropped with it, a
// later layer's rule of the same id replaces it).
TEST(PolicySandbox, ARuleGrantsItsCallsPlacesAndHosts) {
  Layers l;
  l.user(R"(rules:
  - id: pnpm-install
    shell: "pnpm install"
    verdict: allow
    sandbox: {required: true, writable: [~/.local/share/pnpm], hosts: [registry.npmjs.org]}
  - id: plain
    shell: "make"
    verdict: allow
)");
  l.project(R"(rules:
  - id: project-fetch
    shell: "fetch"
    verdict: allow
    sandbox: {hosts: [evil.example]}
)");
  const Policy policy = loadPolicy(l.sources());
  std::optional<SandboxSettings> granted = sandboxSettingsFor(policy, "pnpm-install");
  ASSERT_TRUE(granted);
  EXPECT_TRUE(contains(granted->writable, "~/.local/share/pnpm"));
  EXPECT_EQ(granted->hosts, std::vector<std::string>{"registry.npmjs.org"});
  EXPECT_EQ(granted->network, SandboxNetwork::Proxy);  // none, opened through the proxy only
  std::optional<SandboxSettings> plain = sandboxSettingsFor(policy, "plain");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(contains(plain->writable, "~/.local/share/pnpm"));
  EXPECT_EQ(plain->network, SandboxNetwork::None);
  EXPECT_FALSE(sandboxSettingsFor(policy, "no-such-rule"));
  EXPECT_FALSE(policy.rule_sandbox_grants.contains("project-fetch"));
  EXPECT_TRUE(Layers::hasWarning(policy, "rule project-fetch (allow) ignored"));

  // A later layer's rule of the same id, without a grant, takes it away.
  l.managed("rules:\n  - {id: pnpm-install, shell: \"pnpm install\", verdict: allow}\n");
  const Policy managed = loadPolicy(l.sources());
  EXPECT_FALSE(managed.rule_sandbox_grants.contains("pnpm-install"));
  EXPECT_EQ(sandboxSettingsFor(managed, "pnpm-install")->network, SandboxNetwork::None);

  // The builder: the same grant, the same checks.
  RuleSpec spec;
  spec.header.id = "built";
  spec.header.target.tools = {"make_assets"};
  spec.verdict = Verdict::Allow;
  spec.sandbox_writable = {"/srv/assets"};
  const Policy built = PolicyBuilder().rule(spec).buildPolicy();
  EXPECT_TRUE(contains(sandboxSettingsFor(built, "built")->writable, "/srv/assets"));
  spec.verdict = Verdict::Deny;
  EXPECT_THROW(PolicyBuilder().rule(spec), PolicyError);
  spec.verdict = Verdict::Allow;
  spec.sandbox_hosts = {"http://x"};
  EXPECT_THROW(PolicyBuilder().rule(spec), PolicyError);
}

TEST(PolicySandbox, ARulesGrantMistakesAreNamedWithTheirPlace) {
  Layers l;
  l.user(R"(rules:
  - id: a
    shell: "x"
    verdict: deny
    sandbox: {writable: [/opt/x]}
  - id: b
    shell: "y"
    verdict: allow
    sandbox: {writable: [relative], hosts: ["http://x/"], network: open, required: maybe}
  - id: c
    shell: "z"
    verdict: allow
    sandbox: optional
)");
  try {
    loadPolicy(l.sources());
    FAIL() << "the policy loaded";
  } catch (const PolicyError& e) {
    const std::string text = e.what();
    for (const char* expected :
         {"10-user.yaml:2:5: rule a: sandbox writable and hosts widen",
          "10-user.yaml:9:25: sandbox.writable: relative is not an absolute or ~ place",
          "10-user.yaml:9:44: sandbox.hosts:", "sandbox: unknown key 'network' in a rule",
          "sandbox.required: expected true or false",
          "10-user.yaml:13:14: sandbox: expected required"}) {
      EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
    }
  }
}

TEST(PolicySandbox, AKernelLimitOnlyLowers) {
  const SandboxKernel kernel{.landlock_abi = 4, .seccomp = true, .user_namespaces = false};
  Expected<SandboxKernel> limit = parseSandboxKernelLimit("landlock=6,userns=yes");
  ASSERT_TRUE(limit) << limit.error();
  const SandboxKernel limited = limitSandboxKernel(kernel, *limit);
  EXPECT_EQ(limited.landlock_abi, 4);
  EXPECT_TRUE(limited.seccomp);
  EXPECT_FALSE(limited.user_namespaces);
  for (const char* bad : {"landlock=", "landlock=-1", "seccomp=maybe", "ptrace=no", ""}) {
    EXPECT_FALSE(parseSandboxKernelLimit(bad)) << bad;
  }
}

}  // namespace policy_sandbox_test
}  // namespace toolguard
