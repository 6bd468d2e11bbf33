// The PostgreSQL store: tokens, approvals, asks and the audit in tables made
// by versioned migrations (pg_migrations.cpp). An answer is one conditional
// UPDATE (the first wins on every instance) that NOTIFYs the instance holding
// the waiting request; the audit is pg_audit.cpp's.
#include "postgres_service_store.hpp"

#include <poll.h>

#include <atomic>
#include <deque>
#include <future>
#include <thread>

#include "audit/audit_detail.hpp"
#include "empty_approvals_memory.hpp"
#include "pg_agent_sessions.hpp"
#include "pg_audit.hpp"
#include "pg_connection.hpp"
#include "token_names.hpp"

namespace toolguard::store {
namespace {

using Clock = std::chrono::system_clock;
constexpr const char* kChannel = "toolguard_asks";
// Told by a trigger at every change to the approvals (migration 6).
constexpr const char* kApprovalsChannel = "toolguard_approvals";
constexpr int kReadStatementTimeoutMs = 5000;
constexpr const char* kTimeText =
    R"(to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))";

// The heartbeat of an ask's waiting request is stale (the request is gone).
const std::string kAskStaleSql = "(alive IS NOT NULL AND alive <= now() - interval '" +
                                 std::to_string(kAskStaleAfter.count()) + " seconds')";
// An ask that may still be answered.
const std::string kAskLiveSql = "state = 'pending' AND expires > now() AND NOT " + kAskStaleSql;

std::string timeText(const std::string& column) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, kTimeText, column.c_str());
  return buffer;
}

// How long from `created` to `expires` (RFC 3339, as the instance's clock
// wrote them), in milliseconds, for the database to add to its own now().
std::string lifetimeMs(const std::string& created, const std::string& expires) {
  const std::optional<std::chrono::system_clock::time_point> from = parseAuditTime(created);
  const std::optional<std::chrono::system_clock::time_point> to = parseAuditTime(expires);
  if (!from || !to) throw StoreError("a record's created or expires is not a time");
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(*to - *from).count());
}

nlohmann::json parsedOr(const std::string& text, nlohmann::json fallback) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? fallback : value;
}

// The approvals table, seen as the Guard sees a store.
class PgApprovals : public ApprovalRepository {
 public:
  explicit PgApprovals(PgPool& pool) : pool_(pool) {}

  ApprovalListing lookup(const CallContext& context) const override {
    const std::vector<std::optional<std::string>> params = scopeParams(context);
    const std::string key = scopesKey(params);
    ApprovalListing listing;
    if (empty_.knownEmpty(key)) return listing;
    const uint64_t generation = empty_.generation();  // before the query reads the table
    std::string where = "scope = 'global'";
    for (size_t i = 0; i + 1 < params.size(); i += 2) {
      where += " OR (scope = $" + std::to_string(i + 1) + " AND scope_id = $" +
               std::to_string(i + 2) + ")";
    }
    try {
      listing.entries = select("WHERE " + where, params);
    } catch (const std::exception& e) {
      listing.errors.push_back(std::string("the database: ") + e.what());
    }
    if (listing.entries.empty() && listing.errors.empty()) empty_.rememberEmpty(key, generation);
    return listing;
  }

  // Known without the database only when the call's scopes are known to
  // have no entry. (Should the memory forget them before lookup runs, lookup
  // asks the database: right, only slower.)
  std::optional<ApprovalListing> lookupNow(const CallContext& context) const override {
    if (!empty_.knownEmpty(scopesKey(scopeParams(context)))) return std::nullopt;
    return ApprovalListing{};
  }

  /// The memory of empty scopes, which the listener tells of changes.
  EmptyApprovalsMemory& emptyScopes() { return empty_; }

  bool add(const ApprovalEntry& e) override {
    Forget forget{empty_};
    return pool_.with([&](PgConnection& c) {
      return c.run(
                  "INSERT INTO toolguard_approvals (tool, binding, value, scope, scope_id, "
                  "rule, created, note) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                  "ON CONFLICT DO NOTHING RETURNING id",
                  {e.tool, std::string(toString(e.binding)), e.value,
                   std::string(toString(e.scope)), e.scope_id, e.rule,
                   e.created.empty() ? detail::formatAuditTime(Clock::now()) : e.created, e.note})
                 .rows() == 1;
    });
  }

