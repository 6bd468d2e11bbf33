// The prescan of what a program may assign, and the text filter that lets
// most command lines skip it.
#include "shell_parse/assigned_names.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include "shell_parse/bash_tree.hpp"

namespace toolguard::detail {
namespace assigned_names_test {

AssignedNames namesOf(const std::string& text) {
  const BashTree tree(text);
  return assignedNames(tree.root(), tree, {});
}

TEST(AssignedNames, FindsWhatAProgramMayAssign) {
  EXPECT_EQ(namesOf("X=1; for i in a; do :; done").names,
            (std::set<std::string, std::less<>>{"X", "i"}));
  EXPECT_TRUE(namesOf("read -r line").names.count("line"));
  EXPECT_TRUE(namesOf("eval \"$x\"").runs_code);
  EXPECT_TRUE(namesOf("set -- a").positional);
  // A glob or brace expansion in the name may make `read` (a file named
  // read in the directory): anything may change.
  EXPECT_TRUE(namesOf("r?ad X").everything);
  EXPECT_TRUE(namesOf("{rea,}d X").everything);
  EXPECT_TRUE(namesOf("git status && make -j4 test 2>&1 | tail -n 20").assignsNothing());
}

TEST(AssignedNames, TheTextFilterNeverHidesAnAssignment) {
  // Every command of the shell corpus (and some spelled to slip past a
  // filter): where the filter says nothing can be assigned, the walk agrees.
  const YAML::Node corpus =
      YAML::LoadFile(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/shell-corpus.yaml");
  std::vector<std::string> commands = {
      "r''ead X",  "re\\ad X",    "exec {fd}>f",          ". ./env", "ls; . env",
      "x=1",       "let x++",     "f() { :; }",           "shift",   "mapfile a",
      "wait -p X", "getopts a X", "select x; do :; done", "r?ad X",  "{rea,}d X"};
  for (const YAML::Node& c : corpus["tests"]) {
    if (c["command"]) commands.push_back(c["command"].as<std::string>());
  }
  size_t filtered = 0;
  for (const std::string& command : commands) {
    if (mayAssignAnything(command)) continue;
    ++filtered;
    EXPECT_TRUE(namesOf(command).assignsNothing()) << command;
  }
  EXPECT_GT(filtered, 100u);  // the filter does spare most command lines the walk
  for (size_t i = 0; i < 15; ++i) EXPECT_TRUE(mayAssignAnything(commands[i])) << commands[i];
}

}  // namespace assigned_names_test
}  // namespace toolguard::detail
