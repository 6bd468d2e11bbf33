#pragma once
// Options of the sub-commands that settle asks and write the audit log
// (check), and the Guard built from them.

#include <filesystem>
#include <map>
#include <memory>
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
/// the prompt. Throws AuditLogError or ApprovalStoreError when they cannot
/// be set up.
class GuardProvider {
 public:
  explicit GuardProvider(const GuardCliOptions& options);

  /// The Guard for decisions of `project`'s engine (which must outlive the
  /// provider), with the LLM validator its policy and the environment
  /// configure. Throws LlmSettingsError for a bad TOOLGUARD_LLM_* variable
  /// and PolicyError for a broken guard skill.
  Guard& forProject(const ProjectEngine& project);

  /// The audit log every Guard writes (nullptr with --no-audit), for
  /// decisions made without a Guard (malformed input, a broken policy).
  std::shared_ptr<AuditSink> auditLog() const { return options_.audit_log; }

 private:
  std::string home_;
  GuardOptions options_;
  std::map<const Engine*, std::unique_ptr<Guard>> guards_;
};

}  // namespace toolguard::front
