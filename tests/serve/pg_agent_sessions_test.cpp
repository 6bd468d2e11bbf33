// Agents' sessions on PostgreSQL, through the repository the service uses:
// what instances hold in memory is always what the database holds, however
// their calls interleave, and a session forgotten, expired or edited is
// never taken for the one remembered.
#include "store/pg_agent_sessions.hpp"

#include <atomic>
#include <future>
#include <random>
#include <thread>

#include "serve/serve_fixture.hpp"
#include "store/grouped_writes.hpp"
#include "store/pg_audit.hpp"
#include "store/postgres_service_store.hpp"
#include "store/service_store.hpp"

namespace toolguard::testing {
namespace pg_agent_sessions_test {

using store::migratePostgres;
using store::PgPool;

// What a check compares of an event (the database keeps times in ms).
std::vector<std::string> described(const SessionState& state) {
  std::vector<std::string> out;
  if (state.unknown) out.push_back("unknown");
  for (const SessionEvent& e : state.events) {
    std::string line = e.tool + " " + e.summary + " [";
    for (const std::string& label : e.labels) line += label + ",";
    out.push_back(line + "]");
  }
  return out;
}

SessionEvent event(const std::string& tool, std::vector<std::string> labels,
                   const std::string& summary = "") {
  return SessionEvent{std::chrono::system_clock::now(), tool, summary.empty() ? tool : summary,
                      std::move(labels), ""};
}

class PgSessions : public ServePostgres {
 protected:
  SessionStoreOptions options(size_t max_events) {
    SessionStoreOptions o;
    o.max_events = max_events;
    return o;
  }
  // An instance: its own connections and memory.
  struct Instance {
    std::unique_ptr<PgPool> pool;
    std::shared_ptr<SessionRepository> sessions;
  };
  Instance instance(size_t max_events) {
    Instance i;
    i.pool = std::make_unique<PgPool>(db->url(), 2);
    i.sessions = store::postgresAgentSessions(*i.pool, options(max_events));
    return i;
  }
};

// Three instances and a reference (a process's memory, which keeps sessions
// as forgetOldest says) take the same appends in a seeded random order:
// every read, from an instance that holds the session, one that holds an
// older copy of it, or one that never saw it, equals the reference. Small
// max_events, so the database trims (and forgets old events) again and
// again; snapshots are held across appends now and then, as a Guard holds
// one while it judges.
TEST_F(PgSessions, EveryInstanceReadsWhatAReferenceKeepsHoweverCallsInterleave) {
  migratePostgres(db->url());
  constexpr size_t kMax = 6;
  Instance a = instance(kMax);
  Instance b = instance(kMax);
  auto reference = memorySessionRepository(options(kMax));
  const std::vector<std::string> keys = {"s1", "s2", "s3"};
  const std::vector<std::string> labels = {kUntrustedLabel, kSensitiveLabel, kOutwardLabel, "x"};
  std::mt19937 random(20261202);
  std::vector<std::shared_ptr<const SessionState>> held;
  for (int step = 0; step < 400; ++step) {
    const std::string& key = keys[random() % keys.size()];
    std::vector<std::string> given;
    for (const std::string& label : labels) {
      if (random() % 5 == 0) given.push_back(label);
    }
    const SessionEvent e = event("T" + std::to_string(step), given);
    Instance& writer = random() % 2 ? a : b;
    if (random() % 4 == 0) held.push_back(writer.sessions->snapshot(key));
    writer.sessions->append(key, e);
    reference->append(key, e);
    if (held.size() > 3 || random() % 3 == 0) held.clear();
    const std::string& read_key = keys[random() % keys.size()];
    const auto expected = described(reference->load(read_key));
    ASSERT_EQ(described(*a.sessions->snapshot(read_key)), expected) << "a, step " << step;
    ASSERT_EQ(described(*b.sessions->snapshot(read_key)), expected) << "b, step " << step;
    if (step % 25 == 0) {
      Instance fresh = instance(kMax);
      ASSERT_EQ(described(fresh.sessions->load(read_key)), expected) << "fresh, step " << step;
    }
  }
  // The database keeps no more than max_events and a quarter of a session.
  const RunResult most = db->psql(
      "SELECT max(n) FROM (SELECT count(*) AS n FROM toolguard_agent_session_events e "
      "JOIN toolguard_agent_sessions s ON s.id = e.session AND e.seq >= s.first_seq "
      "GROUP BY e.session) c");
  EXPECT_LE(std::stoi(most.out), 8) << most.out;
}

// Calls of one session from several threads of two instances at once:
// nothing is lost or counted twice, and both read what the database holds.
TEST_F(PgSessions, CallsOfOneSessionFromManyThreadsAreAllKept) {
  migratePostgres(db->url());
  Instance a = instance(1000);
  Instance b = instance(1000);
  std::vector<std::thread> threads;
  std::atomic<int> twice{0};  // snapshots that held an event twice
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      // Most on one instance, so that its own appends come while it reads.
      SessionRepository& sessions = *(t == 0 ? b : a).sessions;
      for (int i = 0; i < 50; ++i) {
        auto snapshot = sessions.snapshot("busy");
        std::set<std::string> seen;
        for (const SessionEvent& e : snapshot->events) {
          if (!seen.insert(e.summary).second) ++twice;
        }
        sessions.append("busy", event("T", {"x"}, std::to_string(t) + "-" + std::to_string(i)));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(twice.load(), 0);
  const SessionState from_a = a.sessions->load("busy");
  const SessionState from_b = b.sessions->load("busy");
  Instance fresh = instance(1000);
  const SessionState from_fresh = fresh.sessions->load("busy");
  EXPECT_EQ(from_a.events.size(), 300u);
  EXPECT_EQ(described(from_a), described(from_fresh));
  EXPECT_EQ(described(from_b), described(from_fresh));
  std::set<std::string> summaries;
  for (const SessionEvent& e : from_fresh.events) summaries.insert(e.summary);
  EXPECT_EQ(summaries.size(), 300u);
}

// A session's row deleted by hand (its events left behind) and started
// again by another instance, or expired and started again: an instance that
// held the old one reads the new one only.
TEST_F(PgSessions, ASessionForgottenAndStartedAgainIsNotTakenForTheOneHeld) {
  migratePostgres(db->url());
  Instance a = instance(50);
  Instance b = instance(50);
  for (int i = 0; i < 3; ++i) a.sessions->append("k", event("Old" + std::to_string(i), {"x"}));
  ASSERT_EQ(a.sessions->snapshot("k")->events.size(), 3u);
  ASSERT_EQ(db->psql("DELETE FROM toolguard_agent_sessions").exit_code, 0);
  EXPECT_TRUE(a.sessions->snapshot("k")->events.empty());
  b.sessions->append("k", event("New", {kOutwardLabel}));
  EXPECT_EQ(described(*a.sessions->snapshot("k")), std::vector<std::string>{"New New [outward,]"});
  // Expired: nothing, then a new life that holds only what came after.
  ASSERT_EQ(db->psql("UPDATE toolguard_agent_sessions SET updated = now() - interval '13 hours'")
                .exit_code,
            0);
  EXPECT_TRUE(a.sessions->snapshot("k")->events.empty());
  EXPECT_TRUE(b.sessions->snapshot("k")->events.empty());
  b.sessions->append("k", event("Later", {}));
  EXPECT_EQ(described(*a.sessions->snapshot("k")), std::vector<std::string>{"Later Later []"});
  EXPECT_EQ(described(*b.sessions->snapshot("k")), std::vector<std::string>{"Later Later []"});
}

// Rows put back by hand (a backup restored, a replica that lost commits):
// a number that comes again with another event is not taken for the one
// memory holds; a row whose life nobody numbered is read, not looped on.
TEST_F(PgSessions, ANumberThatComesAgainIsNotTakenForTheEventHeld) {
  migratePostgres(db->url());
  Instance a = instance(50);
  Instance b = instance(50);
  a.sessions->append("k", event("Read", {}));
  a.sessions->append("k", event("Gone", {"x"}));
  ASSERT_EQ(a.sessions->snapshot("k")->events.size(), 2u);
  ASSERT_EQ(db->psql("DELETE FROM toolguard_agent_session_events WHERE seq = 2; "
                     "UPDATE toolguard_agent_sessions SET seq = 1, held = 1")
                .exit_code,
            0);
  b.sessions->append("k", event("WebFetch", {kUntrustedLabel}));  // number 2 again
  EXPECT_EQ(described(*a.sessions->snapshot("k")),
            (std::vector<std::string>{"Read Read []", "WebFetch WebFetch [untrusted,]"}));
  ASSERT_EQ(db->psql("UPDATE toolguard_agent_sessions SET life = 0").exit_code, 0);
  Instance fresh = instance(50);
  EXPECT_EQ(fresh.sessions->snapshot("k")->events.size(), 2u);
  EXPECT_EQ(a.sessions->snapshot("k")->events.size(), 2u);
}

// A session that expired and started again keeps no row of its earlier
// life; many appends without a read (results' labels) are all held.
TEST_F(PgSessions, ANewLifeDropsTheEarlierOnesRowsAndAppendsWithoutReadsAreKept) {
  migratePostgres(db->url());
  Instance a = instance(50);
  for (int i = 0; i < 5; ++i) a.sessions->append("k", event("Old", {"x"}));
  ASSERT_EQ(db->psql("UPDATE toolguard_agent_sessions SET updated = now() - interval '13 hours'")
                .exit_code,
            0);
  a.sessions->append("k", event("New", {}));
  EXPECT_EQ(db->psql("SELECT count(*) FROM toolguard_agent_session_events").out, "1\n");
  auto reference = memorySessionRepository(options(50));
  reference->append("k", event("New", {}));
  auto held = a.sessions->snapshot("k");
  for (int i = 0; i < 40; ++i) {
    const SessionEvent e = event("R" + std::to_string(i), {i % 7 == 0 ? kSensitiveLabel : "y"});
    a.sessions->append("k", e);
    reference->append("k", e);
  }
  EXPECT_EQ(described(*held), std::vector<std::string>{"New New []"});
  EXPECT_EQ(described(*a.sessions->snapshot("k")), described(reference->load("k")));
}

// An event the store did not write (added by hand) makes the session
// unknown for an instance that held it and one that did not.
TEST_F(PgSessions, AnEventNotAsWrittenMakesTheSessionUnknownEverywhere) {
  migratePostgres(db->url());
  Instance a = instance(50);
  a.sessions->append("k", event("Read", {}));
  ASSERT_FALSE(a.sessions->snapshot("k")->unknown);
  ASSERT_EQ(db->psql("WITH s AS (UPDATE toolguard_agent_sessions SET seq = seq + 1 RETURNING id, "
                     "seq) INSERT INTO toolguard_agent_session_events SELECT id, seq, 'not json' "
                     "FROM s")
                .exit_code,
            0);
  EXPECT_TRUE(a.sessions->snapshot("k")->unknown);
  EXPECT_TRUE(a.sessions->snapshot("k")->holdsLabel(kSensitiveLabel));
  Instance fresh = instance(50);
  EXPECT_TRUE(fresh.sessions->snapshot("k")->unknown);
}

// A database as the previous schema left it (a session's events one JSON
// array in its row): its sessions are read as they were, one that was not
// an array is unknown, and a role granted the sessions gets the new table.
TEST_F(PgSessions, SessionsKeptAsArraysBeforeAreReadAfterTheMigration) {
  migratePostgres(db->url(), 6);
  ASSERT_EQ(db->psql("CREATE ROLE svc LOGIN; GRANT SELECT, INSERT, UPDATE, DELETE ON "
                     "toolguard_agent_sessions TO svc; GRANT INSERT ON toolguard_agent_sessions "
                     "TO PUBLIC")
                .exit_code,
            0);
  const std::string kept = store::tokenHash("session:kept");
  const std::string torn = store::tokenHash("session:torn");
  const std::string events =
      R"([{"at": 1, "tool": "WebFetch", "labels": ["untrusted"], "summary": "WebFetch x"},)"
      R"( {"at": 2, "tool": "Read", "labels": [], "summary": "Read y"}])";
  ASSERT_EQ(
      db->psql("INSERT INTO toolguard_agent_sessions (id, events, unknown, updated) VALUES ('" +
               kept + "', '" + events + "', false, now()), ('" + torn +
               "', '{\"not\": \"an array\"}', false, now())")
          .exit_code,
      0);
  migratePostgres(db->url());
  Instance after = instance(50);
  EXPECT_EQ(described(after.sessions->load("kept")),
            (std::vector<std::string>{"WebFetch WebFetch x [untrusted,]", "Read Read y []"}));
  EXPECT_TRUE(after.sessions->load("torn").unknown);
  after.sessions->append("kept", event("Bash", {kOutwardLabel}));
  EXPECT_EQ(after.sessions->load("kept").events.size(), 3u);
  const RunResult rights = db->psql(
      "SELECT has_table_privilege('svc', 'toolguard_agent_session_events', 'INSERT'), "
      "has_sequence_privilege('svc', 'toolguard_agent_session_lives', 'USAGE'), "
      "has_table_privilege('public', 'toolguard_agent_session_events', 'INSERT')");
  EXPECT_EQ(rights.out, "t|t|t\n");
}

// The appends a check made inside a GroupedWrites capture, taken out of it.
std::vector<store::GroupedWrite> appendedInGroup(SessionRepository& sessions,
                                                 const std::string& key, const SessionEvent& e) {
  store::GroupedWrites grouped;
  sessions.append(key, e);
  return std::exchange(grouped.writes, {});
}

// A decision's audit record for `tool` at `time` (a time the database
// cannot read makes the record's insert fail).
PreparedAuditRecord auditRecord(const std::string& tool,
                                const std::string& time = "2026-12-02T10:00:00.000Z") {
  return prepareAuditRecord({{"time", time}, {"tool", tool}, {"verdict", "allow"}});
}

// Queues the record with its writes; the future says how it fared.
std::future<std::exception_ptr> writeWith(store::PgAudit& audit, PreparedAuditRecord record,
                                          std::vector<store::GroupedWrite> writes) {
  auto promise = std::make_shared<std::promise<std::exception_ptr>>();
  std::future<std::exception_ptr> fared = promise->get_future();
  audit.writePreparedWithThen(std::move(record), std::move(writes),
                              [promise](std::exception_ptr failed) { promise->set_value(failed); });
  return fared;
}

int countOf(PgCluster& db, const std::string& sql) {
  const RunResult r = db.psql(sql);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return std::stoi(r.out);
}

// An append made inside a check's capture is not run: it commits in the
// transaction of the audit record it goes with, and only then does any
// instance (the one that made it, one that never saw the session) read it.
// One the capture kept and nobody handed to the audit never happened.
TEST_F(PgSessions, AnAppendInTheAuditsGroupIsKeptWithItsRecordAndOnlyThen) {
  migratePostgres(db->url());
  Instance a = instance(50);
  store::PgAudit audit(db->url());
  auto reference = memorySessionRepository(options(50));
  { appendedInGroup(*a.sessions, "dropped", event("Read", {"x"})); }
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), 0);
  EXPECT_TRUE(a.sessions->snapshot("dropped")->events.empty());
  for (int i = 0; i < 12; ++i) {
    const SessionEvent e = event("T" + std::to_string(i), {i % 3 == 0 ? kUntrustedLabel : "y"});
    std::vector<store::GroupedWrite> writes = appendedInGroup(*a.sessions, "k", e);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), i)
        << "not written before its record";
    EXPECT_EQ(writeWith(audit, auditRecord("T" + std::to_string(i)), std::move(writes)).get(),
              nullptr);
    reference->append("k", e);
    EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), i + 1);
    ASSERT_EQ(described(*a.sessions->snapshot("k")), described(reference->load("k"))) << i;
  }
  Instance fresh = instance(50);
  EXPECT_EQ(described(fresh.sessions->load("k")), described(reference->load("k")));
  // Twelve records after the chain's anchor, each with its event.
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_audit"), 13);
  PgPool reads(db->url(), 1);
  EXPECT_TRUE(store::verifyPgAudit(reads, "").ok());
}

