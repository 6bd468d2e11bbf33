// The PostgreSQL schema, as numbered migrations applied in order, each in
// its own transaction under an advisory lock (instances starting together
// apply each once). Applied versions are kept in toolguard_migrations.
// Never edit a migration that has shipped: add the next one.
#include <algorithm>

#include "pg_connection.hpp"
#include "postgres_service_store.hpp"

namespace toolguard::store {
namespace {

struct Migration {
  int version;
  const char* sql;
};

// `json` (not jsonb) keeps a call's arguments and a record as they were written.
constexpr Migration kMigrations[] = {
    {1, R"sql(
CREATE TABLE toolguard_tokens (
  name text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('agent', 'approver', 'admin')),
  sha256 text NOT NULL UNIQUE,
  created timestamptz NOT NULL DEFAULT now(),
  revoked boolean NOT NULL DEFAULT false
);
CREATE TABLE toolguard_approvals (
  id bigserial PRIMARY KEY,
  tool text NOT NULL,
  binding text NOT NULL,
  value text NOT NULL,
  scope text NOT NULL,
  scope_id text NOT NULL,
  rule text NOT NULL,
  created text NOT NULL,
  note text NOT NULL,
  UNIQUE (tool, binding, value, scope, scope_id, rule)
);
CREATE INDEX toolguard_approvals_scope ON toolguard_approvals (scope, scope_id);
CREATE TABLE toolguard_asks (
  id text PRIMARY KEY,
  token text NOT NULL,
  call json NOT NULL,
  decision json NOT NULL,
  offer json NOT NULL,
  created timestamptz NOT NULL,
  expires timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'answered', 'expired')),
  answer json
);
CREATE INDEX toolguard_asks_state ON toolguard_asks (state, created);
CREATE TABLE toolguard_audit (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL,
  tool text NOT NULL,
  verdict text NOT NULL,
  rule text NOT NULL,
  record json NOT NULL
);
CREATE INDEX toolguard_audit_time ON toolguard_audit (time);
)sql"},
    // The web queue's browser sessions (issue 21).
    {2, R"sql(
CREATE TABLE toolguard_sessions (
  sha256 text PRIMARY KEY,
  token_sha256 text NOT NULL,
  csrf text NOT NULL,
  created timestamptz NOT NULL,
  expires timestamptz NOT NULL
);
CREATE INDEX toolguard_sessions_expires ON toolguard_sessions (expires);
)sql"},
    // Identities and answers: a token's owner (a person; '' for
    // the tokens made before), the asking token's owner on each ask, the
    // heartbeat of the request waiting for an ask (NULL: nobody waits, the
    // agent polls it) and why an unanswered ask ended. Session approvals
    // were kept under "TOKEN/SESSION", which two tokens could share; they
    // are keyed by the tuple ["TOKEN","SESSION"] now, and the old ones are
    // forgotten (which token made one cannot be told).
    {3, R"sql(
ALTER TABLE toolguard_tokens ADD COLUMN owner text NOT NULL DEFAULT '';
ALTER TABLE toolguard_asks ADD COLUMN owner text NOT NULL DEFAULT '';
ALTER TABLE toolguard_asks ADD COLUMN alive timestamptz;
ALTER TABLE toolguard_asks ADD COLUMN ended text;
DELETE FROM toolguard_approvals WHERE scope = 'session' AND scope_id NOT LIKE '[%';
)sql"},
    // The audit's pages filter by verdict newest first; nobody but the owner
    // holds rights on the audit unless granted (grantServiceRole: SELECT and
    // INSERT only).
    {4, R"sql(
CREATE INDEX toolguard_audit_verdict ON toolguard_audit (verdict, id);
REVOKE ALL ON toolguard_audit FROM PUBLIC;
)sql"},
    // What agents' sessions saw (labels of their calls), by the SHA-256 of
    // the session's key: one row per session, its events a JSON array.
    {5, R"sql(
CREATE TABLE toolguard_agent_sessions (
  id text PRIMARY KEY,
  events jsonb NOT NULL,
  unknown boolean NOT NULL DEFAULT false,
  updated timestamptz NOT NULL
);
CREATE INDEX toolguard_agent_sessions_updated ON toolguard_agent_sessions (updated);
)sql"},
    // Every change to the approvals is told (at its commit) to the instances
    // listening, which keep in memory which calls' scopes have none.
    {6, R"sql(
CREATE FUNCTION toolguard_approvals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('toolguard_approvals', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER toolguard_approvals_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON toolguard_approvals
  FOR EACH STATEMENT EXECUTE FUNCTION toolguard_approvals_changed();
)sql"},
    // A session's events become rows of their own, so that a call adds one
    // row instead of rewriting its session's array, and an instance that
    // holds a session in memory reads only the events it has not seen. A
    // session's row keeps its latest event's number (seq), where its current
    // life starts (first_seq: its events from there, a session that expired
    // starts again), the life's number (never used twice, so a session
    // forgotten and started again is not taken for the one remembered) and
    // how many of its events are kept (held). No foreign key (its check cost
    // an append more than the insert): a session's events go with its row
    // in one statement, and an event left by a row deleted by hand is
    // overwritten before its number is reached again. Roles that could
    // write the sessions get the same rights on the new table and sequence.
    {7, R"sql(
CREATE SEQUENCE toolguard_agent_session_lives;
ALTER TABLE toolguard_agent_sessions
  ADD COLUMN life bigint NOT NULL DEFAULT 0,
  ADD COLUMN seq bigint NOT NULL DEFAULT 0,
  ADD COLUMN first_seq bigint NOT NULL DEFAULT 1,
  ADD COLUMN held integer NOT NULL DEFAULT 0;
CREATE TABLE toolguard_agent_session_events (
  session text NOT NULL,
  seq bigint NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (session, seq)
);
INSERT INTO toolguard_agent_session_events (session, seq, line)
  SELECT s.id, e.ord, e.value::text FROM toolguard_agent_sessions s
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(s.events) = 'array' THEN s.events ELSE '[]'::jsonb END)
    WITH ORDINALITY AS e(value, ord);
UPDATE toolguard_agent_sessions SET
  life = nextval('toolguard_agent_session_lives'),
  unknown = unknown OR jsonb_typeof(events) <> 'array',
  seq = CASE WHEN jsonb_typeof(events) = 'array' THEN jsonb_array_length(events) ELSE 0 END,
  held = CASE WHEN jsonb_typeof(events) = 'array' THEN jsonb_array_length(events) ELSE 0 END;
ALTER TABLE toolguard_agent_sessions DROP COLUMN events;
DO $$
DECLARE grantee text;
BEGIN
  FOR grantee IN SELECT DISTINCT CASE WHEN g.grantee = 'PUBLIC' THEN 'PUBLIC'
                                      ELSE quote_ident(g.grantee) END
      FROM information_schema.role_table_grants g
      WHERE g.table_schema = current_schema() AND g.table_name = 'toolguard_agent_sessions'
        AND g.privilege_type = 'INSERT' AND g.grantee <> current_user LOOP
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON toolguard_agent_session_events TO ' ||
            grantee;
    EXECUTE 'GRANT USAGE ON SEQUENCE toolguard_agent_session_lives TO ' || grantee;
  END LOOP;
END
$$;
)sql"},
};

