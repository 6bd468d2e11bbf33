#pragma once
// The toolguard sub-commands. Each adds itself to the app and stores its exit
// code in `exit_code` when it runs.
//
// Exit codes (all sub-commands):
//   0  success: decisions printed (whatever their verdict), tests passed, lint clean
//   1  tests failed, or lint found errors (or warnings with --strict)
//   2  usage error, a policy that cannot be loaded, or an internal error; with
//      --format claude|gemini|gemini-hook any failure, with the message on
//      stderr; install/uninstall: a settings file that cannot be read, parsed
//      or written (nothing is changed)

#include <CLI/CLI.hpp>

namespace toolguard::cli {

void addCheckCommand(CLI::App& app, int& exit_code);
struct CheckOptions;
/// Runs `toolguard check` with options read without CLI11 (check_arguments.hpp).
int runCheck(const CheckOptions& options);

/// `toolguard check --server URL`: asks the service instead of deciding here.
int runRemoteCheck(const CheckOptions& options);

/// `toolguard serve ARGS`: replaces this process with toolguard-serve ARGS
/// (returns only when it cannot: an error exit).
int runServeProgram(int argc, char** argv);
void addExplainCommand(CLI::App& app, int& exit_code);
void addTestCommand(CLI::App& app, int& exit_code);
void addPolicyCommand(CLI::App& app, int& exit_code);
void addDemoCommand(CLI::App& app, int& exit_code);
void addValidateCommand(CLI::App& app, int& exit_code);
void addAuditCommand(CLI::App& app, int& exit_code);
void addApprovalsCommand(CLI::App& app, int& exit_code);
void addMcpCommand(CLI::App& app, int& exit_code);
void addPinsCommand(CLI::App& app, int& exit_code);
/// `sandbox`: runs a command confined by Landlock, seccomp and namespaces.
void addSandboxCommand(CLI::App& app, int& exit_code);
/// `install` and `uninstall` (the agent hook in the agent's settings file).
void addInstallCommands(CLI::App& app, int& exit_code);

/// Exit codes shared by the sub-commands.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitError = 2;

}  // namespace toolguard::cli
