// The service's audit under attack and load, end to end: a page over a large
// audit (a few hundred thousand records) is bounded while checks are
// answered, on both stores; on PostgreSQL the service's role may only insert
// into the audit, `audit verify` names rows edited, deleted or moved, and
// values PostgreSQL's text cannot hold (a NUL) are audited with their deny.
#include <atomic>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace serve_audit_test {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kLargeAudit = 300000;

RunResult psql(const std::string& url, const std::string& sql) {
  return PgCluster::psql(url, sql);
}

// The URL of `role` on the cluster at `url` (same host, port and database).
std::string asRole(const std::string& url, const std::string& role) {
  const std::string prefix = "postgresql://";
  return prefix + role + url.substr(url.find('@'));
}

// Now, as the audit writes times: 2026-11-23T10:00:00.000Z.
std::string nowText() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[40];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
  return buffer;
}

std::unique_ptr<httplib::Client> clientOf(const ServeProcess& s, const std::string& token) {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", s.port());
  c->set_read_timeout(60, 0);
  c->set_bearer_token_auth(token);
  return c;
}

std::string lsCall(int n) {
  return json{{"tool", "Bash"},
              {"args", {{"command", "ls " + std::to_string(n)}}},
              {"context", {{"cwd", "/tmp"}}}}
      .dump();
}

// Checks from two clients while an approver loads the history page again
// and again: every check and every page is answered, every page bounded.
void checksAnsweredWhilePagesLoad(const ServeProcess& server, const std::string& agent,
                                  const std::string& approver) {
  std::atomic<bool> paging{true};
  auto pages = std::async(std::launch::async, [&] {
    auto c = clientOf(server, approver);
    int loaded = 0;
    for (int i = 0; i < 6; ++i) {
      auto r = c->Get("/v1/audit?last=200&since=24h");
      EXPECT_TRUE(r) << "the page was not answered";
      if (!r) break;
      EXPECT_EQ(r->status, 200) << r->body.substr(0, 300);
      const json records = json::parse(r->body, nullptr, false);
      EXPECT_TRUE(records.is_array());
      EXPECT_LE(records.size(), 200u);
      loaded += records.size() == 200;
    }
    paging = false;
    return loaded;
  });
  std::vector<std::future<int>> checks;
  for (int t = 0; t < 2; ++t) {
    checks.push_back(std::async(std::launch::async, [&, t] {
      auto c = clientOf(server, agent);
      int answered = 0;
      for (int i = 0; i < 20 || paging; ++i) {
        auto r = c->Post("/v1/check", lsCall(t * 1000 + i), "application/json");
        EXPECT_TRUE(r && r->status == 200) << (r ? r->body : "no answer");
        if (r && r->status == 200 && json::parse(r->body).value("verdict", "") == "allow") {
          ++answered;
        }
        if (i > 5000) break;
      }
      return answered;
    }));
  }
  EXPECT_EQ(pages.get(), 6);
  for (auto& c : checks) EXPECT_GE(c.get(), 20);
}

// A page larger than the server allows is refused with a clear error.
void aPageTooLargeIsRefused(const ServeProcess& server, const std::string& approver) {
  auto r = clientOf(server, approver)->Get("/v1/audit?last=5000");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(r->body.find("at most 1000 records a page"), std::string::npos) << r->body;
}

TEST_F(Serve, AHistoryPageOverALargeFileAuditIsBoundedWhileChecksAreAnswered) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  {
    // A few hundred thousand decisions, written as the log holds them.
    fs::create_directories(dir.path() / "home/.toolguard");
    std::ofstream out(dir.path() / "home/.toolguard/audit.jsonl");
    const std::string time = nowText();
    for (int i = 0; i < kLargeAudit; ++i) {
      out << R"({"time":")" << time << R"(","id":"old)" << i
          << R"(","tool":"Bash","args":{"command":"ls"},"verdict":"allow","reason":"r"})"
          << "\n";
    }
  }
  auto server = start();
  checksAnsweredWhilePagesLoad(*server, agent, approver);
  aPageTooLargeIsRefused(*server, approver);
  // The newest records are the page's: the checks just made.
  auto r = client(*server, approver)->Get("/v1/audit?last=1");
  const json last = json::parse(r->body);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0]["context"]["agent"], "bot");
}