constexpr const char* kLock = "SELECT pg_advisory_lock(74069110)";
constexpr const char* kUnlock = "SELECT pg_advisory_unlock(74069110)";

}  // namespace

std::vector<int> migratePostgres(const std::string& url, int up_to) {
  PgConnection c(url);
  c.run(kLock);
  std::vector<int> applied;
  try {
    // Up to date: nothing to create (the service's role may not create).
    const int newest_known = std::min(up_to, kMigrations[std::size(kMigrations) - 1].version);
    PgResult exists = c.run("SELECT to_regclass('toolguard_migrations') IS NOT NULL");
    if (exists.text(0, 0) == "t" &&
        std::stoi(c.run("SELECT coalesce(max(version), 0) FROM toolguard_migrations").text(0, 0)) ==
            newest_known) {
      c.run(kUnlock);
      return applied;
    }
    c.run(
        "CREATE TABLE IF NOT EXISTS toolguard_migrations (version integer PRIMARY KEY, "
        "applied timestamptz NOT NULL DEFAULT now())");
    PgResult have = c.run("SELECT coalesce(max(version), 0) FROM toolguard_migrations");
    const int current = std::stoi(have.text(0, 0));
    const int newest = kMigrations[std::size(kMigrations) - 1].version;
    if (current > newest) {
      throw StoreError("the database's schema is version " + std::to_string(current) +
                       ", newer than this toolguard knows (" + std::to_string(newest) +
                       "): upgrade toolguard");
    }
    for (const Migration& m : kMigrations) {
      if (m.version <= current || m.version > up_to) continue;
      c.transaction([&] {
        c.runScript(m.sql);
        c.run("INSERT INTO toolguard_migrations (version) VALUES ($1)",
              {std::to_string(m.version)});
      });
      applied.push_back(m.version);
    }
  } catch (const std::exception& e) {
    try {
      c.run(kUnlock);
    } catch (...) {
    }
    throw StoreError(std::string("migrating the database: ") + e.what());
  }
  c.run(kUnlock);
  return applied;
}

void grantServiceRole(const std::string& owner_url, const std::string& role) {
  PgConnection c(owner_url);
  try {
    const std::string name = c.run("SELECT quote_ident($1)", {role}).text(0, 0);
    c.transaction([&] {
      c.runScript("GRANT SELECT ON toolguard_migrations TO " + name +
                  ";"
                  "GRANT SELECT, INSERT, UPDATE, DELETE ON toolguard_tokens, toolguard_approvals, "
                  "toolguard_asks, toolguard_sessions, toolguard_agent_sessions, "
                  "toolguard_agent_session_events TO " +
                  name +
                  ";"
                  "GRANT USAGE ON SEQUENCE toolguard_approvals_id_seq, toolguard_audit_id_seq, "
                  "toolguard_agent_session_lives TO " +
                  name +
                  ";"
                  "REVOKE ALL ON toolguard_audit FROM " +
                  name +
                  ";"
                  "GRANT SELECT, INSERT ON toolguard_audit TO " +
                  name + ";");
    });
  } catch (const std::exception& e) {
    throw StoreError("granting the service's rights to '" + role + "': " + e.what());
  }
}

}  // namespace toolguard::store
