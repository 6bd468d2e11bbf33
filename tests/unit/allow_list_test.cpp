// A deny default is an allow-list: the catalog describes tools, it does not
// grant them, and the built-in profiles merged before the deny grant nothing.
// Through the loader (policy files), the builder and the registry.
#include <gtest/gtest.h>

#include <fstream>

#include "toolguard/engine.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/tool_catalog.hpp"
#include "toolguard/tool_registry.hpp"

namespace toolguard {
namespace allow_list_test {

struct TempPolicy {
  std::filesystem::path file;
  explicit TempPolicy(const std::string& text) {
    file = std::filesystem::temp_directory_path() /
           ("allow-list-" + std::to_string(::getpid()) + "-" +
            std::to_string(reinterpret_cast<uintptr_t>(this)) + ".yaml");
    std::ofstream(file) << text;
  }
  ~TempPolicy() { std::filesystem::remove(file); }
};

Engine withUserFile(const std::string& text, std::vector<std::string> profiles = {}) {
  TempPolicy policy(text);
  PolicySources s;
  s.profiles = std::move(profiles);
  s.explicit_files = {policy.file};
  return Engine(loadPolicy(s));
}

Decision decide(const Engine& e, std::string tool, nlohmann::json args, std::string role = "") {
  ToolCall c;
  c.tool = std::move(tool);
  c.args = std::move(args);
  c.context.cwd = homeDirectory() + "/project";
  c.context.role = std::move(role);
  return e.decide(c);
}

// Every catalog tool but the one allowed by name is denied, whatever the
// catalog's policy for it says.
TEST(AllowList, ADenyDefaultDeniesEveryCatalogToolItDoesNotAllow) {
  Engine e = withUserFile(
      "version: 1\ndefault: deny\nrules:\n"
      "  - {id: reads, tool: Read, verdict: allow}\n");
  EXPECT_EQ(decide(e, "Read", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  size_t denied = 0;
  for (const ToolInfo* tool : ToolCatalog::builtin().all()) {
    if (tool->name == "Read") continue;
    nlohmann::json args = nlohmann::json::object();
    if (!tool->command_arg.empty()) args[tool->command_arg] = "ls";
    for (const std::string& arg : tool->path_args) args[arg] = "a.txt";
    Decision d = decide(e, tool->name, args);
    EXPECT_EQ(d.verdict, Verdict::Deny) << tool->name << ": " << d.reason;
    ++denied;
  }
  EXPECT_GT(denied, 30u);
  for (const char* name : {"Write", "Edit", "move_file", "Bash", "WebFetch", "mcp__x__y"}) {
    EXPECT_EQ(decide(e, name, {{"file_path", "a"}, {"command", "ls"}}).verdict, Verdict::Deny)
        << name;
  }
}

TEST(AllowList, TheBuilderDenyDefaultDeniesCatalogTools) {
  Engine e(PolicyBuilder().defaultAction(Verdict::Deny).allow("Read").build());
  EXPECT_EQ(decide(e, "Read", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "Edit", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "move_file", {{"source", "a"}, {"destination", "b"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "ls"}}).verdict, Verdict::Deny);
  // The default profile under a code deny default: its allows grant nothing.
  Engine with_profile(
      PolicyBuilder().profile("default").defaultAction(Verdict::Deny).allow("Read").build());
  EXPECT_EQ(decide(with_profile, "Bash", {{"command", "ls"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(with_profile, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(with_profile, "Read", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  // The default profile's protections still hold on what the list allows.
  EXPECT_NE(decide(with_profile, "Read", {{"file_path", ".env"}}).verdict, Verdict::Allow);
}

// What a tool's own policy says counts when code or a policy file gave it.
TEST(AllowList, AToolPolicyGivenByTheUserAllows) {
  Engine e = withUserFile(
      "version: 1\ndefault: deny\ntools:\n  Write: {policy: allow}\n"
      "  Edit: {policy: ask}\n");
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Edit", {{"file_path", "a.txt"}}).verdict, Verdict::Ask);
  EXPECT_EQ(decide(e, "Read", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
  ToolInfo mine;
  mine.name = "Write";
  mine.policy = ToolPolicy::Allow;
  Engine code(PolicyBuilder().defaultAction(Verdict::Deny).registerTool(mine).build());
  EXPECT_EQ(decide(code, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(code, "Edit", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
}

// A tool the program registers without a policy takes none from the catalog.
TEST(AllowList, ARegisteredToolWithoutAPolicyIsNotGrantedByTheCatalog) {
  ToolRegistry registry(PolicyBuilder().defaultAction(Verdict::Deny).buildPolicy(), GuardOptions{});
  ToolInfo write;
  write.name = "Write";
  registry.registerTool(write, [](const ToolInvocation&) { return nlohmann::json("ok"); });
  ToolInfo read;
  read.name = "Read";
  read.policy = ToolPolicy::Allow;
  registry.registerTool(read, [](const ToolInvocation&) { return nlohmann::json("ok"); });
  EXPECT_EQ(decide(registry.guard()->engine(), "Write", {{"file_path", "a.txt"}}).verdict,
            Verdict::Deny);
  EXPECT_EQ(decide(registry.guard()->engine(), "Read", {{"file_path", "a.txt"}}).verdict,
            Verdict::Allow);
}

TEST(AllowList, RoleRulesOnTopOfADenyDefault) {
  Engine e = withUserFile(
      "version: 1\ndefault: deny\nrules:\n"
      "  - {id: admin-writes, tool: [Write, Edit], context: {role: admin}, verdict: allow}\n"
      "  - {id: admin-shell, tool: Bash, context: {role: admin}, verdict: allow}\n");
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}, "admin").verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}, "viewer").verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "ls"}}, "viewer").verdict, Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "ls"}}, "admin").verdict, Verdict::Allow);
  // The built-in protections still judge what the list allows.
  EXPECT_NE(decide(e, "Bash", {{"command", "rm -rf ~"}}, "admin").verdict, Verdict::Allow);
  EXPECT_NE(decide(e, "Write", {{"file_path", "/etc/passwd"}}, "admin").verdict, Verdict::Allow);
}

// Each simple command of a program needs the list: an allowed `git` does not
// carry an `ls` the built-in ordinary work would have allowed.
TEST(AllowList, EveryCommandOfAProgramNeedsTheList) {
  Engine e = withUserFile(
      "version: 1\ndefault: deny\nrules:\n"
      "  - {id: git-reads, shell: [\"git status *\", \"git log *\"], "
      "verdict: allow}\n");
  EXPECT_EQ(decide(e, "Bash", {{"command", "git status"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Bash", {{"command", "git status && git log -1"}}).verdict, Verdict::Allow);
  for (const char* other :
       {"ls", "git status && ls", "git status; cat README.md", "echo $(ls)", "timeout 5 ls",
        "git status | head", "terraform plan", "git push", "'git' status; ls",
        "git status; > important.txt", "git status >> important.txt", "git status > important.txt",
        "git status &> out.log", "time -o important.txt git status",
        "find . -exec git status \\; -delete",
        "python3 <<< \"import os; os.system('git status'); os.remove('x')\"",
        "parallel -S evil.example.com git status ::: a"}) {
    Decision d = decide(e, "Bash", {{"command", other}});
    EXPECT_EQ(d.verdict, Verdict::Deny) << other << ": " << d.reason;
  }
  // A known wrapper around a listed command is judged through that command.
  EXPECT_EQ(decide(e, "Bash", {{"command", "timeout 5 git status"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Bash", {{"command", "git status 2>&1 > /dev/null"}}).verdict,
            Verdict::Allow);
}

// An untrusted project cannot put a tool on the list with a tool policy of ask.
TEST(AllowList, ALooserToolPolicyFromAnUntrustedLayerDoesNotGrant) {
  Policy policy = loadPolicy(PolicySources{});
  policy.default_verdict = Verdict::Deny;
  policy.rules_before_deny_default = policy.rules.size();
  TempPolicy project("version: 1\ntools:\n  Write: {policy: ask}\n");
  mergePolicyFile(policy, project.file, PolicyLayer::Project, /*trusted=*/false);
  Engine e(policy);
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Deny);
}

// No default deny, no change: the catalog and the built-in rules still allow.
TEST(AllowList, OtherDefaultsKeepTheCatalog) {
  Engine e = withUserFile("version: 1\ndefault: ask\n");
  EXPECT_EQ(decide(e, "Write", {{"file_path", "a.txt"}}).verdict, Verdict::Allow);
  EXPECT_EQ(decide(e, "Bash", {{"command", "ls"}}).verdict, Verdict::Allow);
}

}  // namespace allow_list_test
}  // namespace toolguard
