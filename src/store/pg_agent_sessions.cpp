// Agents' sessions in PostgreSQL (pg_agent_sessions.hpp).
//
// A session is a row of toolguard_agent_sessions (its life, latest event
// number, where the life starts, how many events it keeps) and its events
// are rows of toolguard_agent_session_events, one line of JSON each, as the
// file store writes them (session/session_json.hpp). An append is one
// statement: it numbers the event on the session's row (starting a new life
// when the session expired) and inserts it. Only when a session keeps a
// quarter more events than `max_events` are its events read under the row's
// lock and the ones SessionState::forgetOldest forgets deleted.
//
// An instance keeps the sessions it judged lately in memory, with the life
// and number of the latest event each holds, and asks the database only for
// what came after: usually nothing, so a call costs two small statements
// instead of reading and rewriting its session's whole history. Nothing is
// taken from memory without the database's word on the session's life and
// latest number, so a session served by several instances at once is one.
// What memory holds is what a fresh read gives: forgetOldest keeps what
// it would keep of every event (why: docs/sessions.md, "In the service's
// PostgreSQL store").
#include "pg_agent_sessions.hpp"

#include <algorithm>
#include <atomic>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

#include "grouped_writes.hpp"
#include "service_store.hpp"
#include "session/session_json.hpp"