// The audit chain's lock (an advisory lock), held as another instance's
// group would hold it: the writer's next group waits for it, and the
// records queued meanwhile go together into the group after.
class ChainLockHeld {
 public:
  ChainLockHeld(PgCluster& db, store::PgAudit& audit) : db_(db), holder_(db.url()) {
    holder_.run("SELECT pg_advisory_lock(74069111)");
    // A record of its own, whose group waits for the lock.
    waiting_ = writeWith(audit, auditRecord("Waiting"), {});
    while (
        countOf(db_, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") ==
        0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  void release() {
    holder_.run("SELECT pg_advisory_unlock(74069111)");
    EXPECT_EQ(waiting_.get(), nullptr);
  }

 private:
  PgCluster& db_;
  store::PgConnection holder_;
  std::future<std::exception_ptr> waiting_;
};

// Records queued in one group, every other one refused by the database
// (a time it cannot read): the group fails, each record is tried alone, and
// a refused record takes its append with it (the call is denied: its
// session must not remember it ran) while the others are kept with theirs.
TEST_F(PgSessions, AnAppendWhoseRecordIsRefusedIsNotKeptAndTheOthersAre) {
  migratePostgres(db->url());
  Instance a = instance(50);
  store::PgAudit audit(db->url());
  ChainLockHeld lock(*db, audit);
  std::vector<std::future<std::exception_ptr>> fared;
  for (int i = 0; i < 6; ++i) {
    const bool refused = i % 2 == 1;
    const std::string key = refused ? "refused" : "kept";
    fared.push_back(writeWith(audit,
                              auditRecord("T", refused ? "not a time" : "2026-12-02T10:00:00Z"),
                              appendedInGroup(*a.sessions, key, event("T", {"x"}))));
  }
  lock.release();
  for (size_t i = 0; i < fared.size(); ++i) {
    EXPECT_EQ(fared[i].get() != nullptr, i % 2 == 1) << i;
  }
  EXPECT_EQ(a.sessions->snapshot("kept")->events.size(), 3u);
  EXPECT_TRUE(a.sessions->snapshot("refused")->events.empty());
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), 3);
  // The anchor, the record that waited and the three kept.
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_audit"), 5);
}

// The other way round: an append the database refuses (here a check on
// the events' table) takes its call's record with it, in a group of calls
// whose other appends and records are kept; the chain stays whole.
TEST_F(PgSessions, ARecordWhoseAppendIsRefusedIsNotKeptAndTheOthersAre) {
  migratePostgres(db->url());
  ASSERT_EQ(db->psql("ALTER TABLE toolguard_agent_session_events ADD CONSTRAINT no_poison "
                     "CHECK (line NOT LIKE '%Poison%')")
                .exit_code,
            0);
  Instance a = instance(50);
  store::PgAudit audit(db->url());
  ChainLockHeld lock(*db, audit);
  std::vector<std::future<std::exception_ptr>> fared;
  for (int i = 0; i < 6; ++i) {
    const bool refused = i % 3 == 2;
    const std::string tool = refused ? "Poison" : "Fine";
    fared.push_back(
        writeWith(audit, auditRecord(tool), appendedInGroup(*a.sessions, "k", event(tool, {"x"}))));
  }
  lock.release();
  for (size_t i = 0; i < fared.size(); ++i) {
    EXPECT_EQ(fared[i].get() != nullptr, i % 3 == 2) << i;
  }
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_audit WHERE tool = 'Poison'"), 0);
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_audit WHERE tool = 'Fine'"), 4);
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), 4);
  EXPECT_EQ(a.sessions->snapshot("k")->events.size(), 4u);
  PgPool reads(db->url(), 1);
  EXPECT_TRUE(store::verifyPgAudit(reads, "").ok());
}

