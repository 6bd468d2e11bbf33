// libpq connections: opened with a connect timeout, reconnected when the
// server went away (a restart), every failure a StoreError.
#include "pg_connection.hpp"

#include <regex>
#include <string_view>

namespace toolguard::store {
namespace {

// libpq reads a value up to its first NUL: a shorter value than the one
// given (a tool named "Write\0x" stored as "Write") must never be kept.
void refuseNul(const std::string& value) {
  if (value.find('\0') != std::string::npos) {
    throw StoreError("a value holds a NUL character and cannot be stored");
  }
}

// libpq's message without its trailing newlines.
std::string libpqMessage(const char* message) {
  std::string why = message;
  while (!why.empty() && why.back() == '\n') why.pop_back();
  return why;
}

// The parameters as libpq takes them (a NUL refused, see refuseNul).
std::vector<const char*> parameterValues(const std::vector<std::optional<std::string>>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const std::optional<std::string>& p : params) {
    if (p) refuseNul(*p);
    values.push_back(p ? p->c_str() : nullptr);
  }
  return values;
}

}  // namespace

std::string redactedUrl(const std::string& url) {
  static const std::regex password(R"(^(postgres(ql)?://[^:/@]*):[^@]*@)");
  static const std::regex query_password(R"(([?&]password=)[^&]*)");
  return std::regex_replace(std::regex_replace(url, password, "$1:***@"), query_password, "$1***");
}

PgConnection::PgConnection(std::string url, int statement_timeout_ms, const std::string& settings)
    : url_(std::move(url)),
      // Read committed whatever the role's or database's default: the
      // audit's chain reads the last row after it holds the lock, in a
      // statement of its own, and must see what the lock's last holder wrote.
      options_("-c statement_timeout=" + std::to_string(statement_timeout_ms) +
               " -c default_transaction_isolation=read\\ committed" +
               (settings.empty() ? "" : " " + settings)) {}

PgConnection::~PgConnection() {
  drop();
}

void PgConnection::drop() {
  if (connection_) PQfinish(connection_);
  connection_ = nullptr;
  prepared_.clear();
}

PGconn* PgConnection::open() {
  if (connection_ && PQstatus(connection_) == CONNECTION_OK) return connection_;
  drop();
  // A database that stops answering (a partition) must not hold a request
  // forever: keepalives notice a dead peer, statements end after their timeout.
  const char* keys[] = {"dbname",
                        "connect_timeout",
                        "application_name",
                        "keepalives_idle",
                        "keepalives_interval",
                        "keepalives_count",
                        "options",
                        nullptr};
  const char* values[] = {url_.c_str(), "5", "toolguard",      "10",
                          "5",          "3", options_.c_str(), nullptr};
  connection_ = PQconnectdbParams(keys, values, 1);
  if (!connection_ || PQstatus(connection_) != CONNECTION_OK) {
    const std::string why =
        libpqMessage(connection_ ? PQerrorMessage(connection_) : "out of memory");
    drop();
    throw StoreError("the database " + redactedUrl(url_) + " cannot be reached: " + why);
  }
  // The server's notices ("relation already exists, skipping") are not ours to print.
  PQsetNoticeProcessor(
      connection_, [](void*, const char*) {}, nullptr);
  return connection_;
}

PgResult PgConnection::run(const std::string& sql,
                           const std::vector<std::optional<std::string>>& params) {
  const std::vector<const char*> values = parameterValues(params);
  PGconn* c = open();
  return check(c, PQexecParams(c, sql.c_str(), static_cast<int>(params.size()), nullptr,
                               values.data(), nullptr, nullptr, 0));
}

PgResult PgConnection::runScript(const std::string& sql) {
  PGconn* c = open();
  return check(c, PQexec(c, sql.c_str()));
}

PgResult PgConnection::runTogether(const std::vector<PgStatement>& statements) {
  std::vector<PgResult> results = runEach(statements);
  return std::move(results.back());
}

