#pragma once
// Internal: libpq made safe to use: results that free themselves, statements
// with text parameters that throw StoreError on any failure, and a small
// pool of connections that reconnects after the database went away.

#include <libpq-fe.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "service_store.hpp"

namespace toolguard::store {

/// A query's result; rows and fields by index, values as text.
class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool isNull(int row, int field) const { return PQgetisnull(result_.get(), row, field) != 0; }
  std::string text(int row, int field) const {
    return std::string(PQgetvalue(result_.get(), row, field),
                       static_cast<size_t>(PQgetlength(result_.get(), row, field)));
  }

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

/// How long a statement may run on a connection unless said otherwise.
inline constexpr int kDefaultStatementTimeoutMs = 10000;

/// A statement sent with others in one round trip (PgConnection::runTogether):
/// its SQL and text parameters (nullopt: SQL NULL); with a `name`, it is
/// prepared once on each connection under that name and then only executed,
/// so the server parses and plans it once, not on every run.
struct PgStatement {
  std::string name;
  std::string sql;
  std::vector<std::optional<std::string>> params;
};

/// One connection, opened with `url` (reconnected when it broke); every
/// statement on it ends after `statement_timeout_ms`.
class PgConnection {
 public:
  /// `settings`: more of the server's settings for this connection
  /// ("-c name=value ...", values escaped as libpq's `options` wants).
  explicit PgConnection(std::string url, int statement_timeout_ms = kDefaultStatementTimeoutMs,
                        const std::string& settings = "");
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  /// Runs one statement with text parameters (nullopt: SQL NULL). Throws
  /// StoreError with the server's message.
  PgResult run(const std::string& sql, const std::vector<std::optional<std::string>>& params = {});

  /// Runs several statements without parameters (a migration, or a few
  /// statements sent in one round trip); the last statement's result.
  /// Throws StoreError at the first that fails.
  PgResult runScript(const std::string& sql);

  /// Sends the statements in one round trip (libpq's pipeline mode); they
  /// run as one implicit transaction, committed after the last. The last
  /// one's result. Throws StoreError at the first that fails (then none is
  /// committed), or when the connection broke (then whether they were
  /// committed is not known, as with any statement whose answer is lost).
  PgResult runTogether(const std::vector<PgStatement>& statements);

  /// runTogether, with every statement's result in order. Inside a
  /// transaction the caller began (a BEGIN among them, or sent before), the
  /// statements stay in it: nothing is committed until its COMMIT.
  std::vector<PgResult> runEach(const std::vector<PgStatement>& statements);
  /// `text` as an SQL string literal, quoted by libpq for this connection.
  /// Throws StoreError for a NUL (see run) or a failure.
  std::string literal(const std::string& text);

  /// Runs `work` between BEGIN and COMMIT; rolls back and rethrows what it threw.
  template <typename Work>
  void transaction(Work work) {
    run("BEGIN");
    try {
      work();
      run("COMMIT");
    } catch (...) {
      try {
        run("ROLLBACK");
      } catch (...) {
        // The connection is gone: the server rolled back.
      }
      throw;
    }
  }

  /// The connection, open (reconnecting when it broke). Throws StoreError.
  PGconn* open();

  /// Closes it, so the next use reconnects.
  void drop();

  /// False once it broke (a statement's answer was lost): the next use
  /// reconnects.
  bool connected() const { return connection_ != nullptr; }

 private:
  // The result when it succeeded; else frees it and throws StoreError.
  PgResult check(PGconn* c, PGresult* raw);

  std::string url_;
  std::string options_;  // "-c statement_timeout=N ..."
  PGconn* connection_ = nullptr;
  std::set<std::string> prepared_;  // the names prepared on connection_
};

/// A few connections shared by the threads of one server.
class PgPool {
 public:
  PgPool(std::string url, size_t size, int statement_timeout_ms = kDefaultStatementTimeoutMs);

  /// Runs `work` on a free connection (waiting for one).
  template <typename Work>
  auto with(Work work) {
    Lease lease(*this);
    return work(*lease.connection);
  }

  const std::string& url() const { return url_; }

 private:
  struct Lease {
    explicit Lease(PgPool& pool);
    ~Lease();
    PgPool& pool;
    PgConnection* connection;
  };
  std::string url_;
  std::vector<std::unique_ptr<PgConnection>> all_;
  std::vector<PgConnection*> free_;
  std::mutex mutex_;
  std::condition_variable returned_;
};

/// A URL without its password, for messages.
std::string redactedUrl(const std::string& url);

}  // namespace toolguard::store
