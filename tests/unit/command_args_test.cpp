// GNU-style argument parsing of shell commands (src/commands/command_args).
#include "commands/command_args.hpp"

#include <gtest/gtest.h>

namespace toolguard::detail {
namespace command_args_test {

std::vector<ShellWord> words(std::initializer_list<const char*> texts) {
  std::vector<ShellWord> out;
  for (const char* t : texts) out.push_back(ShellWord{t, false, t});
  return out;
}

TEST(CommandArgs, LongOptionsNamedTakeTheNextWordOthersDoNot) {
  const CommandArgs a =
      parseArgs(words({"--file", "f.txt", "--quiet", "x", "--max-count=3", "-rf", "y"}), "e",
                {"--file", "--max-count"});
  EXPECT_TRUE(a.hasLong("--file"));
  EXPECT_TRUE(a.hasLong("--quiet"));
  EXPECT_TRUE(a.has('r') && a.has('f'));
  ASSERT_EQ(a.valuesOf({"--file"}).size(), 1u);
  EXPECT_EQ(a.valuesOf({"--file"})[0].text, "f.txt");
  EXPECT_EQ(a.valuesOf({"--max-count"})[0].text, "3");
  ASSERT_EQ(a.operands.size(), 2u);
  EXPECT_EQ(a.operands[0].text, "x");
  EXPECT_EQ(a.operands[1].text, "y");
}

TEST(CommandArgs, OptionNamesHoldUpToTheirCapacity) {
  const OptionNames names = {"--a", "--b"};
  EXPECT_TRUE(names.contains("--b"));
  EXPECT_FALSE(names.contains("--c"));
  EXPECT_FALSE(OptionNames{}.contains(""));
  // A list longer than OptionNames::kCapacity does not compile (consteval).
}

}  // namespace command_args_test
}  // namespace toolguard::detail
