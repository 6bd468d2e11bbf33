// `content:` rules: terms and patterns anywhere in a call. A property test
// generates the neighbours of a mention a model could write to slip past.
#include <gtest/gtest.h>

#include <random>

#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard {
namespace content_matcher_test {

using nlohmann::json;

Engine engineAborting(std::vector<std::string> terms, std::vector<std::string> patterns = {}) {
  RuleSpec spec;
  spec.header.id = "mentions";
  spec.content = ContentMatcher{std::move(terms), std::move(patterns), {}};
  spec.verdict = Verdict::Abort;
  return PolicyBuilder().rule(std::move(spec)).build();
}

Verdict verdictOf(const Engine& e, const std::string& tool, json args) {
  ToolCall call;
  call.tool = tool;
  call.args = std::move(args);
  call.context.cwd = "/work/app";
  return e.decide(call).verdict;
}

// The mention hidden at a random depth, as a value or a key.
json buried(const std::string& text, std::mt19937& random) {
  json value = text;
  const int depth = static_cast<int>(random() % 6);
  for (int i = 0; i < depth; ++i) {
    switch (random() % 3) {
      case 0:
        value = json::array({1, value, nullptr});
        break;
      case 1:
        value = json{{"k" + std::to_string(i), value}, {"other", "plain"}};
        break;
      default:
        value = json{{text, true}};  // as a key
    }
  }
  return json{{"payload", value}};
}

TEST(ContentMatcher, EveryNeighbourOfAMentionMatchesAnywhereInTheCall) {
  Engine e = engineAborting({"prod-db"});
  const std::vector<std::string> invisible = {"\u200b", "\u200c", "\u200d",
                                              "\u2060", "\ufeff", "\u00ad"};
  std::mt19937 random(39);
  size_t tried = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string term = "prod-db";
    for (char& c : term) {
      if (random() % 2 && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    std::string spelled;
    for (char c : term) {
      spelled += c;
      if (random() % 3 == 0) spelled += invisible[random() % invisible.size()];
    }
    const std::string text = "host=" + spelled + ".internal";
    ASSERT_EQ(verdictOf(e, "mcp__db__query", buried(text, random)), Verdict::Abort) << text;
    ++tried;
  }
  EXPECT_EQ(tried, 2000u);
}

TEST(ContentMatcher, TheShellSeesWordsAsTheShellWill) {
  Engine e = engineAborting({"prod-db"});
  for (const char* command : {"psql -h prod-db", "psql -h pro''d-db", "psql -h \"prod\"-db",
                              "psql -h pro\\d-db", "psql -h $'prod-db'", "X=prod-db psql",
                              "cat > prod-db.txt <<EOF\nx\nEOF", "cat <<EOF\nhost prod-db\nEOF"}) {
    EXPECT_EQ(verdictOf(e, "Bash", {{"command", command}}), Verdict::Abort) << command;
  }
  EXPECT_NE(verdictOf(e, "Bash", {{"command", "psql -h dev-db"}}), Verdict::Abort);
}

// A glob mentions what it expands to where the call runs.
TEST(ContentMatcher, AGlobMentionsTheNamesItExpandsTo) {
  testing::TempDir dir;
  dir.write("prod-db.conf", "x");
  Engine e = engineAborting({"prod-db"});
  auto in = [&](const std::string& tool, json args) {
    ToolCall call;
    call.tool = tool;
    call.args = std::move(args);
    call.context.cwd = dir.path().string();
    return e.decide(call).verdict;
  };
  for (const char* command : {"cat prod-d?.conf", "cat prod-d[b].conf", "cat pro*.conf",
                              "grep -r secret prod-d*", "cat ./p*-db.conf > /dev/null"}) {
    EXPECT_EQ(in("Bash", {{"command", command}}), Verdict::Abort) << command;
  }
  EXPECT_EQ(in("Glob", {{"pattern", "prod-d*"}}), Verdict::Abort);
  EXPECT_EQ(in("Read", {{"file_path", dir.path().string() + "/prod-d?.conf"}}), Verdict::Abort);
  EXPECT_NE(in("Bash", {{"command", "cat dev-d?.conf"}}), Verdict::Abort);
}

TEST(ContentMatcher, OtherTextsAndNumbersDoNotMatch) {
  Engine e = engineAborting({"prod-db"}, {"AKIA[0-9A-Z]{16}"});
  EXPECT_NE(verdictOf(e, "t", {{"a", "prod_db"}, {"b", 5}, {"c", json::array({"pro", "d-db"})}}),
            Verdict::Abort);
  EXPECT_EQ(verdictOf(e, "t", {{"key", "x AKIAABCDEFGHIJKLMNOP y"}}), Verdict::Abort);
  EXPECT_NE(verdictOf(e, "t", {{"key", "akiaabcdefghijklmnop"}}), Verdict::Abort)
      << "patterns are case-sensitive unless they say (?i)";
}

TEST(ContentMatcher, ABadPatternOrAnEmptyTermIsAPolicyError) {
  EXPECT_THROW(engineAborting({}, {"(unclosed"}), PolicyError);
  EXPECT_THROW(engineAborting({""}), PolicyError);
  EXPECT_THROW(engineAborting({}), PolicyError);
}

}  // namespace content_matcher_test
}  // namespace toolguard
