#include "toolguard/policy_tests.hpp"

#include <gtest/gtest.h>

#include "toolguard/policy_builder.hpp"

namespace toolguard {
namespace policy_tests_test {

TEST(PolicyTests, ParsesAndRunsCases) {
  const std::string text = R"(
tests:
  - name: etc is denied
    tool: Write
    args: {file_path: /etc/passwd}
    expect: deny
    rule: system-write
  - command: sudo ls
    expect: ask
  - tool: Write
    args: {file_path: /tmp/x}
    context: {mode: headless}
    expect: deny
  - tool: Read
    args: {file_path: README.md}
    expect: deny
)";
  ASSERT_TRUE(isPolicyTestText(text));
  auto cases = parsePolicyTests(text, "t.yaml");
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[1].call.tool, "Bash");
  EXPECT_EQ(cases[0].where.line, 3);
  Engine engine = PolicyBuilder().profile("default").build();
  EXPECT_TRUE(runPolicyTest(engine, cases[0]).passed);
  EXPECT_TRUE(runPolicyTest(engine, cases[1]).passed);
  EXPECT_TRUE(runPolicyTest(engine, cases[2]).passed);
  EXPECT_FALSE(runPolicyTest(engine, cases[3]).passed);  // Read is allowed
}

// A case's env is the agent's environment it is judged under; without one
// a case sees a clean agent's, whatever the process running the tests has.
TEST(PolicyTests, CasesAreJudgedUnderTheirOwnEnvironment) {
  const std::vector<PolicyTestCase> cases = parsePolicyTests(
      "tests:\n"
      "  - command: pytest -q\n"
      "    expect: allow\n"
      "  - command: pytest -q\n"
      "    env: {PYTEST_ADDOPTS: -p evil_plugin}\n"
      "    expect: ask\n"
      "  - command: ls\n"
      "    env: {PATH: '.:/usr/bin:/bin'}\n"
      "    expect: ask\n",
      "t.yaml");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[1].environment, std::vector<std::string>{"PYTEST_ADDOPTS=-p evil_plugin"});
  Engine engine = PolicyBuilder().profile("default").build();
  for (const PolicyTestCase& test : cases) {
    EXPECT_TRUE(runPolicyTest(engine, test).passed) << test.name;
  }
  try {
    parsePolicyTests("tests:\n  - command: ls\n    env: [A]\n    expect: ask\n", "t.yaml");
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_EQ(e.errors()[0].where.toString(), "t.yaml:3:10");
  }
}

TEST(PolicyTests, BadTestFilesNameTheLine) {
  try {
    parsePolicyTests("tests:\n  - tool: Read\n    expect: maybe\n", "t.yaml");
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_EQ(e.errors()[0].where.toString(), "t.yaml:3:13");
  }
  EXPECT_THROW(parsePolicyTests("tests:\n  - expect: deny\n", "t.yaml"), PolicyError);
  EXPECT_FALSE(isPolicyTestText("rules: []\n"));
}

}  // namespace policy_tests_test
}  // namespace toolguard
