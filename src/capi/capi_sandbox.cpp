// tg_guard_run_sandboxed: a command run in the sandbox the guard's policy
// describes (include/toolguard/toolguard.h).
#include "capi_types.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/sandbox.hpp"
#include "toolguard/strict_json.hpp"

namespace {

using nlohmann::json;

// The request's strings at `field` (a list), checked.
std::vector<std::string> stringList(const json& request, const char* field) {
  std::vector<std::string> out;
  auto it = request.find(field);
  if (it == request.end()) return out;
  if (!it->is_array()) throw std::invalid_argument(std::string(field) + ": expected a list");
  for (const json& item : *it) {
    if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
      throw std::invalid_argument(std::string(field) + ": expected non-empty strings");
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

int tg_guard_run_sandboxed(tg_guard* guard, const char* request_json, tg_error** error) {
  if (guard == nullptr || request_json == nullptr) {
    setError(error, guard == nullptr ? "tg_guard_run_sandboxed: guard is NULL"
                                     : "tg_guard_run_sandboxed: request is NULL");
    return -1;
  }
  try {
    toolguard::StrictJson parsed = toolguard::parseStrictJson(request_json);
    if (!parsed.value || !parsed.value->is_object()) {
      throw std::invalid_argument(
          "request: " + (parsed.value ? std::string("expected an object") : parsed.error));
    }
    const json& request = *parsed.value;
    for (const auto& [key, value] : request.items()) {
      if (key != "command" && key != "workspaces" && key != "cwd" && key != "rule") {
        throw std::invalid_argument("request: unknown field \"" + key + "\"");
      }
    }
    toolguard::SandboxRequest run;
    run.command = stringList(request, "command");
    if (run.command.empty()) throw std::invalid_argument("command: expected a program");
    run.workspaces = stringList(request, "workspaces");
    std::string cwd = guard->settings.cwd;
    if (auto it = request.find("cwd"); it != request.end()) {
      if (!it->is_string()) throw std::invalid_argument("cwd: expected a string");
      cwd = it->get<std::string>();
    }
    if (cwd.empty()) cwd = toolguard::front::currentDirectory();
    if (run.workspaces.empty()) run.workspaces.push_back(cwd);
    run.home = toolguard::homeDirectory();
    run.cwd = cwd;
    std::string rule;
    if (auto it = request.find("rule"); it != request.end()) {
      if (!it->is_string()) throw std::invalid_argument("rule: expected a rule id");
      rule = it->get<std::string>();
    }
    toolguard::SandboxSettings settings;
    {
      std::lock_guard lock(guard->mutex);
      const toolguard::Policy& policy = guard->engines.forCwd(cwd).engine.policy();
      if (rule.empty()) {
        settings = toolguard::sandboxSettingsOf(policy);
      } else if (auto granted = toolguard::sandboxSettingsFor(policy, rule)) {
        settings = std::move(*granted);
      } else {
        throw std::invalid_argument("rule: the policy has no rule \"" + rule + "\"");
      }
    }
    toolguard::Expected<int> status = toolguard::runSandboxed(settings, run);
    if (!status) {
      setError(error, "tg_guard_run_sandboxed: " + status.error());
      return -1;
    }
    return *status;
  } catch (const std::exception& e) {
    setError(error, std::string("tg_guard_run_sandboxed: ") + e.what());
  } catch (...) {
    setError(error, "tg_guard_run_sandboxed: unknown error");
  }
  return -1;
}
