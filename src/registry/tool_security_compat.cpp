// The first C++ agent framework's security API over a Guard
// (toolguard/compat/tool_security.hpp).
#include <filesystem>
#include <iostream>

#include "toolguard/approval.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/compat/tool_security.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard::compat {
namespace {

ToolPolicy toToolPolicy(ToolSecurityPolicy policy) {
  switch (policy) {
    case ToolSecurityPolicy::ALLOW:
      return ToolPolicy::Allow;
    case ToolSecurityPolicy::CONFIRM:
      return ToolPolicy::Confirm;
    case ToolSecurityPolicy::DENY:
      return ToolPolicy::Deny;
  }
  return ToolPolicy::Deny;
}

// ALWAYS_ALLOW remembers the whole tool where that is offered (not for shell
// tools: there the exact call), in the global scope.
ApprovalAnswer answerOf(ConfirmResult result, const ApprovalRequest& request) {
  switch (result) {
    case ConfirmResult::ALLOW_ONCE:
      return {ApprovalOutcome::AllowOnce, 0, ApprovalScope::Session, "", true};
    case ConfirmResult::ALWAYS_ALLOW: {
      size_t option = 0;
      for (size_t i = 0; i < request.options.size(); ++i) {
        if (request.options[i].binding == ApprovalBinding::Tool) option = i;
      }
      return {ApprovalOutcome::AlwaysAllow, option, ApprovalScope::Global, "", true};
    }
    case ConfirmResult::DENY:
      break;
  }
  return {ApprovalOutcome::Deny, 0, ApprovalScope::Session, "the user declined", true};
}

// The paths a call names, by the catalog's path arguments of its tool.
std::vector<std::string> pathsOf(const ToolCall& call) {
  std::vector<std::string> paths;
  const ToolInfo tool = ToolCatalog::builtin().resolve(call.tool);
  const std::string home = homeDirectory();
  for (const std::string& name : tool.path_args) {
    auto it = call.args.find(name);
    if (it == call.args.end()) continue;
    std::vector<nlohmann::json> values =
        it->is_array() ? it->get<std::vector<nlohmann::json>>() : std::vector<nlohmann::json>{*it};
    for (const nlohmann::json& v : values) {
      if (v.is_string()) {
        paths.push_back(normalizePath(v.get<std::string>(), call.context.cwd, home));
      }
    }
  }
  return paths;
}

std::string workingDirectory() {
  std::error_code error;
  std::filesystem::path here = std::filesystem::current_path(error);
  return error ? "/" : here.string();
}

}  // namespace

ConfirmCallback stdinConfirmCallback(std::istream& in, std::ostream& out) {
  return [&in, &out](const std::string& tool, const nlohmann::json& args) {
    out << "Allow " << tool << " "
        << args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "? [y]es once / [a]lways / [n]o: " << std::flush;
    std::string line;
    if (!std::getline(in, line)) return ConfirmResult::DENY;
    if (line == "y" || line == "Y" || line == "yes") return ConfirmResult::ALLOW_ONCE;
    if (line == "a" || line == "A" || line == "always") return ConfirmResult::ALWAYS_ALLOW;
    return ConfirmResult::DENY;
  };
}

ConfirmCallback stdinConfirmCallback() {
  return stdinConfirmCallback(std::cin, std::cerr);
}

ToolSecurityManager::ToolSecurityManager(std::string home)
    : home_(home.empty() ? toolguardHome() : std::move(home)),
      cwd_(workingDirectory()),
      store_(std::make_shared<ApprovalStore>(home_)) {}

ToolSecurityManager::~ToolSecurityManager() = default;

void ToolSecurityManager::setToolPolicy(const std::string& tool, ToolSecurityPolicy policy) {
  std::lock_guard lock(mutex_);
  policies_[tool] = policy;
  guard_.reset();
}

void ToolSecurityManager::setDefaultPolicy(ToolSecurityPolicy policy) {
  std::lock_guard lock(mutex_);
  default_policy_ = policy;
  guard_.reset();
}

void ToolSecurityManager::setConfirmCallback(ConfirmCallback callback) {
  std::lock_guard lock(mutex_);
  confirm_ = std::move(callback);
  guard_.reset();
}