  size_t remove(const ApprovalEntry& e) {
    Forget forget{empty_};
    return pool_.with([&](PgConnection& c) {
      return c
          .run(
              "DELETE FROM toolguard_approvals WHERE tool = $1 AND binding = $2 AND value = $3 "
              "AND scope = $4 AND scope_id = $5 AND rule = $6 RETURNING id",
              {e.tool, std::string(toString(e.binding)), e.value, std::string(toString(e.scope)),
               e.scope_id, e.rule})
          .rows();
    });
  }

  std::string locationOf(ApprovalScope, std::string_view) const override {
    return "database table toolguard_approvals";
  }

  std::vector<ApprovalEntry> select(const std::string& where,
                                    const std::vector<std::optional<std::string>>& params) const {
    return pool_.with([&](PgConnection& c) {
      PgResult r = c.run(
          "SELECT tool, binding, value, scope, scope_id, rule, created, note FROM "
          "toolguard_approvals " +
              where + " ORDER BY id",
          params);
      std::vector<ApprovalEntry> out;
      for (int i = 0; i < r.rows(); ++i) {
        std::optional<ApprovalBinding> binding = parseApprovalBinding(r.text(i, 1));
        std::optional<ApprovalScope> scope = parseApprovalScope(r.text(i, 3));
        if (!binding || !scope) continue;  // a row this version cannot read grants nothing
        out.push_back(ApprovalEntry{r.text(i, 0), *binding, r.text(i, 2), *scope, r.text(i, 4),
                                    r.text(i, 6), r.text(i, 7), r.text(i, 5)});
      }
      return out;
    });
  }

 private:
  // This instance's own change is forgotten at once, not when its NOTIFY
  // comes back (also when the write fails: it may have committed).
  struct Forget {
    EmptyApprovalsMemory& memory;
    ~Forget() { memory.changed(); }
  };

  // The call's scopes besides the global one, as parameters: each scope's
  // name, then its id.
  static std::vector<std::optional<std::string>> scopeParams(const CallContext& context) {
    std::vector<std::optional<std::string>> params;
    for (ApprovalScope scope :
         {ApprovalScope::Project, ApprovalScope::Agent, ApprovalScope::Session}) {
      std::optional<std::string> id = scopeIdOf(scope, context);
      if (!id) continue;
      params.push_back(std::string(toString(scope)));
      params.push_back(*id);
    }
    return params;
  }

  // The scopes of a lookup as one key: each id with its length first.
  static std::string scopesKey(const std::vector<std::optional<std::string>>& params) {
    std::string key;
    for (const auto& p : params) key += std::to_string(p->size()) + ':' + *p;
    return key;
  }

  PgPool& pool_;
  mutable EmptyApprovalsMemory empty_;
};

// LISTEN on its own connection: every NOTIFY of an answer (or a reconnect,
// after which anything may have changed) moves the generation on and wakes
// the waiters; a NOTIFY of the approvals (or a reconnect) makes `approvals`
// forget which scopes had none.
class AskListener {
 public:
  AskListener(std::string url, EmptyApprovalsMemory& approvals)
      : connection_(std::move(url)), approvals_(approvals) {
    thread_ = std::thread([this] { run(); });
  }
  ~AskListener() {
    stopping_ = true;
    thread_.join();
  }

  uint64_t generation() {
    std::lock_guard<std::mutex> lock(mutex_);
    return generation_;
  }

