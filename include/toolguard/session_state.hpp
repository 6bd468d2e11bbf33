#pragma once
// What an agent's session has done, as the guard remembers it between calls:
// the calls it allowed (and the results it saw), each with the labels the
// policy gives it (untrusted input, sensitive data, an outward action, ...).
// A decision can then rest on earlier calls: "after a web page and a key
// read, a send asks". Kept in files under toolguard's home beside the
// approvals, bounded in size, expired after a time, and safe when several
// hook processes of one session write at once.

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "toolguard/tool_call.hpp"

namespace toolguard {

/// One call (or result) of a session, as remembered.
struct SessionEvent {
  std::chrono::system_clock::time_point at;
  std::string tool;                 ///< the tool called
  std::string summary;              ///< a short description for reasons ("WebFetch https://…")
  std::vector<std::string> labels;  ///< the labels the policy gave it
  std::string decision_id;          ///< the audit record of its decision, when there is one
};

/// What a session has seen: its remembered events, oldest first.
struct SessionState {
  std::vector<SessionEvent> events;
  /// The file could not be read as the store writes it (edited, torn by a
  /// crash): what the session saw is not known, so it is taken to have
  /// seen everything (holdsLabel is true for every label).
  bool unknown = false;

  /// True when an event carries `label` (or the state is unknown).
  bool holdsLabel(const std::string& label) const;
  /// Every label of every event.
  std::set<std::string> labels() const;
  /// The latest event carrying `label`, or nullptr.
  const SessionEvent* latestWith(const std::string& label) const;
  /// How many events came after `event` (one of events): 0 for the latest.
  size_t eventsAfter(const SessionEvent& event) const;
  /// Forgets the oldest events so that `keep` remain, except that for each
  /// label no kept event carries, the latest forgotten event carrying it
  /// stays (before the others): making many harmless calls never makes the
  /// session forget what it saw, only how long ago.
  void forgetOldest(size_t keep);
  /// The indices of the events forgetOldest(keep) keeps, oldest first.
  std::vector<size_t> eventsKept(size_t keep) const;
};

/// The labels the rule of two reads (the `labels:` of the built-in policy
/// give them; a policy may give them to more calls).
inline constexpr const char* kUntrustedLabel = "untrusted";
inline constexpr const char* kSensitiveLabel = "sensitive";
inline constexpr const char* kOutwardLabel = "outward";

/// Where a Guard remembers what sessions saw: files (SessionStore), memory
/// (memorySessionRepository), a service's database. Thread-safe.
class SessionRepository {
 public:
  virtual ~SessionRepository() = default;
  /// What the session `key` has seen (empty when nothing, or expired).
  /// Throws std::runtime_error when it cannot be read.
  virtual SessionState load(const std::string& key) const = 0;
  /// The same as load(), shared: what a Guard judges a call with. A
  /// repository that keeps sessions in memory hands out what it holds
  /// instead of a copy (it never changes a state it handed out).
  virtual std::shared_ptr<const SessionState> snapshot(const std::string& key) const {
    return std::make_shared<const SessionState>(load(key));
  }
  /// Remembers `event` for the session `key`. Throws std::runtime_error
  /// when it cannot be written.
  virtual void append(const std::string& key, const SessionEvent& event) = 0;
};

/// Where and how long sessions are kept.
struct SessionStoreOptions {
  std::filesystem::path dir;  ///< one file per session (toolguard's home/sessions)
  /// Events kept per session; older ones are dropped (their labels with them).
  size_t max_events = 256;
  /// A session whose latest event is older than this is forgotten.
  std::chrono::seconds expire_after = std::chrono::hours(12);
};

/// Sessions kept in files, one per session key. Appends from several
/// processes and threads at once are serialized by a lock on the session's
/// file; a reader never sees half an event.
class SessionStore final : public SessionRepository {
 public:
  explicit SessionStore(SessionStoreOptions options);

  /// The key of an agent's session: the agent and its own session id,
  /// written so that no two (agent, session) pairs share a key.
  static std::string keyOf(const std::string& agent, const std::string& session);

  /// What the session `key` has seen (empty when it has nothing, or it
  /// expired). Throws std::runtime_error naming the file when it cannot be
  /// read at all.
  SessionState load(const std::string& key) const override;

  /// Remembers `event` for the session `key`. Throws std::runtime_error
  /// naming the file when it cannot be written.
  void append(const std::string& key, const SessionEvent& event) override;

  const SessionStoreOptions& options() const { return options_; }

 private:
  struct LoadedFile;  // what load() last read (session_store.cpp)
  std::string fileOf(const std::string& key) const;
  bool appendableAsLoaded(const std::string& path) const;
  // Whether load() in this process last read `path` (so it existed).
  bool loadedHere(const std::string& path) const;
  SessionStoreOptions options_;
  // So that append() after load() in one process (a hook's check) need not
  // read the file again when nobody changed it in between.
  std::shared_ptr<LoadedFile> loaded_;
};

/// The key of a call's session in a SessionRepository: its context's
/// session_key when set (the hook formats set it), else
/// SessionStore::keyOf(agent, session); "" when the call names no session.
std::string sessionKeyOf(const ToolCall& call);

/// Remembers what a call's result gave its session (`labels`, from
/// ResultFindings::labels): nothing when there are none or the call names no
/// session. Throws when the memory cannot be written.
void rememberToolResult(SessionRepository& sessions, const ToolCall& call,
                        const std::vector<std::string>& labels);

/// Sessions kept in this process's memory (a C++ Guard or Agent, a
/// binding's guard): at most `max_sessions` of them (the least recently
/// used is forgotten first), each bounded and expired as `options` say
/// (its dir is not used).
std::shared_ptr<SessionRepository> memorySessionRepository(SessionStoreOptions options = {},
                                                           size_t max_sessions = 1024);

}  // namespace toolguard
