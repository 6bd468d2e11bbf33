#pragma once
// The e2e fixture of the sandbox's tests: a git workspace with a secret, a
// home with keys and a place outside, on a kernel that can hold it all.

#include "e2e/cli_fixture.hpp"
#include "support/test_listener.hpp"

namespace toolguard::testing {

class SandboxFixture : public Cli {
 protected:
  /// `secret` is the text of the workspace's .env and, with suffixes, of the
  /// home's key and cloud credentials.
  explicit SandboxFixture(const std::string& secret) {
    dir.write("ws/.env", "API_KEY=" + secret + "-ENV\n");
    dir.write("home/.ssh/id_ed25519", secret + "-KEY\n");
    dir.write("home/.aws/credentials", "aws_secret_access_key=" + secret + "-AWS\n");
    std::filesystem::create_directories(dir.path() / "home/outside");
    std::filesystem::create_directories(dir.path() / "home/.npm");
    std::filesystem::create_directories(dir.path() / "home/.cache");
    RunResult init = runBinary("/bin/sh", {"-c", "git init -q ws"}, "", env(), dir.path().string());
    EXPECT_EQ(init.exit_code, 0) << init.err;
  }

  // The tests need the kernel's whole offer; a kernel without it is said.
  void SetUp() override {
    if (const std::string why = sandboxKernelShortfall(TOOLGUARD_BINARY); !why.empty()) {
      GTEST_SKIP() << why;
    }
  }

  std::filesystem::path workspace() const { return dir.path() / "ws"; }

  /// `toolguard sandbox [extra] -- sh -c SCRIPT` in the workspace.
  RunResult sandboxed(const std::string& script, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"sandbox", "--workspace", workspace().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const char* word : {"--", "/bin/sh", "-c"}) args.emplace_back(word);
    args.push_back(script);
    return runBinary(TOOLGUARD_BINARY, args, "", env(), workspace().string());
  }
};

}  // namespace toolguard::testing
