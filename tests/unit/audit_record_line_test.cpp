// auditRecordLine writes the same bytes as the log wrote from auditRecord's
// JSON (compactDump, bad UTF-8 replaced), and prepareDecisionRecord gives the
// database's sink what prepareAuditRecord of that JSON gives: on every call of the shell corpus,
// on decisions with every optional member, and on generated calls and
// decisions whose members are each present or not, with text that needs
// escaping, is not UTF-8, or holds secrets to redact.
#include <gtest/gtest.h>

#include <random>

#include "audit/audit_detail.hpp"
#include "json/compact_dump.hpp"
#include "support/shell_corpus.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace audit_record_line_test {

const auto kWhen = std::chrono::system_clock::time_point(std::chrono::milliseconds(1796212345678));

void expectSameLine(const ToolCall& call, Decision d) {
  if (d.id.empty()) d.id = "0123456789abcdef0123456789abcdef";  // else each draws its own
  EXPECT_EQ(detail::auditRecordLine(call, d, kWhen),
            detail::compactDump(auditRecord(call, d, kWhen), detail::BadUtf8::Replace));
  // What the database's sink is given: the same text and the same columns.
  const PreparedAuditRecord direct = prepareDecisionRecord(call, d, kWhen);
  const PreparedAuditRecord read = prepareAuditRecord(auditRecord(call, d, kWhen));
  EXPECT_EQ(direct.text, read.text);
  EXPECT_EQ(direct.time, read.time);
  EXPECT_EQ(direct.tool, read.tool);
  EXPECT_EQ(direct.verdict, read.verdict);
  EXPECT_EQ(direct.rule, read.rule);
}

TEST(AuditRecordLine, SameBytesOnTheShellCorpus) {
  Guard guard{Engine(loadPolicy(PolicySources{}))};
  const auto cases = testing::shellCorpusCases();
  ASSERT_GT(cases.size(), 1000u);
  for (const PolicyTestCase& test : cases) {
    SCOPED_TRACE(test.name);
    expectSameLine(test.call, guard.decide(test.call));
  }
}

// Text from pieces that each take a different way through the writers.
std::string someText(std::mt19937& random) {
  static const std::vector<std::string> kPieces = {
      "ls",
      "quote \" backslash \\",
      "newline \n tab \t bell \x07",
      "caf\xc3\xa9",
      "\xf0\x9f\x98\x80",
      "bad \xff",
      "cut \xe2\x82",
      "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      "Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
      "https://user:hunter2@example.com/x",
      "",
      "/home/u/project",
      "\x01\x1f"};
  std::string out;
  const int pieces = std::uniform_int_distribution<int>(0, 3)(random);
  for (int i = 0; i < pieces; ++i) {
    out += kPieces[std::uniform_int_distribution<size_t>(0, kPieces.size() - 1)(random)];
  }
  return out;
}

nlohmann::json someArguments(std::mt19937& random, int depth = 0) {
  static const std::vector<std::string> kKeys = {
      "command", "file_path", "password", "apiKey", "max_tokens", "content", "x\"y", "caf\xc3\xa9"};
  nlohmann::json out = nlohmann::json::object();
  const int members = std::uniform_int_distribution<int>(0, 4)(random);
  for (int i = 0; i < members; ++i) {
    const std::string& key =
        kKeys[std::uniform_int_distribution<size_t>(0, kKeys.size() - 1)(random)];
    switch (std::uniform_int_distribution<int>(0, 4)(random)) {
      case 0:
        out[key] = depth < 3 ? someArguments(random, depth + 1) : nlohmann::json(nullptr);
        break;
      case 1:
        out[key] = {someText(random), 7, -2.5, true, nullptr};
        break;
      case 2:
        out[key] = std::uniform_int_distribution<int>(-1000, 1000)(random);
        break;
      default:
        out[key] = someText(random);
    }
  }
  return out;
}

