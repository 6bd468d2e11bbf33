// An instance on PostgreSQL keeps in memory which calls' scopes have no
// stored approval, so that an ask costs no query: what it remembers, what
// it forgets, and that a change made anywhere reaches it.
#include "serve/serve_fixture.hpp"
#include "store/empty_approvals_memory.hpp"

namespace toolguard::testing {
namespace pg_approvals_memory_test {

using nlohmann::json;
using store::EmptyApprovalsMemory;

TEST(EmptyApprovalsMemory, KnowsOnlyWhatItHeardAtTheGenerationNow) {
  EmptyApprovalsMemory memory;
  memory.rememberEmpty("a", memory.generation());
  EXPECT_FALSE(memory.knownEmpty("a")) << "nothing is known while changes are not heard";
  memory.hearing(true);
  memory.rememberEmpty("a", memory.generation());
  EXPECT_TRUE(memory.knownEmpty("a"));
  EXPECT_FALSE(memory.knownEmpty("b"));
  // A query that read the table before a change does not count.
  const uint64_t before = memory.generation();
  memory.changed();
  EXPECT_FALSE(memory.knownEmpty("a"));
  memory.rememberEmpty("b", before);
  EXPECT_FALSE(memory.knownEmpty("b"));
  memory.rememberEmpty("b", memory.generation());
  EXPECT_TRUE(memory.knownEmpty("b"));
  // Deaf again: everything is forgotten, and stays so until it hears again.
  const uint64_t heard = memory.generation();
  memory.hearing(false);
  EXPECT_FALSE(memory.knownEmpty("b"));
  memory.rememberEmpty("c", heard);
  memory.hearing(true);
  EXPECT_FALSE(memory.knownEmpty("c"));
  // Bounded: past its size it starts again.
  for (size_t i = 0; i <= EmptyApprovalsMemory::kMaxRemembered; ++i) {
    memory.rememberEmpty("k" + std::to_string(i), memory.generation());
  }
  EXPECT_FALSE(memory.knownEmpty("k0"));
  EXPECT_TRUE(memory.knownEmpty("k" + std::to_string(EmptyApprovalsMemory::kMaxRemembered)));
}

TEST_F(ServePostgres, ApprovalsChangedAnywhereReachAnInstanceThatKnewOfNone) {
  const std::string agent = token("agent", "ci-bot");
  auto a = start();
  auto c = client(*a, agent);
  // A tool whose policy asks (no rule): a tool approval answers it.
  const json fetch = {{"tool", "WebFetch"},
                      {"args", {{"url", "https://example.com"}}},
                      {"context", {{"cwd", "/tmp"}}}};
  auto decide = [&] {
    auto r = c->Post("/v1/check", fetch.dump(), "application/json");
    return r && r->status == 200 ? json::parse(r->body) : json{{"verdict", "no answer"}};
  };
  // Allowed once the instance has heard, polling for at most 3 s: less than
  // the 5 s it believes "none" without hearing, so only the table's NOTIFY
  // can tell it that soon.
  auto allowedSoon = [&] {
    json d;
    for (int i = 0; i < 60; ++i) {
      d = decide();
      if (d["verdict"] == "allow") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return d;
  };
  ASSERT_EQ(decide()["verdict"], "ask");
  ASSERT_EQ(decide()["verdict"], "ask");  // now answered from memory: none
  // It is: with the table out of reach (renamed; no change is told), the
  // remembered scopes are still answered, and others say why they are not.
  ASSERT_EQ(db->psql("ALTER TABLE toolguard_approvals RENAME TO hidden").exit_code, 0);
  const json remembered = decide();
  EXPECT_EQ(remembered["verdict"], "ask") << remembered;
  EXPECT_FALSE(remembered.contains("resolution")) << remembered;
  json elsewhere = fetch;
  elsewhere["context"]["cwd"] = "/var";
  auto unknown = c->Post("/v1/check", elsewhere.dump(), "application/json");
  ASSERT_TRUE(unknown);
  EXPECT_NE(unknown->body.find("approvals not read from the database"), std::string::npos)
      << unknown->body;
  ASSERT_EQ(db->psql("ALTER TABLE hidden RENAME TO toolguard_approvals").exit_code, 0);
  // Added by another process (the approvals command).
  const auto plain = dir.write("allowed.json", R"({"version": 1, "allowed_tools": ["WebFetch"]})");
  RunResult added =
      run({"approvals", "import", plain.string(), "--scope", "global", "--store", store});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  json seen = allowedSoon();
  EXPECT_EQ(seen["verdict"], "allow") << seen;
  EXPECT_EQ(seen["approval"]["by"], "store") << seen;
  // Revoked by hand in the database: the very next check asks (scopes that
  // have an entry are never remembered, so nothing revoked is granted).
  RunResult revoked = db->psql(
      "CREATE TABLE saved AS SELECT * FROM toolguard_approvals; DELETE FROM toolguard_approvals");
  ASSERT_EQ(revoked.exit_code, 0) << revoked.err;
  EXPECT_EQ(decide()["verdict"], "ask");
  EXPECT_EQ(decide()["verdict"], "ask");
  // Written by hand in SQL: the trigger tells it too.
  RunResult restored = db->psql("INSERT INTO toolguard_approvals SELECT * FROM saved");
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  seen = allowedSoon();
  EXPECT_EQ(seen["verdict"], "allow") << seen;
}

// "Always", answered on another instance, settles the asker's next call at
// once: the approval is in the table before the answer wakes the asker.
TEST_F(ServePostgres, AnAlwaysAnswerIsKnownToTheAskingInstanceAtOnce) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto a = start();
  auto b = start();
  auto on_a = client(*a, agent);
  for (int round = 0; round < 5; ++round) {
    // A project of its own each round: its scopes have no entry yet.
    const std::string project = (dir.path() / ("p" + std::to_string(round))).string();
    std::filesystem::create_directories(project);
    const json push = call("git push origin main", project);
    // Known as none on A first (a check that asks without waiting).
    auto first = on_a->Post("/v1/check", push.dump(), "application/json");
    ASSERT_EQ(json::parse(first->body)["verdict"], "ask") << first->body;
    auto waiting = std::async(std::launch::async, [&] {
      auto r = client(*a, agent)->Post("/v1/check?wait=30", push.dump(), "application/json");
      return r ? json::parse(r->body) : json();
    });
    auto on_b = client(*b, approver);
    json asks = pendingAsks(*on_b, 1);
    ASSERT_EQ(asks.size(), 1u);
    auto answered = on_b->Post("/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer",
                               R"({"answer":"always","binding":"exact","scope":"project"})",
                               "application/json");
    ASSERT_EQ(answered->status, 200) << answered->body;
    EXPECT_EQ(waiting.get()["verdict"], "allow");
    auto next = on_a->Post("/v1/check", push.dump(), "application/json");
    const json d = json::parse(next->body);
    EXPECT_EQ(d["verdict"], "allow") << d;
    EXPECT_EQ(d["approval"]["by"], "store") << d;
  }
}

}  // namespace pg_approvals_memory_test
}  // namespace toolguard::testing
