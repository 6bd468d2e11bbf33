// The Guard of `toolguard check`: store, audit log and, with --prompt, the terminal.
#include "front/guard_options.hpp"

#include <csignal>

#include "toolguard/policy_loader.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::front {

std::string auditLogPath(const GuardCliOptions& options) {
  return options.audit_log.empty() ? toolguardHome(options.home) + "/audit.jsonl"
                                   : options.audit_log;
}

std::shared_ptr<const LlmValidator> llmValidatorFor(
    const Policy& policy, const std::vector<std::filesystem::path>& project_roots,
    const std::string& toolguard_home, std::shared_ptr<LlmVerdictCache> cache) {
  LlmSettings settings = applyLlmEnvironment(policy.llm);
  if (!settings.enabled) return nullptr;
  GuardSkillLibrary skills = loadGuardSkills(
      guardSkillDirectories(toolguard_home, project_roots, trustedProjects(policy)));
  return std::make_shared<const LlmValidator>(std::move(settings), std::move(skills),
                                              std::move(cache));
}

GuardOptions baseGuardOptions(const GuardCliOptions& cli) {
  GuardOptions options;
  options.store = std::make_shared<ApprovalStore>(toolguardHome(cli.home));
  options.approval_timeout = std::chrono::seconds(cli.approval_timeout_s);
  if (!cli.no_audit) {
    AuditLogOptions log;
    log.path = auditLogPath(cli);
    // Rotation and retention are the operator's (TOOLGUARD_AUDIT_MAX_BYTES,
    // TOOLGUARD_AUDIT_KEEP): the default keeps every rotated file.
    options.audit_log = std::make_shared<AuditLog>(auditLogOptionsFromEnvironment(std::move(log)));
  }
  return options;
}

GuardProvider::GuardProvider(const GuardCliOptions& cli)
    : home_(toolguardHome(cli.home)), options_(baseGuardOptions(cli)) {
  options_.store_session_approvals = true;  // one process per call: memory would forget
  // Likewise rate-limit windows (the file is touched only by limited calls)
  // and the LLM validator's answers.
  options_.rate_limit_store = fileRateLimitStore(home_);
  llm_cache_ = fileLlmVerdictCache(home_ + "/llm-verdicts");
  sessions_dir_ = home_ + "/sessions";
  if (cli.prompt) {
    // A terminal that hangs up mid-prompt must end in a printed deny, not
    // in death by SIGHUP (which an agent could read as "no objection").
    std::signal(SIGHUP, SIG_IGN);
    options_.approval_handler = terminalApprovalHandler();
  } else {
    options_.report_ask = true;
  }
}

GuardProvider::GuardProvider(std::string home, GuardOptions base,
                             std::shared_ptr<LlmVerdictCache> llm_cache)
    : home_(std::move(home)),
      options_(std::move(base)),
      llm_cache_(std::move(llm_cache)),
      sessions_in_memory_(!options_.sessions) {}

std::shared_ptr<Guard> GuardProvider::forProject(const ProjectEngine& project) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<Guard>& guard = guards_[&project.engine];
  if (!guard) {
    GuardOptions options = options_;
    const Policy& policy = project.engine.policy();
    options.llm_validator = llmValidatorFor(policy, project.project_roots, home_, llm_cache_);
    const SessionStoreOptions kept{sessions_dir_, policy.sessions.max_events,
                                   policy.sessions.expire_after};
    if (!sessions_dir_.empty()) {
      options.sessions = std::make_shared<SessionStore>(kept);
    } else if (sessions_in_memory_) {
      options.sessions = memorySessionRepository(kept);  // as the project's policy says
    }
    guard = std::make_shared<Guard>(project.engine, std::move(options));
  }
  return guard;
}

void GuardProvider::setApprovalHandler(std::shared_ptr<ApprovalHandler> handler) {
  std::lock_guard lock(mutex_);
  options_.approval_handler = std::move(handler);
  options_.report_ask = options_.approval_handler == nullptr;  // nobody: the caller asks
  for (auto& [engine, built] : guards_) {
    GuardOptions options = built->options();
    options.approval_handler = options_.approval_handler;
    options.report_ask = options_.report_ask;
    built = std::make_shared<Guard>(built->withOptions(std::move(options)));
  }
}

}  // namespace toolguard::front