TEST(AuditRecordLine, SameBytesOnGeneratedCallsAndDecisions) {
  std::mt19937 random(20261202);
  auto coin = [&random] { return std::uniform_int_distribution<int>(0, 1)(random) == 1; };
  const Verdict kVerdicts[] = {Verdict::Allow, Verdict::Ask, Verdict::Deny, Verdict::Abort,
                               Verdict::Escalate};
  auto verdict = [&] { return kVerdicts[std::uniform_int_distribution<int>(0, 4)(random)]; };
  for (int round = 0; round < 2000; ++round) {
    SCOPED_TRACE(round);
    ToolCall call;
    call.tool = coin() ? "Bash" : someText(random);
    call.args = someArguments(random);
    CallContext& c = call.context;
    if (coin()) c.cwd = someText(random);
    if (coin()) c.workspace_roots = {someText(random), "/w"};
    if (coin()) c.agent = someText(random);
    if (coin()) c.session = someText(random);
    if (coin()) c.model = someText(random);
    if (coin()) c.role = someText(random);
    if (coin()) c.mcp_server = someText(random);
    c.mode = coin() ? InteractionMode::Headless : InteractionMode::Interactive;
    c.confined = coin();
    Decision d;
    d.verdict = verdict();
    d.policy_verdict = coin() ? d.verdict : verdict();
    d.reason = someText(random);
    if (coin()) d.rule_id = someText(random);
    if (coin()) d.source = SourceLocation{someText(random), 3, 7};
    d.basis = coin() ? DecisionBasis::Rule : DecisionBasis::LlmValidator;
    if (coin()) d.resolution = someText(random);
    if (coin()) d.decided_on = someText(random);
    if (coin()) d.id = someText(random);
    if (coin()) d.sanitized_args = someArguments(random);
    if (coin()) d.extra = coin() ? someArguments(random) : nlohmann::json(someText(random));
    if (coin()) d.labels = {someText(random), "untrusted"};
    if (coin()) {
      ApprovalResolution a;
      for (std::string* member : {&a.by, &a.outcome, &a.binding, &a.value, &a.scope, &a.scope_id,
                                  &a.file, &a.reason, &a.person}) {
        if (coin()) *member = someText(random);
      }
      if (coin()) {
        a.value = "Bash " + detail::compactDump(someArguments(random), detail::BadUtf8::Replace);
      }
      d.approval = a;
    }
    if (coin()) {
      auto llm = std::make_shared<LlmReview>();
      llm->verdict = coin() ? LlmVerdict::Deny : LlmVerdict::Allow;
      llm->answered = coin();
      llm->cached = coin();
      llm->reason = someText(random);
      llm->model = someText(random);
      if (coin()) llm->skills = {someText(random)};
      llm->exchanges.resize(std::uniform_int_distribution<size_t>(0, 3)(random));
      d.llm = llm;
    }
    expectSameLine(call, d);
  }
}

TEST(AuditRecordLine, TheLogWritesTheSameRecordThroughEitherPath) {
  const std::string dir = ::testing::TempDir() + "/audit-record-line";
  std::filesystem::remove_all(dir);
  AuditLog log(AuditLogOptions{dir + "/audit.jsonl"});
  ToolCall call;
  call.tool = "Write";
  call.args = {{"file_path", "src/a.cpp"}, {"token", "secret-value"}};
  call.context.cwd = "/w";
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Allow;
  d.reason = "inside the workspace";
  d.id = "fixed";
  log.writeDecision(call, d, kWhen);
  log.writeRecord(auditRecord(call, d, kWhen));
  std::ifstream in(dir + "/audit.jsonl");
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 3u);  // the anchor, then the two
  records[1].erase("prev_hash");
  records[2].erase("prev_hash");
  EXPECT_EQ(records[1], records[2]);
  EXPECT_EQ(records[1]["args"]["token"], "[REDACTED]");
}

}  // namespace audit_record_line_test
}  // namespace toolguard
