// A program written against the first C++ agent framework's security API,
// compiled with toolguard's compatibility header: the same calls, toolguard's
// decisions behind them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "toolguard/compat/tool_security.hpp"

using toolguard::compat::ConfirmResult;
using toolguard::compat::ToolSecurityManager;
using toolguard::compat::ToolSecurityPolicy;

namespace seed_api_compat_test {

struct Home {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("seed-api-" + std::to_string(::getpid()) + "-" +
                                                std::to_string(reinterpret_cast<uintptr_t>(this)));
  Home() { std::filesystem::create_directories(dir); }
  ~Home() { std::filesystem::remove_all(dir); }
};

// The seed's style: policies per tool, a confirm callback, hooks, and the
// manager asked before each call runs.
TEST(SeedApiCompat, AProgramInTheSeedsStyleRunsOnToolguard) {
  Home home;
  ToolSecurityManager security(home.dir.string());
  security.setWorkingDirectory("/work/app");
  security.setDefaultPolicy(ToolSecurityPolicy::CONFIRM);
  security.setToolPolicy("read_file", ToolSecurityPolicy::ALLOW);
  security.setToolPolicy("delete_file", ToolSecurityPolicy::DENY);

  int confirmations = 0;
  ConfirmResult next = ConfirmResult::ALLOW_ONCE;
  security.setConfirmCallback([&](const std::string& tool, const nlohmann::json&) {
    ++confirmations;
    EXPECT_EQ(tool, "write_file");
    return next;
  });
  security.setValidatePath([](const std::string& path, std::string& error) {
    if (path.starts_with("/work/app/")) return true;
    error = "outside the project: " + path;
    return false;
  });
  security.setValidateArgs(
      [](const std::string& tool, const nlohmann::json& args, std::string& error) {
        if (tool == "write_file" && args.value("content", "").size() > 100) {
          error = "content too long";
          return false;
        }
        return true;
      });

  EXPECT_TRUE(security.checkToolCall("read_file", {{"path", "src/main.cpp"}}));
  std::string why;
  EXPECT_FALSE(security.checkToolCall("delete_file", {{"path", "a.txt"}}, &why));
  EXPECT_FALSE(security.checkToolCall("read_file", {{"path", "../other/secret"}}, &why));
  EXPECT_NE(why.find("outside the project: /work/other/secret"), std::string::npos) << why;
  EXPECT_FALSE(security.checkToolCall(
      "write_file", {{"path", "a.txt"}, {"content", std::string(200, 'x')}}, &why));
  EXPECT_NE(why.find("content too long"), std::string::npos) << why;
  EXPECT_EQ(confirmations, 0) << "a refused call is never put to the person";

  // CONFIRM asks; ALLOW_ONCE allows this call only.
  EXPECT_TRUE(security.checkToolCall("write_file", {{"path", "a.txt"}, {"content", "x"}}));
  EXPECT_EQ(confirmations, 1);
  next = ConfirmResult::DENY;
  EXPECT_FALSE(security.checkToolCall("write_file", {{"path", "a.txt"}, {"content", "y"}}, &why));
  EXPECT_EQ(confirmations, 2);
  // ALWAYS_ALLOW is kept in the store: no more questions, in this manager or the next.
  next = ConfirmResult::ALWAYS_ALLOW;
  EXPECT_TRUE(security.checkToolCall("write_file", {{"path", "b.txt"}, {"content", "z"}}));
  EXPECT_TRUE(security.isAlwaysAllowed("write_file"));
  EXPECT_TRUE(security.checkToolCall("write_file", {{"path", "c.txt"}, {"content", "w"}}));
  EXPECT_EQ(confirmations, 3);
  ToolSecurityManager later(home.dir.string());
  later.setWorkingDirectory("/work/app");
  EXPECT_TRUE(later.isAlwaysAllowed("write_file"));
  EXPECT_TRUE(later.checkToolCall("write_file", {{"path", "d.txt"}, {"content", "v"}}));

  // toolguard's protections hold under the seed's API: no confirm callback
  // can be talked into a deny, and secrets still ask.
  EXPECT_FALSE(security.checkToolCall("run_shell_command", {{"command", "rm -rf ~"}}));
  EXPECT_TRUE(ToolSecurityManager::isSafeShellArg("main"));
  EXPECT_FALSE(ToolSecurityManager::isSafeShellArg("main; rm -rf ~"));
}

TEST(SeedApiCompat, NoConfirmCallbackAndADenyDefaultFailClosed) {
  Home home;
  ToolSecurityManager security(home.dir.string());
  security.setWorkingDirectory("/work/app");
  EXPECT_FALSE(security.checkToolCall("write_file", {{"path", "a.txt"}, {"content", "x"}}));
  security.setDefaultPolicy(ToolSecurityPolicy::DENY);
  security.setToolPolicy("read_file", ToolSecurityPolicy::ALLOW);
  EXPECT_TRUE(security.checkToolCall("read_file", {{"path", "a.txt"}}));
  for (const char* tool : {"write_file", "edit_file", "move_file", "run_shell_command", "Bash"}) {
    EXPECT_FALSE(security.checkToolCall(tool, {{"path", "a.txt"}, {"command", "ls"}})) << tool;
  }
  // The seed's plain always-allowed file is read as it is.
  std::filesystem::create_directories(home.dir / "approvals");
  std::ofstream(home.dir / "approvals" / "global.json")
      << R"({"version": 1, "allowed_tools": ["list_directory"]})";
  EXPECT_TRUE(security.isAlwaysAllowed("list_directory"));
}

TEST(SeedApiCompat, TheStdinConfirmCallbackReadsOneAnswerPerCall) {
  std::istringstream in("y\na\nn\n");
  std::ostringstream out;
  auto confirm = toolguard::compat::stdinConfirmCallback(in, out);
  EXPECT_EQ(confirm("write_file", {{"path", "a"}}), ConfirmResult::ALLOW_ONCE);
  EXPECT_EQ(confirm("write_file", {{"path", "a"}}), ConfirmResult::ALWAYS_ALLOW);
  EXPECT_EQ(confirm("write_file", {{"path", "a"}}), ConfirmResult::DENY);
  EXPECT_EQ(confirm("write_file", {{"path", "a"}}), ConfirmResult::DENY) << "end of input denies";
  EXPECT_NE(out.str().find("Allow write_file {\"path\":\"a\"}?"), std::string::npos) << out.str();
}

}  // namespace seed_api_compat_test
