#pragma once
// Internal: what each built-in shell rule checks on one simple command
// (builtin_shell_rules.cpp holds the rules themselves: ids, verdicts,
// reasons and examples). Each returns what exactly matched ("" for nothing
// more to say), or nullopt when the command does not match.

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "commands/shell_facts.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {

using Detail = std::optional<std::string>;

inline std::string quoted(const ShellWord& w) {
  return "'" + w.text + "'";
}

Detail recursiveDelete(const CommandScene& s);
Detail findDelete(const CommandScene& s);
Detail diskDestroy(const CommandScene& s);
Detail forkBomb(const CommandScene& s);
Detail recursiveOwnership(const CommandScene& s);
Detail moveProtected(const CommandScene& s);
Detail reverseShell(const CommandScene& s);
Detail interpreterDeletes(const CommandScene& s);
Detail privilegeEscalation(const CommandScene& s);
Detail remoteCode(const CommandScene& s);
Detail inlineInterpreter(const CommandScene& s);
Detail secretsToNetwork(const CommandScene& s);
Detail gitRewrite(const CommandScene& s);
Detail publish(const CommandScene& s);
Detail containersAndClusters(const CommandScene& s);
Detail systemState(const CommandScene& s);
Detail writesUnknownPlace(const CommandScene& s);
Detail writesThenRuns(const CommandScene& s);
Detail writesBuildFile(const CommandScene& s);
Detail environmentHijack(const CommandScene& s);
Detail dynamicCommand(const CommandScene& s);
Detail sourcesFile(const CommandScene& s);

}  // namespace toolguard::detail
