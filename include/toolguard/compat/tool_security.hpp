#pragma once
// The first C++ agent framework's security API, as a thin layer over
// toolguard: a program written against it compiles with this header and
// gets toolguard's decisions (its built-in protections, workspace-relative
// paths, a crash-safe always-allowed store) behind the same calls.
//
//   toolguard::compat::ToolSecurityManager security;
//   security.setDefaultPolicy(ToolSecurityPolicy::CONFIRM);
//   security.setToolPolicy("read_file", ToolSecurityPolicy::ALLOW);
//   security.setConfirmCallback(toolguard::compat::stdinConfirmCallback());
//   if (security.checkToolCall("write_file", args)) run(args);

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "toolguard/decision.hpp"
#include "toolguard/safe_shell_arg.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {
class Guard;
class ApprovalStore;
}  // namespace toolguard

namespace toolguard::compat {

/// A tool's policy: run it, ask first, or never run it.
enum class ToolSecurityPolicy { ALLOW, CONFIRM, DENY };

/// What the person answered to a confirmation.
enum class ConfirmResult { ALLOW_ONCE, ALWAYS_ALLOW, DENY };

/// Asks a person about one call (tool name, arguments).
using ConfirmCallback =
    std::function<ConfirmResult(const std::string& tool_name, const nlohmann::json& args)>;

/// Checks a call's arguments: false (with `error` set) refuses the call.
using ValidateArgsCallback = std::function<bool(const std::string& tool_name,
                                                const nlohmann::json& args, std::string& error)>;

/// Checks one path a call names, made absolute against the call's working
/// directory: false (with `error` set) refuses the call.
using ValidatePathCallback = std::function<bool(const std::string& path, std::string& error)>;

/// A confirm callback that prints the call to `out` and reads y (once),
/// a (always) or anything else (deny) from `in`; end of input denies.
ConfirmCallback stdinConfirmCallback(std::istream& in, std::ostream& out);
/// The same on the process's standard input and standard error.
ConfirmCallback stdinConfirmCallback();

/// Per-tool policies, a default, a confirm callback, argument and path
/// hooks and the always-allowed store, decided by a toolguard Guard on the
/// built-in default policy. Thread-safe.
class ToolSecurityManager {
 public:
  /// Always-allowed tools are kept in `home` (toolguard's approval store:
  /// HOME/approvals/global.json, which also reads {"version": 1,
  /// "allowed_tools": [...]}); empty: toolguardHome().
  explicit ToolSecurityManager(std::string home = "");
  ~ToolSecurityManager();

  void setToolPolicy(const std::string& tool_name, ToolSecurityPolicy policy);
  /// The policy of tools with none of their own (CONFIRM when never set).
  /// DENY makes the tool policies an allow-list.
  void setDefaultPolicy(ToolSecurityPolicy policy);
  /// Who confirms; without one, CONFIRM denies (fail closed).
  void setConfirmCallback(ConfirmCallback callback);
  void setValidateArgs(ValidateArgsCallback callback);
  void setValidatePath(ValidatePathCallback callback);
  /// The directory relative paths of calls are resolved against.
  void setWorkingDirectory(std::string cwd);

  /// Whether a value can be pasted into a shell command as one word.
  static bool isSafeShellArg(const std::string& value) { return toolguard::isSafeShellArg(value); }

  /// Whether a person chose ALWAYS_ALLOW for the tool (kept in the store).
  bool isAlwaysAllowed(const std::string& tool_name) const;
  /// Remembers the tool as always allowed (what ALWAYS_ALLOW does).
  void addAlwaysAllowed(const std::string& tool_name);

  /// Whether the call may run; `reason` (when given) says why not. Asks the
  /// confirm callback when the decision is ask.
  bool checkToolCall(const std::string& tool_name, const nlohmann::json& args,
                     std::string* reason = nullptr);
  /// The whole toolguard decision for the call.
  Decision decide(const std::string& tool_name, const nlohmann::json& args);

 private:
  std::shared_ptr<Guard> guard();

  mutable std::mutex mutex_;
  std::string home_;
  std::string cwd_;
  std::map<std::string, ToolSecurityPolicy> policies_;
  ToolSecurityPolicy default_policy_ = ToolSecurityPolicy::CONFIRM;
  ConfirmCallback confirm_;
  ValidateArgsCallback validate_args_;
  ValidatePathCallback validate_path_;
  std::shared_ptr<ApprovalStore> store_;
  std::shared_ptr<Guard> guard_;  ///< rebuilt after a setting changes
};

}  // namespace toolguard::compat