namespace toolguard::store {
namespace {

// PostgreSQL's text holds no NUL: it becomes U+FFFD.
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

// Columns of kReadSql (below).
enum ReadColumn { kLife, kSeq, kUnknown, kEventSeq, kEventLine, kFirstSeq };

// The events in `r`'s rows from `first_row` on (a NULL line: none), added
// to `state`: a line that is not an event makes the session unknown.
void addEvents(const PgResult& r, int first_row, SessionState& state) {
  for (int row = first_row; row < r.rows(); ++row) {
    if (r.isNull(row, kEventLine)) continue;
    std::optional<SessionEvent> event = detail::sessionEventFromLine(r.text(row, kEventLine));
    if (event) {
      state.events.push_back(std::move(*event));
    } else {
      state.unknown = true;
    }
  }
}

// The session, its life's events from the given number on (the one memory
// holds last, so that it is checked to be the same), or all of them when
// the life is another: one row with NULL events when there are none; no
// row when the session has expired or has none.
constexpr const char* kReadSql =
    "SELECT s.life, s.seq, s.unknown, e.seq, e.line, s.first_seq FROM toolguard_agent_sessions s "
    "LEFT JOIN toolguard_agent_session_events e ON e.session = s.id "
    "AND e.seq >= CASE WHEN s.life = $3::bigint THEN $4::bigint ELSE s.first_seq END "
    "AND e.seq <= s.seq "
    "WHERE s.id = $1 AND s.updated > now() - $2::interval ORDER BY e.seq";

// Numbers the event on its session's row (a new life when the session
// expired or is new) and inserts it (over an event a row deleted by hand
// left): the life, its number, how many the session keeps with it, and the
// life's first number.
constexpr const char* kAppendSql =
    "WITH s AS (INSERT INTO toolguard_agent_sessions AS s "
    "(id, life, seq, first_seq, held, unknown, updated) "
    "VALUES ($1, nextval('toolguard_agent_session_lives'), 1, 1, 1, false, now()) "
    "ON CONFLICT (id) DO UPDATE SET "
    "life = CASE WHEN s.updated <= now() - $3::interval THEN EXCLUDED.life ELSE s.life END, "
    "first_seq = CASE WHEN s.updated <= now() - $3::interval THEN s.seq + 1 "
    "ELSE s.first_seq END, "
    "held = CASE WHEN s.updated <= now() - $3::interval THEN 1 ELSE s.held + 1 END, "
    "unknown = s.unknown AND s.updated > now() - $3::interval, "
    "seq = s.seq + 1, updated = now() RETURNING life, seq, held, first_seq) "
    "INSERT INTO toolguard_agent_session_events (session, seq, line) SELECT $1, seq, $2 FROM s "
    "ON CONFLICT (session, seq) DO UPDATE SET line = EXCLUDED.line RETURNING "
    "(SELECT life FROM s), seq, (SELECT held FROM s), (SELECT first_seq FROM s)";

// How many sessions an instance holds in memory (the least recently used
// goes first).
constexpr size_t kSessionsInMemory = 1024;
// How many events this instance appended may wait beside a session before
// they are added to it (copying it when a snapshot of it is held).
constexpr size_t kMostWaitingEvents = 16;
// No life is numbered so (the sequence starts at 1): a read that uses no
// memory.
constexpr long long kNoLife = -1;

class PgAgentSessions final : public SessionRepository,
                              public std::enable_shared_from_this<PgAgentSessions> {
 public:
  PgAgentSessions(PgPool& pool, SessionStoreOptions settings)
      : pool_(pool),
        settings_(std::move(settings)),
        expire_(std::to_string(settings_.expire_after.count()) + " seconds") {
    settings_.max_events = std::max<size_t>(settings_.max_events, 1);
  }

  SessionState load(const std::string& key) const override { return *snapshot(key); }

  std::shared_ptr<const SessionState> snapshot(const std::string& key) const override {
    tidy();
    try {
      return read(rowId(key), true);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the sessions table: ") + e.what());
    }
  }

  void append(const std::string& key, const SessionEvent& event) override {
    const nlohmann::json json = detail::sessionEventJson(storableEvent(event));
    std::optional<SessionEvent> stored = detail::sessionEventFrom(json);
    std::string line = json.dump();
    const std::string id = rowId(key);
    PgStatement statement{"toolguard_session_append", kAppendSql, {id, line, expire_}};
    if (GroupedWrites* grouped = GroupedWrites::open()) {
      // Committed with the call's audit record; memory learns of it then.
      std::weak_ptr<const PgAgentSessions> self = weak_from_this();
      grouped->writes.push_back(GroupedWrite{std::move(statement),
                                             [self, id, stored, line](const PgResult& r) {
                                               if (auto sessions = self.lock())
                                                 sessions->appended(id, r, stored, line);
                                             },
                                             [self, id] {
                                               if (auto sessions = self.lock()) sessions->lost(id);
                                             }});
      return;
    }
    tidy();
    try {
      PgResult r = pool_.with([&](PgConnection& c) { return c.runTogether({statement}); });
      appended(id, r, std::move(stored), std::move(line));
      tidy();
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the sessions table: ") + e.what());
    }
  }

 private:
  // The work an append leaves for later: it runs on the next thread that
  // reads or appends (a grouped append is told of its commit on the audit's
  // writer thread, which must not wait on other statements).
  struct Chores {
    std::set<std::string> trims;                 ///< sessions holding too many events
    std::map<std::string, long long> new_lives;  ///< their first numbers
    bool sweep = false;                          ///< expired sessions to delete
  };

  // What the append of `stored` (its line `line`) to `id` returned: memory
  // holds it, and what it leaves to do is noted.
  void appended(const std::string& id, const PgResult& r, std::optional<SessionEvent> stored,
                std::string line) const {
    const long long life = std::stoll(r.text(0, 0));
    const long long seq = std::stoll(r.text(0, 1));
    const long long held = std::stoll(r.text(0, 2));
    const long long first_seq = std::stoll(r.text(0, 3));
    remember(id, life, seq, seq == first_seq, std::move(stored), std::move(line));
    const size_t most = settings_.max_events + (settings_.max_events + 3) / 4;
    std::lock_guard lock(mutex_);
    if (static_cast<size_t>(held) > most) chores_.trims.insert(id);
    if (seq == first_seq && first_seq > 1) chores_.new_lives[id] = first_seq;
    // Now and then, the sessions that expired go (by the index on updated).
    if (appends_.fetch_add(1) % kSweepEvery == 0) chores_.sweep = true;
  }

  // An append that was not committed (or may have been): memory forgets
  // the session, the next read brings what the database holds.
  void lost(const std::string& id) const {
    std::lock_guard lock(mutex_);
    forget(id);
  }

  // Does the chores appends left (their failures wait for the next time:
  // the events are kept either way).
  void tidy() const {
    Chores due;
    {
      std::lock_guard lock(mutex_);
      if (chores_.trims.empty() && chores_.new_lives.empty() && !chores_.sweep) return;
      std::swap(due, chores_);
    }
    for (const auto& [id, first_seq] : due.new_lives) forgetEarlierLives(id, first_seq);
    for (const std::string& id : due.trims) {
      try {
        trim(id);
      } catch (...) {
      }
    }
    if (due.sweep) sweepExpired();
  }

  // A session as this instance holds it: `state` holds its life's events up
  // to number `last` (whose line is `last_line`; "" when it holds none of
  // the life yet); `waiting` the ones this instance appended after it
  // (numbers last+1, last+2, ..., the latest's line `waiting_line`), added
  // at the next read, when the snapshot a Guard judged with is usually let
  // go (so not copied).
  struct Entry {
    std::string id;
    long long life = 0;
    long long last = 0;
    std::string last_line;
    std::shared_ptr<SessionState> state;  ///< never null
    std::vector<SessionEvent> waiting;
    std::string waiting_line;
  };
  using Entries = std::list<Entry>;

  // What a read asked the database for: the life and the latest event
  // memory held (kNoLife: the whole life).
  struct Known {
    long long life = kNoLife;
    long long last = 0;
    std::string last_line;
  };

  // The row of a session: its key may hold anything (a NUL libpq would cut).
  static std::string rowId(const std::string& key) { return tokenHash("session:" + key); }

  // The entry of `id`, made the most recently used; nullptr when none.
  Entry* find(const std::string& id) const {
    auto found = index_.find(id);
    if (found == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second);
    return &*found->second;
  }

  // A new entry for `id` (replacing one), the least recently used going
  // when memory is full.
  Entry& install(const std::string& id, long long life, long long last, std::string last_line,
                 std::shared_ptr<SessionState> state) const {
    forget(id);
    if (index_.size() >= kSessionsInMemory) {
      index_.erase(order_.back().id);
      order_.pop_back();
    }
    order_.push_front(Entry{id, life, last, std::move(last_line), std::move(state), {}, {}});
    index_[id] = order_.begin();
    return order_.front();
  }

  void forget(const std::string& id) const {
    auto found = index_.find(id);
    if (found == index_.end()) return;
    order_.erase(found->second);
    index_.erase(found);
  }

  // The entry's state, made its own to change (copied when a snapshot of it
  // is still held).
  static SessionState& changeable(Entry& entry) {
    if (entry.state.use_count() > 1) {
      entry.state = std::make_shared<SessionState>(*entry.state);
    } else {
      // The last holder let it go on another thread: see all it did first.
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *entry.state;
  }

  // Adds `events` (numbered from entry.last + 1) to the entry's state.
  void add(Entry& entry, std::vector<SessionEvent>& events, bool unknown) const {
    if (events.empty() && (!unknown || entry.state->unknown)) return;
    SessionState& state = changeable(entry);
    state.unknown = state.unknown || unknown;
    for (SessionEvent& event : events) state.events.push_back(std::move(event));
    state.forgetOldest(settings_.max_events);  // what it saw stays
    entry.last += static_cast<long long>(events.size());
    events.clear();
  }

  // Adds the events this instance appended to the entry's state.
  void addWaiting(Entry& entry) const {
    if (entry.waiting.empty()) return;
    add(entry, entry.waiting, false);
    entry.last_line = std::move(entry.waiting_line);
    entry.waiting_line.clear();
  }

  // An event this instance appended as number `seq` of life `life` (its
  // line as stored): held in memory when the entry holds every event before
  // it (or it is its life's first); else the next read brings it with the
  // ones before it.
  void remember(const std::string& id, long long life, long long seq, bool first,
                std::optional<SessionEvent> event, std::string line) const {
    std::lock_guard lock(mutex_);
    Entry* entry = find(id);
    if (!event) {
      forget(id);
      return;
    }
    if (first) {
      Entry& fresh = install(id, life, seq - 1, "", std::make_shared<SessionState>());
      fresh.waiting.push_back(std::move(*event));
      fresh.waiting_line = std::move(line);
      return;
    }
    if (entry == nullptr || entry->life != life ||
        entry->last + static_cast<long long>(entry->waiting.size()) + 1 != seq) {
      return;
    }
    entry->waiting.push_back(std::move(*event));
    entry->waiting_line = std::move(line);
    if (entry->waiting.size() >= kMostWaitingEvents) addWaiting(*entry);
  }

  // What the session `id` holds: its memory, brought up to what the
  // database holds. `use_memory`: false reads every event of the life.
  std::shared_ptr<const SessionState> read(const std::string& id, bool use_memory) const {
    Known known;
    if (use_memory) {
      std::lock_guard lock(mutex_);
      if (Entry* entry = find(id)) {
        addWaiting(*entry);
        known = Known{entry->life, entry->last, entry->last_line};
      }
    }
    PgResult r = pool_.with([&](PgConnection& c) {
      return c.runTogether(
          {{"toolguard_session_read",
            kReadSql,
            {id, expire_, std::to_string(known.life), std::to_string(known.last)}}});
    });
    if (r.rows() == 0) return std::make_shared<const SessionState>();  // expired, or none
    if (std::shared_ptr<const SessionState> state = merge(id, r, known)) return state;
    return read(id, false);  // memory and the database disagree: read it all
  }

  // What was read of `id` (as asked by `known`) taken into memory: the
  // session's state, or nullptr when memory cannot be brought up to it.
  std::shared_ptr<const SessionState> merge(const std::string& id, const PgResult& r,
                                            const Known& known) const {
    const long long life = std::stoll(r.text(0, kLife));
    const long long seq = std::stoll(r.text(0, kSeq));
    const bool unknown = r.text(0, kUnknown) == "t";
    const int last_row = r.rows() - 1;
    const bool latest_read =
        !r.isNull(last_row, kEventSeq) && std::stoll(r.text(last_row, kEventSeq)) == seq;
    std::lock_guard lock(mutex_);
    if (life != known.life) {  // the whole life was read
      auto state = std::make_shared<SessionState>();
      // The latest event is never trimmed: without it, the rows were edited
      // (unless the life has none: a session kept before events were rows).
      const bool none = seq < std::stoll(r.text(0, kFirstSeq));
      state->unknown = unknown || (!latest_read && !none);
      addEvents(r, 0, *state);
      state->forgetOldest(settings_.max_events);
      return install(id, life, seq, latest_read ? r.text(last_row, kEventLine) : "",
                     std::move(state))
          .state;
    }
    Entry* entry = find(id);
    if (entry == nullptr || entry->life != life || entry->last < known.last ||
        known.last_line.empty()) {
      forget(id);
      return nullptr;
    }
    if (entry->last > known.last && entry->last >= seq) {
      // Another thread brought memory as far as this read or further
      // meanwhile (its own read, checked as below, or this instance's
      // appends, numbered by the database): only the row's word is new.
      std::vector<SessionEvent> none;
      add(*entry, none, unknown);
      return entry->state;
    }
    // The first row is the event memory held last when the read was asked,
    // as memory held it (else the session's numbers went back: rows deleted
    // or restored by hand); then every later number up to the latest, each
    // an event as written.
    const bool same_latest = !r.isNull(0, kEventSeq) &&
                             std::stoll(r.text(0, kEventSeq)) == known.last &&
                             r.text(0, kEventLine) == known.last_line;
    SessionState after;
    addEvents(r, 1, after);
    const long long read_count = static_cast<long long>(after.events.size());
    if (!same_latest || after.unknown || known.last + read_count != seq) {
      forget(id);
      return nullptr;
    }
    // Of what was read, memory holds what another thread added meanwhile,
    // and what this instance appended waits beside it.
    const long long held_already = entry->last - known.last;
    after.events.erase(after.events.begin(), after.events.begin() + held_already);
    const size_t overlap = std::min(entry->waiting.size(), static_cast<size_t>(seq - entry->last));
    entry->waiting.erase(entry->waiting.begin(),
                         entry->waiting.begin() + static_cast<ptrdiff_t>(overlap));
    if (entry->waiting.empty()) entry->waiting_line.clear();
    add(*entry, after.events, unknown);
    entry->last_line = r.text(last_row, kEventLine);
    return entry->state;
  }

  // Deletes the events of the session's earlier lives (numbers before
  // `first_seq`), when a new life starts; left for a trim or the sweep when
  // it fails. It may run long after (a chore): never below where the row's
  // life starts now (the session may have been swept and begun again at 1).
  void forgetEarlierLives(const std::string& id, long long first_seq) const noexcept {
    try {
      pool_.with([&](PgConnection& c) {
        return c.run(
            "DELETE FROM toolguard_agent_session_events WHERE session = $1 AND seq < $2::bigint "
            "AND seq < (SELECT first_seq FROM toolguard_agent_sessions WHERE id = $1)",
            {id, std::to_string(first_seq)});
      });
    } catch (...) {
    }
  }

  // The event is kept whatever happens here: a failed sweep waits for the
  // next. A session whose row another transaction holds (an audit group
  // appending to several sessions, in its own order) is left for the next:
  // waiting for it could deadlock.
  void sweepExpired() const noexcept {
    try {
      pool_.with([&](PgConnection& c) {
        return c.run(
            "WITH gone AS (DELETE FROM toolguard_agent_sessions WHERE id IN (SELECT id FROM "
            "toolguard_agent_sessions WHERE updated <= now() - $1::interval "
            "FOR UPDATE SKIP LOCKED) RETURNING id) "
            "DELETE FROM toolguard_agent_session_events WHERE session IN (SELECT id FROM gone)",
            {expire_});
      });
    } catch (...) {
    }
  }

  // Deletes the events forgetOldest forgets (and those of earlier lives),
  // under the row's lock.
  void trim(const std::string& id) const {
    pool_.with([&](PgConnection& c) {
      c.transaction([&] {
        PgResult row = c.run(
            "SELECT first_seq, seq FROM toolguard_agent_sessions WHERE id = $1 FOR UPDATE", {id});
        if (row.rows() != 1) return;
        PgResult r = c.run(
            "SELECT seq, line FROM toolguard_agent_session_events WHERE session = $1 "
            "AND seq >= $2::bigint AND seq <= $3::bigint ORDER BY seq",
            {id, row.text(0, 0), row.text(0, 1)});
        SessionState state;
        std::vector<std::string> numbers;  // of the events read, in order
        for (int i = 0; i < r.rows(); ++i) {
          std::optional<SessionEvent> event = detail::sessionEventFromLine(r.text(i, 1));
          if (!event) {
            state.unknown = true;
            continue;
          }
          state.events.push_back(std::move(*event));
          numbers.push_back(r.text(i, 0));
        }
        std::string kept = "{";
        const std::vector<size_t> kept_events = state.eventsKept(settings_.max_events);
        for (size_t i : kept_events) kept += (kept.size() > 1 ? "," : "") + numbers[i];
        kept += "}";
        c.run(
            "DELETE FROM toolguard_agent_session_events WHERE session = $1 AND seq <= $2::bigint "
            "AND NOT seq = ANY ($3::bigint[])",
            {id, row.text(0, 1), kept});
        c.run(
            "UPDATE toolguard_agent_sessions SET held = $2::integer, unknown = unknown OR $3 "
            "WHERE id = $1",
            {id, std::to_string(kept_events.size()),
             std::string(state.unknown ? "true" : "false")});
      });
      return 0;
    });
  }

  static constexpr unsigned kSweepEvery = 1024;

  PgPool& pool_;
  SessionStoreOptions settings_;
  std::string expire_;
  mutable std::atomic<unsigned> appends_{0};
  mutable std::mutex mutex_;
  mutable Chores chores_;
  mutable Entries order_;  ///< most recently used first
  mutable std::unordered_map<std::string, Entries::iterator> index_;
};

}  // namespace

std::shared_ptr<SessionRepository> postgresAgentSessions(PgPool& pool,
                                                         SessionStoreOptions settings) {
  return std::make_shared<PgAgentSessions>(pool, std::move(settings));
}

}  // namespace toolguard::store
