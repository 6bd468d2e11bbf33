// The directory each shell command runs in, worked out once per program
// (CallView's memo), against reading every `cd` before each command.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "commands/shell_facts.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard {
namespace command_cwds_test {

// The directory of every command of `command`, through the view's memo and
// by reading the moves before each command (a copy of the program is not
// the view's, so it takes the reading path).
void expectSameDirectories(const std::string& command) {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", command}};
  call.context.cwd = "/w/app";
  const CallView view(call, ToolCatalog::builtin().resolve("Bash"));
  const ShellProgram* program = view.shellProgram();
  ASSERT_NE(program, nullptr);
  const ShellProgram copy = *program;
  const std::string& home = view.home();
  // Twice through the memo: the second time reads what the first kept.
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < program->commands.size(); ++i) {
      const detail::CommandScene memo{program->commands[i], *program, view, home};
      const detail::CommandScene read{copy.commands[i], copy, view, home};
      EXPECT_EQ(detail::effectiveCwd(memo), detail::effectiveCwd(read))
          << command << " (command " << i << ": " << program->commands[i].text << ")";
    }
  }
}

TEST(CommandCwds, FollowTheCdsBeforeEachCommand) {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", "ls a; cd src && ls b; cd - ; ls c; pushd /etc; ls d; cd; ls e"}};
  call.context.cwd = "/w/app";
  const CallView view(call, ToolCatalog::builtin().resolve("Bash"));
  const ShellProgram& program = *view.shellProgram();
  std::vector<std::optional<std::string>> got;
  for (const SimpleCommand& c : program.commands) {
    if (c.name() != "ls") continue;
    got.push_back(detail::effectiveCwd({c, program, view, view.home()}));
  }
  const std::vector<std::optional<std::string>> want = {"/w/app", "/w/app/src", std::nullopt,
                                                        std::nullopt, view.home()};
  EXPECT_EQ(got, want);
}

TEST(CommandCwds, TheMemoAgreesWithReadingEveryCd) {
  const std::vector<std::string> parts = {"cd a",
                                          "cd /x",
                                          "pushd b",
                                          "cd",
                                          "cd -",
                                          "cd $D",
                                          "ls f",
                                          "cd ..",
                                          "env -C /e ls g",
                                          "sudo cd /root",
                                          "bash -c 'cd q; ls y'",
                                          "cd ~/p",
                                          "xargs cd",
                                          "(cd sub; ls h)",
                                          "cd './with space'"};
  const std::vector<std::string> joins = {"; ", " && ", " || ", " | ", "\n"};
  std::mt19937 random(11);
  for (int n = 0; n < 300; ++n) {
    std::string command;
    const int length = 1 + static_cast<int>(random() % 12);
    for (int i = 0; i < length; ++i) {
      if (i > 0) command += joins[random() % joins.size()];
      command += parts[random() % parts.size()];
    }
    expectSameDirectories(command);
  }
}

}  // namespace command_cwds_test
}  // namespace toolguard
