#pragma once
// The built-in shell rules: what toolguard knows about shell commands.

#include <memory>
#include <vector>

#include "toolguard/rule.hpp"

namespace toolguard {

/// The built-in rules that judge shell commands by meaning, each simple
/// command on its own with real option parsing: deny for catastrophic
/// commands (recursive delete of protected places, disk wipes, fork bombs,
/// reverse shells, ...), ask for risky ones (privilege escalation, code from
/// the network, inline interpreters, secrets sent out, history rewrites,
/// publishing, containers, system state, writes outside the workspace), allow
/// for read-only tools, git reads, builds and tests; a command none of them
/// knows is escalated by the engine. A policy file adds them with
/// `builtin_rules: [shell]` (the default profile does).
std::vector<std::shared_ptr<const Rule>> builtinShellRules(
    PolicyLayer layer = PolicyLayer::Builtin);

}  // namespace toolguard