TEST_F(ServePostgres, AHistoryPageOverALargeAuditIsBoundedWhileChecksAreAnswered) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  RunResult filled =
      psql(store,
           "INSERT INTO toolguard_audit (time, tool, verdict, rule, record) "
           "SELECT now() - i * interval '1 ms', 'Bash', 'allow', '', "
           "json_build_object('time', now() - i * interval '1 ms', 'id', 'old' || i, "
           "'tool', 'Bash', 'verdict', 'allow', 'args', "
           "json_build_object('command', 'ls')) FROM generate_series(" +
               std::to_string(kLargeAudit) + ", 1, -1) AS i");
  ASSERT_EQ(filled.exit_code, 0) << filled.err;
  auto server = start();
  checksAnsweredWhilePagesLoad(*server, agent, approver);
  aPageTooLargeIsRefused(*server, approver);
  // A filter that matches nothing still ends (bounded scan, statement timeout).
  auto r = client(*server, approver)->Get("/v1/audit?last=200&tool=NoSuchTool");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
}

TEST_F(ServePostgres, TheServicesRoleMayOnlyInsertIntoTheAudit) {
  // An owner role runs the migrations; the service connects as its own role.
  RunResult roles = psql(store,
                         "CREATE ROLE tg_owner LOGIN; CREATE ROLE tg_service LOGIN; "
                         "ALTER SCHEMA public OWNER TO tg_owner;");
  ASSERT_EQ(roles.exit_code, 0) << roles.err;
  const std::string owner = asRole(store, "tg_owner");
  RunResult migrated = run({"serve", "migrate", "--store", owner, "--grant", "tg_service"});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_NE(migrated.out.find("granted tg_service"), std::string::npos) << migrated.out;
  store = asRole(store, "tg_service");
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  auto r = client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(json::parse(r->body)["verdict"], "allow");
  // The service's role cannot change or remove a record, on the real server.
  for (const std::string& sql :
       {std::string("UPDATE toolguard_audit SET verdict = 'deny'"),
        std::string("DELETE FROM toolguard_audit"), std::string("TRUNCATE toolguard_audit")}) {
    RunResult refused = psql(store, sql);
    EXPECT_NE(refused.exit_code, 0) << sql;
    EXPECT_NE(refused.err.find("permission denied"), std::string::npos)
        << sql << ": " << refused.err;
  }
  EXPECT_EQ(psql(store, "SELECT count(*) > 0 FROM toolguard_audit").out, "t\n");
  // It may change the approvals: the trigger that tells the instances runs
  // with its rights.
  const auto plain = dir.write("allowed.json", R"({"version": 1, "allowed_tools": ["WebFetch"]})");
  RunResult imported =
      run({"approvals", "import", plain.string(), "--scope", "global", "--store", store});
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(psql(store, "DELETE FROM toolguard_approvals").exit_code, 0);
  // Its pages and the chain's walk work with its rights.
  EXPECT_EQ(client(*server, admin)->Get("/v1/audit?last=10")->status, 200);
  RunResult verified = run({"audit", "verify", "--store", store});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
}

