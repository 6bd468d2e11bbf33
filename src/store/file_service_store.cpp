// The embedded store: approvals and audit as `toolguard check` keeps them,
// tokens in serve/tokens.json, asks in serve/asks/ID.json with their one
// outcome (an answer, or "expired") in ID.outcome, linked into place so
// that the first outcome wins across threads and processes.
#include "file_service_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "approval/store_file_io.hpp"
#include "audit/audit_detail.hpp"
#include "core/random_bytes.hpp"
#include "token_names.hpp"

namespace toolguard::store {
namespace {

using Clock = std::chrono::system_clock;

// Ask ids come from requests: only what newDecisionId makes names a file.
bool validAskId(const std::string& id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

std::optional<nlohmann::json> readJson(const std::string& path) {
  std::optional<detail::FileContents> contents;
  try {
    contents = detail::readStoreFile(path);
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
  if (!contents) return std::nullopt;
  nlohmann::json value = nlohmann::json::parse(contents->bytes, nullptr, false);
  if (value.is_discarded()) throw StoreError(path + ": not JSON");
  return value;
}

AskRecord askFrom(const nlohmann::json& j) {
  AskRecord a;
  a.id = j.value("id", "");
  a.call = j.value("call", nlohmann::json::object());
  a.decision = j.value("decision", nlohmann::json::object());
  a.offer = j.value("offer", nlohmann::json::object());
  a.created = j.value("created", "");
  a.expires = j.value("expires", "");
  a.token = j.value("agent", "");
  a.owner = j.value("owner", "");
  a.watched = j.value("watched", false);
  return a;
}

bool pastExpiry(const AskRecord& ask) {
  std::optional<Clock::time_point> expires = parseAuditTime(ask.expires);
  return !expires || Clock::now() >= *expires;  // unreadable: treated as expired (closed)
}

}  // namespace

FileServiceStore::FileServiceStore(std::string home)
    : home_(std::move(home)),
      dir_(home_ + "/serve"),
      approvals_(std::make_shared<ApprovalStore>(home_)),
      audit_(std::make_shared<AuditLog>(
          auditLogOptionsFromEnvironment(AuditLogOptions{home_ + "/audit.jsonl"}))) {
  try {
    detail::makeDirectories(dir_ + "/asks");
    detail::makeDirectories(dir_ + "/sessions");
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

std::string FileServiceStore::describe() const {
  return "file " + home_;
}

nlohmann::json FileServiceStore::readTokens() const {
  std::optional<nlohmann::json> tokens = readJson(dir_ + "/tokens.json");
  if (!tokens) return nlohmann::json::array();
  if (!tokens->is_object() || !(*tokens)["tokens"].is_array()) {
    throw StoreError(dir_ + "/tokens.json: expected {\"tokens\": [...]}");
  }
  return (*tokens)["tokens"];
}

void FileServiceStore::writeTokens(const nlohmann::json& tokens) const {
  try {
    detail::replaceFileAtomically(dir_ + "/tokens.json",
                                  nlohmann::json{{"tokens", tokens}}.dump(2) + "\n");
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

void FileServiceStore::addToken(const TokenRecord& token, const std::string& hash) {
  if (std::string problem = tokenNameProblem(token.name); !problem.empty()) {
    throw StoreError(problem);
  }
  detail::ScopeFileLock lock(dir_ + "/tokens.json");
  nlohmann::json tokens = readTokens();
  for (const nlohmann::json& t : tokens) {
    if (t.value("name", "") == token.name) {
      throw StoreError("a token named '" + token.name + "' exists (revoke it first)");
    }
  }
  tokens.push_back({{"name", token.name},
                    {"role", toString(token.role)},
                    {"created", token.created},
                    {"revoked", false},
                    {"owner", token.owner},
                    {"sha256", hash}});
  writeTokens(tokens);
}

namespace {
TokenRecord tokenFrom(const nlohmann::json& t) {
  TokenRecord r;
  r.name = t.value("name", "");
  // An unknown role grants the least.
  r.role = parseTokenRole(t.value("role", "")).value_or(TokenRole::Agent);
  r.created = t.value("created", "");
  r.revoked = t.value("revoked", true);
  r.owner = t.value("owner", "");
  r.hash = t.value("sha256", "");
  return r;
}
}  // namespace

std::optional<TokenRecord> FileServiceStore::tokenByHash(const std::string& hash) {
  for (const nlohmann::json& t : readTokens()) {
    if (t.is_object() && t.value("sha256", "") == hash) return tokenFrom(t);
  }
  return std::nullopt;
}

std::vector<TokenRecord> FileServiceStore::tokens() {
  std::vector<TokenRecord> out;
  for (const nlohmann::json& t : readTokens()) {
    if (t.is_object()) out.push_back(tokenFrom(t));
  }
  return out;
}

bool FileServiceStore::revokeToken(const std::string& name) {
  detail::ScopeFileLock lock(dir_ + "/tokens.json");
  nlohmann::json tokens = readTokens();
  bool changed = false;
  for (nlohmann::json& t : tokens) {
    if (t.value("name", "") == name && !t.value("revoked", false)) {
      t["revoked"] = true;
      changed = true;
    }
  }
  if (changed) writeTokens(tokens);
  return changed;
}

std::vector<nlohmann::json> FileServiceStore::queryAudit(const AuditQuery& query) {
  try {
    return readAuditLog(audit_->options().path, query);
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

AuditChainReport FileServiceStore::verifyAudit(const std::string& expected_head) {
  try {
    return verifyAuditLog(audit_->options().path, expected_head);
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

size_t FileServiceStore::removeApproval(const ApprovalEntry& grant) {
  try {
    return approvals_
        ->remove(grant.scope, grant.scope_id,
                 [&](const ApprovalEntry& e) { return e.sameGrant(grant); })
        .size();
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

// Agents' sessions: the files of toolguard/session_state.hpp in serve/agent-sessions.
std::shared_ptr<SessionRepository> FileServiceStore::agentSessions(
    const SessionStoreOptions& settings) {
  SessionStoreOptions kept = settings;
  kept.dir = dir_ + "/agent-sessions";
  return std::make_shared<SessionStore>(std::move(kept));
}

// Sessions: serve/sessions/HASH.json, made 0600 like every store file.
void FileServiceStore::createSession(const std::string& hash, SessionRecord& session) {
  if (!validAskId(hash)) throw StoreError("a session hash must be hex");
  try {
    detail::replaceFileAtomically(dir_ + "/sessions/" + hash + ".json",
                                  nlohmann::json{{"token_sha256", session.token_hash},
                                                 {"csrf", session.csrf},
                                                 {"created", session.created},
                                                 {"expires", session.expires}}
                                          .dump() +
                                      "\n");
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

std::optional<SessionRecord> FileServiceStore::sessionByHash(const std::string& hash) {
  if (!validAskId(hash)) return std::nullopt;
  std::optional<nlohmann::json> j = readJson(dir_ + "/sessions/" + hash + ".json");
  if (!j || !j->is_object()) return std::nullopt;
  SessionRecord s{j->value("token_sha256", ""), j->value("csrf", ""), j->value("created", ""),
                  j->value("expires", "")};
  std::optional<Clock::time_point> expires = parseAuditTime(s.expires);
  if (!expires || Clock::now() >= *expires || s.token_hash.empty() || s.csrf.empty()) {
    return std::nullopt;
  }
  return s;
}

void FileServiceStore::deleteSession(const std::string& hash) {
  if (validAskId(hash)) unlink((dir_ + "/sessions/" + hash + ".json").c_str());
}

size_t FileServiceStore::pruneSessions() {
  const Clock::time_point before = Clock::now();
  size_t removed = 0;
  DIR* dir = opendir((dir_ + "/sessions").c_str());
  if (dir == nullptr) throw StoreError(dir_ + "/sessions: " + std::strerror(errno));
  std::vector<std::string> names;
  while (dirent* e = readdir(dir)) {
    if (std::string name = e->d_name; name.ends_with(".json")) names.push_back(name);
  }
  closedir(dir);
  for (const std::string& name : names) {
    const std::string path = dir_ + "/sessions/" + name;
    std::optional<nlohmann::json> j;
    try {
      j = readJson(path);
    } catch (const StoreError&) {
      continue;  // unreadable: grants nothing; left for a person to look at
    }
    std::optional<Clock::time_point> expires =
        j && j->is_object() ? parseAuditTime(j->value("expires", "")) : std::nullopt;
    if (expires && *expires < before && unlink(path.c_str()) == 0) ++removed;
  }
  return removed;
}

std::string FileServiceStore::askPath(const std::string& id) const {
  return dir_ + "/asks/" + id;
}

void FileServiceStore::createAsk(AskRecord& ask) {
  if (!validAskId(ask.id)) throw StoreError("an ask id must be hex: '" + ask.id + "'");
  nlohmann::json j = toJson(ask);
  j.erase("state");
  j["watched"] = ask.watched;
  try {
    // The heartbeat first: a watched ask is never seen without one.
    if (ask.watched) detail::replaceFileAtomically(askPath(ask.id) + ".alive", "");
    detail::replaceFileAtomically(askPath(ask.id) + ".json", j.dump() + "\n");
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

std::optional<AskRecord> FileServiceStore::findAsk(const std::string& id) {
  if (!validAskId(id)) return std::nullopt;
  std::optional<nlohmann::json> j = readJson(askPath(id) + ".json");
  if (!j) return std::nullopt;
  AskRecord ask = askFrom(*j);
  std::optional<nlohmann::json> outcome = readJson(askPath(id) + ".outcome");
  if (outcome && outcome->value("expired", false)) {
    ask.state = AskState::Expired;
    ask.ended = outcome->value("ended", kAskTimedOut);
  } else if (outcome) {
    ask.state = AskState::Answered;
    ask.answer = *outcome;
  } else if (pastExpiry(ask)) {
    ask.state = AskState::Expired;
    ask.ended = kAskTimedOut;
  } else if (ask.watched && !aliveFresh(id)) {
    ask.state = AskState::Expired;
    ask.ended = kAskAskerGone;
  }
  return ask;
}

std::vector<AskRecord> FileServiceStore::listAsks(std::optional<AskState> state, size_t limit) {
  std::vector<std::string> ids;
  if (DIR* dir = opendir((dir_ + "/asks").c_str())) {
    while (dirent* e = readdir(dir)) {
      std::string name = e->d_name;
      if (name.ends_with(".json")) ids.push_back(name.substr(0, name.size() - 5));
    }
    closedir(dir);
  } else {
    throw StoreError(dir_ + "/asks: " + std::strerror(errno));
  }
  std::vector<AskRecord> out;
  for (const std::string& id : ids) {
    std::optional<AskRecord> ask = findAsk(id);
    if (ask && (!state || ask->state == *state)) out.push_back(std::move(*ask));
  }
  std::sort(out.begin(), out.end(), [](const AskRecord& a, const AskRecord& b) {
    return a.created != b.created ? a.created < b.created : a.id < b.id;
  });
  if (limit > 0 && out.size() > limit) out.erase(out.begin(), out.end() - limit);
  return out;
}

size_t FileServiceStore::pendingAsksOf(const std::string& token) {
  size_t n = 0;
  for (const AskRecord& ask : listAsks(AskState::Pending, 0)) n += ask.token == token;
  return n;
}

bool FileServiceStore::settle(const std::string& id, const nlohmann::json& outcome) {
  const std::string target = askPath(id) + ".outcome";
  const std::string temporary = target + ".tmp." + detail::randomHex(8);
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(temporary + ": " + std::strerror(errno));
  const std::string text = outcome.dump() + "\n";
  const bool written =
      ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && fsync(fd) == 0;
  close(fd);
  if (!written) {
    unlink(temporary.c_str());
    throw StoreError(target + ": could not be written");
  }
  // link() never replaces: of two outcomes, the first linked is the one.
  const int linked = link(temporary.c_str(), target.c_str());
  const int error = errno;
  unlink(temporary.c_str());
  if (linked != 0 && error != EEXIST) {
    throw StoreError(target + ": " + std::strerror(error));
  }
  if (linked == 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    settled_.notify_all();
  }
  return linked == 0;
}

AnswerResult FileServiceStore::answerAsk(const std::string& id, const nlohmann::json& answer) {
  std::optional<AskRecord> ask = findAsk(id);
  if (!ask) return {};
  if (ask->state == AskState::Expired && ask->ended == kAskAskerGone) {
    expireAsk(id, kAskAskerGone);  // for good: a waiter that comes back finds it ended
    return {false, findAsk(id)};
  }
  if (ask->state != AskState::Pending) return {false, ask};
  if (!settle(id, answer)) return {false, findAsk(id)};
  ask->state = AskState::Answered;
  ask->answer = answer;
  return {true, ask};
}

bool FileServiceStore::expireAsk(const std::string& id, const std::string& ended) {
  if (!validAskId(id)) return false;
  return settle(
      id, {{"expired", true}, {"ended", ended}, {"at", detail::formatAuditTime(Clock::now())}});
}

bool FileServiceStore::aliveFresh(const std::string& id) const {
  struct stat st {};
  if (stat((askPath(id) + ".alive").c_str(), &st) != 0) return false;  // none: gone (closed)
  const auto touched = Clock::time_point(std::chrono::duration_cast<Clock::duration>(
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
  return Clock::now() - touched < kAskStaleAfter;
}

bool FileServiceStore::heartbeatAsk(const std::string& id) {
  std::optional<AskRecord> ask = findAsk(id);
  if (!ask || ask->state != AskState::Pending) return false;
  // Touched only while fresh (findAsk said so): a stale ask never comes back.
  if (utimensat(AT_FDCWD, (askPath(id) + ".alive").c_str(), nullptr, 0) != 0) {
    throw StoreError(askPath(id) + ".alive: " + std::strerror(errno));
  }
  return true;
}

size_t FileServiceStore::pruneAsks(std::chrono::seconds kept_for) {
  const Clock::time_point before = Clock::now() - kept_for;
  size_t removed = 0;
  for (const AskRecord& ask : listAsks(std::nullopt, 0)) {
    if (ask.state == AskState::Pending) continue;
    std::optional<Clock::time_point> expires = parseAuditTime(ask.expires);
    if (expires && *expires >= before) continue;
    // The outcome goes last: an ask without its outcome file reads as pending
    // only until its expiry, which has passed.
    unlink((askPath(ask.id) + ".json").c_str());
    unlink((askPath(ask.id) + ".alive").c_str());
    unlink((askPath(ask.id) + ".outcome").c_str());
    ++removed;
  }
  return removed;
}

std::optional<AskRecord> FileServiceStore::waitForAsk(
    const std::string& id, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    std::optional<AskRecord> ask = findAsk(id);
    if (!ask || ask->state != AskState::Pending) return ask;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return ask;
    // Woken at once by an answer in this process; another process's answer
    // is seen at the next look.
    std::unique_lock<std::mutex> lock(mutex_);
    settled_.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(50)));
  }
}

}  // namespace toolguard::store
