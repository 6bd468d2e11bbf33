// The C++ way to run a tool's command confined: runSandboxed with the
// settings of the rule that allowed the call (sandboxSettingsFor), on the
// real kernel: what the rule's own sandbox: adds is writable for it and for
// no other call.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard {
namespace sandbox_run_test {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(SandboxRun, ARulesSettingsConfineTheCommandItAllows) {
  TempDir dir;
  fs::create_directories(dir.path() / "home");
  fs::create_directories(dir.path() / "ws");
  fs::create_directories(dir.path() / "assets");
  RuleSpec spec;
  spec.header.id = "make-assets";
  spec.header.target.tools = {"make_assets"};
  spec.verdict = Verdict::Allow;
  spec.sandbox_writable = {(dir.path() / "assets").string()};
  const Policy policy = PolicyBuilder().rule(spec).buildPolicy();
  const std::optional<SandboxSettings> granted = sandboxSettingsFor(policy, "make-assets");
  ASSERT_TRUE(granted);
  if (const std::string why = sandboxShortfall(*granted, probeSandboxKernel()); !why.empty()) {
    GTEST_SKIP() << "this kernel cannot hold the sandbox: " << why;
  }
  SandboxRequest request;
  request.home = (dir.path() / "home").string();
  request.workspaces = {(dir.path() / "ws").string()};
  request.cwd = request.workspaces[0];
  request.command = {
      "/bin/sh", "-c",
      "echo made > '" + (dir.path() / "assets/out").string() + "' && echo inside > in.txt"};
  SandboxReport report;
  Expected<int> status = runSandboxed(*granted, request, &report);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(*status, 0);
  EXPECT_TRUE(report.complete()) << report.missing();
  EXPECT_TRUE(fs::exists(dir.path() / "assets/out"));
  EXPECT_TRUE(fs::exists(dir.path() / "ws/in.txt"));

  // The policy's own settings, without the rule's: the same command fails
  // with the kernel's refusal, and writes nothing outside.
  fs::remove(dir.path() / "assets/out");
  Expected<int> plain = runSandboxed(sandboxSettingsOf(policy), request);
  ASSERT_TRUE(plain) << plain.error();
  EXPECT_NE(*plain, 0);
  EXPECT_FALSE(fs::exists(dir.path() / "assets/out"));

  // A command that cannot be run is an error, not a status.
  request.command = {"/no/such/program"};
  Expected<int> missing = runSandboxed(*granted, request);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot run /no/such/program"), std::string::npos)
      << missing.error();
}

}  // namespace sandbox_run_test
}  // namespace toolguard
