// `toolguard serve` on PostgreSQL, end to end: a real server in a throw-away
// cluster (scripts/pg-cluster.sh), several serve instances on one database,
// the database restarted under them, a server killed with SIGKILL under load.
#include <sys/stat.h>
#include <sys/wait.h>

#include <atomic>
#include <future>
#include <set>

#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace serve_postgres_test {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

TEST_F(ServePostgres, AnAnswerOnOneInstanceWakesTheRequestWaitingOnAnother) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto a = start();
  auto b = start();
  std::atomic<long long> returned_ns{0};
  auto waiting = std::async(std::launch::async, [&] {
    auto c = client(*a, agent);
    auto r = c->Post("/v1/check?wait=30", call("git push origin main").dump(), "application/json");
    returned_ns = Clock::now().time_since_epoch().count();
    return r ? r->body : std::string("no response");
  });
  auto on_b = client(*b, approver);
  json asks = pendingAsks(*on_b, 1);
  ASSERT_EQ(asks.size(), 1u);
  const std::string id = asks[0]["id"];
  const long long answering_ns = Clock::now().time_since_epoch().count();
  auto answered = on_b->Post("/v1/asks/" + id + "/answer",
                             R"({"answer":"always","binding":"pattern","scope":"project"})",
                             "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  const json d = json::parse(waiting.get());
  EXPECT_EQ(d["verdict"], "allow") << d;
  // Woken by NOTIFY: well before the 2 s look a lost listener falls back on.
  const double waited_ms = static_cast<double>(returned_ns - answering_ns) / 1e6;
  std::cout << "from sending the answer to B to A's allow: " << waited_ms << " ms\n";
  EXPECT_LT(waited_ms, 1500.0);
  // "always" settles the same call on both instances without asking.
  for (ServeProcess* s : {a.get(), b.get()}) {
    auto r = client(*s, agent)->Post("/v1/check", call("git push origin dev").dump(),
                                     "application/json");
    const json next = json::parse(r->body);
    EXPECT_EQ(next["verdict"], "allow") << r->body;
    EXPECT_EQ(next["approval"]["by"], "store") << r->body;
  }
  // The second answer, on the other instance: 409 with who answered.
  auto late = client(*a, approver)
                  ->Post("/v1/asks/" + id + "/answer", R"({"answer":"deny"})", "application/json");
  EXPECT_EQ(late->status, 409);
  EXPECT_NE(late->body.find("alice"), std::string::npos);
}

TEST_F(ServePostgres, TheDatabaseGoneMeansDenyAndTheServiceReconnects) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  auto c = client(*server, agent);
  EXPECT_EQ(
      json::parse(c->Post("/v1/check", call("ls").dump(), "application/json")->body)["verdict"],
      "allow");
  db->stop();
  // Allowed by the policy, but its audit row cannot be committed: deny.
  auto r = c->Post("/v1/check", call("ls").dump(), "application/json");
  ASSERT_TRUE(r);
  if (r->status == 200) {
    EXPECT_EQ(json::parse(r->body)["verdict"], "deny") << r->body;
  } else {
    EXPECT_EQ(r->status, 503) << r->body;
  }
  EXPECT_EQ(client(*server, "")->Get("/healthz")->status, 503);
  db->start();
  json d;
  for (int i = 0; i < 50; ++i) {
    auto again = c->Post("/v1/check", call("ls -l").dump(), "application/json");
    if (again && again->status == 200) d = json::parse(again->body);
    if (d.value("verdict", "") == "allow") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(d.value("verdict", ""), "allow") << d;
  // Every allow the service answered has its audit row.
  auto audit = client(*server, admin)->Get("/v1/audit?verdict=allow&tool=Bash");
  ASSERT_EQ(audit->status, 200) << audit->body;
  std::set<std::string> ids;
  for (const json& record : json::parse(audit->body)) ids.insert(record.value("id", ""));
  EXPECT_TRUE(ids.count(d.value("id", ""))) << audit->body;
}