// Two instances' audit writers take turns on one chain: a group whose
// writer was not the last to write is chained after the other's row (its
// conditional insert wrote nothing), and its appends are committed once.
TEST_F(PgSessions, AppendsAreKeptOnceWhenAnotherWriterWroteLast) {
  migratePostgres(db->url());
  Instance a = instance(50);
  Instance b = instance(50);
  store::PgAudit audit_a(db->url());
  store::PgAudit audit_b(db->url());
  auto reference = memorySessionRepository(options(50));
  for (int i = 0; i < 10; ++i) {
    Instance& instance = i % 2 ? b : a;
    store::PgAudit& audit = i % 2 ? audit_b : audit_a;
    const SessionEvent e = event("T" + std::to_string(i), {"x"});
    ASSERT_EQ(writeWith(audit, auditRecord("T"), appendedInGroup(*instance.sessions, "k", e)).get(),
              nullptr);
    reference->append("k", e);
  }
  EXPECT_EQ(countOf(*db, "SELECT seq FROM toolguard_agent_sessions"), 10);
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), 10);
  EXPECT_EQ(described(*a.sessions->snapshot("k")), described(reference->load("k")));
  EXPECT_EQ(described(*b.sessions->snapshot("k")), described(reference->load("k")));
  PgPool reads(db->url(), 1);
  const AuditChainReport chain = store::verifyPgAudit(reads, "");
  EXPECT_TRUE(chain.ok());
  EXPECT_EQ(chain.records, 11u);
}

