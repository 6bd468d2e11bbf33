// A thread's kept shell parses: the same script, home and depth give the
// same program back; anything else is parsed anew; and a decision made on a
// kept program is the decision a fresh parse gives, on every call of the
// shell corpus.
#include "shell_unwrap/shell_program_cache.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "front/call_json.hpp"
#include "support/shell_corpus.hpp"
#include "support/shell_summary.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace shell_program_cache_test {

using Lines = std::vector<std::string>;

ShellParseOptions withHome(std::string home) {
  ShellParseOptions options;
  options.home = std::move(home);
  return options;
}

TEST(ShellProgramCache, TheSameScriptGivesTheKeptProgram) {
  const auto first = detail::parsedShellProgram("rm -rf ~/build", withHome("/home/a"));
  const auto again = detail::parsedShellProgram("rm -rf ~/build", withHome("/home/a"));
  EXPECT_EQ(first.get(), again.get());
  EXPECT_EQ(testing::summary(*first), Lines{"rm -rf /home/a/build"});
}

TEST(ShellProgramCache, AnotherHomeOrDepthIsParsedAnew) {
  const auto a = detail::parsedShellProgram("rm -rf ~/build", withHome("/home/a"));
  const auto b = detail::parsedShellProgram("rm -rf ~/build", withHome("/home/b"));
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(testing::summary(*b), Lines{"rm -rf /home/b/build"});
  EXPECT_EQ(testing::summary(*detail::parsedShellProgram("rm -rf ~/build", withHome("/home/a"))),
            Lines{"rm -rf /home/a/build"});

  const std::string nested = "bash -c 'bash -c \"rm -rf /\"'";
  ShellParseOptions shallow = withHome("/home/a");
  shallow.max_unwrap_depth = 1;
  EXPECT_FALSE(detail::parsedShellProgram(nested, withHome("/home/a"))->too_deep);
  EXPECT_TRUE(detail::parsedShellProgram(nested, shallow)->too_deep);
  EXPECT_FALSE(detail::parsedShellProgram(nested, withHome("/home/a"))->too_deep);
}

TEST(ShellProgramCache, ALongScriptOrALargeProgramIsNotKept) {
  const std::string long_script = "echo " + std::string(5000, 'x');
  EXPECT_NE(detail::parsedShellProgram(long_script, withHome("/h")).get(),
            detail::parsedShellProgram(long_script, withHome("/h")).get());
  // 345 bytes that brace expansion makes into 256 words of 308 bytes.
  std::string expands = "echo " + std::string(300, 'y');
  for (int i = 0; i < 8; ++i) expands += "{a,b}";
  const auto program = detail::parsedShellProgram(expands, withHome("/h"));
  ASSERT_EQ(program->commands.size(), 1u);
  EXPECT_EQ(program->commands[0].words.size(), 257u);
  EXPECT_NE(program.get(), detail::parsedShellProgram(expands, withHome("/h")).get());
}

// A script of some 150 bytes whose program takes about 11 KiB: 32 words.
std::string midsizeScript(int n) {
  std::string script = "echo " + std::to_string(n) + std::string(120, 'y');
  for (int i = 0; i < 5; ++i) script += "{a,b}";
  return script;
}

TEST(ShellProgramCache, AThreadKeepsAQuarterMegabyteAtMost) {
  const auto first = detail::parsedShellProgram(midsizeScript(0), withHome("/h"));
  ASSERT_EQ(first->commands.at(0).words.size(), 33u);
  EXPECT_EQ(first.get(), detail::parsedShellProgram(midsizeScript(0), withHome("/h")).get());
  // 30 more: fewer than the 64 slots, more than the bytes.
  for (int i = 1; i <= 30; ++i) detail::parsedShellProgram(midsizeScript(i), withHome("/h"));
  EXPECT_NE(first.get(), detail::parsedShellProgram(midsizeScript(0), withHome("/h")).get());
  // The newest are still kept.
  const auto newest = detail::parsedShellProgram(midsizeScript(30), withHome("/h"));
  EXPECT_EQ(newest.get(), detail::parsedShellProgram(midsizeScript(30), withHome("/h")).get());
}

TEST(ShellProgramCache, OlderParsesMakeRoomForNewOnes) {
  const auto first = detail::parsedShellProgram("ls first", withHome("/h"));
  for (int i = 0; i < 100; ++i) {
    detail::parsedShellProgram("ls " + std::to_string(i), withHome("/h"));
  }
  const auto later = detail::parsedShellProgram("ls first", withHome("/h"));
  EXPECT_NE(first.get(), later.get());
  EXPECT_EQ(testing::summary(*later), Lines{"ls first"});
}

// What a decision says, without its id.
std::string outcome(Decision d, const std::string& tool) {
  d.id.clear();
  return front::decisionJsonLine(d, tool);
}

TEST(ShellProgramCache, KeptProgramsDecideAsFreshParsesOnTheShellCorpus) {
  Guard guard{Engine(loadPolicy(PolicySources{}))};
  const auto cases = testing::shellCorpusCases();
  ASSERT_GT(cases.size(), 1000u);
  for (const PolicyTestCase& test : cases) {
    SCOPED_TRACE(test.name);
    const std::string kept_first = outcome(guard.decide(test.call), test.call.tool);
    const std::string kept_again = outcome(guard.decide(test.call), test.call.tool);
    std::string fresh;  // a new thread keeps nothing yet
    std::thread([&] { fresh = outcome(guard.decide(test.call), test.call.tool); }).join();
    EXPECT_EQ(kept_again, fresh);
    EXPECT_EQ(kept_first, fresh);
  }
}

}  // namespace shell_program_cache_test
}  // namespace toolguard
