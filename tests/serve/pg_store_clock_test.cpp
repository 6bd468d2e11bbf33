// On PostgreSQL an ask's and a web session's times are the database's: the
// database compares them with its own now(), so an instance whose clock is
// far behind or ahead neither expires them at once nor keeps them forever.
// The instance's clock is played by the times the service hands the store
// (what SystemClock::now() would give on a machine whose clock is wrong).
#include "serve/serve_fixture.hpp"
#include "store/postgres_service_store.hpp"
#include "store/service_store.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::testing {
namespace pg_store_clock_test {

using SystemClock = std::chrono::system_clock;

// Seconds between `a` and `b` (RFC 3339).
double secondsBetween(const std::string& a, const std::string& b) {
  const auto from = parseAuditTime(a);
  const auto to = parseAuditTime(b);
  if (!from || !to) return -1e9;
  return std::chrono::duration<double>(*to - *from).count();
}

// Seconds from now to `time` (RFC 3339).
double secondsFromNow(const std::string& time) {
  const auto when = parseAuditTime(time);
  if (!when) return -1e9;
  return std::chrono::duration<double>(*when - SystemClock::now()).count();
}

store::AskRecord askAt(const std::string& id, const std::string& created,
                       const std::string& expires) {
  store::AskRecord a;
  a.id = id;
  a.call = {{"tool", "Bash"}, {"args", {{"command", "git push"}}}};
  a.decision = {{"verdict", "ask"}};
  a.offer = {{"bindings", nlohmann::json::array()}, {"scopes", nlohmann::json::array()}};
  a.created = created;
  a.expires = expires;
  a.token = "bot";
  a.watched = false;
  return a;
}

bool pending(store::ServiceStore& s, const std::string& id) {
  for (const store::AskRecord& a : s.listAsks(store::AskState::Pending, 0)) {
    if (a.id == id) return true;
  }
  return false;
}

TEST_F(ServePostgres, AsksAndWebSessionsLastWhatWasAskedOnTheDatabasesClock) {
  std::unique_ptr<store::ServiceStore> s = store::openPostgresStore(db->url());
  // An instance 25 years behind, and one 60 years ahead, each asking for a
  // minute: pending now, for a minute from now.
  store::AskRecord behind =
      askAt("0a0a0a0a0a0a0a0a", "2001-01-01T00:00:00.000Z", "2001-01-01T00:01:00.000Z");
  store::AskRecord ahead =
      askAt("0b0b0b0b0b0b0b0b", "2086-06-01T12:00:00.000Z", "2086-06-01T12:01:00.000Z");
  for (store::AskRecord* a : {&behind, &ahead}) {
    s->createAsk(*a);
    EXPECT_NEAR(secondsFromNow(a->created), 0, 30) << a->created;
    EXPECT_NEAR(secondsBetween(a->created, a->expires), 60, 0.01) << a->expires;
    EXPECT_TRUE(pending(*s, a->id)) << a->id;
    std::optional<store::AskRecord> stored = s->findAsk(a->id);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->expires, a->expires);
  }
  // A lifetime that has already ended on any clock: expired at once.
  store::AskRecord ended =
      askAt("0c0c0c0c0c0c0c0c", "2086-06-01T12:00:00.000Z", "2086-06-01T12:00:00.000Z");
  s->createAsk(ended);
  EXPECT_FALSE(pending(*s, ended.id));
  // A web session of eight hours signed in on the instance that is behind.
  store::SessionRecord session{"ab", "csrf", "2001-01-01T00:00:00.000Z",
                               "2001-01-01T08:00:00.000Z"};
  s->createSession("0d0d0d0d", session);
  EXPECT_NEAR(secondsFromNow(session.expires), 8 * 3600, 30) << session.expires;
  std::optional<store::SessionRecord> found = s->sessionByHash("0d0d0d0d");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->expires, session.expires);
  // Pruning compares on the database's clock too: what lasts is kept.
  EXPECT_EQ(s->pruneSessions(), 0u);
  EXPECT_TRUE(s->sessionByHash("0d0d0d0d"));
  s->pruneAsks(std::chrono::seconds(0));
  EXPECT_TRUE(pending(*s, behind.id));
  EXPECT_TRUE(pending(*s, ahead.id));
  // Times that are not times are refused, never stored as something else.
  store::AskRecord unreadable = askAt("0e0e0e0e0e0e0e0e", "yesterday", "tomorrow");
  EXPECT_THROW(s->createAsk(unreadable), store::StoreError);
}

}  // namespace pg_store_clock_test
}  // namespace toolguard::testing