// A session held long enough to be trimmed while its appends go with the
// audit: the trim waits for the next read (the audit's writer never runs
// it), which finds the session within max_events and a quarter.
TEST_F(PgSessions, GroupedAppendsAreTrimmedAtTheNextRead) {
  migratePostgres(db->url());
  constexpr size_t kMax = 8;
  Instance a = instance(kMax);
  store::PgAudit audit(db->url());
  auto reference = memorySessionRepository(options(kMax));
  for (int i = 0; i < 60; ++i) {
    const SessionEvent e = event("T" + std::to_string(i), {i % 5 == 0 ? kSensitiveLabel : "y"});
    ASSERT_EQ(writeWith(audit, auditRecord("T"), appendedInGroup(*a.sessions, "k", e)).get(),
              nullptr);
    reference->append("k", e);
    ASSERT_EQ(described(*a.sessions->snapshot("k")), described(reference->load("k"))) << i;
    EXPECT_LE(countOf(*db, "SELECT held FROM toolguard_agent_sessions"), 10) << i;
  }
}

// The deletion of a life's earlier rows waits for the instance's next read
// when the life began in an audit group. Meanwhile the session may be swept
// and begun again at number 1 (another instance): the late deletion must
// not take the new life's events.
TEST_F(PgSessions, ALateDeletionNeverTakesALaterLifesEvents) {
  migratePostgres(db->url());
  Instance a = instance(50);
  Instance b = instance(50);
  store::PgAudit audit(db->url());
  for (int i = 0; i < 5; ++i) a.sessions->append("k", event("Old", {"x"}));
  ASSERT_EQ(db->psql("UPDATE toolguard_agent_sessions SET updated = now() - interval '13 hours'")
                .exit_code,
            0);
  ASSERT_EQ(
      writeWith(audit, auditRecord("New"), appendedInGroup(*a.sessions, "k", event("New", {})))
          .get(),
      nullptr);
  // Swept (as another instance's sweep would) and begun again.
  ASSERT_EQ(db->psql("DELETE FROM toolguard_agent_sessions; "
                     "DELETE FROM toolguard_agent_session_events")
                .exit_code,
            0);
  auto reference = memorySessionRepository(options(50));
  for (int i = 0; i < 3; ++i) {
    const SessionEvent e = event("Later" + std::to_string(i), {kUntrustedLabel});
    b.sessions->append("k", e);
    reference->append("k", e);
  }
  EXPECT_EQ(described(*a.sessions->snapshot("k")), described(reference->load("k")));
  EXPECT_EQ(countOf(*db, "SELECT count(*) FROM toolguard_agent_session_events"), 3);
  EXPECT_EQ(described(*b.sessions->snapshot("k")), described(reference->load("k")));
}

}  // namespace pg_agent_sessions_test
}  // namespace toolguard::testing