  // Waits until the generation passes `seen`, or `until`.
  void waitPast(uint64_t seen, std::chrono::steady_clock::time_point until) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_until(lock, until, [&] { return generation_ != seen; });
  }

 private:
  void bump() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++generation_;
    }
    changed_.notify_all();
  }

  void run() {
    bool listening = false;
    while (!stopping_) {
      try {
        if (!listening) {
          connection_.run(std::string("LISTEN ") + kChannel);
          connection_.run(std::string("LISTEN ") + kApprovalsChannel);
          listening = true;
          bump();  // answers given while not listening are read again
          approvals_.hearing(true);
        }
        PGconn* c = connection_.open();
        pollfd p{PQsocket(c), POLLIN, 0};
        if (poll(&p, 1, 200) > 0) {
          if (PQconsumeInput(c) == 0) throw StoreError(PQerrorMessage(c));
          bool any = false;
          bool approvals = false;
          while (PGnotify* n = PQnotifies(c)) {
            (std::string_view(n->relname) == kApprovalsChannel ? approvals : any) = true;
            PQfreemem(n);
          }
          if (approvals) approvals_.changed();
          if (any) bump();
        }
        if (PQstatus(c) != CONNECTION_OK) throw StoreError("lost");
      } catch (const std::exception&) {
        approvals_.hearing(false);
        connection_.drop();
        listening = false;
        for (int i = 0; i < 5 && !stopping_; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
    }
  }

  PgConnection connection_;
  EmptyApprovalsMemory& approvals_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t generation_ = 0;
  std::thread thread_;
};

class PostgresServiceStore : public ServiceStore {
 public:
  explicit PostgresServiceStore(const std::string& url)
      : url_(url),
        pool_(url, 4),
        // The audit's pages and walks: their own connections, with a short
        // statement timeout, so a reader never holds one a check needs.
        reads_(url, 2, kReadStatementTimeoutMs),
        approvals_(std::make_shared<PgApprovals>(pool_)),
        audit_(std::make_shared<PgAudit>(url)),
        listener_(url, approvals_->emptyScopes()) {}

  std::string describe() const override { return "postgresql " + redactedUrl(url_); }

  void addToken(const TokenRecord& t, const std::string& hash) override {
    if (std::string problem = tokenNameProblem(t.name); !problem.empty()) {
      throw StoreError(problem);
    }
    const int added = pool_.with([&](PgConnection& c) {
      return c
          .run(
              "INSERT INTO toolguard_tokens (name, role, sha256, created, owner) VALUES ($1, $2, "
              "$3, $4::timestamptz, $5) ON CONFLICT DO NOTHING RETURNING name",
              {t.name, std::string(toString(t.role)), hash, t.created, t.owner})
          .rows();
    });
    if (added != 1) throw StoreError("a token named '" + t.name + "' exists (revoke it first)");
  }

  std::optional<TokenRecord> tokenByHash(const std::string& hash) override {
    std::vector<TokenRecord> found = selectTokens("WHERE sha256 = $1", {hash});
    if (found.empty()) return std::nullopt;
    return found.front();
  }

  std::vector<TokenRecord> tokens() override { return selectTokens("", {}); }

  bool revokeToken(const std::string& name) override {
    return pool_.with([&](PgConnection& c) {
      return c.run(
                  "UPDATE toolguard_tokens SET revoked = true WHERE name = $1 AND NOT revoked "
                  "RETURNING name",
                  {name})
                 .rows() == 1;
    });
  }

  std::shared_ptr<ApprovalRepository> approvals() override { return approvals_; }

  std::shared_ptr<SessionRepository> agentSessions(const SessionStoreOptions& settings) override {
    return postgresAgentSessions(pool_, settings);
  }

  ApprovalListing listApprovals() override {
    ApprovalListing listing;
    listing.entries = approvals_->select("", {});
    return listing;
  }

  size_t removeApproval(const ApprovalEntry& grant) override { return approvals_->remove(grant); }

  void createSession(const std::string& hash, SessionRecord& session) override {
    PgResult r = pool_.with([&](PgConnection& c) {
      return c.run(
          "INSERT INTO toolguard_sessions (sha256, token_sha256, csrf, created, expires) VALUES "
          "($1, $2, $3, now(), now() + $4::bigint * interval '1 millisecond') RETURNING " +
              timeText("created") + ", " + timeText("expires"),
          {hash, session.token_hash, session.csrf, lifetimeMs(session.created, session.expires)});
    });
    session.created = r.text(0, 0);
    session.expires = r.text(0, 1);
  }

  std::optional<SessionRecord> sessionByHash(const std::string& hash) override {
    return pool_.with([&](PgConnection& c) -> std::optional<SessionRecord> {
      PgResult r =
          c.run("SELECT token_sha256, csrf, " + timeText("created") + ", " + timeText("expires") +
                    " FROM toolguard_sessions WHERE sha256 = $1 AND expires > now()",
                {hash});
      if (r.rows() != 1) return std::nullopt;
      return SessionRecord{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.text(0, 3)};
    });
  }

  void deleteSession(const std::string& hash) override {
    pool_.with([&](PgConnection& c) {
      return c.run("DELETE FROM toolguard_sessions WHERE sha256 = $1", {hash});
    });
  }

  size_t pruneSessions() override {
    return pool_.with([&](PgConnection& c) {
      return c.run("DELETE FROM toolguard_sessions WHERE expires < now() RETURNING sha256").rows();
    });
  }

  std::shared_ptr<AuditSink> audit() override { return audit_; }
  void onKeptAudit(std::function<void(const std::string& line)> kept) override {
    audit_->onKept(std::move(kept));
  }

  std::vector<nlohmann::json> queryAudit(const AuditQuery& query) override {
    return queryPgAudit(reads_, query);
  }

  AuditChainReport verifyAudit(const std::string& expected_head) override {
    return verifyPgAudit(reads_, expected_head);
  }

  void createAsk(AskRecord& a) override {
    PgResult r = pool_.with([&](PgConnection& c) {
      return c.run(
          "INSERT INTO toolguard_asks (id, token, call, decision, offer, created, expires, owner, "
          "alive) VALUES ($1, $2, $3, $4, $5, now(), now() + $6::bigint * interval '1 "
          "millisecond', $7, CASE WHEN $8 THEN now() END) RETURNING " +
              timeText("created") + ", " + timeText("expires"),
          {a.id, a.token, a.call.dump(), a.decision.dump(), a.offer.dump(),
           lifetimeMs(a.created, a.expires), a.owner, std::string(a.watched ? "true" : "false")});
    });
    a.created = r.text(0, 0);
    a.expires = r.text(0, 1);
  }

  std::optional<AskRecord> findAsk(const std::string& id) override {
    std::vector<AskRecord> found = selectAsks("WHERE id = $1", {id}, 1);
    if (found.empty()) return std::nullopt;
    return found.front();
  }

  std::vector<AskRecord> listAsks(std::optional<AskState> state, size_t limit) override {
    if (!state) return selectAsks("", {}, limit);
    // What is pending in the table but past its expiry reads as expired.
    switch (*state) {
      case AskState::Pending:
        return selectAsks("WHERE " + kAskLiveSql, {}, limit);
      case AskState::Expired:
        return selectAsks(
            "WHERE state = 'expired' OR (state = 'pending' AND NOT (" + kAskLiveSql + "))", {},
            limit);
      case AskState::Answered:
        return selectAsks("WHERE state = 'answered'", {}, limit);
    }
    return {};
  }

  size_t pendingAsksOf(const std::string& token) override {
    return pool_.with([&](PgConnection& c) {
      PgResult r =
          c.run("SELECT count(*) FROM toolguard_asks WHERE token = $1 AND " + kAskLiveSql, {token});
      return static_cast<size_t>(std::stoull(r.text(0, 0)));
    });
  }

  AnswerResult answerAsk(const std::string& id, const nlohmann::json& answer) override {
    const bool recorded = settle(
        "UPDATE toolguard_asks SET state = 'answered', answer = $2::json WHERE id = $1 AND " +
            kAskLiveSql + " RETURNING id",
        {id, answer.dump()});
    if (!recorded) {
      // Its waiting request is gone: ended for good, so that a waiter whose
      // database comes back finds it ended too.
      settle("UPDATE toolguard_asks SET state = 'expired', ended = '" + std::string(kAskAskerGone) +
                 "' WHERE id = $1 AND state = 'pending' AND " + kAskStaleSql + " RETURNING id",
             {id});
    }
    return AnswerResult{recorded, findAsk(id)};
  }

  bool expireAsk(const std::string& id, const std::string& ended) override {
    return settle(
        "UPDATE toolguard_asks SET state = 'expired', ended = $2 WHERE id = $1 AND "
        "state = 'pending' RETURNING id",
        {id, ended});
  }

  bool heartbeatAsk(const std::string& id) override {
    // Only while it is live: a stale ask never comes back.
    return pool_.with([&](PgConnection& c) {
      return c.run(
                  "UPDATE toolguard_asks SET alive = now() WHERE id = $1 AND alive IS NOT NULL "
                  "AND " +
                      kAskLiveSql + " RETURNING id",
                  {id})
                 .rows() == 1;
    });
  }

  size_t pruneAsks(std::chrono::seconds kept_for) override {
    return pool_.with([&](PgConnection& c) {
      return static_cast<size_t>(
          c.run("DELETE FROM toolguard_asks WHERE NOT (" + kAskLiveSql +
                    ") AND expires < now() - $1::bigint * interval '1 second' RETURNING id",
                {std::to_string(kept_for.count())})
              .rows());
    });
  }

  std::optional<AskRecord> waitForAsk(const std::string& id,
                                      std::chrono::steady_clock::time_point deadline) override {
    for (;;) {
      const uint64_t seen = listener_.generation();
      std::optional<AskRecord> ask = findAsk(id);
      if (!ask || ask->state != AskState::Pending) return ask;
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return ask;
      // A NOTIFY wakes this at once; the bound only covers a lost listener.
      listener_.waitPast(seen, std::min(deadline, now + std::chrono::seconds(2)));
    }
  }

 private:
  // One conditional update that NOTIFYs when it changed a row (sent at commit).
  bool settle(const std::string& update, const std::vector<std::optional<std::string>>& params) {
    return pool_.with([&](PgConnection& c) {
      return c.run("WITH changed AS (" + update + ") SELECT pg_notify('" + kChannel +
                       "', id) FROM changed",
                   params)
                 .rows() == 1;
    });
  }

  std::vector<TokenRecord> selectTokens(const std::string& where,
                                        const std::vector<std::optional<std::string>>& params) {
    return pool_.with([&](PgConnection& c) {
      PgResult r = c.run("SELECT name, role, " + timeText("created") +
                             ", revoked, owner, sha256 FROM toolguard_tokens " + where +
                             " ORDER BY created, name",
                         params);
      std::vector<TokenRecord> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back(TokenRecord{r.text(i, 0),
                                  parseTokenRole(r.text(i, 1)).value_or(TokenRole::Agent),
                                  r.text(i, 2), r.text(i, 3) == "t", r.text(i, 4), r.text(i, 5)});
      }
      return out;
    });
  }

  std::vector<AskRecord> selectAsks(const std::string& where,
                                    const std::vector<std::optional<std::string>>& params,
                                    size_t limit) {
    return pool_.with([&](PgConnection& c) {
      std::string sql = "SELECT id, token, call, decision, offer, " + timeText("created") + ", " +
                        timeText("expires") + ", CASE WHEN state = 'pending' AND NOT (" +
                        kAskLiveSql +
                        ") THEN 'expired' ELSE state END, answer, owner, alive IS NOT NULL, "
                        "CASE WHEN state = 'pending' AND expires <= now() THEN '" +
                        kAskTimedOut + "' WHEN state = 'pending' AND " + kAskStaleSql + " THEN '" +
                        kAskAskerGone + "' ELSE coalesce(ended, '" + kAskTimedOut +
                        "') END FROM toolguard_asks " + where;
      // The newest `limit`, shown oldest first.
      sql = limit > 0 ? "SELECT * FROM (" + sql + " ORDER BY created DESC, id DESC LIMIT " +
                            std::to_string(limit) + ") AS newest ORDER BY 6, 1"
                      : sql + " ORDER BY created, id";
      PgResult r = c.run(sql, params);
      std::vector<AskRecord> out;
      for (int i = 0; i < r.rows(); ++i) {
        AskRecord a;
        a.id = r.text(i, 0);
        a.token = r.text(i, 1);
        a.call = parsedOr(r.text(i, 2), nlohmann::json::object());
        a.decision = parsedOr(r.text(i, 3), nlohmann::json::object());
        a.offer = parsedOr(r.text(i, 4), nlohmann::json::object());
        a.created = r.text(i, 5);
        a.expires = r.text(i, 6);
        a.state = parseAskState(r.text(i, 7)).value_or(AskState::Expired);
        if (!r.isNull(i, 8)) a.answer = parsedOr(r.text(i, 8), nlohmann::json::object());
        a.owner = r.text(i, 9);
        a.watched = r.text(i, 10) == "t";
        if (a.state == AskState::Expired) a.ended = r.text(i, 11);
        out.push_back(std::move(a));
      }
      return out;
    });
  }

  std::string url_;
  PgPool pool_;
  PgPool reads_;
  std::shared_ptr<PgApprovals> approvals_;
  std::shared_ptr<PgAudit> audit_;
  AskListener listener_;
};

}  // namespace

std::unique_ptr<ServiceStore> openPostgresStore(const std::string& url) {
  migratePostgres(url);
  return std::make_unique<PostgresServiceStore>(url);
}

}  // namespace toolguard::store
