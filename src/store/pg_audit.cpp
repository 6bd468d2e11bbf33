// The audit on PostgreSQL: chained group commits, bounded reads, the walk
// along the chain.
#include "pg_audit.hpp"

#include <algorithm>

#include "audit/audit_detail.hpp"
#include "json/compact_dump.hpp"

namespace toolguard::store {
namespace {

using nlohmann::json;

constexpr const char* kAuditLock = "SELECT pg_advisory_xact_lock(74069111)";

// A column's text: PostgreSQL's text cannot hold a NUL (the record, JSON,
// keeps it as \u0000); the column only helps to find rows.
std::string columnText(std::string text) {
  for (size_t at; (at = text.find('\0')) != std::string::npos;) text.replace(at, 1, "\\u0000");
  return text;
}

// A glob (`*`, `?`) as a LIKE pattern.
std::string likePattern(const std::string& glob) {
  std::string out;
  for (char c : glob) {
    if (c == '*') {
      out += '%';
    } else if (c == '?') {
      out += '_';
    } else {
      if (c == '%' || c == '_' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out;
}

// Tells a writer how its record fared; what the callback throws is its own
// and must not stop the writer thread.
template <typename PendingRecord>
void finished(PendingRecord& pending, std::exception_ptr failed) noexcept {
  try {
    pending.done(failed);
  } catch (...) {
  }
}

bool isAnchor(const json& record) {
  auto it = record.find("anchor");
  return it != record.end() && it->is_object();
}

}  // namespace

// The writer's group INSERT is planned once: no parameter of it changes
// which plan is best, and by default the server would plan its first five
// runs anew and then keep planning each run when its estimates favour that.
PgAudit::PgAudit(std::string url)
    : connection_(std::move(url), kDefaultStatementTimeoutMs,
                  "-c plan_cache_mode=force_generic_plan") {
  writer_ = std::thread([this] { run(); });
}

PgAudit::~PgAudit() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  writer_.join();
}

void PgAudit::writeRecord(const nlohmann::json& record) {
  std::promise<void> committed;
  std::future<void> result = committed.get_future();
  writeRecordThen(record, [&committed](std::exception_ptr failed) {
    if (failed) {
      committed.set_exception(failed);
    } else {
      committed.set_value();
    }
  });
  result.get();  // throws what the commit threw
}

void PgAudit::writeRecordThen(const nlohmann::json& record,
                              std::function<void(std::exception_ptr failed)> done) {
  PreparedAuditRecord prepared;
  try {
    prepared = prepareAuditRecord(record);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  writePreparedThen(std::move(prepared), std::move(done));
}

void PgAudit::writePreparedThen(PreparedAuditRecord record,
                                std::function<void(std::exception_ptr failed)> done) {
  writePreparedWithThen(std::move(record), {}, std::move(done));
}

void PgAudit::writePreparedWithThen(PreparedAuditRecord record, std::vector<GroupedWrite> writes,
                                    std::function<void(std::exception_ptr failed)> done) {
  Pending pending;
  pending.writes = std::move(writes);
  try {
    pending.row = Row{std::move(record.text),
                      {columnText(std::move(record.time)), columnText(std::move(record.tool)),
                       columnText(std::move(record.verdict)), columnText(std::move(record.rule))}};
  } catch (...) {
    loseAll(pending.writes);
    done(std::current_exception());
    return;
  }
  pending.done = std::move(done);
  try {
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopping_) {
      lock.unlock();
      loseAll(pending.writes);
      finished(pending, std::make_exception_ptr(StoreError("the audit writer has stopped")));
      return;
    }
    queue_.push_back(std::move(pending));
  } catch (...) {
    loseAll(pending.writes);
    finished(pending, std::current_exception());  // not queued (out of memory)
    return;
  }
  wake_.notify_one();
}

void PgAudit::run() {
  for (;;) {
    std::deque<Pending> group;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      const size_t n = std::min<size_t>(queue_.size(), 1000);
      for (size_t i = 0; i < n; ++i) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    std::vector<Pending*> all;
    for (Pending& p : group) all.push_back(&p);
    try {
      insert(all);
      for (Pending& p : group) finished(p, nullptr);
    } catch (...) {
      // One record the database refuses must not deny the others' decisions:
      // the group is written again, one record (with its writes) at a time.
      for (Pending& p : group) {
        std::exception_ptr failed;
        try {
          insert({&p});
        } catch (...) {
          failed = std::current_exception();
          loseAll(p.writes);
        }
        finished(p, failed);
      }
    }
  }
}

std::vector<PgAudit::Row> PgAudit::chained(const std::vector<const Row*>& rows, std::string& prev,
                                           bool anchor) {
  const std::string now = detail::formatAuditTime(std::chrono::system_clock::now());
  std::vector<Row> out;
  out.reserve(rows.size() + (anchor ? 1 : 0));
  auto add = [&](const std::string& text, const std::string(&columns)[4]) {
    Row& row = out.emplace_back();
    row.text = detail::chainedRecordText(text, prev);
    prev = auditHash(row.text);
    row.columns[0] = columns[0].empty() ? now : columns[0];
    for (int i = 1; i < 4; ++i) row.columns[i] = columns[i];
  };
  if (anchor) {
    const json start = {
        {"anchor", {{"chain", detail::randomAuditId()}, {"seq", 0}, {"store", "postgresql"}}},
        {"time", now}};
    add(detail::compactDump(start), {now, "", "", ""});
  }
  for (const Row* row : rows) add(row->text, row->columns);
  return out;
}

namespace {

// Values as a PostgreSQL array in text form: {"a","b"}, each element quoted.
std::string arrayText(const std::vector<PgAudit::Row>& rows, int column) {
  std::string out = "{";
  for (const auto& row : rows) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char ch : column < 0 ? row.text : row.columns[column]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  out += '}';
  return out;
}

// Prepared once on the writer's connection: the group's rows come as
// arrays, so the server neither parses nor plans a new statement per group
// (the connection uses generic plans, see PgAudit::PgAudit). The rows are
// inserted in the arrays' order, which is the chain's. It writes only while
// the table's last row is $6 (the one this writer committed last).
constexpr const char* kInsertAfterOwnLast =
    "WITH written AS (INSERT INTO toolguard_audit (time, tool, verdict, rule, record) "
    "SELECT t, tool, verdict, rule, record FROM unnest($1::timestamptz[], $2::text[], "
    "$3::text[], $4::text[], $5::json[]) WITH ORDINALITY AS v(t, tool, verdict, rule, record, n) "
    "WHERE (SELECT record::text FROM toolguard_audit ORDER BY id DESC LIMIT 1) = $6 "
    "ORDER BY n RETURNING id) SELECT count(*) FROM written";

// The same rows written whatever the table's last row is (the lock is held
// and they are chained to the one read under it).
constexpr const char* kInsert =
    "INSERT INTO toolguard_audit (time, tool, verdict, rule, record) "
    "SELECT t, tool, verdict, rule, record FROM unnest($1::timestamptz[], $2::text[], "
    "$3::text[], $4::text[], $5::json[]) WITH ORDINALITY AS v(t, tool, verdict, rule, record, n) "
    "ORDER BY n";

// The table's last row, read under the lock.
constexpr const char* kHead = "SELECT record::text FROM toolguard_audit ORDER BY id DESC LIMIT 1";

}  // namespace

bool PgAudit::insertAfterOwnLast(const std::vector<const Row*>& rows) {
  std::string prev = own_last_hash_;
  std::vector<Row> group = chained(rows, prev, false);
  // One implicit transaction, in one round trip: the lock (held until the
  // commit), then the conditional INSERT, which reads the last row after
  // the lock is held (read committed: a snapshot per statement).
  PgResult inserted =
      connection_.runTogether({{"toolguard_audit_lock", kAuditLock, {}},
                               {"toolguard_audit_after_own_last",
                                kInsertAfterOwnLast,
                                {arrayText(group, 0), arrayText(group, 1), arrayText(group, 2),
                                 arrayText(group, 3), arrayText(group, -1), own_last_text_}}});
  if (inserted.rows() != 1 || inserted.text(0, 0) == "0") return false;
  if (inserted.text(0, 0) != std::to_string(group.size())) {
    throw StoreError("the audit's group was written in part");  // cannot happen in one statement
  }
  tellKept(group);
  own_last_text_ = std::move(group.back().text);
  own_last_hash_ = std::move(prev);
  return true;
}

void PgAudit::tellKept(const std::vector<Row>& group) const {
  if (!kept_) return;
  for (const Row& row : group) {
    try {
      kept_(row.text);
    } catch (...) {
      // Shipping never undoes a commit.
    }
  }
}

void PgAudit::insert(const std::vector<Pending*>& group) {
  std::vector<const Row*> rows;
  std::vector<GroupedWrite*> writes;
  for (Pending* p : group) {
    rows.push_back(&p->row);
    for (GroupedWrite& w : p->writes) writes.push_back(&w);
  }
  try {
    if (writes.empty() && !own_last_text_.empty()) {
      if (insertAfterOwnLast(rows)) return;
      own_last_text_.clear();  // another writer wrote since
    }
  } catch (...) {
    own_last_text_.clear();  // read the table again
    throw;
  }
  insertInTransaction(rows, writes);
}

void PgAudit::insertInTransaction(const std::vector<const Row*>& rows,
                                  const std::vector<GroupedWrite*>& writes) {
  PgConnection& c = connection_;
  // After this writer's last row, when it is still the table's (the rows
  // are chained to it here, and written only if it is).
  const bool after_own = !own_last_text_.empty();
  std::string prev = own_last_hash_;
  std::vector<Row> group;
  if (after_own) group = chained(rows, prev, false);
  std::vector<PgStatement> first{{"", "BEGIN", {}}, {"toolguard_audit_lock", kAuditLock, {}}};
  if (after_own) {
    first.push_back({"toolguard_audit_after_own_last",
                     kInsertAfterOwnLast,
                     {arrayText(group, 0), arrayText(group, 1), arrayText(group, 2),
                      arrayText(group, 3), arrayText(group, -1), own_last_text_}});
  }
  first.push_back({"toolguard_audit_head", kHead, {}});
  own_last_text_.clear();
  try {
    std::vector<PgResult> read = c.runEach(first);
    const bool written =
        after_own && read[2].rows() == 1 && read[2].text(0, 0) == std::to_string(group.size());
    std::vector<PgStatement> second;
    if (!written) {
      // Another writer (an instance on the same database) wrote last, or
      // this one has not yet: chained to the last row, read under the lock.
      const PgResult& head = read.back();
      prev = kAuditGenesisHash;
      bool anchor = true;
      if (head.rows() == 1) {
        const std::string text = head.text(0, 0);
        prev = auditHash(text);
        anchor = text.find("\"prev_hash\":\"") == std::string::npos;  // an older toolguard's row
      }
      group = chained(rows, prev, anchor);
      second.push_back({"toolguard_audit_insert",
                        kInsert,
                        {arrayText(group, 0), arrayText(group, 1), arrayText(group, 2),
                         arrayText(group, 3), arrayText(group, -1)}});
    }
    for (const GroupedWrite* w : writes) second.push_back(w->statement);
    second.push_back({"", "COMMIT", {}});
    std::vector<PgResult> results;
    try {
      results = c.runEach(second);
    } catch (...) {
      // Only the answer may be lost, the COMMIT done: written again, the
      // group's appends would count their events twice.
      bool kept = false;
      if (!c.connected()) {
        try {
          kept = keptRecently(group.back().text);
        } catch (...) {
          // Not known: written again (the database is most likely down).
        }
      }
      if (!kept) throw;
      tellKept(group);
      own_last_text_ = std::move(group.back().text);
      own_last_hash_ = std::move(prev);
      // Their results are lost: memory reads the sessions again.
      for (GroupedWrite* w : writes) lose(*w);
      return;
    }
    tellKept(group);
    own_last_text_ = std::move(group.back().text);
    own_last_hash_ = std::move(prev);
    size_t at = written ? 0 : 1;
    for (GroupedWrite* w : writes) {
      try {
        if (w->committed) w->committed(results[at]);
      } catch (...) {
        // Its own bookkeeping: what it wrote is committed.
      }
      ++at;
    }
  } catch (...) {
    try {
      if (c.connected()) c.runScript("ROLLBACK");
    } catch (...) {
      // The connection is gone: the server rolled back.
    }
    throw;
  }
}

bool PgAudit::keptRecently(const std::string& text) {
  PgResult r = connection_.run(
      "SELECT EXISTS (SELECT 1 FROM (SELECT record::text AS r FROM toolguard_audit "
      "ORDER BY id DESC LIMIT 10000) recent WHERE r = $1)",
      {text});
  return r.rows() == 1 && r.text(0, 0) == "t";
}

std::vector<nlohmann::json> queryPgAudit(PgPool& reads, const AuditQuery& query) {
  std::vector<std::optional<std::string>> params;
  std::string where;
  auto add = [&](const std::string& condition, std::string value) {
    params.push_back(std::move(value));
    where += " AND " + condition + " $" + std::to_string(params.size());
  };
  if (query.since) add("time >=", detail::formatAuditTime(*query.since));
  if (query.until) add("time <", detail::formatAuditTime(*query.until));
  if (!query.verdict.empty()) add("verdict =", query.verdict);
  if (!query.tool.empty()) add("tool LIKE", likePattern(query.tool));
  if (!query.rule.empty()) add("rule LIKE", likePattern(query.rule));
  std::vector<json> newest_first;
  std::optional<std::string> cursor;
  size_t scanned = 0;
  constexpr size_t kBatch = 1000;
  while (query.last == 0 || newest_first.size() < query.last) {
    std::vector<std::optional<std::string>> p = params;
    std::string sql = "SELECT id, record::text FROM toolguard_audit WHERE true" + where;
    if (cursor) {
      p.push_back(*cursor);
      sql += " AND id < $" + std::to_string(p.size());
    }
    sql += " ORDER BY id DESC LIMIT " + std::to_string(kBatch);
    PgResult r = reads.with([&](PgConnection& c) { return c.run(sql, p); });
    for (int i = 0; i < r.rows(); ++i) {
      json record = json::parse(r.text(i, 1), nullptr, false);
      if (!record.is_object()) record = {{"unreadable", r.text(i, 1)}, {"row", r.text(i, 0)}};
      if (isAnchor(record) || !auditRecordMatches(record, query)) continue;
      newest_first.push_back(std::move(record));
      if (query.last > 0 && newest_first.size() == query.last) break;
    }
    scanned += static_cast<size_t>(r.rows());
    if (r.rows() < static_cast<int>(kBatch) ||
        (query.last > 0 && scanned >= kMaxAuditRowsScanned)) {
      break;
    }
    cursor = r.text(r.rows() - 1, 0);
  }
  return {std::make_move_iterator(newest_first.rbegin()),
          std::make_move_iterator(newest_first.rend())};
}

AuditChainReport verifyPgAudit(PgPool& reads, const std::string& expected_head) {
  AuditChainVerifier verifier(expected_head);
  std::string cursor = "0";
  for (;;) {
    PgResult r = reads.with([&](PgConnection& c) {
      return c.run(
          "SELECT id, record::text FROM toolguard_audit WHERE id > $1 ORDER BY id LIMIT 10000",
          {cursor});
    });
    for (int i = 0; i < r.rows(); ++i) verifier.next(r.text(i, 1), "row " + r.text(i, 0));
    if (r.rows() == 0) break;
    cursor = r.text(r.rows() - 1, 0);
  }
  return verifier.finish();
}

}  // namespace toolguard::store
