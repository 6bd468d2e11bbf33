#pragma once
// Internal: what `toolguard serve` keeps, behind one interface with two
// implementations: the files under TOOLGUARD_HOME (one machine, nothing to
// install) and PostgreSQL (many instances, one database). Approvals, pending
// asks, tokens and the audit. Every method is thread-safe and throws
// StoreError when the store cannot be reached or read: the caller fails
// closed.

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "toolguard/approval_store.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard::store {

/// The store could not be reached, read or written; the message says which and why.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a token may do.
enum class TokenRole { Agent, Approver, Admin };

/// "agent", "approver", "admin".
std::string_view toString(TokenRole role);
/// The role named `name`, or nullopt.
std::optional<TokenRole> parseTokenRole(std::string_view name);

/// One bearer token, as kept: never the token itself, only its hash.
struct TokenRecord {
  std::string name;  ///< unique; an agent token's name is the agent's name
  TokenRole role = TokenRole::Agent;
  std::string created;  ///< RFC 3339 UTC
  bool revoked = false;
  /// The person who holds it ("" for a token made before owners existed):
  /// no one answers an ask made with a token of their own.
  std::string owner;
  std::string hash;  ///< tokenHash of the secret (what the store keeps of it)
};

/// Why an ask ended without an answer.
inline constexpr const char* kAskTimedOut = "timed-out";  ///< nobody answered in time
/// The request that waited for it is gone (its client closed the
/// connection, or its instance died or lost the store): an answer would reach nobody.
inline constexpr const char* kAskAskerGone = "asker-gone";

/// How often a waiting request tells the store it still waits, and how long
/// after its last word an ask it waits for cannot be answered any more.
inline constexpr std::chrono::seconds kAskHeartbeat{2};
inline constexpr std::chrono::seconds kAskStaleAfter{10};

/// Where an ask stands.
enum class AskState { Pending, Answered, Expired };

/// "pending", "answered", "expired".
std::string_view toString(AskState state);
/// The state named `name`, or nullopt.
std::optional<AskState> parseAskState(std::string_view name);

/// A call waiting for a person (or one that did).
struct AskRecord {
  std::string id;           ///< the decision id of the check that asked
  nlohmann::json call;      ///< the call, as toolguard's call JSON
  nlohmann::json decision;  ///< the policy's decision (verdict ask), as decision JSON
  /// What may be answered: {"bindings": [{"binding", "value", "description"}],
  /// "scopes": ["session", ...]}: the same choices the terminal prompt offers.
  nlohmann::json offer;
  std::string created;  ///< RFC 3339 UTC
  std::string expires;  ///< RFC 3339 UTC: unanswered by then, it is denied
  std::string token;    ///< the name of the agent token that asked
  std::string owner;    ///< the owner of that token ("" when it has none)
  /// A request waits for it and keeps it alive (kAskHeartbeat); false for an
  /// ask queued with ?async=1, which its agent polls.
  bool watched = false;
  AskState state = AskState::Pending;
  /// Expired: why (kAskTimedOut or kAskAskerGone).
  std::string ended;
  /// Answered: {"answer", "binding", "scope", "note", "by", "at"}.
  nlohmann::json answer;
};

/// A browser's signed-in session of the web queue, kept by the hash of the
/// cookie's secret. It acts as the token it was opened with: that token's
/// role, and revoking the token ends the session.
struct SessionRecord {
  std::string token_hash;  ///< the hash of the token that signed in (tokenHash)
  std::string csrf;        ///< what every state-changing request must carry
  std::string created;     ///< RFC 3339 UTC
  std::string expires;     ///< RFC 3339 UTC: past it the session is gone
};

/// The ask as the API shows it: id, state, call, decision, offer, created,
/// expires, agent, owner, (answered) answer and (expired) ended.
nlohmann::json toJson(const AskRecord& ask);

/// What became of an answer: recorded, or the ask was not pending any more
/// (`ask` then holds who answered, or that it expired).
struct AnswerResult {
  bool recorded = false;
  std::optional<AskRecord> ask;  ///< nullopt: no such ask
};

/// What `toolguard serve` keeps. Thread-safe.
class ServiceStore {
 public:
  virtual ~ServiceStore() = default;

  /// "file /home/u/.toolguard", "postgresql db@host": for logs.
  virtual std::string describe() const = 0;

  /// Whether every method but waitForAsk answers from this machine's files
  /// (no network round trip): a request that does not wait may then be
  /// answered on the thread that read it.
  virtual bool local() const { return false; }

  // Tokens: kept by the hash of the secret (tokenHash).
  /// Adds a token; throws StoreError when the name is taken.
  virtual void addToken(const TokenRecord& token, const std::string& hash) = 0;
  /// The token with this hash, revoked or not; nullopt when none.
  virtual std::optional<TokenRecord> tokenByHash(const std::string& hash) = 0;
  /// Every token, oldest first.
  virtual std::vector<TokenRecord> tokens() = 0;
  /// Revokes the token named `name`; false when there is none (or it was revoked).
  virtual bool revokeToken(const std::string& name) = 0;