// Each instance writes its groups in one round trip while the table's last
// row is its own; when the other wrote since, it reads the head again. Both
// under load at once: one unbroken chain, every decision in it.
TEST_F(ServePostgres, TwoInstancesWritingAtOnceKeepOneChain) {
  // Under repeatable read a transaction's snapshot would be taken before it
  // waited for the chain's lock, and miss the rows its last holder wrote:
  // the service's connections are read committed whatever the default.
  RunResult isolation =
      psql(store,
           "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_isolation = "
           "%L', current_database(), 'repeatable read'); END $$;");
  ASSERT_EQ(isolation.exit_code, 0) << isolation.err;
  const std::string agent = token("agent", "bot");
  auto a = start();
  auto b = start();
  std::vector<std::thread> load;
  std::atomic<int> answered{0};
  for (int t = 0; t < 4; ++t) {
    load.emplace_back([&, t] {
      auto c = client(t % 2 == 0 ? *a : *b, agent);
      for (int i = 0; i < 50; ++i) {
        auto r = c->Post("/v1/check", call("ls " + std::to_string(t * 1000 + i)).dump(),
                         "application/json");
        if (r && r->status == 200 && json::parse(r->body)["verdict"] == "allow") ++answered;
      }
    });
  }
  for (std::thread& t : load) t.join();
  EXPECT_EQ(answered.load(), 200);
  RunResult r = run({"audit", "verify", "--store", store, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(json::parse(r.out)["records"], 201) << r.out;  // the anchor and 200 decisions
}

TEST_F(ServePostgres, VerifyNamesRowsEditedDeletedAndMoved) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  auto c = client(*server, agent);
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(
        c->Post("/v1/check", call("ls " + std::to_string(i)).dump(), "application/json")->status,
        200);
  }
  RunResult r = run({"audit", "verify", "--store", store, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["records"], 9);  // the anchor and eight decisions
  const std::string ids =
      psql(store, "SELECT string_agg(id::text, ',' ORDER BY id) FROM toolguard_audit").out;
  std::vector<std::string> id;
  for (size_t at = 0, next; at < ids.size(); at = next + 1) {
    next = ids.find_first_of(",\n", at);
    if (next == std::string::npos) next = ids.size();
    if (next > at) id.push_back(ids.substr(at, next - at));
  }
  ASSERT_EQ(id.size(), 9u) << ids;
  auto verifyOut = [&] {
    RunResult v = run({"audit", "verify", "--store", store});
    EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
    return v.out;
  };
  // Edited: the next row names it.
  const std::string original =
      psql(store, "SELECT record::text FROM toolguard_audit WHERE id = " + id[4]).out;
  ASSERT_EQ(psql(store,
                 "UPDATE toolguard_audit SET record = replace(record::text, '\"allow\"', "
                 "'\"deny\"')::json WHERE id = " +
                     id[4])
                .exit_code,
            0);
  std::string out = verifyOut();
  EXPECT_NE(out.find("row " + id[5] + ": prev_hash does not match row " + id[4]), std::string::npos)
      << out;
  // Deleted.
  ASSERT_EQ(psql(store, "DELETE FROM toolguard_audit WHERE id = " + id[4]).exit_code, 0);
  out = verifyOut();
  EXPECT_NE(out.find("row " + id[5] + ": prev_hash does not match row " + id[3]), std::string::npos)
      << out;
  // Put back as it was: the chain holds again.
  ASSERT_EQ(psql(store,
                 "INSERT INTO toolguard_audit (id, time, tool, verdict, rule, record) "
                 "VALUES (" +
                     id[4] + ", now(), 'Bash', 'allow', '', $$" +
                     original.substr(0, original.size() - 1) + "$$)")
                .exit_code,
            0);
  EXPECT_EQ(run({"audit", "verify", "--store", store}).exit_code, 0);
  // Moved: two rows' records swapped.
  ASSERT_EQ(psql(store,
                 "UPDATE toolguard_audit a SET record = b.record FROM toolguard_audit b "
                 "WHERE (a.id, b.id) IN ((" +
                     id[2] + ", " + id[3] + "), (" + id[3] + ", " + id[2] + "))")
                .exit_code,
            0);
  out = verifyOut();
  EXPECT_NE(out.find("out of order"), std::string::npos) << out;
}

TEST_F(ServePostgres, ValuesPostgresCannotHoldAreAuditedWithTheirDeny) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  auto c = client(*server, agent);
  const std::vector<std::string> bodies = {
      // A NUL escaped in an argument, one raw in the body, bytes that are not UTF-8.
      R"({"tool":"Bash","args":{"command":"rm -rf /\u0000x"},"context":{"cwd":"/tmp"}})",
      std::string(R"({"tool":"Bash","args":{"command":"ls)") + '\0' + R"("}})",
      std::string(R"({"tool":"Bash\u0000","args":{"command":"rm -rf /)") + "\xff\xfe" + R"("}})",
  };
  std::vector<std::string> ids;
  for (const std::string& body : bodies) {
    auto r = c->Post("/v1/check", body, "application/json");
    ASSERT_TRUE(r);
    // A raw NUL makes the body no JSON text: refused (400) and audited as
    // malformed; the others are judged and denied.
    if (r->status == 400) {
      ids.push_back("");
      continue;
    }
    ASSERT_EQ(r->status, 200) << r->body;
    const json d = json::parse(r->body);
    EXPECT_NE(d["verdict"], "allow") << r->body;
    ids.push_back(d.value("id", ""));
  }
  auto audit = client(*server, admin)->Get("/v1/audit?last=100");
  ASSERT_EQ(audit->status, 200) << audit->body;
  std::set<std::string> kept;
  for (const json& record : json::parse(audit->body)) kept.insert(record.value("id", ""));
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].empty()) continue;  // a malformed call's answer may carry no id
    EXPECT_TRUE(kept.count(ids[i])) << "call " << i << " was not audited: " << audit->body;
  }
  // Every one has its row, its NUL kept as \u0000 in the record.
  EXPECT_EQ(psql(store,
                 "SELECT count(*) FROM toolguard_audit WHERE record::text LIKE "
                 "'%\\u0000%'")
                .out,
            "3\n");
  EXPECT_EQ(run({"audit", "verify", "--store", store}).exit_code, 0);
}

