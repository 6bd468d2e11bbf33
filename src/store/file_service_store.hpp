#pragma once
// Internal: the embedded store of `toolguard serve`: the files under
// TOOLGUARD_HOME that `toolguard check` already uses (approvals/, audit.jsonl)
// and serve/ beside them: tokens.json, one file per ask and one per browser
// session (sessions/). For one machine:
// several instances on it share the files; an answer wakes a waiter in the
// same process at once and one in another process within 50 ms.

#include <condition_variable>
#include <mutex>

#include "service_store.hpp"

namespace toolguard::store {

/// The files under one home directory.
class FileServiceStore : public ServiceStore {
 public:
  explicit FileServiceStore(std::string home);

  std::string describe() const override;
  bool local() const override { return true; }
  void addToken(const TokenRecord& token, const std::string& hash) override;
  std::optional<TokenRecord> tokenByHash(const std::string& hash) override;
  std::vector<TokenRecord> tokens() override;
  bool revokeToken(const std::string& name) override;
  std::shared_ptr<ApprovalRepository> approvals() override { return approvals_; }
  ApprovalListing listApprovals() override { return approvals_->list(); }
  size_t removeApproval(const ApprovalEntry& grant) override;
  void createSession(const std::string& hash, SessionRecord& session) override;
  std::optional<SessionRecord> sessionByHash(const std::string& hash) override;
  void deleteSession(const std::string& hash) override;
  size_t pruneSessions() override;
  std::shared_ptr<SessionRepository> agentSessions(const SessionStoreOptions& settings) override;
  std::shared_ptr<AuditSink> audit() override { return audit_; }
  void onKeptAudit(std::function<void(const std::string& line)> kept) override {
    audit_->onKept(std::move(kept));
  }
  std::vector<nlohmann::json> queryAudit(const AuditQuery& query) override;
  AuditChainReport verifyAudit(const std::string& expected_head) override;
  void createAsk(AskRecord& ask) override;
  std::optional<AskRecord> findAsk(const std::string& id) override;
  std::vector<AskRecord> listAsks(std::optional<AskState> state, size_t limit) override;
  size_t pendingAsksOf(const std::string& token) override;
  AnswerResult answerAsk(const std::string& id, const nlohmann::json& answer) override;
  bool expireAsk(const std::string& id, const std::string& ended) override;
  bool heartbeatAsk(const std::string& id) override;
  size_t pruneAsks(std::chrono::seconds kept_for) override;
  std::optional<AskRecord> waitForAsk(const std::string& id,
                                      std::chrono::steady_clock::time_point deadline) override;

 private:
  // Links `outcome` as the ask's one outcome file; false when one was there.
  bool settle(const std::string& id, const nlohmann::json& outcome);
  std::string askPath(const std::string& id) const;
  // The waiting request touched ID.alive within kAskStaleAfter.
  bool aliveFresh(const std::string& id) const;
  nlohmann::json readTokens() const;
  void writeTokens(const nlohmann::json& tokens) const;

  std::string home_;
  std::string dir_;  // HOME/serve
  std::shared_ptr<ApprovalStore> approvals_;
  std::shared_ptr<AuditLog> audit_;
  std::mutex mutex_;
  std::condition_variable settled_;
};

}  // namespace toolguard::store
