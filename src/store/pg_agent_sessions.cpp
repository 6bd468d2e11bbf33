// Agents' sessions in PostgreSQL (pg_agent_sessions.hpp). An append is one
// INSERT ... ON CONFLICT that adds the event to the row's array (or starts
// it again when the session expired); only when the array has grown a
// quarter past what is kept is it read, trimmed and written back under the
// row's lock. Events are JSON as the file store writes them
// (session/session_json.hpp); text PostgreSQL cannot hold (NUL) is replaced.
#include "pg_agent_sessions.hpp"

#include <algorithm>
#include <atomic>

#include "service_store.hpp"
#include "session/session_json.hpp"

namespace toolguard::store {
namespace {

// PostgreSQL's text and jsonb hold no NUL: it becomes U+FFFD.
std::string storable(std::string text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\0') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

SessionEvent storableEvent(SessionEvent event) {
  event.tool = storable(std::move(event.tool));
  event.summary = storable(std::move(event.summary));
  event.decision_id = storable(std::move(event.decision_id));
  for (std::string& label : event.labels) label = storable(std::move(label));
  return event;
}

// The state an events array holds; unknown when it is not what we write.
SessionState stateOf(const std::string& events_text, bool unknown) {
  SessionState state;
  state.unknown = unknown;
  const nlohmann::json events = nlohmann::json::parse(events_text, nullptr, false);
  if (!events.is_array()) {
    state.unknown = true;
    return state;
  }
  for (const nlohmann::json& line : events) {
    std::optional<SessionEvent> event = detail::sessionEventFrom(line);
    if (!event) {
      state.unknown = true;
      break;
    }
    state.events.push_back(std::move(*event));
  }
  return state;
}

class PgAgentSessions final : public SessionRepository {
 public:
  PgAgentSessions(PgPool& pool, SessionStoreOptions settings)
      : pool_(pool),
        settings_(std::move(settings)),
        expire_(std::to_string(settings_.expire_after.count()) + " seconds") {
    settings_.max_events = std::max<size_t>(settings_.max_events, 1);
  }

  SessionState load(const std::string& key) const override {
    try {
      return pool_.with([&](PgConnection& c) {
        PgResult r = c.run(
            "SELECT events::text, unknown FROM toolguard_agent_sessions WHERE id = $1 AND "
            "updated > now() - $2::interval",
            {rowId(key), expire_});
        if (r.rows() != 1) return SessionState{};
        SessionState state = stateOf(r.text(0, 0), r.text(0, 1) == "t");
        state.forgetOldest(settings_.max_events);
        return state;
      });
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the sessions table: ") + e.what());
    }
  }

  void append(const std::string& key, const SessionEvent& event) override {
    const std::string line = detail::sessionEventJson(storableEvent(event)).dump();
    const std::string id = rowId(key);
    try {
      const long long length = pool_.with([&](PgConnection& c) {
        return std::stoll(
            c.run("INSERT INTO toolguard_agent_sessions AS s (id, events, unknown, updated) "
                  "VALUES ($1, jsonb_build_array($2::jsonb), false, now()) "
                  "ON CONFLICT (id) DO UPDATE SET "
                  "events = CASE WHEN s.updated <= now() - $3::interval THEN EXCLUDED.events "
                  "ELSE s.events || EXCLUDED.events END, "
                  "unknown = s.unknown AND s.updated > now() - $3::interval, updated = now() "
                  "RETURNING jsonb_array_length(events)",
                  {id, line, expire_})
                .text(0, 0));
      });
      const size_t max_length = settings_.max_events + (settings_.max_events + 3) / 4;
      if (static_cast<size_t>(length) > max_length) trim(id);
      // Now and then, the sessions that expired go (by the index on updated).
      if (appends_.fetch_add(1) % kSweepEvery == 0) sweepExpired();
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the sessions table: ") + e.what());
    }
  }

 private:
  // The row of a session: its key may hold anything (a NUL libpq would cut).
  static std::string rowId(const std::string& key) { return tokenHash("session:" + key); }

  // The event is kept whatever happens here: a failed sweep waits for the next.
  void sweepExpired() noexcept {
    try {
      pool_.with([&](PgConnection& c) {
        return c.run("DELETE FROM toolguard_agent_sessions WHERE updated <= now() - $1::interval",
                     {expire_});
      });
    } catch (...) {
    }
  }

  // Forgets what is no longer kept, under the row's lock.
  void trim(const std::string& id) {
    pool_.with([&](PgConnection& c) {
      c.transaction([&] {
        PgResult r = c.run(
            "SELECT events::text, unknown FROM toolguard_agent_sessions WHERE id = $1 FOR UPDATE",
            {id});
        if (r.rows() != 1) return;
        SessionState state = stateOf(r.text(0, 0), r.text(0, 1) == "t");
        state.forgetOldest(settings_.max_events);
        nlohmann::json events = nlohmann::json::array();
        for (const SessionEvent& kept : state.events) {
          events.push_back(detail::sessionEventJson(kept));
        }
        c.run("UPDATE toolguard_agent_sessions SET events = $2::jsonb, unknown = $3 WHERE id = $1",
              {id, events.dump(), std::string(state.unknown ? "true" : "false")});
      });
      return 0;
    });
  }

  static constexpr unsigned kSweepEvery = 1024;

  PgPool& pool_;
  SessionStoreOptions settings_;
  std::string expire_;
  std::atomic<unsigned> appends_{0};
};

}  // namespace

std::shared_ptr<SessionRepository> postgresAgentSessions(PgPool& pool,
                                                         SessionStoreOptions settings) {
  return std::make_shared<PgAgentSessions>(pool, std::move(settings));
}

}  // namespace toolguard::store
