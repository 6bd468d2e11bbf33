#pragma once
// The objects behind the C API's opaque handles (include/toolguard/toolguard.h).

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/toolguard.h"

struct tg_error {
  std::string message;
};

/// What tg_guard_new was given, read from its options JSON.
struct GuardSettings {
  toolguard::front::PolicyOptions policy;
  std::string home;       ///< toolguard's home ("" : $TOOLGUARD_HOME, else ~/.toolguard)
  bool audit = true;      ///< write the audit log
  std::string audit_log;  ///< "" : HOME/audit.jsonl
  std::chrono::milliseconds approval_timeout{std::chrono::minutes(5)};
  std::string cwd;  ///< cwd of calls that name none
  std::string ask_server_url;
  std::string ask_server_token;
};

/// Reads tg_guard_new's options; throws std::invalid_argument naming the field.
GuardSettings readGuardSettings(const char* options_json);

struct tg_guard {
  GuardSettings settings;
  toolguard::GuardOptions base;  ///< store, audit log, timeout (and the asker, once set)
  std::string home;              ///< toolguard's home, resolved
  std::mutex mutex;              ///< guards `engines` and the asker
  toolguard::front::EngineProvider engines;
  /// One Guard per engine, asking the current asker.
  std::unique_ptr<toolguard::front::GuardProvider> guards;

  explicit tg_guard(GuardSettings given);
};

struct tg_decision {
  toolguard::Decision decision;
  std::string tool;
  std::string json;  ///< rendered on first use
};

/// Judges the call text on `guard`: never throws for a bad call (a deny
/// naming the field), only for a lack of memory.
toolguard::Decision decideCallText(tg_guard& guard, std::string_view call_json, std::string& tool);

/// The Guard for calls made in `cwd` (built on first use). Throws PolicyError.
std::shared_ptr<toolguard::Guard> guardFor(tg_guard& guard, const std::string& cwd);

/// Sets who `guard.base` asks: the C asker when set, else the options'
/// ask_server, else nobody (asks are reported). Call with `guard.mutex` held.
void chooseAsker(tg_guard& guard, tg_ask_fn asker, void* user_data);

/// Sets *error (when error is not null) to a new tg_error with `message`.
void setError(tg_error** error, std::string message);

/// The asker bridge: an ApprovalHandler that hands requests to guard's C asker.
std::shared_ptr<toolguard::ApprovalHandler> cAskerHandler(tg_ask_fn asker, void* user_data);
