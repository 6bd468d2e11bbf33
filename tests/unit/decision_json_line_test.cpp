// decisionJsonLine writes the same bytes as dumpLine(decisionToJson(...)):
// on every call of the shell corpus, and on decisions with every optional
// member (approval, llm, sanitized arguments, text that is not UTF-8).
#include <gtest/gtest.h>

#include "front/call_json.hpp"
#include "support/shell_corpus.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace decision_json_line_test {

void expectSameLine(const Decision& d, const std::string& tool) {
  EXPECT_EQ(front::decisionJsonLine(d, tool), front::dumpLine(front::decisionToJson(d, tool)));
}

TEST(DecisionJsonLine, SameBytesOnTheShellCorpus) {
  Guard guard{Engine(loadPolicy(PolicySources{}))};
  const auto cases = testing::shellCorpusCases();
  ASSERT_GT(cases.size(), 1000u);
  for (const PolicyTestCase& test : cases) {
    SCOPED_TRACE(test.name);
    expectSameLine(guard.decide(test.call), test.call.tool);
  }
}

TEST(DecisionJsonLine, SameBytesWithEveryOptionalMember) {
  Decision d;
  d.verdict = Verdict::Deny;
  d.policy_verdict = Verdict::Escalate;
  d.reason = "quote \" backslash \\ newline \n tab \t bell \x07 bad \xff utf8 \xe2\x82";
  d.model_reason = "caf\xc3\xa9 \xf0\x9f\x98\x80";
  d.resolution = "asked";
  d.approval_key = "Bash {\"command\":\"ls\"}";
  d.decided_on = "ls";
  d.sanitized_args = nlohmann::json{{"b", {1, 2.5, nullptr, true}}, {"a", "x\x01"}};
  d.id = "abc";
  d.rule_id = "r1";
  d.source = SourceLocation{"/p/team.yaml", 3, 7};
  d.basis = DecisionBasis::LlmValidator;
  d.approval =
      ApprovalResolution{"terminal", "deny", "exact", "v", "session", "s1", "f", "no", "alice"};
  auto llm = std::make_shared<LlmReview>();
  llm->verdict = LlmVerdict::Deny;
  llm->answered = true;
  llm->reason = "looks bad";
  llm->model = "m";
  llm->exchanges.resize(2);
  d.llm = llm;
  d.labels = {"untrusted", "after:r#1", "bad \xff"};
  expectSameLine(d, "To\"ol");
  d.approval = ApprovalResolution{};  // every member empty: {}
  d.llm.reset();
  d.sanitized_args.reset();
  d.rule_id.clear();
  d.policy_verdict = d.verdict;
  d.resolution.clear();
  expectSameLine(d, "");
}

}  // namespace decision_json_line_test
}  // namespace toolguard
