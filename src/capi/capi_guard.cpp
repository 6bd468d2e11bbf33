// The guard behind tg_guard: engines per project (the project layer depends
// on the call's cwd), one Guard per engine, the call's JSON in and the
// decision out. Every failure becomes a deny or an error value.
#include <filesystem>
#include <stdexcept>

#include "capi/capi_types.hpp"
#include "cli/call_json.hpp"
#include "cli/guard_options.hpp"
#include "toolguard/approval_store.hpp"

namespace {

using namespace toolguard;

cli::GuardCliOptions cliOptionsOf(const GuardSettings& s) {
  cli::GuardCliOptions o;
  o.home = s.home;
  o.no_audit = !s.audit;
  o.audit_log = s.audit_log;
  return o;
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  std::filesystem::path full = std::filesystem::absolute(path, ec);
  return ec ? path : full.lexically_normal().string();
}

cli::PolicyOptions policyOptionsOf(const GuardSettings& s) {
  cli::PolicyOptions policy = s.policy;
  // The approvals and the audit log of a chosen home are guarded like the
  // default's, and so are the guard's own policy files and audit log, wherever
  // they are: an agent that rewrites them rewrites its own limits.
  if (!s.home.empty()) policy.guarded_dirs.push_back(s.home);
  if (!s.audit_log.empty()) policy.guarded_dirs.push_back(absolute(s.audit_log));
  for (const std::string& file : s.policy.policy_files) {
    policy.guarded_dirs.push_back(absolute(file));
  }
  return policy;
}

// A decision for a call that could not be judged: deny, saying why.
Decision failureDecision(const std::string& reason) {
  Decision d = cli::inputErrorDecision("");
  d.reason = reason;
  d.model_reason = "Blocked by toolguard: " + reason;
  return d;
}

// A decision made without a Guard (a deny already), written to the audit log
// as the record `make` gives it; a failed write is added to its reason.
template <typename MakeRecord>
Decision audited(tg_guard& guard, Decision d, MakeRecord make) {
  if (!guard.base.audit_log) return d;
  try {
    guard.base.audit_log->writeRecord(make(d, std::chrono::system_clock::now()));
  } catch (const std::exception& e) {
    d.reason += std::string("; the audit log could not be written: ") + e.what();
  }
  return d;
}

// The audit record of a call that was read.
auto recordOf(const ToolCall& call) {
  return [&call](const Decision& d, auto now) { return auditRecord(call, d, now); };
}

}  // namespace

tg_guard::tg_guard(GuardSettings given)
    : settings(std::move(given)),
      base(cli::baseGuardOptions(cliOptionsOf(settings))),
      home(toolguardHome(settings.home)),
      engines(policyOptionsOf(settings)) {
  base.approval_timeout = settings.approval_timeout;
  chooseAsker(*this, nullptr, nullptr);
  // Load the policy now, so a broken file is tg_guard_new's error.
  engines.forCwd(settings.cwd.empty() ? cli::currentDirectory() : settings.cwd);
}

void chooseAsker(tg_guard& guard, tg_ask_fn asker, void* user_data) {
  if (asker != nullptr) {
    guard.base.approval_handler = cAskerHandler(asker, user_data);
  } else if (!guard.settings.ask_server_url.empty()) {
    guard.base.approval_handler =
        remoteApprovalHandler(guard.settings.ask_server_url, guard.settings.ask_server_token);
  } else {
    guard.base.approval_handler = nullptr;
  }
  guard.base.report_ask = guard.base.approval_handler == nullptr;  // nobody: the caller asks
}

void setError(tg_error** error, std::string message) {
  if (error != nullptr) *error = new tg_error{std::move(message)};
}

std::shared_ptr<Guard> guardFor(tg_guard& guard, const std::string& cwd) {
  std::lock_guard lock(guard.mutex);
  const cli::ProjectEngine& project = guard.engines.forCwd(cwd);
  std::shared_ptr<Guard>& slot = guard.guards[&project.engine];
  if (!slot) {
    GuardOptions options = guard.base;
    options.llm_validator = cli::llmValidatorFor(project.engine.policy(), project.project_roots,
                                                 guard.home, memoryLlmVerdictCache());
    slot = std::make_shared<Guard>(project.engine, std::move(options));
  }
  return slot;
}

Decision decideCallText(tg_guard& guard, std::string_view call_json, std::string& tool) {
  cli::ParsedCall parsed =
      cli::parseCallText(std::string(call_json), cli::CallFormat::Toolguard, guard.settings.cwd);
  // A call without a cwd, when the options name none either, is made where
  // the process is now (it may have changed directory since the guard was
  // made): read only then, not on every call.
  if (parsed.call && parsed.call->context.cwd.empty()) {
    parsed.call->context.cwd = cli::currentDirectory();
  }
  if (!parsed.call) {
    const MalformedCall input{std::string(call_json.substr(0, kMaxRecordedInputBytes)),
                              call_json.size() > kMaxRecordedInputBytes, call_json.size(),
                              parsed.error, "toolguard"};
    return audited(guard, cli::inputErrorDecision(parsed.error),
                   [&](const Decision& d, auto now) { return malformedCallRecord(input, d, now); });
  }
  const ToolCall& call = *parsed.call;
  tool = call.tool;
  try {
    return guardFor(guard, call.context.cwd)->decide(call);
  } catch (const PolicyError& e) {
    Decision d = failureDecision(std::string("the policy could not be loaded: ") + e.what());
    if (!e.errors().empty()) d.source = e.errors()[0].where;
    return audited(guard, std::move(d), recordOf(call));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return audited(guard, failureDecision(std::string("the call could not be judged: ") + e.what()),
                   recordOf(call));
  }
}
