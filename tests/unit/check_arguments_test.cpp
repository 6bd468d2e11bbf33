// `toolguard check`'s options read directly agree with CLI11's reading of the
// same arguments, and the forms a hook is configured with are read directly.
#include "cli/check_arguments.hpp"

#include <gtest/gtest.h>

#include <random>

namespace toolguard::cli {
namespace check_arguments_test {

using Args = std::vector<std::string>;

// CLI11's reading of `toolguard check ARGS`; nullopt when it refuses them.
std::optional<CheckOptions> throughCli11(const Args& args) {
  CLI::App app;
  CheckOptions options;
  CLI::App* check = app.add_subcommand("check");
  addCheckOptions(*check, options);
  std::vector<const char*> argv = {"toolguard", "check"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
    return std::nullopt;
  }
  if (!checkOptionsProblem(options).empty()) return std::nullopt;
  return options;
}

std::optional<CheckOptions> directly(const Args& args) {
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return readPlainCheckArguments(static_cast<int>(argv.size()), argv.data());
}

void expectSame(const CheckOptions& a, const CheckOptions& b, const std::string& where) {
  EXPECT_EQ(a.format, b.format) << where;
  EXPECT_EQ(a.batch, b.batch) << where;
  EXPECT_EQ(a.policy.policy_files, b.policy.policy_files) << where;
  EXPECT_EQ(a.policy.profiles, b.policy.profiles) << where;
  EXPECT_EQ(a.policy.project, b.policy.project) << where;
  EXPECT_EQ(a.policy.no_builtin, b.policy.no_builtin) << where;
  EXPECT_EQ(a.policy.no_user, b.policy.no_user) << where;
  EXPECT_EQ(a.policy.no_project, b.policy.no_project) << where;
  EXPECT_EQ(a.policy.no_managed, b.policy.no_managed) << where;
  EXPECT_EQ(a.guard.home, b.guard.home) << where;
  EXPECT_EQ(a.guard.prompt, b.guard.prompt) << where;
  EXPECT_EQ(a.guard.approval_timeout_s, b.guard.approval_timeout_s) << where;
  EXPECT_EQ(a.guard.audit_log, b.guard.audit_log) << where;
  EXPECT_EQ(a.guard.no_audit, b.guard.no_audit) << where;
  EXPECT_EQ(a.server, b.server) << where;
  EXPECT_EQ(a.wait_s, b.wait_s) << where;
  EXPECT_EQ(a.mode, b.mode) << where;
  EXPECT_EQ(a.agent_asks, b.agent_asks) << where;
  EXPECT_EQ(a.deadline_s, b.deadline_s) << where;
}

std::string joined(const Args& args) {
  std::string out;
  for (const std::string& a : args) out += "[" + a + "]";
  return out;
}

TEST(CheckArguments, TheFormsHooksUseAreReadDirectlyAsCli11ReadsThem) {
  const std::vector<Args> hooks = {
      {},
      {"--format", "claude"},
      {"--format=gemini-hook"},
      {"--no-user", "--no-project", "--no-managed"},
      {"--batch", "--policy", "/etc/p.yaml", "--policy=/q.yaml", "--no-audit"},
      {"--profile", "safe-chat", "--home", "/h", "--audit-log", "/a.jsonl"},
      {"--prompt", "--approval-timeout", "60", "--project", "/w"},
      {"--format", "claude", "--server", "http://127.0.0.1:8787", "--wait", "30"},
      {"--server=unix:/run/toolguard.sock"},
      // What `toolguard install` writes (agent_hooks.cpp).
      {"--format", "claude", "--mode", "tighten", "--deadline", "590"},
      {"--format", "claude", "--mode", "decide", "--deadline", "590"},
      {"--format", "gemini-hook", "--agent-asks", "--deadline", "50"},
      {"--format", "gemini-hook", "--deadline", "50"},
  };
  for (const Args& args : hooks) {
    std::optional<CheckOptions> direct = directly(args);
    std::optional<CheckOptions> cli = throughCli11(args);
    ASSERT_TRUE(direct.has_value()) << joined(args);
    ASSERT_TRUE(cli.has_value()) << joined(args);
    expectSame(*direct, *cli, joined(args));
  }
}

TEST(CheckArguments, WhatIsNotPlainIsLeftToCli11) {
  const std::vector<Args> others = {
      {"--help"},
      {"-h"},
      {"call.json"},
      {"--"},
      {"--unknown"},
      {"--format", "json"},
      {"--format"},
      {"--format", "claude", "--format", "gemini"},
      {"--no-user", "--no-user"},
      {"--no-user=false"},
      {"--approval-timeout", "0"},
      {"--approval-timeout", "010"},
      {"--approval-timeout", "0x10"},
      {"--approval-timeout", "86401"},
      {"--profile", "nonsense"},
      {"--home", "--no-user"},
      {"--home="},
      {"--batch", "--format", "claude"},
      {"--batch", "--server", "http://h:1"},
      {"--wait", "0"},
  };
  for (const Args& args : others) EXPECT_FALSE(directly(args).has_value()) << joined(args);
}

TEST(CheckArguments, RandomArgumentsReadDirectlyAlwaysAgreeWithCli11) {
  const std::vector<std::string> flags = {
      "--batch",      "--prompt",    "--no-audit", "--no-builtin", "--no-user", "--no-project",
      "--no-managed", "--no-user=1", "-h",         "--",           "x.json",    "--nope"};
  const std::vector<std::pair<std::string, std::vector<std::string>>> valued = {
      {"--format", {"toolguard", "claude", "gemini", "gemini-hook", "yaml", "-x", ""}},
      {"--home", {"/h", "rel/dir", "", "-d", "a=b"}},
      {"--audit-log", {"/a.jsonl", "log file.jsonl"}},
      {"--project", {"/p", "."}},
      {"--policy", {"/p1.yaml", "p2.yaml", "--no-user"}},
      {"--profile", {"safe-chat", "developer-assistant", "document-processing", "nope"}},
      {"--approval-timeout", {"1", "300", "86400", "86401", "0", "010", "0x10", "abc", "-5"}},
      {"--server", {"http://127.0.0.1:8787", "unix:/s.sock", "", "-x"}},
      {"--wait", {"1", "30", "0", "86401", "x"}},
  };
  std::mt19937 random(20261126);
  int direct_count = 0;
  for (int round = 0; round < 4000; ++round) {
    Args args;
    const int pieces = static_cast<int>(random() % 6);
    for (int p = 0; p < pieces; ++p) {
      if (random() % 3 == 0) {
        args.push_back(flags[random() % flags.size()]);
        continue;
      }
      const auto& [name, values] = valued[random() % valued.size()];
      const std::string& value = values[random() % values.size()];
      if (random() % 2 == 0) {
        args.push_back(name + "=" + value);
      } else {
        args.push_back(name);
        if (random() % 10 != 0) args.push_back(value);  // sometimes the value is missing
      }
    }
    std::optional<CheckOptions> direct = directly(args);
    if (!direct) continue;
    ++direct_count;
    std::optional<CheckOptions> cli = throughCli11(args);
    ASSERT_TRUE(cli.has_value()) << "read directly, refused by CLI11: " << joined(args);
    expectSame(*direct, *cli, joined(args));
  }
  EXPECT_GT(direct_count, 800);  // the comparison saw many direct readings
}

// The hook-only options belong to their format, and a deadline bounds every
// wait below it.
TEST(CheckArguments, HookOptionsNeedTheirFormatAndTheDeadlineBoundsWaits) {
  for (const Args& wrong : std::vector<Args>{{"--mode", "tighten"},
                                             {"--format", "gemini-hook", "--mode", "tighten"},
                                             {"--agent-asks"},
                                             {"--format", "claude", "--agent-asks"},
                                             {"--batch", "--deadline", "5"},
                                             {"--format", "claude", "--mode", "loose"}}) {
    EXPECT_FALSE(throughCli11(wrong).has_value()) << joined(wrong);
    EXPECT_FALSE(directly(wrong).has_value()) << joined(wrong);
  }
  EXPECT_EQ(boundedWait(900, 590), 585);
  EXPECT_EQ(boundedWait(30, 590), 30);
  EXPECT_EQ(boundedWait(900, 0), 900);  // no deadline
  EXPECT_EQ(boundedWait(10, 3), 0);
}

}  // namespace check_arguments_test
}  // namespace toolguard::cli
