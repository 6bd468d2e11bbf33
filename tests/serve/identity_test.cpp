// Who is who in `toolguard serve`, end to end with real processes: token
// names and owners as `token add` takes them, session approvals keyed by
// the tuple (token, session), who may answer an ask (never its own token,
// never an approver of the same owner; --two-person: never the same owner
// nor a token without one).
#include <fstream>

#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace serve_identity_test {

using nlohmann::json;

// Adds a token the way a version before owners and name rules kept it (the
// file store's tokens.json), with the secret `secret`.
void addLegacyToken(const std::filesystem::path& home, const std::string& name,
                    const std::string& role, const std::string& secret) {
  const std::filesystem::path file = home / ".toolguard/serve/tokens.json";
  json tokens = {{"tokens", json::array()}};
  if (std::ifstream in(file); in) tokens = json::parse(in);
  // The hash as the store keeps it: SHA-256 of the secret, hex.
  RunResult sum = runBinary("/usr/bin/sha256sum", {}, secret, {}, "/");
  tokens["tokens"].push_back({{"name", name},
                              {"role", role},
                              {"created", "2026-01-01T00:00:00.000Z"},
                              {"revoked", false},
                              {"sha256", sum.out.substr(0, 64)}});
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << tokens.dump(2);
}

TEST_F(Serve, TokenNamesAndOwnersAreCheckedNamingTheField) {
  for (const std::string& bad : std::vector<std::string>{
           "ci/x", "ci x", "CI", "ci:x", "ci\\x", "-ci", ".ci", "ci\ty",
           "\xd1\x81i" /* Cyrillic с */, "ci\xe2\x80\x8b" /* zero-width space */,
           std::string(65, 'a'), "ci\"]", "ci,x"}) {
    RunResult r =
        run({"serve", "token", "add", "--role", "agent", "--name", bad, "--owner", "bob"});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--name:"), std::string::npos) << bad << ": " << r.err;
  }
  for (const std::string& bad : std::vector<std::string>{"Bob", "bob smith", "b/ob", "",
                                                         "\xd0\xbe"
                                                         "bob"}) {
    RunResult r = run({"serve", "token", "add", "--role", "agent", "--name", "ci", "--owner", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--owner"), std::string::npos) << bad << ": " << r.err;
  }
  RunResult no_owner = run({"serve", "token", "add", "--role", "agent", "--name", "ci"});
  EXPECT_NE(no_owner.exit_code, 0);
  EXPECT_NE(no_owner.err.find("--owner"), std::string::npos) << no_owner.err;
  RunResult good = run({"serve", "token", "add", "--role", "agent", "--name", "ci.bot_1-x",
                        "--owner", "alice@example.com"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  RunResult list = run({"serve", "token", "list"});
  EXPECT_NE(list.out.find("ci.bot_1-x\tagent\talice@example.com\t"), std::string::npos) << list.out;
  EXPECT_EQ(list.out.find("ci x"), std::string::npos);  // nothing bad was added
}

TEST_F(Serve, SessionApprovalsAreKeyedByTheTupleNotAJoinedString) {
  // "ci/x" is a name from before the rules: it keeps working, and its
  // session "s1" is not token "ci"'s session "x/s1".
  addLegacyToken(dir.path() / "home", "ci/x", "agent", "tg_legacy_secret_ci_x_0123456789");
  const std::string legacy = "tg_legacy_secret_ci_x_0123456789";
  const std::string ci = token("agent", "ci", "carol");
  const std::string approver = token("approver", "alice");
  RunResult list = run({"serve", "token", "list"});
  EXPECT_NE(list.out.find("ci/x\tagent\t(no owner)"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("(name not allowed now)"), std::string::npos) << list.out;
  auto server = start();
  json asked = call("git push origin main");
  asked["context"]["session"] = "s1";
  auto r = client(*server, legacy)->Post("/v1/check?async=1", asked.dump(), "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  const std::string id = json::parse(r->body)["ask"]["id"];
  auto answered =
      client(*server, approver)
          ->Post("/v1/asks/" + id + "/answer",
                 R"({"answer":"always","binding":"exact","scope":"session"})", "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  EXPECT_EQ(json::parse(answered->body)["answer"]["scope"], "session");
  r = client(*server, legacy)->Post("/v1/check", asked.dump(), "application/json");
  EXPECT_EQ(json::parse(r->body)["verdict"], "allow") << r->body;
  // The same call in "the same" session, from another token: still asked.
  r = client(*server, token("agent", "beta"))->Post("/v1/check", asked.dump(), "application/json");
  EXPECT_EQ(json::parse(r->body)["verdict"], "ask") << r->body;
  // The joined string would be "ci/x/s1" for both: the tuple is not.
  for (const std::string& session :
       std::vector<std::string>{"x/s1", "x\",\"s1", "/x/s1", "x%2Fs1"}) {
    json other = asked;
    other["context"]["session"] = session;
    r = client(*server, ci)->Post("/v1/check", other.dump(), "application/json");
    EXPECT_EQ(json::parse(r->body)["verdict"], "ask") << session << ": " << r->body;
  }
  // The approval's key, as listed: the tuple.
  auto listed = client(*server, approver)->Get("/v1/approvals");
  EXPECT_NE(listed->body.find(R"(\"ci/x\",\"s1\")"), std::string::npos) << listed->body;
}

// An ask from `agent` (async: it waits in the queue); its id.
std::string queued(httplib::Client& agent, const std::string& command) {
  auto r = agent.Post("/v1/check?async=1", Serve::call(command).dump(), "application/json");
  if (!r || r->status != 200) return "";
  return json::parse(r->body)["ask"].value("id", "");
}

httplib::Result answer(httplib::Client& who, const std::string& id, const std::string& kind) {
  return who.Post("/v1/asks/" + id + "/answer", R"({"answer":")" + kind + R"("})",
                  "application/json");
}

TEST_F(Serve, NoOneAnswersAnAskOfTheirOwn) {
  const std::string ci = token("agent", "ci", "alice");
  const std::string alice = token("approver", "alice", "alice");
  const std::string bob = token("approver", "bob", "bob");
  const std::string root = token("admin", "root", "root");
  const std::string alice_admin = token("admin", "alice-admin", "alice");
  auto server = start();
  auto agent = client(*server, ci);
  // Alice holds the agent's token and an approver's: she may not approve her agent.
  std::string id = queued(*agent, "git push origin a");
  ASSERT_FALSE(id.empty());
  auto refused = answer(*client(*server, alice), id, "allow_once");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("both belong to alice"), std::string::npos) << refused->body;
  // Still pending: Bob answers it.
  auto by_bob = answer(*client(*server, bob), id, "allow_once");
  EXPECT_EQ(by_bob->status, 200) << by_bob->body;
  // An admin's own ask: not with its own token.
  id = queued(*client(*server, root), "git push origin b");
  ASSERT_FALSE(id.empty());
  refused = answer(*client(*server, root), id, "allow_once");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("made this ask"), std::string::npos) << refused->body;
  // An admin may answer for the tokens of its owner (a one-person set-up)...
  id = queued(*agent, "git push origin c");
  EXPECT_EQ(answer(*client(*server, alice_admin), id, "deny")->status, 200);
  // ... and a deny by the asking side is refused like an allow (it is still an answer).
  id = queued(*agent, "git push origin d");
  EXPECT_EQ(answer(*client(*server, alice), id, "deny")->status, 403);
  // Refusals are audited as refused requests; nothing was answered by alice.
  auto audit = client(*server, root)->Get("/v1/audit");
  int refusals = 0;
  for (const json& record : json::parse(audit->body)) {
    if (record.value("event", "") == "request-refused" &&
        record.value("path", "").ends_with("/answer")) {
      ++refusals;
      EXPECT_EQ(record["verdict"], "deny");
    }
    if (record.value("event", "") == "ask-answered") {
      EXPECT_NE(record["answer"]["by"], "alice") << record;
      EXPECT_NE(record["answer"]["by"], "root") << record;
    }
  }
  EXPECT_EQ(refusals, 3);
}

TEST_F(Serve, TwoPeopleMeansNeverTheAskingSideNorAnUnknownOwner) {
  const std::string ci = token("agent", "ci", "alice");
  const std::string bob = token("approver", "bob", "bob");
  const std::string alice_admin = token("admin", "alice-admin", "alice");
  addLegacyToken(dir.path() / "home", "old-bot", "agent", "tg_legacy_secret_old_bot_012345");
  addLegacyToken(dir.path() / "home", "old-approver", "approver",
                 "tg_legacy_secret_old_approver_01");
  auto server = start({"--two-person"});
  auto agent = client(*server, ci);
  std::string id = queued(*agent, "git push origin a");
  auto refused = answer(*client(*server, alice_admin), id, "allow_once");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("both belong to alice"), std::string::npos) << refused->body;
  // An approver without an owner cannot be shown to be someone else.
  refused = answer(*client(*server, "tg_legacy_secret_old_approver_01"), id, "allow_once");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("'old-approver' has no owner"), std::string::npos) << refused->body;
  EXPECT_EQ(answer(*client(*server, bob), id, "allow_once")->status, 200);
  // Nor an agent token without one: its asks wait for nobody's answer.
  id = queued(*client(*server, "tg_legacy_secret_old_bot_012345"), "git push origin b");
  ASSERT_FALSE(id.empty());
  refused = answer(*client(*server, bob), id, "allow_once");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("'old-bot' has no owner"), std::string::npos) << refused->body;
}

}  // namespace serve_identity_test
}  // namespace toolguard::testing