// A group's records reach the database as arrays in text form: quotes,
// backslashes, braces, commas, the word NULL and non-ASCII text inside them
// (in the record and in the tool's column) must come back exactly as they
// were chained, in the chain's order, or verify fails. Four clients at once,
// so that groups hold several records.
TEST_F(ServePostgres, RecordsAnyTextHoldsArriveExactlyAsChained) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  const std::vector<std::string> commands = {R"(echo "a,b" {c} \d)",
                                             R"(echo NULL)",
                                             R"(echo '\\' "")",
                                             R"(echo }{,"\",)",
                                             "echo \u00e9t\u00e9 \u65e5\u672c",
                                             R"(printf '%s\n' "{\"k\":[1,2]}")",
                                             "echo \t tab"};
  const std::string odd_tool = R"(x"y\z{a,b} NULL )"
                               "\u00e9";
  std::mutex mutex;
  std::map<std::string, std::string> sent;  // id -> command
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&] {
      auto c = client(*server, agent);
      for (int round = 0; round < 5; ++round) {
        for (const std::string& command : commands) {
          auto r = c->Post("/v1/check", call(command).dump(), "application/json");
          if (!r || r->status != 200) continue;  // counted missing below
          std::lock_guard<std::mutex> lock(mutex);
          sent[json::parse(r->body).value("id", "")] = command;
        }
        json odd = call("ls");
        odd["tool"] = odd_tool;
        c->Post("/v1/check", odd.dump(), "application/json");
      }
    });
  }
  for (std::thread& t : clients) t.join();
  ASSERT_EQ(sent.size(), 4 * 5 * commands.size());
  RunResult verified = run({"audit", "verify", "--store", store, "--json"});
  ASSERT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  // The anchor, the commands, and the odd tool's calls.
  EXPECT_EQ(json::parse(verified.out)["records"], 1 + 4 * 5 * (commands.size() + 1))
      << verified.out;
  auto audit = client(*server, admin)->Get("/v1/audit?last=1000");
  ASSERT_EQ(audit->status, 200) << audit->body;
  std::map<std::string, std::string> kept;
  for (const json& record : json::parse(audit->body)) {
    if (record.contains("args")) kept[record.value("id", "")] = record["args"].value("command", "");
  }
  for (const auto& [id, command] : sent) EXPECT_EQ(kept[id], command) << id;
  EXPECT_EQ(
      psql(store, "SELECT count(*) FROM toolguard_audit WHERE tool = $tg$" + odd_tool + "$tg$").out,
      "20\n");
}

}  // namespace serve_audit_test
}  // namespace toolguard::testing
