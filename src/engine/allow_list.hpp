#pragma once
// Internal: a policy whose default is deny is an allow-list. The catalog's tool
// policies and the built-in profiles merged before the deny describe tools;
// they grant nothing. Only what the allow-list's own rules or tool policies
// allow is allowed; everything else is denied.

#include <optional>

#include "engine/compiled_policy.hpp"
#include "toolguard/rule.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard::detail {

/// Whether calls of `tool` are judged as on an allow-list: the default is deny
/// and no policy file or code gave the tool a policy that allows or asks.
bool judgedAsAllowList(const Policy& policy, const ToolInfo& tool);

/// Whether rule `index` speaks for the allow-list: any rule but a built-in
/// one merged before the deny default was set. Its findings (allow, ask or
/// escalate) put what they judge on the list; the others' allows count for
/// nothing there.
bool speaksForTheList(const CompiledPolicy& compiled, size_t index);

/// `finding`, or nothing when it is an allow of a rule that does not speak
/// for the allow-list. `granted` becomes true when the finding puts the call
/// (or the command) on the list.
std::optional<Finding> onAllowList(const CompiledPolicy& compiled, size_t index,
                                   std::optional<Finding> finding, bool allow_list, bool& granted);

/// The rule named when a call (or one of a program's commands) is denied
/// because nothing on the allow-list allows it.
const std::shared_ptr<const Rule>& allowListRule();

/// The finding of allowListRule for `what` (a tool or a command).
Finding notOnAllowList(const std::string& what);

}  // namespace toolguard::detail