// A check the engine alone decides is answered on the event thread once its
// audit row is committed with others in one group; a row the database
// refuses denies that call only, and the others of its group stand.
TEST_F(ServePostgres, ACommitThatFailsDeniesOnlyItsOwnCall) {
  const std::string agent = token("agent", "bot");
  RunResult trigger = db->psql(
      "CREATE FUNCTION refuse_marked() RETURNS trigger AS $$ BEGIN "
      "IF NEW.record::text LIKE '%refuse-this-record%' THEN RAISE EXCEPTION 'refused by the "
      "test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql; "
      "CREATE TRIGGER refuse_marked BEFORE INSERT ON toolguard_audit FOR EACH ROW "
      "EXECUTE FUNCTION refuse_marked();");
  ASSERT_EQ(trigger.exit_code, 0) << trigger.err;
  auto server = start();
  std::mutex mutex;
  std::vector<json> answers;
  std::vector<std::thread> load;
  for (int t = 0; t < 4; ++t) {
    load.emplace_back([&, t] {
      auto c = client(*server, agent);
      for (int i = 0; i < 40; ++i) {
        const std::string command = i % 10 == 3
                                        ? "ls refuse-this-record-" + std::to_string(t * 100 + i)
                                        : "ls kept-" + std::to_string(t * 100 + i);
        auto r = c->Post("/v1/check", call(command).dump(), "application/json");
        ASSERT_TRUE(r);
        ASSERT_EQ(r->status, 200) << r->body;
        json d = json::parse(r->body);
        d["command"] = command;
        std::lock_guard<std::mutex> lock(mutex);
        answers.push_back(std::move(d));
      }
    });
  }
  for (std::thread& t : load) t.join();
  RunResult audit = run({"audit", "query", "--tool", "Bash", "--json", "--store", store});
  ASSERT_EQ(audit.exit_code, 0) << audit.err;
  std::set<std::string> kept;
  for (const json& record : json::parse(audit.out)) kept.insert(record.value("id", ""));
  size_t refused = 0;
  for (const json& d : answers) {
    const std::string command = d["command"];
    if (command.find("refuse-this-record") != std::string::npos) {
      ++refused;
      EXPECT_EQ(d["verdict"], "deny") << d;
      EXPECT_NE(d.value("reason", "").find("the audit log could not be written"), std::string::npos)
          << d;
      EXPECT_EQ(kept.count(d.value("id", "")), 0u) << d;
    } else {
      EXPECT_EQ(d["verdict"], "allow") << d;
      EXPECT_EQ(kept.count(d.value("id", "")), 1u) << "answered but not in the audit: " << d;
    }
  }
  EXPECT_EQ(refused, 16u);
  EXPECT_EQ(answers.size(), 160u);
}

