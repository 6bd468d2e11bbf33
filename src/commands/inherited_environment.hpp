#pragma once
// Internal: the variables a command inherits. The agent's shell passes its
// whole environment to every program a command starts, so a program on the
// ordinary-work list is harmless only when nothing it inherits changes what
// it runs, where it reads configuration or code from, or which options it
// takes. The environment judged is the one of the process judging the call:
// for a hook that is the agent's (a hook is the agent's child). A host whose
// agent's commands run elsewhere sets TOOLGUARD_AGENT_ENVIRONMENT=clean: then
// they are judged as a clean agent's (a PATH of the system's directories).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

struct CommandScene;

/// Why a variable the command's program inherits takes its ordinary-work
/// allow away (`PYTEST_ADDOPTS="-p x"`, a relative `PATH` entry that finds
/// the program in the workspace, `LD_PRELOAD` in a temp directory, an
/// exported bash function of the program's name, ...); nullopt when every
/// inherited variable that reaches it is known harmless.
std::optional<std::string> inheritedVariableConcern(const CommandScene& scene);

/// True when commands inherit a variable of this name (the agent's
/// environment, or the one an InheritedEnvironmentScope set).
bool inheritedVariableIsSet(std::string_view name);

/// The environment variables that, inherited, change nothing a program runs:
/// identity, terminal, session and locale variables (HOME, USER, TERM,
/// LS_COLORS, SSH_AUTH_SOCK, ...). Exposed for tests.
bool inheritedVariableIsAmbient(std::string_view name);

/// While it lives, commands judged on this thread inherit only `variables`
/// (each `NAME=value`) instead of this process's environment: policy tests
/// give the same verdicts on every machine, and tests set the environment
/// they test.
class InheritedEnvironmentScope {
 public:
  explicit InheritedEnvironmentScope(std::vector<std::string> variables);
  ~InheritedEnvironmentScope();
  InheritedEnvironmentScope(const InheritedEnvironmentScope&) = delete;
  InheritedEnvironmentScope& operator=(const InheritedEnvironmentScope&) = delete;

 private:
  std::vector<std::string> variables_;
  const std::vector<std::string>* previous_;
};

/// What a clean agent starts with: a PATH of the system's directories.
std::vector<std::string> cleanInheritedEnvironment();

}  // namespace toolguard::detail
