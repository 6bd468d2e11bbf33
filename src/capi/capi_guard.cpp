// The guard behind tg_guard: engines per project (the project layer depends
// on the call's cwd), one Guard per engine, the call's JSON in and the
// decision out. Every failure becomes a deny or an error value.
#include <filesystem>
#include <stdexcept>

#include "capi/capi_types.hpp"
#include "front/call_front.hpp"
#include "front/guard_options.hpp"
#include "toolguard/approval_store.hpp"

namespace {

using namespace toolguard;

front::GuardCliOptions cliOptionsOf(const GuardSettings& s) {
  front::GuardCliOptions o;
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

front::PolicyOptions policyOptionsOf(const GuardSettings& s) {
  front::PolicyOptions policy = s.policy;
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

}  // namespace

tg_guard::tg_guard(GuardSettings given)
    : settings(std::move(given)),
      base(front::baseGuardOptions(cliOptionsOf(settings))),
      home(toolguardHome(settings.home)),
      engines(policyOptionsOf(settings)) {
  base.approval_timeout = settings.approval_timeout;
  chooseAsker(*this, nullptr, nullptr);
  guards = std::make_unique<front::GuardProvider>(home, base, memoryLlmVerdictCache());
  // Load the policy now, so a broken file is tg_guard_new's error.
  engines.forCwd(settings.cwd.empty() ? front::currentDirectory() : settings.cwd);
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
  return guard.guards->forProject(guard.engines.forCwd(cwd));
}

Decision decideCallText(tg_guard& guard, std::string_view call_json, std::string& tool) {
  front::GuardSource guards;
  guards.audit_log = guard.base.audit_log;
  guards.guard_for = [&guard](const ToolCall& call) { return guardFor(guard, call.context.cwd); };
  front::InputOptions input;
  input.default_cwd = guard.settings.cwd;
  // A call without a cwd, when the options name none either, is made where
  // the process is now (it may have changed directory since the guard was
  // made): read only then, not on every call.
  input.adjust = [](ToolCall& call) {
    if (call.context.cwd.empty()) call.context.cwd = front::currentDirectory();
  };
  front::FrontDecision r = front::decideInput(std::string(call_json), input, guards);
  if (r.call) tool = r.call->tool;
  return std::move(r.decision);
}
