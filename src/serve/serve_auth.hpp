#pragma once
// Internal: who is calling `toolguard serve`: the bearer token, looked up by
// its hash (a second's cache, so a revocation holds within a second), the
// web queue's session cookie (which acts as the token that signed in, and
// needs the session's CSRF token on every request that changes something),
// or a TLS client certificate verified against the client CA, whose common
// name names an agent token; and the requests-per-second limit of each token.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "serve/http_server.hpp"
#include "serve/miss_budget.hpp"
#include "serve/serve_metrics.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// The token a request came with.
struct Caller {
  std::string name;
  store::TokenRole role = store::TokenRole::Agent;
  std::string owner;    ///< the person who holds the token ("" when it has none)
  std::string session;  ///< the hash of the browser session it came through; "" for a bearer token
  std::string csrf;     ///< that session's CSRF token
};

/// Whether `request` shows a credential to check: an "Authorization: Bearer
/// TOKEN" header, or without an Authorization header a session cookie or a
/// verified client certificate. Without one, authenticate() refuses it (401)
/// without reading the store.
bool presentsCredentials(const HttpRequest& request);

/// Checks tokens and their request rates.
class Authenticator {
 public:
  /// `public_origin`: the web queue's origin as people reach it (behind a
  /// proxy), besides the Host a request names; "" for none.
  Authenticator(store::ServiceStore& store, Metrics& metrics, double requests_per_second,
                std::string public_origin);

  /// The caller, or nullopt with `refused` set: 401 without a usable token
  /// or session, 403 for a session's request that changes something without
  /// its CSRF token or from another origin, 429 past the token's rate, 503
  /// when the store cannot be read (saying nothing of the store: the caller
  /// has not shown a token yet). The scheme "Bearer" is read in any case.
  std::optional<Caller> authenticate(const HttpRequest& request, HttpResponse& refused);

  /// authenticate() without reading the store, for the event thread: the
  /// caller of a bearer token that the snapshot of tokens, fresh, holds
  /// (usable, within its rate). nullopt with `must_wait` set when the store
  /// would have to be read (no fresh snapshot, a token it lacks or holds as
  /// revoked, a cookie, a certificate); nullopt with `refused` set when the
  /// token is over its rate.
  std::optional<Caller> authenticateNow(const HttpRequest& request, HttpResponse& refused,
                                        bool& must_wait);

  /// True, with `refused` set (401, as authenticate() would answer after
  /// the body), when the request's credentials are refused without reading
  /// the store: a bearer token a fresh snapshot holds as revoked, or lacks
  /// while the store reads for missing tokens are spent; a session cookie
  /// this service has not seen while the reads for unseen ones are spent.
  /// For the request's head (the body is then never read); never blocks.
  bool refusedWithoutStore(const HttpRequest& request, HttpResponse& refused);

  /// A web session signed in here (by the hash of its cookie's secret): its
  /// cookie is read from the store even while a flood of made-up cookies
  /// has spent the reads for unseen ones.
  void rememberSession(const std::string& hash);

  /// The token whose hash is `hash` when it may be used (known, not revoked),
  /// else nullopt with `refused` set (401, or 503 when the store failed).
  std::optional<store::TokenRecord> usableToken(const std::string& hash, HttpResponse& refused);

  /// The agent token named as the verified client certificate is (its
  /// common name), when it may be used; else nullopt with `refused` set.
  std::optional<store::TokenRecord> certifiedAgent(const std::string& name, HttpResponse& refused);

  /// Takes one request from the token's rate; false with `refused` (429) past it.
  bool withinRate(const std::string& token_name, HttpResponse& refused);

  /// The audit record of a refused request (never the token itself).
  nlohmann::json refusalRecord(const HttpRequest& request, const HttpResponse& refused) const;

 private:
  // Every token, by hash and by name, as read from the store at `read`.
  struct Snapshot {
    std::map<std::string, store::TokenRecord> by_hash;
    std::map<std::string, store::TokenRecord> by_name;
    std::chrono::steady_clock::time_point read{};
  };
  // The token under `key` in a snapshot at most a second old (read again
  // when older, or when the key is missing, within a budget of ten such
  // reads a second: a flood of made-up tokens costs the store little). The
  // store is read outside the lock: while one request reads it, the others
  // go on with the snapshot they have. Throws what the store throws.
  std::optional<store::TokenRecord> lookUp(const std::string& key, bool by_name);
  // The token with this hash in a snapshot read under a second ago (or one
  // being read again now); nullopt otherwise. Never reads the store.
  std::optional<store::TokenRecord> remembered(const std::string& hash);
  // lookUp, with the store's failure turned into `refused` (503, saying
  // nothing of the store); false then.
  bool lookUpOrRefuse(const std::string& key, bool by_name,
                      std::optional<store::TokenRecord>& found, HttpResponse& refused);
  // Whether a session cookie's record may be read from the store: one seen
  // before, or within the budget of reads for unseen ones.
  bool mayReadSession(const std::string& hash);
  // What a read of the session found: remembered when found, else forgotten.
  void sessionRead(const std::string& hash, bool found);
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point refilled;
  };
  store::ServiceStore& store_;
  Metrics& metrics_;
  double rate_;
  std::string public_origin_;
  std::mutex mutex_;
  std::map<std::string, Bucket> buckets_;
  std::mutex snapshot_mutex_;  // guards snapshot_, the misses and the known sessions
  std::shared_ptr<const Snapshot> snapshot_ = std::make_shared<Snapshot>();
  bool refreshing_ = false;  // a request is reading the store for a stale snapshot
  MissBudget token_misses_;  // store reads for tokens a fresh snapshot lacks
  // The sessions (hashes of their cookies' secrets) found in the store or
  // signed in here; forgotten all at once past kMaxKnownSessions.
  static constexpr size_t kMaxKnownSessions = 10000;
  std::set<std::string, std::less<>> known_sessions_;
  MissBudget session_misses_;  // store reads for cookies not among them
};

}  // namespace toolguard::serve
