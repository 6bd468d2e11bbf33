#pragma once
// Internal: what a file-write call puts into a file that build and test
// tools run (a Makefile's recipes, package.json's scripts, a shell script, a
// CI step, a git hook) is judged by the shell rules before it is written.

#include "core/compiled_policy.hpp"
#include "core/judgement.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"

namespace toolguard::detail {

/// For each file the call writes that a build or test tool runs code from,
/// judges the shell commands in the text it writes (`content`, an edit's
/// `new_string`, ...) with the policy's own rules, as if a shell tool ran
/// them: an ask, deny or abort among them is the write's finding (named after
/// the rule that gave it). What is only known when the tool runs (make
/// variables, a name decided at run time) is not held against the write.
void judgeBuildFileContent(const CompiledPolicy& compiled, const CallView& view, Judgement& best,
                           Decision& d);

}  // namespace toolguard::detail