  /// The remembered approvals.
  virtual std::shared_ptr<ApprovalRepository> approvals() = 0;
  /// Every remembered approval, for listing.
  virtual ApprovalListing listApprovals() = 0;
  /// Forgets the remembered approvals that grant what `grant` grants
  /// (ApprovalEntry::sameGrant); returns how many.
  virtual size_t removeApproval(const ApprovalEntry& grant) = 0;

  // Browser sessions (the web queue), kept by the hash of the cookie's secret.
  /// Records a new session. A store that compares times on its own clock
  /// (the database's) sets `created` to its now and `expires` to that plus
  /// the lifetime asked (expires - created), so that the instance's clock
  /// never shortens or stretches it.
  virtual void createSession(const std::string& hash, SessionRecord& session) = 0;
  /// The session with this hash; nullopt when there is none or it expired.
  virtual std::optional<SessionRecord> sessionByHash(const std::string& hash) = 0;
  /// Ends a session (signing out); nothing when there is none.
  virtual void deleteSession(const std::string& hash) = 0;
  /// Deletes the sessions that have expired (by the store's clock: the
  /// database's on PostgreSQL); returns how many.
  virtual size_t pruneSessions() = 0;

  /// What the agents' sessions saw (the labels of their calls), kept as
  /// `settings` say (its dir is the store's own): every instance sees them.
  virtual std::shared_ptr<SessionRepository> agentSessions(const SessionStoreOptions& settings) = 0;

  /// Where decisions are recorded; a write returns once the record is kept.
  virtual std::shared_ptr<AuditSink> audit() = 0;
  /// Calls `kept` with each audit line this process keeps from now on
  /// (chained, in the order kept), from the thread that kept it; it must
  /// not block. Set before serving.
  virtual void onKeptAudit(std::function<void(const std::string& line)> kept) = 0;
  /// Records that match, oldest first (see readAuditLog): the newest
  /// `query.last`, read from the newest back, never the whole audit.
  virtual std::vector<nlohmann::json> queryAudit(const AuditQuery& query) = 0;
  /// Walks the audit's hash chain (toolguard/audit_chain.hpp); `expected_head`
  /// (optional) must still be in it.
  virtual AuditChainReport verifyAudit(const std::string& expected_head) = 0;

  // Asks.
  /// Records a new pending ask; its `created` and `expires` as createSession
  /// sets a session's.
  virtual void createAsk(AskRecord& ask) = 0;
  /// The ask with this id (past its expiry it reads as expired), or nullopt.
  virtual std::optional<AskRecord> findAsk(const std::string& id) = 0;
  /// Asks in `state` (every state when nullopt), oldest first, at most `limit`.
  virtual std::vector<AskRecord> listAsks(std::optional<AskState> state, size_t limit) = 0;
  /// Pending asks made with the token named `token`.
  virtual size_t pendingAsksOf(const std::string& token) = 0;
  /// Records the answer when the ask is still pending, not expired and (when
  /// watched) its waiting request's heartbeat is fresh: the first answer
  /// wins, on every instance. A watched ask found stale is marked expired
  /// (kAskAskerGone) and not answered.
  virtual AnswerResult answerAsk(const std::string& id, const nlohmann::json& answer) = 0;
  /// Marks a pending ask expired, for the reason `ended` (kAskTimedOut or
  /// kAskAskerGone); false when it was answered first.
  virtual bool expireAsk(const std::string& id, const std::string& ended) = 0;
  /// The request waiting for a watched ask still waits: it stays answerable
  /// for kAskStaleAfter more. False when the ask is no longer pending or
  /// its last heartbeat was already stale (it never comes back).
  virtual bool heartbeatAsk(const std::string& id) = 0;
  /// Deletes the asks that were answered or expired more than `kept_for`
  /// ago (by the store's clock; the audit keeps what was answered); returns
  /// how many.
  virtual size_t pruneAsks(std::chrono::seconds kept_for) = 0;
  /// Waits until the ask is no longer pending, or until `deadline`; returns
  /// it as it then is (nullopt: no such ask). An answer given through any
  /// instance wakes the waiter at once.
  virtual std::optional<AskRecord> waitForAsk(const std::string& id,
                                              std::chrono::steady_clock::time_point deadline) = 0;
};

/// The hash a token is kept under (SHA-256, hex).
std::string tokenHash(const std::string& token);

/// A new secret token: "tg_" and 43 random URL-safe characters (256 bits).
std::string newToken();

/// The store `url` names: "file" (or "") for the files under `home`, a
/// "postgresql://" or "postgres://" URL for PostgreSQL (migrated to the
/// newest schema on open). Throws StoreError.
std::unique_ptr<ServiceStore> openStore(const std::string& url, const std::string& home);

}  // namespace toolguard::store