// Four keep-alive clients check `ls N` on `server` for 700 ms; then the
// server gets `signal`. Each decision answered (status 200) goes to
// `answered`, from the clients' threads. Returns the server's wait status.
int checkUnderLoadThenSignal(ServeProcess& server, const std::string& agent, int signal,
                             const std::function<void(const json& decision)>& answered) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> load;
  for (int t = 0; t < 4; ++t) {
    load.emplace_back([&, t] {
      auto c = ServePostgres::client(server, agent);
      c->set_read_timeout(5, 0);
      for (int i = 0; !stop; ++i) {
        auto r =
            c->Post("/v1/check", ServePostgres::call("ls " + std::to_string(t * 100000 + i)).dump(),
                    "application/json");
        if (!r) break;  // the server is gone
        if (r->status != 200) continue;
        const json d = json::parse(r->body, nullptr, false);
        if (d.is_object()) answered(d);
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  const int status = server.stop(signal);
  stop = true;
  for (std::thread& t : load) t.join();
  return status;
}

// SIGTERM while keep-alive clients go on checking: requests that arrive
// after the service began to stop get 503 (or a closed connection), the ones
// waiting for their commit are answered, and the process exits 0 (it must
// not stop its event loop with a connection still waiting for an answer).
TEST_F(ServePostgres, SigtermUnderKeepAliveLoadEndsCleanly) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  std::atomic<int> answered{0};
  const int status =
      checkUnderLoadThenSignal(*server, agent, SIGTERM, [&](const json&) { ++answered; });
  EXPECT_GT(answered.load(), 20);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(ServePostgres, KillNineUnderLoadLosesNoAnsweredDecision) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  std::mutex mutex;
  std::vector<std::string> answered;
  checkUnderLoadThenSignal(*server, agent, SIGKILL, [&](const json& d) {
    if (d.value("verdict", "") != "allow") return;
    std::lock_guard<std::mutex> lock(mutex);
    answered.push_back(d.value("id", ""));
  });
  ASSERT_GT(answered.size(), 20u);
  // Every allow, through the command (a page of GET /v1/audit holds at most 1,000).
  RunResult audit = run({"audit", "query", "--verdict", "allow", "--json", "--store", store});
  ASSERT_EQ(audit.exit_code, 0) << audit.err;
  std::set<std::string> kept;
  for (const json& record : json::parse(audit.out)) kept.insert(record.value("id", ""));
  size_t missing = 0;
  for (const std::string& id : answered) missing += kept.count(id) == 0;
  EXPECT_EQ(missing, 0u) << "of " << answered.size() << " answered decisions";
  std::cout << answered.size() << " decisions answered before SIGKILL, all in the audit\n";
}

TEST_F(ServePostgres, MigrateAppliesOnceAndTokensLiveInTheDatabase) {
  RunResult first = run({"serve", "migrate", "--store", store});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("applied migration 1"), std::string::npos) << first.out;
  RunResult second = run({"serve", "migrate", "--store", store});
  EXPECT_NE(second.out.find("up to date"), std::string::npos) << second.out;
  token("approver", "alice");
  RunResult twice = run({"serve", "token", "add", "--role", "agent", "--name", "alice", "--owner",
                         "bob", "--store", store});
  EXPECT_NE(twice.exit_code, 0);
  EXPECT_NE(twice.err.find("exists"), std::string::npos) << twice.err;
  RunResult list = run({"serve", "token", "list", "--store", store});
  EXPECT_NE(list.out.find("alice\tapprover\talice"), std::string::npos) << list.out;
  RunResult bad = run({"serve", "token", "list", "--store",
                       "postgresql://toolguard@127.0.0.1:" + std::to_string(freePort()) + "/x"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("cannot be reached"), std::string::npos) << bad.err;
}

TEST_F(ServePostgres, ApprovalsImportAndAuditWorkAgainstTheDatabase) {
  const auto plain = dir.write("allowed.json", R"({"version": 1, "allowed_tools": ["Read"]})");
  RunResult imported =
      run({"approvals", "import", plain.string(), "--scope", "global", "--store", store});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  RunResult listed = run({"approvals", "list", "--json", "--store", store});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json entries = json::parse(listed.out);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["tool"], "Read");
  // Not in the files under TOOLGUARD_HOME: the command went to the database.
  EXPECT_EQ(run({"approvals", "list"}).out.find("Read"), std::string::npos);
  const std::string agent = token("agent", "bot");
  auto server = start();
  client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");
  RunResult audit = run({"audit", "query", "--tool", "Bash", "--json", "--store", store});
  ASSERT_EQ(audit.exit_code, 0) << audit.err;
  const json records = json::parse(audit.out);
  ASSERT_EQ(records.size(), 1u) << audit.out;
  EXPECT_EQ(records[0]["verdict"], "allow");
  EXPECT_EQ(records[0]["context"]["agent"], "bot");
}

TEST_F(ServePostgres, OldAsksAreDeleted) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  auto server = start({"--keep-asks", "1", "--max-wait", "1"});
  auto r = client(*server, agent)
               ->Post("/v1/check?async=1", call("git push origin a").dump(), "application/json");
  const std::string id = json::parse(r->body)["ask"]["id"];
  EXPECT_EQ(client(*server, approver)->Get("/v1/asks/" + id)->status, 200);
  bool gone = false;
  for (int i = 0; i < 60 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = client(*server, approver)->Get("/v1/asks/" + id)->status == 404;
  }
  EXPECT_TRUE(gone);
}

}  // namespace serve_postgres_test
}  // namespace toolguard::testing
