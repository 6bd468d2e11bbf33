#pragma once
// The options of `toolguard check`, read by CLI11 or, for the plain forms a
// hook is configured with, directly: a hook starts one check process per tool
// call, and building CLI11's parser for check's dozen options was a tenth of
// such a process (140k of 1.3M instructions).

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli/guard_options.hpp"
#include "cli/policy_options.hpp"

namespace toolguard::cli {

/// What `toolguard check` was asked to do.
struct CheckOptions {
  PolicyOptions policy;
  GuardCliOptions guard;
  std::string format = "toolguard";
  bool batch = false;
  /// --server URL: send the call to `toolguard serve` there instead of
  /// deciding here (else $TOOLGUARD_SERVER; the token in $TOOLGUARD_TOKEN).
  std::string server;
  /// --wait SECONDS: how long an ask may wait there for a person (0: it is
  /// reported as ask, as a local check reports it).
  int wait_s = 0;
};

/// Adds check's options to `command` (CLI11: help, mistakes, every form).
void addCheckOptions(CLI::App& command, CheckOptions& options);

/// Check's arguments (those after "check") read without CLI11 when each is
/// a plain form: a known flag once, `--name VALUE` or `--name=VALUE` with a
/// value CLI11 would take as it is. nullopt for anything else (help, a
/// mistake, a repeated option, a value that needs converting): CLI11 then
/// reads them, so both ways always agree (a unit test compares them).
std::optional<CheckOptions> readPlainCheckArguments(int argc, const char* const* argv);

/// The options' own rule that CLI11 checks after parsing: "" when they fit
/// together, else the message.
std::string checkOptionsProblem(const CheckOptions& options);

}  // namespace toolguard::cli
