// A shell call rewritten to run under `toolguard sandbox` hands the sandbox
// exactly the command bash would have run: checked by bash itself on every
// allowed command of the corpora, which reach a recorder instead of running.
#include "cli/sandboxed_command.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::cli {
namespace {

std::vector<std::string> allowedCommands() {
  std::vector<std::string> commands;
  for (const char* corpus : {"shell-corpus.yaml", "everyday-commands.yaml"}) {
    const YAML::Node file =
        YAML::LoadFile(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/" + corpus);
    for (const YAML::Node& c : file["tests"]) {
      if (c["command"] && c["expect"] && c["expect"].as<std::string>() == "allow") {
        commands.push_back(c["command"].as<std::string>());
      }
    }
  }
  return commands;
}

TEST(SandboxedCommand, BashHandsTheSandboxTheCommandByteForByte) {
  std::vector<std::string> commands = allowedCommands();
  ASSERT_GT(commands.size(), 300u);
  // Words no corpus has, that quoting gets wrong most easily.
  for (const char* hard :
       {"echo 'it'\\''s'", "printf '%s\\n' \"$HOME\" $'a\\tb'", "echo \\\\; echo '\\''",
        "cat <<'EOF'\nline with 'quotes' and $VAR\nEOF", "echo \"!\" '!!' `true` $(true)", "", " ",
        "'", "\"", "a\nb", "echo é 日本"}) {
    commands.push_back(hard);
  }
  front::PolicyOptions policy;
  policy.policy_files = {"/etc/tool guard/it's.yaml"};
  policy.no_user = true;
  const std::vector<std::string> workspaces = {"/work/my project", "/tmp/x'y"};
  // One bash reads every rewritten command; `record_argv`, a function, stands
  // for the toolguard binary and prints the words it was given.
  std::string script = "record_argv() { printf '%s\\0' \"$@\"; printf '\\1'; }\n";
  for (const std::string& command : commands) {
    script += sandboxedShellCommand("record_argv", workspaces, policy, command) + "\n";
  }
  testing::TempDir dir;
  dir.write("script.sh", script);
  testing::RunResult r = testing::runBinary(
      "/bin/bash", {"--norc", "--noprofile", (dir.path() / "script.sh").string()}, "",
      {{"HOME", dir.path().string()}}, dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  size_t start = 0;
  for (const std::string& command : commands) {
    const size_t end = r.out.find('\1', start);
    ASSERT_NE(end, std::string::npos) << "no record for: " << command;
    std::vector<std::string> words;
    for (size_t at = start; at < end;) {
      const size_t nul = r.out.find('\0', at);
      words.push_back(r.out.substr(at, nul - at));
      at = nul + 1;
    }
    start = end + 1;
    const std::vector<std::string> expected = {"sandbox",
                                               "--workspace",
                                               "/work/my project",
                                               "--workspace",
                                               "/tmp/x'y",
                                               "--policy",
                                               "/etc/tool guard/it's.yaml",
                                               "--no-user",
                                               "--",
                                               "bash",
                                               "-c",
                                               command};
    EXPECT_EQ(words, expected) << command;
  }
  EXPECT_EQ(start, r.out.size());
}

}  // namespace
}  // namespace toolguard::cli