std::vector<PgResult> PgConnection::runEach(const std::vector<PgStatement>& statements) {
  if (statements.empty()) throw StoreError("the database: no statement to run");
  std::vector<std::vector<const char*>> values;
  for (const PgStatement& s : statements) values.push_back(parameterValues(s.params));
  PGconn* c = open();
  for (const PgStatement& s : statements) {
    if (s.name.empty() || prepared_.count(s.name) != 0) continue;
    check(c, PQprepare(c, s.name.c_str(), s.sql.c_str(), 0, nullptr));
    prepared_.insert(s.name);
  }
  // Anything unexpected on the way closes the connection: the server then
  // rolls back what it did not commit, and no pipeline state outlives this.
  auto lost = [&](const std::string& why) {
    drop();
    return StoreError("the database connection was lost: " + why);
  };
  std::string failure;  // the first statement's failure, in the server's words
  auto failureOrLibpq = [&] { return failure.empty() ? libpqMessage(PQerrorMessage(c)) : failure; };
  if (PQenterPipelineMode(c) != 1) throw lost(libpqMessage(PQerrorMessage(c)));
  for (size_t i = 0; i < statements.size(); ++i) {
    const PgStatement& s = statements[i];
    const int n = static_cast<int>(values[i].size());
    const int sent =
        s.name.empty()
            ? PQsendQueryParams(c, s.sql.c_str(), n, nullptr, values[i].data(), nullptr, nullptr, 0)
            : PQsendQueryPrepared(c, s.name.c_str(), n, values[i].data(), nullptr, nullptr, 0);
    if (sent != 1) throw lost(libpqMessage(PQerrorMessage(c)));
  }
  if (PQpipelineSync(c) != 1) throw lost(libpqMessage(PQerrorMessage(c)));
  // Each statement's result, then the end of its results (a null), then the sync.
  std::vector<PgResult> results;
  results.reserve(statements.size());
  for (size_t i = 0; i < statements.size(); ++i) {
    PGresult* raw = PQgetResult(c);
    if (raw == nullptr) throw lost(libpqMessage(PQerrorMessage(c)));
    PgResult result(raw);
    const ExecStatusType status = PQresultStatus(raw);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && failure.empty()) {
      failure = status == PGRES_PIPELINE_ABORTED ? std::string("a statement before failed")
                                                 : libpqMessage(PQresultErrorMessage(raw));
      // Prepared on this connection, yet unknown to the server (a pooler
      // between, or DISCARD ALL): prepared again on the next run.
      const char* state = PQresultErrorField(raw, PG_DIAG_SQLSTATE);
      if (state != nullptr && std::string_view(state) == "26000") {
        prepared_.erase(statements[i].name);
      }
    }
    if (PQstatus(c) != CONNECTION_OK) {
      throw lost(failureOrLibpq());
    }
    if (PGresult* more = PQgetResult(c); more != nullptr) {
      // The server's own message first (a FATAL before it closed).
      std::string why = failure.empty() ? libpqMessage(PQresultErrorMessage(more)) : failure;
      PQclear(more);
      throw lost(why.empty() ? "more than one result for a statement" : why);
    }
    results.push_back(std::move(result));
  }
  PGresult* sync = PQgetResult(c);
  const bool synced = sync != nullptr && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
  if (sync != nullptr) PQclear(sync);
  if (!synced || PQexitPipelineMode(c) != 1) {
    throw lost(failureOrLibpq());
  }
  if (!failure.empty()) throw StoreError("the database: " + failure);
  return results;
}

std::string PgConnection::literal(const std::string& text) {
  refuseNul(text);
  PGconn* c = open();
  char* quoted = PQescapeLiteral(c, text.data(), text.size());
  if (quoted == nullptr) {
    throw StoreError("the database: " + libpqMessage(PQerrorMessage(c)));
  }
  std::string out(quoted);
  PQfreemem(quoted);
  return out;
}

PgResult PgConnection::check(PGconn* c, PGresult* raw) {
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return PgResult(raw);
  const std::string why = libpqMessage(raw ? PQresultErrorMessage(raw) : PQerrorMessage(c));
  if (raw) PQclear(raw);
  const bool lost = PQstatus(c) != CONNECTION_OK;
  if (lost) drop();  // the next use reconnects
  throw StoreError(std::string(lost ? "the database connection was lost: " : "the database: ") +
                   why);
}

PgPool::PgPool(std::string url, size_t size, int statement_timeout_ms) : url_(std::move(url)) {
  for (size_t i = 0; i < size; ++i) {
    all_.push_back(std::make_unique<PgConnection>(url_, statement_timeout_ms));
    free_.push_back(all_.back().get());
  }
}

PgPool::Lease::Lease(PgPool& p) : pool(p) {
  std::unique_lock<std::mutex> lock(pool.mutex_);
  pool.returned_.wait(lock, [&] { return !pool.free_.empty(); });
  connection = pool.free_.back();
  pool.free_.pop_back();
}

PgPool::Lease::~Lease() {
  std::lock_guard<std::mutex> lock(pool.mutex_);
  pool.free_.push_back(connection);
  pool.returned_.notify_one();
}

}  // namespace toolguard::store
