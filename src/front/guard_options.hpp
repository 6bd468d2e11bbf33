#pragma once
// Options of the sub-commands that settle asks and write the audit log
// (check), and the Guard built from them.

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "front/policy_options.hpp"
#include "toolguard/guard.hpp"

namespace toolguard::front {

/// --home, --prompt, --approval-timeout, --audit-log, --no-audit.
struct GuardCliOptions {
  std::string home;     ///< --home DIR (else $TOOLGUARD_HOME, else ~/.toolguard)
  bool prompt = false;  ///< ask on the terminal instead of reporting ask
  int approval_timeout_s = 300;
  std::string audit_log;  ///< --audit-log FILE (else HOME/audit.jsonl)
  bool no_audit = false;
};

/// The audit log file the options name.
std::string auditLogPath(const GuardCliOptions& options);

/// The approval store, the approval timeout and the audit log the options
/// name. Throws AuditLogError or ApprovalStoreError when they cannot be set up.
GuardOptions baseGuardOptions(const GuardCliOptions& options);
/// The LLM validator for calls judged under `policy` (its `llm:` section and
/// the TOOLGUARD_LLM_* variables), with the built-in skills and those of the
/// user's and the trusted projects' guard-skills directories; nullptr when
/// it is off. `cache` may be null. Throws LlmSettingsError or PolicyError.
std::shared_ptr<const LlmValidator> llmValidatorFor(
    const Policy& policy, const std::vector<std::filesystem::path>& project_roots,
    const std::string& toolguard_home, std::shared_ptr<LlmVerdictCache> cache);

/// Builds Guards for engines, one per engine, sharing the store, the log and
/// the approval handler: the one place a surface gets its Guards (the
/// command, the C API). Thread-safe.
class GuardProvider {
 public:
  /// For a process that lives for one call (the command): session
  /// approvals, rate-limit windows, LLM verdicts and what sessions saw kept
  /// in files under the home; --prompt asks on the terminal, else ask is reported. Throws
  /// AuditLogError or ApprovalStoreError when they cannot be set up.
  explicit GuardProvider(const GuardCliOptions& options);

  /// Over `base` (store, audit log, handler, timeouts); toolguard's home
  /// `home` holds the guard skills; LLM verdicts are kept in `llm_cache`
  /// (may be null); what sessions saw is kept in memory, unless `base` has
  /// a session repository.
  GuardProvider(std::string home, GuardOptions base, std::shared_ptr<LlmVerdictCache> llm_cache);

  /// The Guard for decisions of `project`'s engine (which must outlive the
  /// provider), with the LLM validator its policy and the environment
  /// configure. Throws LlmSettingsError for a bad TOOLGUARD_LLM_* variable
  /// and PolicyError for a broken guard skill.
  std::shared_ptr<Guard> forProject(const ProjectEngine& project);

  /// Every Guard asks `handler` from now on (nullptr: nobody, asks are
  /// reported), keeping its session approvals and rate-limit counts.
  void setApprovalHandler(std::shared_ptr<ApprovalHandler> handler);

  /// The audit log every Guard writes (nullptr with --no-audit), for
  /// decisions made without a Guard (malformed input, a broken policy).
  std::shared_ptr<AuditSink> auditLog() const { return options_.audit_log; }

 private:
  std::string home_;
  GuardOptions options_;
  std::shared_ptr<LlmVerdictCache> llm_cache_;
  /// Where a command keeps sessions, one file each, as each policy's
  /// `sessions:` says ("": in base's repository).
  std::string sessions_dir_;
  /// Keep sessions in memory, per project as its policy says (base had no
  /// repository of its own).
  bool sessions_in_memory_ = false;
  std::mutex mutex_;
  std::map<const Engine*, std::shared_ptr<Guard>> guards_;
};

}  // namespace toolguard::front