void ToolSecurityManager::setValidateArgs(ValidateArgsCallback callback) {
  std::lock_guard lock(mutex_);
  validate_args_ = std::move(callback);
  guard_.reset();
}

void ToolSecurityManager::setValidatePath(ValidatePathCallback callback) {
  std::lock_guard lock(mutex_);
  validate_path_ = std::move(callback);
  guard_.reset();
}

void ToolSecurityManager::setWorkingDirectory(std::string cwd) {
  std::lock_guard lock(mutex_);
  cwd_ = std::move(cwd);
}

bool ToolSecurityManager::isAlwaysAllowed(const std::string& tool) const {
  CallContext context;
  context.cwd = cwd_;
  for (const ApprovalEntry& entry : store_->lookup(context).entries) {
    if (entry.tool == tool && entry.binding == ApprovalBinding::Tool &&
        entry.scope == ApprovalScope::Global) {
      return true;
    }
  }
  return false;
}

void ToolSecurityManager::addAlwaysAllowed(const std::string& tool) {
  ApprovalEntry entry;
  entry.tool = tool;
  entry.binding = ApprovalBinding::Tool;
  entry.scope = ApprovalScope::Global;
  entry.note = "addAlwaysAllowed";
  store_->add(entry);
}

std::shared_ptr<Guard> ToolSecurityManager::guard() {
  std::lock_guard lock(mutex_);
  if (guard_) return guard_;
  PolicyBuilder builder;
  builder.profile("default");
  builder.defaultAction(toVerdict(toToolPolicy(default_policy_)));
  for (const auto& [name, policy] : policies_) {
    // DENY is a rule too: the default policy's asks must not soften it.
    if (policy == ToolSecurityPolicy::DENY) builder.deny(name, "tool " + name + " is denied");
    ToolInfo tool = ToolCatalog::builtin().resolve(name);
    tool.name = name;
    tool.policy = toToolPolicy(policy);
    builder.registerTool(std::move(tool));
  }
  if (validate_args_) {
    builder.validateArgs("*", "validateArgs", [check = validate_args_](const ToolCall& call) {
      std::string error;
      return check(call.tool, call.args, error)
                 ? ArgumentCheck::accept()
                 : ArgumentCheck::reject(error.empty() ? "the arguments were refused" : error);
    });
  }
  if (validate_path_) {
    builder.validateArgs("*", "validatePath", [check = validate_path_](const ToolCall& call) {
      for (const std::string& path : pathsOf(call)) {
        std::string error;
        if (!check(path, error)) {
          return ArgumentCheck::reject(error.empty() ? "the path " + path + " was refused" : error);
        }
      }
      return ArgumentCheck::accept();
    });
  }
  // The seed's default policy holds for every tool without one of its own:
  // the catalog's tool policies (write_file: allow) do not speak for it.
  if (default_policy_ != ToolSecurityPolicy::DENY) {
    for (const ToolInfo* known : ToolCatalog::builtin().all()) {
      if (policies_.count(known->name) != 0) continue;
      ToolInfo tool = *known;
      tool.policy = toToolPolicy(default_policy_);
      builder.registerTool(std::move(tool));
    }
  }
  GuardOptions options;
  options.store = store_;
  if (confirm_) {
    options.approval_handler =
        callbackApprovalHandler([confirm = confirm_](const ApprovalRequest& request) {
          return answerOf(confirm(request.call.tool, request.call.args), request);
        });
  }
  guard_ = std::make_shared<Guard>(Engine(builder.build()), std::move(options));
  return guard_;
}

Decision ToolSecurityManager::decide(const std::string& tool, const nlohmann::json& args) {
  ToolCall call;
  call.tool = tool;
  call.args = args;
  {
    std::lock_guard lock(mutex_);
    call.context.cwd = cwd_;
  }
  return guard()->decide(call);
}

bool ToolSecurityManager::checkToolCall(const std::string& tool, const nlohmann::json& args,
                                        std::string* reason) {
  Decision d = decide(tool, args);
  if (reason != nullptr) *reason = d.verdict == Verdict::Allow ? "" : d.reason;
  return d.verdict == Verdict::Allow;
}

}  // namespace toolguard::compat
