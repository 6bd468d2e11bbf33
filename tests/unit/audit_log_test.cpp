#include "toolguard/audit_log.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "audit/audit_detail.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/secret_rules.hpp"

namespace toolguard {
namespace audit_log_test {

using nlohmann::json;
using std::chrono::system_clock;
using testing::TempDir;
namespace fs = std::filesystem;

// Fake credentials of the built-in formats (never real ones).
const std::string kGithubToken = "ghp_" + std::string(36, 'a');
const std::string kPrivateKey =
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAx9f3kqKJd0bQ2uM8WnZ4b2hVfW3rQ1a3\n"
    "kZxYwVbq0lAq9mTj2Rk7cN8sP5oE1dU6gH4fL3iJ2yX0wQ==\n"
    "-----END RSA PRIVATE KEY-----";

system_clock::time_point at(const char* text) {
  auto t = parseAuditTime(text);
  if (!t) throw std::runtime_error(std::string("bad time in test: ") + text);
  return *t;
}

std::vector<std::string> readLines(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

ToolCall bashCall(const std::string& command) {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", command}};
  call.context.cwd = "/work/app";
  return call;
}

Decision decision(Verdict verdict, const std::string& rule = "", const std::string& reason = "") {
  Decision d;
  d.verdict = d.policy_verdict = verdict;
  d.rule_id = rule;
  d.reason = reason;
  d.basis = rule.empty() ? DecisionBasis::Default : DecisionBasis::Rule;
  return d;
}

// ---------------------------------------------------------------- records

TEST(AuditRecord, HasEveryField) {
  ToolCall call;
  call.tool = "Write";
  call.args = {{"file_path", "notes.txt"}, {"content", "hello"}};
  call.context.cwd = "/work/app";
  call.context.workspace_roots = {"/work/lib"};
  call.context.agent = "claude-code";
  call.context.session = "s-1";
  call.context.model = "m-1";
  call.context.role = "planner";
  call.context.mode = InteractionMode::Headless;

  Decision d;
  d.verdict = Verdict::Allow;
  d.policy_verdict = Verdict::Ask;
  d.reason = "writing outside the workspace";
  d.model_reason = "Blocked by toolguard (never recorded)";
  d.rule_id = "outside-workspace";
  d.source = SourceLocation{"policy.yaml", 12, 5};
  d.basis = DecisionBasis::Rule;
  d.resolution = "approved by a person";
  d.decided_on = "tee notes.txt";
  d.sanitized_args = json{{"file_path", "/work/app/notes.txt"}, {"content", "hello"}};
  d.id = "0123456789abcdef0123456789abcdef";
  ApprovalResolution a;
  a.by = "terminal";
  a.outcome = "always-allow";
  a.binding = "tool";
  a.value = "Write";
  a.scope = "project";
  a.scope_id = "/work/app";
  a.file = "/home/u/.toolguard/approvals/projects/app.json";
  d.approval = a;

  json r = auditRecord(call, d, at("2026-11-23T10:00:00.123Z"));
  EXPECT_EQ(r["time"], "2026-11-23T10:00:00.123Z");
  EXPECT_EQ(r["id"], "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(r["tool"], "Write");
  EXPECT_EQ(r["args"], call.args);
  EXPECT_EQ(r["sanitized_args"], *d.sanitized_args);
  EXPECT_EQ(r["context"], (json{{"cwd", "/work/app"},
                                {"workspace_roots", {"/work/lib"}},
                                {"agent", "claude-code"},
                                {"session", "s-1"},
                                {"model", "m-1"},
                                {"role", "planner"},
                                {"mode", "headless"}}));
  EXPECT_EQ(r["verdict"], "allow");
  EXPECT_EQ(r["policy_verdict"], "ask");
  EXPECT_EQ(r["reason"], "writing outside the workspace");
  EXPECT_EQ(r["rule"], "outside-workspace");
  EXPECT_EQ(r["source"], "policy.yaml:12:5");
  EXPECT_EQ(r["basis"], "rule");
  EXPECT_EQ(r["resolution"], "approved by a person");
  EXPECT_EQ(r["decided_on"], "tee notes.txt");
  EXPECT_EQ(r["approval"], (json{{"by", "terminal"},
                                 {"outcome", "always-allow"},
                                 {"binding", "tool"},
                                 {"value", "Write"},
                                 {"scope", "project"},
                                 {"scope_id", "/work/app"},
                                 {"file", "/home/u/.toolguard/approvals/projects/app.json"}}));
  EXPECT_FALSE(r.contains("model_reason"));
  EXPECT_FALSE(r.contains("approval_key"));
}

TEST(AuditRecord, OmitsWhatIsEmpty) {
  ToolCall call;
  call.tool = "Read";
  Decision d = decision(Verdict::Deny);
  ApprovalResolution a;
  a.by = "headless";
  a.reason = "nobody can answer";
  d.approval = a;
  json r = auditRecord(call, d, at("2026-01-02T03:04:05Z"));
  EXPECT_EQ(r["time"], "2026-01-02T03:04:05.000Z");
  EXPECT_EQ(r["context"], (json{{"mode", "interactive"}}));
  EXPECT_EQ(r["args"], json::object());
  EXPECT_EQ(r["reason"], "");
  EXPECT_EQ(r["basis"], "default");
  for (const char* absent : {"rule", "source", "resolution", "decided_on", "sanitized_args"}) {
    EXPECT_FALSE(r.contains(absent)) << absent;
  }
  EXPECT_EQ(r["approval"], (json{{"by", "headless"}, {"reason", "nobody can answer"}}));
  EXPECT_FALSE(
      auditRecord(call, decision(Verdict::Allow), system_clock::now()).contains("approval"));
}

TEST(AuditRecord, GeneratesARandomIdWhenTheDecisionHasNone) {
  ToolCall call = bashCall("ls");
  json a = auditRecord(call, decision(Verdict::Allow), system_clock::now());
  json b = auditRecord(call, decision(Verdict::Allow), system_clock::now());
  const std::string id = a["id"];
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_NE(a["id"], b["id"]);
}

TEST(AuditRecord, TimeIsUtcWithMillisecondsRoundedDown) {
  using namespace std::chrono;
  EXPECT_EQ(detail::formatAuditTime(system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(detail::formatAuditTime(at("2026-11-23T10:00:00.1239Z")), "2026-11-23T10:00:00.123Z");
  EXPECT_EQ(detail::formatAuditTime(at("2024-02-29T23:59:59.999999Z")), "2024-02-29T23:59:59.999Z");
  EXPECT_EQ(detail::formatAuditTime(at("1969-12-31T23:59:59.5Z")), "1969-12-31T23:59:59.500Z");
}

TEST(AuditRecord, ArgumentsTooDeepAreNotRecorded) {
  json deep = json::array();
  for (int i = 0; i < 200; ++i) deep = json::array({deep});
  ToolCall call;
  call.tool = "X";
  call.args = {{"a", deep}};
  json r = auditRecord(call, decision(Verdict::Deny), system_clock::now());
  EXPECT_EQ(r["args"], "[not recorded: nested deeper than 64 levels]");
}

TEST(AuditRecord, FreeTextFieldsAreRedacted) {
  const std::string command =
      "curl -H \"Authorization: Bearer " + kGithubToken + "\" api.github.com";
  ToolCall call = bashCall(command);
  Decision d = decision(Verdict::Ask, "secrets-in-arguments", "sends " + kGithubToken);
  d.decided_on = command;
  ApprovalResolution a;
  a.by = "terminal";
  a.outcome = "always-allow";
  a.binding = "exact";
  a.value = "Bash " + json{{"command", command}, {"password", "hunter2hunter2"}}.dump();
  a.reason = "ok with " + kGithubToken;
  d.approval = a;
  json r = auditRecord(call, d, system_clock::now());
  const std::string text = r.dump();
  EXPECT_EQ(text.find("ghp_"), std::string::npos) << text;
  EXPECT_EQ(text.find("hunter2"), std::string::npos) << text;
  EXPECT_EQ(r["args"]["command"], "curl -H \"Authorization: Bearer [REDACTED]\" api.github.com");
  EXPECT_EQ(r["decided_on"], r["args"]["command"]);
  EXPECT_EQ(r["reason"], "sends [REDACTED]");
  const json redacted_args = {{"command", r["args"]["command"]}, {"password", "[REDACTED]"}};
  EXPECT_EQ(r["approval"]["value"], "Bash " + redacted_args.dump());
  EXPECT_EQ(r["approval"]["reason"], "ok with [REDACTED]");
}

// ---------------------------------------------------------------- redaction

TEST(Redaction, ValuesUnderCredentialKeysAreRedactedWhole) {
  json args = {{"password", "hunter2"}, {"Authorization", "Basic abc"},
               {"API_KEY", 12345},      {"apiKey", "k"},
               {"x-api-key", "k"},      {"GITHUB_TOKEN", "t"},
               {"client_secret", "s"},  {"sessionToken", "s"},
               {"AWS_ACCESS_KEY", "a"}, {"private_key", "p"},
               {"Cookie", "c"},         {"credentials", {{"user", "u"}, {"pass", "p"}}},
               {"auth", {1, 2, 3}},     {"db_passwd", nullptr}};
  json out = redactSecrets(args);
  for (const auto& [key, value] : out.items()) EXPECT_EQ(value, "[REDACTED]") << key;
  EXPECT_EQ(out.size(), args.size());
}

TEST(Redaction, OrdinaryKeysAreKept) {
  json args = {{"max_tokens", 100},  {"author", "me"},   {"key", "k"},
               {"tokenizer", "bpe"}, {"path", "/tmp/x"}, {"secretary", "no"}};
  EXPECT_EQ(redactSecrets(args), args);
  for (const char* key :
       {"password",    "Passwd",      "SECRET",        "token",         "api_key",
        "apikey",      "api-key",     "ApiKey",        "APIKey",        "access_key",
        "accessKeyId", "private_key", "authorization", "Auth",          "cookie",
        "credential",  "credentials", "client_secret", "session_token", "X-Auth-Token",
        "refreshToken"}) {
    EXPECT_TRUE(detail::isCredentialKey(key)) << key;
  }
  for (const char* key : {"max_tokens", "author", "authority", "key", "monkey", "input_tokens",
                          "tokenizer", "path", "command", "content", "cookbook"}) {
    EXPECT_FALSE(detail::isCredentialKey(key)) << key;
  }
}

TEST(Redaction, SecretsInsideStringsAreReplacedAndTheRestKept) {
  EXPECT_EQ(redactSecrets("curl -H \"Authorization: Bearer " + kGithubToken + "\" https://x"),
            "curl -H \"Authorization: Bearer [REDACTED]\" https://x");
  EXPECT_EQ(redactSecrets("key:\n" + kPrivateKey + "\nend"), "key:\n[REDACTED]\nend");
  EXPECT_EQ(redactSecrets("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA"),
            "[REDACTED]");
  EXPECT_EQ(redactSecrets("git clone https://me:s3cretpw@github.com/x/y"),
            "git clone https://[REDACTED]@github.com/x/y");
  EXPECT_EQ(redactSecrets("AKIAABCDEFGHIJKLMNOP and AKIAQRSTUVWXYZ234567"),
            "[REDACTED] and [REDACTED]");
  EXPECT_EQ(redactSecrets("export AWS_SECRET_ACCESS_KEY=" + std::string(40, 'Z') + " ok"),
            "export AWS_SECRET_ACCESS_KEY=[REDACTED] ok");
  EXPECT_EQ(redactSecrets("curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA=='"),
            "curl -H 'Authorization: Basic [REDACTED]'");
  EXPECT_EQ(redactSecrets("plain text without anything secret in it"),
            "plain text without anything secret in it");
  EXPECT_EQ(redactSecrets(json(42)), 42);
}

TEST(Redaction, EveryBuiltInFormatIsRemoved) {
  const std::vector<std::string> samples = {
      kPrivateKey,
      "-----BEGIN EC PRIVATE KEY-----",
      "id AKIAIOSFODNN7EXAMPLE here",
      "aws_secret_access_key = \"" + std::string(40, 'k') + "\"",
      "AIza" + std::string(35, 'x'),
      "token " + kGithubToken,
      "github_pat_" + std::string(30, 'B'),
      "glpat-" + std::string(20, 'c'),
      "xoxb-1234567890-abcdef",
      "sk_live_" + std::string(24, 'd'),
      "rk_live_" + std::string(24, 'd'),
      "OPENAI_KEY=sk-proj-" + std::string(30, 'e'),
      "sk-ant-" + std::string(40, 'f'),
      "Authorization: bearer abcdefghijklmnopqrstuvwxyz0123",
      "authorization:basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
      "jwt "
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
      "XgL0n3I9PlFUP0THsR8U",
      "postgres://admin:pa55word@db.internal:5432/app",
  };
  for (const std::string& sample : samples) {
    ASSERT_TRUE(findSecretInText(sample)) << sample;
    const std::string out = detail::redactSecretsInText(sample);
    EXPECT_FALSE(findSecretInText(out)) << sample << " -> " << out;
    EXPECT_NE(out.find("[REDACTED]"), std::string::npos) << out;
  }
}

TEST(Redaction, NestedValuesAndKeysAreRedacted) {
  json inner = {{"note", "token " + kGithubToken}, {"password", {{"a", 1}}}};
  for (int i = 0; i < 60; ++i) inner = json{{"level", json::array({inner, i})}};
  json out = redactSecrets(inner);
  const json* node = &out;
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(node->is_object());
    EXPECT_EQ((*node)["level"][1], 59 - i);
    node = &(*node)["level"][0];
  }
  EXPECT_EQ((*node)["note"], "token [REDACTED]");
  EXPECT_EQ((*node)["password"], "[REDACTED]");

  // Keys that are secrets lose the secret; two such keys are both kept.
  json keys = {{kGithubToken, 1}, {"ghp_" + std::string(36, 'b'), 2}, {"plain", 3}};
  json out_keys = redactSecrets(keys);
  EXPECT_EQ(out_keys.size(), 3u);
  EXPECT_EQ(out_keys.dump().find("ghp_"), std::string::npos) << out_keys.dump();
  EXPECT_EQ(out_keys["[REDACTED]"], 1);
  EXPECT_EQ(out_keys["[REDACTED] (2)"], 2);
  EXPECT_EQ(out_keys["plain"], 3);
}

TEST(Redaction, VeryDeepValuesDoNotRecurse) {
  json deep = "password=" + kGithubToken;
  for (int i = 0; i < 100000; ++i) {
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  json out = redactSecrets(deep);
  const json* node = &out;
  while (node->is_array()) node = &(*node)[0];
  EXPECT_EQ(*node, "password=[REDACTED]");
}

// ---------------------------------------------------------------- writing

class AuditLogFile : public ::testing::Test {
 protected:
  TempDir dir;
  std::string path() const { return (dir.path() / "logs" / "audit.jsonl").string(); }
};

TEST_F(AuditLogFile, WritesOneLinePerRecordWithPrivateModes) {
  AuditLog log({path(), 1 << 20, 5});
  EXPECT_EQ(log.options().path, path());
  log.write(bashCall("ls"), decision(Verdict::Allow));
  log.write(bashCall("rm -rf /"), decision(Verdict::Deny, "rm-root", "deletes\neverything"));
  log.writeRecord({{"custom", true}});
  EXPECT_THROW(log.writeRecord(json::array()), AuditLogError);

  std::vector<std::string> lines = readLines(path());
  ASSERT_EQ(lines.size(), 4u);  // the anchor that starts the chain, then the records
  EXPECT_TRUE(json::parse(lines[0])["anchor"].is_object());
  EXPECT_EQ(json::parse(lines[1])["args"]["command"], "ls");
  EXPECT_EQ(json::parse(lines[2])["reason"], "deletes\neverything");
  EXPECT_EQ(json::parse(lines[3]), (json{{"custom", true}, {"prev_hash", auditHash(lines[2])}}));
  struct stat st {};
  ASSERT_EQ(::stat(path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((dir.path() / "logs").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(AuditLogFile, AWriteThatCannotHappenNamesThePath) {
  dir.write("file", "not a directory");
  const std::string bad = (dir.path() / "file" / "sub" / "audit.jsonl").string();
  AuditLog log({bad, 1 << 20, 5});
  try {
    log.write(bashCall("ls"), decision(Verdict::Allow));
    FAIL() << "no error";
  } catch (const AuditLogError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Not a directory"), std::string::npos) << e.what();
  }
  // A directory where the file should be.
  fs::create_directories(dir.path() / "isdir");
  AuditLog log2({(dir.path() / "isdir").string(), 1 << 20, 5});
  EXPECT_THROW(log2.writeRecord({{"a", 1}}), AuditLogError);
}

TEST_F(AuditLogFile, ARemovedLogIsCreatedAgain) {
  AuditLog log({path(), 1 << 20, 5});
  log.writeRecord({{"n", 1}});
  fs::remove(path());
  log.writeRecord({{"n", 2}});
  std::vector<std::string> lines = readLines(path());
  ASSERT_EQ(lines.size(), 2u);  // a new anchor: the file was new
  EXPECT_EQ(json::parse(lines[1])["n"], 2);
}

// A record of about `size` bytes, numbered by writer and sequence.
json sizedRecord(int writer, int seq, size_t size) {
  return {{"writer", writer}, {"seq", seq}, {"pad", std::string(size, 'a' + (seq % 26))}};
}

size_t variedSize(int seq) {
  return seq % 10 == 0 ? 3000 : 20 + static_cast<size_t>(seq % 7) * 150;
}

// Every line parses; every (writer, seq) appears exactly once.
void expectEveryRecordOnce(const std::vector<std::string>& lines, int writers, int per_writer) {
  std::set<std::pair<int, int>> seen;
  for (const std::string& line : lines) {
    json r = json::parse(line, nullptr, false);
    ASSERT_TRUE(r.is_object()) << line.substr(0, 200);
    if (r.contains("anchor")) continue;
    const int writer = r["writer"], seq = r["seq"];
    EXPECT_EQ(r["pad"].get_ref<const std::string&>().size(), variedSize(seq));
    EXPECT_TRUE(seen.insert({writer, seq}).second) << writer << " " << seq;
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(writers * per_writer));
}

void writeFromChild(const AuditLogOptions& options, int writer, int count) {
  int status = 0;
  try {
    AuditLog log(options);
    for (int seq = 0; seq < count; ++seq)
      log.writeRecord(sizedRecord(writer, seq, variedSize(seq)));
  } catch (...) {
    status = 1;
  }
  std::fflush(nullptr);
  _exit(status);
}

TEST_F(AuditLogFile, ConcurrentProcessesAndThreadsNeverInterleave) {
  constexpr int kProcesses = 8, kThreads = 4, kPerWriter = 200;
  const AuditLogOptions options{path(), std::uint64_t{1} << 30, 5};
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) writeFromChild(options, p, kPerWriter);
    children.push_back(pid);
  }
  {
    AuditLog shared(options);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&shared, t] {
        for (int seq = 0; seq < kPerWriter; ++seq) {
          shared.writeRecord(sizedRecord(kProcesses + t, seq, variedSize(seq)));
        }
      });
    }
    for (auto& t : threads) t.join();
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  expectEveryRecordOnce(readLines(path()), kProcesses + kThreads, kPerWriter);
  // One chain, however the writers took turns.
  const AuditChainReport report = verifyAuditLog(path());
  EXPECT_TRUE(report.ok()) << report.issues.front().where << ": " << report.issues.front().what;
  EXPECT_EQ(report.records, 1u + (kProcesses + kThreads) * kPerWriter);
}

std::vector<std::string> linesOfAllFiles(const std::string& path, unsigned keep) {
  std::vector<std::string> all;
  for (unsigned n = keep; n >= 1; --n) {
    std::vector<std::string> lines = readLines(path + "." + std::to_string(n));
    all.insert(all.end(), lines.begin(), lines.end());
  }
  std::vector<std::string> lines = readLines(path);
  all.insert(all.end(), lines.begin(), lines.end());
  return all;
}

TEST_F(AuditLogFile, RotatesBySizeAndKeepsTheNewestFiles) {
  constexpr std::uint64_t kMax = 2000;
  AuditLog log({path(), kMax, 3});
  for (int seq = 0; seq < 200; ++seq) log.writeRecord(sizedRecord(0, seq, 100));
  EXPECT_TRUE(fs::exists(path()));
  for (int n = 1; n <= 3; ++n) {
    const std::string rotated = path() + "." + std::to_string(n);
    ASSERT_TRUE(fs::exists(rotated)) << rotated;
    EXPECT_GE(fs::file_size(rotated), kMax);
    EXPECT_LT(fs::file_size(rotated), kMax + 400);  // one record (with its link) past it
  }
  EXPECT_FALSE(fs::exists(path() + ".4"));
  EXPECT_LT(fs::file_size(path()), kMax);
  // The newest records, in order, with none missing between the files.
  std::vector<std::string> lines = linesOfAllFiles(path(), 3);
  std::erase_if(lines, [](const std::string& l) { return json::parse(l).contains("anchor"); });
  ASSERT_FALSE(lines.empty());
  int expected = json::parse(lines[0])["seq"];
  for (const std::string& line : lines) EXPECT_EQ(json::parse(line)["seq"], expected++);
  EXPECT_EQ(expected, 200);

  // Fewer files kept: the extra ones go at the next rotation.
  AuditLog fewer({path(), kMax, 1});
  for (int seq = 0; seq < 30; ++seq) fewer.writeRecord(sizedRecord(1, seq, 100));
  EXPECT_TRUE(fs::exists(path() + ".1"));
  EXPECT_FALSE(fs::exists(path() + ".2"));
  EXPECT_FALSE(fs::exists(path() + ".3"));
}

TEST_F(AuditLogFile, ConcurrentRotationLosesNothing) {
  constexpr int kProcesses = 4, kPerWriter = 300;
  const AuditLogOptions options{path(), 16 * 1024, 10000};
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) writeFromChild(options, p, kPerWriter);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  unsigned rotated = 0;
  while (fs::exists(path() + "." + std::to_string(rotated + 1))) ++rotated;
  EXPECT_GT(rotated, 10u);
  expectEveryRecordOnce(linesOfAllFiles(path(), rotated), kProcesses, kPerWriter);
  // Through readAuditLog too, which finds the rotated files itself.
  EXPECT_EQ(readAuditLog(path(), {}).size(), static_cast<size_t>(kProcesses * kPerWriter));
  const AuditChainReport report = verifyAuditLog(path());
  EXPECT_TRUE(report.ok()) << report.issues.front().where << ": " << report.issues.front().what;
}

TEST_F(AuditLogFile, AWriterFollowsARotationByAnother) {
  AuditLog a({path(), 1000, 5});
  AuditLog b({path(), 1000, 5});
  b.writeRecord({{"by", "b"}, {"n", 0}});
  for (int i = 0; i < 20 && !fs::exists(path() + ".1"); ++i) {
    a.writeRecord({{"by", "a"}, {"pad", std::string(100, 'x')}});
  }
  ASSERT_TRUE(fs::exists(path() + ".1"));
  // b's file is now PATH.1: its next record goes to the new PATH.
  b.writeRecord({{"by", "b"}, {"n", 1}});
  std::vector<std::string> lines = readLines(path());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(json::parse(lines.back())["n"], 1);
  EXPECT_FALSE(fs::exists(path() + ".2"));
}

// ---------------------------------------------------------------- reading

class AuditRead : public AuditLogFile {
 protected:
  void write(AuditLog& log, const char* time, const std::string& tool, Verdict verdict,
             const std::string& rule = "") {
    ToolCall call;
    call.tool = tool;
    log.writeRecord(auditRecord(call, decision(verdict, rule), at(time)));
  }

  void writeSample() {
    AuditLog log({path(), 1 << 20, 5});
    write(log, "2026-11-20T09:00:00Z", "Bash", Verdict::Allow);
    write(log, "2026-11-21T09:00:00Z", "Bash", Verdict::Deny, "rm-root");
    write(log, "2026-11-22T09:00:00Z", "mcp__github__create_issue", Verdict::Ask, "mcp-writes");
    write(log, "2026-11-23T09:00:00Z", "Write", Verdict::Deny, "system-write");
    write(log, "2026-11-23T10:00:00.500Z", "Bash", Verdict::Deny, "rm-home");
  }

  std::vector<std::string> tools(const AuditQuery& query) {
    std::vector<std::string> out;
    for (const json& r : readAuditLog(path(), query)) {
      out.push_back(r.value("tool", "?") + "@" + r.value("time", "?").substr(0, 10));
    }
    return out;
  }
};

using Strings = std::vector<std::string>;

TEST_F(AuditRead, AnAbsentLogHasNoRecords) {
  EXPECT_TRUE(readAuditLog(path(), {}).empty());
  EXPECT_TRUE(readAuditLog("/nonexistent-dir-xyz/audit.jsonl", {}).empty());
}

TEST_F(AuditRead, FiltersByTimeToolVerdictRuleAndLast) {
  writeSample();
  EXPECT_EQ(tools({}).size(), 5u);
  AuditQuery q;
  q.since = at("2026-11-22");
  EXPECT_EQ(tools(q), (Strings{"mcp__github__create_issue@2026-11-22", "Write@2026-11-23",
                               "Bash@2026-11-23"}));
  q = {};
  q.until = at("2026-11-23T10:00:00.500Z");  // exclusive
  EXPECT_EQ(tools(q).size(), 4u);
  q.since = at("2026-11-21T09:00:00Z");  // inclusive
  EXPECT_EQ(tools(q).size(), 3u);
  q = {};
  q.since = at("2026-11-23T11:00:00+01:00");
  EXPECT_EQ(tools(q), (Strings{"Bash@2026-11-23"}));

  q = {};
  q.tool = "Ba*";
  EXPECT_EQ(tools(q), (Strings{"Bash@2026-11-20", "Bash@2026-11-21", "Bash@2026-11-23"}));
  q.tool = "mcp__github__*";
  EXPECT_EQ(tools(q), (Strings{"mcp__github__create_issue@2026-11-22"}));
  q.tool = "bash";  // case-sensitive, like tool patterns in policies
  EXPECT_TRUE(tools(q).empty());

  q = {};
  q.verdict = "deny";
  EXPECT_EQ(tools(q), (Strings{"Bash@2026-11-21", "Write@2026-11-23", "Bash@2026-11-23"}));
  q.rule = "rm-*";
  EXPECT_EQ(tools(q), (Strings{"Bash@2026-11-21", "Bash@2026-11-23"}));
  q.last = 1;
  EXPECT_EQ(tools(q), (Strings{"Bash@2026-11-23"}));
  q = {};
  q.rule = "system-write";
  EXPECT_EQ(tools(q), (Strings{"Write@2026-11-23"}));
  q = {};
  q.last = 2;
  EXPECT_EQ(tools(q), (Strings{"Write@2026-11-23", "Bash@2026-11-23"}));
  q.last = 100;
  EXPECT_EQ(tools(q).size(), 5u);
}

TEST_F(AuditRead, ReadsRotatedFilesOldestFirst) {
  fs::create_directories(dir.path() / "logs");
  dir.write("logs/audit.jsonl.2", "{\"tool\":\"A\",\"time\":\"2026-01-01T00:00:00Z\"}\n");
  dir.write("logs/audit.jsonl.1", "{\"tool\":\"B\",\"time\":\"2026-01-02T00:00:00Z\"}\n");
  dir.write("logs/audit.jsonl.10", "{\"tool\":\"Old\",\"time\":\"2025-01-01T00:00:00Z\"}\n");
  dir.write("logs/audit.jsonl", "{\"tool\":\"C\",\"time\":\"2026-01-03T00:00:00Z\"}");
  dir.write("logs/audit.jsonl.lock", "");
  dir.write("logs/audit.jsonl.bak", "{\"tool\":\"Ignored\"}\n");
  dir.write("logs/audit.jsonl.01", "{\"tool\":\"Ignored\"}\n");
  EXPECT_EQ(tools({}), (Strings{"Old@2025-01-01", "A@2026-01-01", "B@2026-01-02", "C@2026-01-03"}));
}

TEST_F(AuditRead, UnreadableLinesAreReportedNotHidden) {
  writeSample();
  {
    std::ofstream out(path(), std::ios::app | std::ios::binary);
    out << "not json\n\n   \n[1,2]\n";
    std::string deep(200, '[');
    out << "{\"a\":" << deep << std::string(200, ']') << "}\n";
    out << "{\"tool\":\"Bash\",\"time\":\"2026-11-24T00:00:00Z\",\"verdict\":\"allow\"}\r\n";
    out << "{\"tool\":\"Tail\",\"verd";  // a line cut short
  }
  std::vector<json> all = readAuditLog(path(), {});
  ASSERT_EQ(all.size(), 10u);
  // Line 1 is the chain's anchor.
  EXPECT_EQ(all[5], (json{{"unreadable", "not json"}, {"file", path()}, {"line", 7}}));
  EXPECT_EQ(all[6], (json{{"unreadable", "[1,2]"}, {"file", path()}, {"line", 10}}));
  EXPECT_EQ(all[7]["line"], 11);
  EXPECT_EQ(all[8]["tool"], "Bash");
  EXPECT_EQ(all[9],
            (json{{"unreadable", "{\"tool\":\"Tail\",\"verd"}, {"file", path()}, {"line", 13}}));
  // Read from the end with a limit: the same lines, numbered the same.
  AuditQuery last;
  last.last = 5;
  std::vector<json> tail = readAuditLog(path(), last);
  ASSERT_EQ(tail.size(), 5u);
  EXPECT_EQ(tail[0], all[5]);
  EXPECT_EQ(tail[4], all[9]);

  // Filters never hide them.
  AuditQuery q;
  q.tool = "Write";
  q.since = at("2026-11-01");
  std::vector<json> some = readAuditLog(path(), q);
  ASSERT_EQ(some.size(), 5u);
  EXPECT_EQ(some[0]["tool"], "Write");
  EXPECT_TRUE(some[1].contains("unreadable"));
}

TEST_F(AuditRead, AFileThatCannotBeReadIsAnError) {
  fs::create_directories(path());  // a directory where the log should be
  try {
    readAuditLog(path(), {});
    FAIL() << "no error";
  } catch (const AuditLogError& e) {
    EXPECT_NE(std::string(e.what()).find(path()), std::string::npos) << e.what();
  }
}

TEST(AuditTime, ParsesRfc3339AndDates) {
  using namespace std::chrono;
  const auto base = at("2026-11-23T10:00:00Z");
  EXPECT_EQ(base.time_since_epoch(), seconds{1795428000});
  EXPECT_EQ(at("2026-11-23"), base - hours{10});
  EXPECT_EQ(at("2026-11-23T10:00:00.123Z"), base + milliseconds{123});
  EXPECT_EQ(at("2026-11-23T10:00:00.5Z"), base + milliseconds{500});
  EXPECT_EQ(at("2026-11-23T10:00:00.123456789Z"), base + nanoseconds{123456789});
  EXPECT_EQ(at("2026-11-23T10:00:00.1234567891234Z"), base + nanoseconds{123456789});
  EXPECT_EQ(at("2026-11-23T11:30:00+01:30"), base);
  EXPECT_EQ(at("2026-11-23T05:00:00-05:00"), base);
  EXPECT_EQ(at("2026-11-23t10:00:00z"), base);
  EXPECT_EQ(at("2026-11-23 10:00:00Z"), base);
  EXPECT_EQ(at("2024-02-29T00:00:00Z"), at("2024-02-29"));
  EXPECT_EQ(at("2026-11-23T09:59:60Z"), base);  // a leap second
  EXPECT_EQ(at("1970-01-01T00:00:00Z").time_since_epoch(), seconds{0});

  for (const char* bad : {"",
                          "2026",
                          "2026-11",
                          "2026-13-01",
                          "2026-02-30",
                          "2025-02-29",
                          "2026-11-23T",
                          "2026-11-23T10:00",
                          "2026-11-23T10:00:00",
                          "2026-11-23T24:00:00Z",
                          "2026-11-23T10:60:00Z",
                          "2026-11-23T10:00:00.Z",
                          "2026-11-23T10:00:00+0100",
                          "2026-11-23T10:00:00+01",
                          "2026-11-23X",
                          "2026-11-23T10:00:00Zjunk",
                          "26-11-23",
                          "yesterday",
                          "2026-1-23",
                          "2026-11-23T10:00:00 Z",
                          "+2026-11-23"}) {
    EXPECT_FALSE(parseAuditTime(bad)) << bad;
  }
}

}  // namespace audit_log_test
}  // namespace toolguard
