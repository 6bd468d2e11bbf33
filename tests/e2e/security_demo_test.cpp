// examples/security_demo run as a user (or CI) runs it: each mode through
// --mode N, its exit code and the lines that show what the mode is about.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "support/run_binary.hpp"
#include "support/run_in_pty.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::testing {
namespace security_demo_test {

namespace fs = std::filesystem;

class SecurityDemo : public ::testing::Test {
 protected:
  TempDir dir;

  void SetUp() override {
    fs::create_directories(dir.path() / "home");
    fs::create_directories(dir.path() / "tmp");
  }

  // Its own HOME and TMPDIR: the demo must touch neither the developer's
  // ~/.toolguard nor leave files in the temp directory.
  std::map<std::string, std::string> env() const {
    return {{"HOME", (dir.path() / "home").string()},
            {"TMPDIR", (dir.path() / "tmp").string()},
            {"TOOLGUARD_HOME", ""}};
  }

  RunResult demo(const std::vector<std::string>& args, const std::string& input = "") const {
    return runBinary(SECURITY_DEMO_BINARY, args, input, env(), dir.path().string());
  }

  std::string storeHome() const { return (dir.path() / "store").string(); }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(SecurityDemo, PoliciesAllowConfirmDenyAndFilters) {
  RunResult r = demo({"--mode", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "== Mode 1: policies ALLOW / CONFIRM / DENY ==")) << r.out;
  EXPECT_TRUE(has(r.out, "[ok] offered: read_file, write_file, list_dir, read_log, deploy"));
  EXPECT_TRUE(has(r.out, "[ok] read_file {\"path\":\"README.md\"} -> result:"));
  EXPECT_TRUE(has(r.out,
                  "[ok] write_file {\"content\":\"hello\",\"path\":\"notes.txt\"} -> "
                  "denied: Blocked by toolguard (tool-policy): tool write_file has policy "
                  "confirm. It needs a person's approval and none can be asked"));
  EXPECT_TRUE(has(r.out, "[ok] drop_database {\"name\":\"customers\"} -> denied:"));
  EXPECT_TRUE(has(r.out, "aws_access_key_id = [REDACTED]"));
  EXPECT_TRUE(has(r.out, "[toolguard: output truncated: 200 of"));
  EXPECT_FALSE(has(r.out, "[UNEXPECTED]"));
  EXPECT_TRUE(has(r.out, "mode 1: every step as expected"));
}

TEST_F(SecurityDemo, ArgumentAndPathValidation) {
  RunResult r = demo({"--mode", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "[ok] read_file {\"path\":42} -> denied:")) << r.out;
  EXPECT_TRUE(has(r.out, "required property \"content\" is missing"));
  EXPECT_TRUE(has(r.out, "sanitized to: {\"path\":\"README.md\"}"));
  EXPECT_TRUE(has(r.out, "validator plain-branch rejected the arguments"));
  EXPECT_TRUE(has(r.out,
                  "[ok] write_file {\"content\":\"x\",\"path\":\"../../etc/passwd\"} -> "
                  "denied:"));
  EXPECT_TRUE(has(r.out, "(rule write-outside-workspace): the file is outside the workspace"));
  EXPECT_TRUE(has(r.out, "(rule system-write)"));
  EXPECT_TRUE(has(r.out, "(rule private-key-read): reading private keys"));
  EXPECT_TRUE(has(r.out, "control character 0x1B"));
  EXPECT_TRUE(has(r.out, "[ok] isSafeShellArg(\"$(reboot)\") -> unsafe:"));
  EXPECT_TRUE(has(r.out, "[ok] isSafeShellArg(\"main\") -> safe"));
  EXPECT_FALSE(has(r.out, "[UNEXPECTED]"));
}

TEST_F(SecurityDemo, PromptAnsweredFromTheScript) {
  RunResult r = demo({"--mode", "3", "--answers", "y,n:write it to the docs folder"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "toolguard: a tool call needs your approval")) << r.out;
  EXPECT_TRUE(has(r.out, "settled by: callback, answer: allow-once"));
  EXPECT_TRUE(has(r.out,
                  "[ok] write_file {\"content\":\"first draft\",\"path\":\"notes.txt\"} "
                  "-> result: \"wrote 11 bytes"));
  EXPECT_TRUE(has(r.out, "settled by: callback, answer: deny"));
  EXPECT_TRUE(has(r.out,
                  "the model receives: Blocked by toolguard: A person declined this "
                  "call: write it to the docs folder."));
  EXPECT_FALSE(has(r.out, "[UNEXPECTED]"));
}

TEST_F(SecurityDemo, PromptWithTooFewAnswersDeniesTheRest) {
  RunResult r = demo({"--mode", "3", "--answers", "y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "scripted answer: none left (deny)")) << r.out;
  EXPECT_TRUE(has(r.out, "no scripted answer left"));
}

TEST_F(SecurityDemo, PromptOnARealTerminal) {
  // stdin and stdout are pipes; the prompt is on the pty (/dev/tty).
  PtySession session(SECURITY_DEMO_BINARY, {"--mode", "3"}, "", env(), dir.path().string());
  ASSERT_TRUE(session.waitFor("Choice: ")) << session.screen();
  session.type("1");  // allow once
  ASSERT_TRUE(session.waitFor("Choice: ")) << session.screen();
  session.type("3");  // deny, with a reason
  ASSERT_TRUE(session.waitFor("Reason for the model")) << session.screen();
  session.type("not in plan.md\r");
  std::string out, err;
  ASSERT_EQ(session.finish(out, err), 0) << out << err;
  EXPECT_TRUE(has(out, "terminalApprovalHandler")) << out;
  EXPECT_TRUE(has(out, "settled by: terminal, answer: allow-once"));
  EXPECT_TRUE(has(out, "A person declined this call: not in plan.md."));
}

TEST_F(SecurityDemo, PermissionsPersistAcrossProcesses) {
  RunResult first = demo({"--mode", "4", "--home", storeHome()});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(has(first.out,
                  "-- 1. before the approval is added --\n[ok] deploy "
                  "{\"target\":\"staging\"} -> denied:"))
      << first.out;
  EXPECT_TRUE(has(first.out, "[ok] added to the store: deploy: exactly deploy"));
  EXPECT_TRUE(has(first.out, "allowed by: store ("));
  EXPECT_TRUE(has(first.out, "[ok] deploy {\"target\":\"production\"} -> denied:"));
  EXPECT_TRUE(has(first.out, "\"format\": \"toolguard-approvals\""));
  EXPECT_TRUE(has(first.out, "store file: " + storeHome() + "/approvals/projects/"));

  // A second process finds the approval: the first call is allowed at once.
  RunResult second = demo({"--mode", "4", "--home", storeHome()});
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_TRUE(has(second.out, "the approval is already in the store")) << second.out;
  EXPECT_TRUE(has(second.out,
                  "-- 1. before the approval is added --\n"
                  "   the approval is already in the store (from an earlier run "
                  "with this --home):\n   the first call is allowed from the store\n"
                  "[ok] deploy {\"target\":\"staging\"} -> result: \"would deploy"));
  EXPECT_TRUE(has(second.out, "[ok] already in the store: deploy: exactly deploy"));
  EXPECT_TRUE(has(second.out, "[ok] deploy {\"target\":\"production\"} -> denied:"));
}

TEST_F(SecurityDemo, LeavesNothingBehindWithoutHome) {
  RunResult r = demo({"--mode", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::is_empty(dir.path() / "tmp"));                 // its scratch directory is gone
  EXPECT_FALSE(fs::exists(dir.path() / "home" / ".toolguard"));  // ~/.toolguard untouched
}

TEST_F(SecurityDemo, MenuRunsTheChosenModeAndQuits) {
  RunResult r = demo({}, "2\nq\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "  4  Persistent permissions")) << r.out;
  EXPECT_TRUE(has(r.out, "== Mode 2: argument and path validation =="));
  EXPECT_TRUE(has(r.out, "mode 2: every step as expected"));
  EXPECT_FALSE(has(r.out, "== Mode 1"));
}

TEST_F(SecurityDemo, BadUsageExitsWith2) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--mode", "5"},
                                             {"--mode", "0"},
                                             {"--mode", "x"},
                                             {"--mode"},
                                             {"--answers", "maybe"},
                                             {"--frobnicate"}}) {
    RunResult r = demo(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_TRUE(has(r.err, "usage: security_demo")) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace security_demo_test
}  // namespace toolguard::testing
