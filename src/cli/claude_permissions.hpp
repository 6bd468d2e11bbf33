#pragma once
// Internal: whether a person's own Claude Code settings already allow a call
// (their `permissions.allow`, where "don't ask again" writes too).

#include <string>

#include "toolguard/tool_call.hpp"

namespace toolguard::cli {

/// True when a rule in Claude Code's settings allows the call: the user's
/// (~/.claude/settings.json), the project's (.claude/settings.json and
/// .claude/settings.local.json under the call's cwd) and the managed ones.
/// The rules are read the safe way toolguard reads them for `policy import`
/// (every simple command of a compound command must be allowed on its own).
/// A file that cannot be read or parsed allows nothing.
bool claudeSettingsAllow(const ToolCall& call, const std::string& home);

}  // namespace toolguard::cli
