#pragma once
// Internal: what a file-write call puts into a file that build and test
// tools run (a Makefile's recipes, package.json's scripts, a shell script, a
// CI step, a git hook) is judged by the shell rules before it is written.

#include "engine/compiled_policy.hpp"
#include "engine/strictest_finding.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"

namespace toolguard::detail {

/// For each file the call writes that a build or test tool runs code from,
/// judges the shell commands the write adds to it (the file as it will be
/// after a Write or an Edit, against the file as it is) with the policy's
/// own rules, as if a shell tool ran them: an ask, deny or abort among them
/// is the write's finding (named after the rule that gave it). A command
/// that is not known to be harmless (an unknown program, make variables and
/// other values known only when the tool runs) asks, as it would in the
/// shell; so does a write whose result cannot be worked out (an edit of a
/// file that cannot be read, or whose text to replace is not in it).
void judgeBuildFileContent(const CompiledPolicy& compiled, const CallView& view,
                           StrictestFinding& best, Decision& d);

}  // namespace toolguard::detail
