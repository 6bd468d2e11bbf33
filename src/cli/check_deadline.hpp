#pragma once
// A check's deadline: an answer given within a fixed time, whatever the
// decision waits for (a person, a decision service, an LLM validator), so an
// agent that kills slow hooks never kills one that is still deciding.

#include <string>

namespace toolguard::cli {

/// Starts the clock of a check that must answer within `seconds` (SIGALRM).
/// When they pass before claimCheckAnswer(), `late_stdout` and `late_stderr`
/// (the answer for a call not decided in time: a deny) are written and the
/// process exits with code 2, a block for both agents' hooks. `seconds` <= 0:
/// no deadline. Call once.
void startCheckDeadline(int seconds, std::string late_stdout, std::string late_stderr);

/// Claims the right to write the answer; call it before writing anything to
/// stdout. When the deadline has passed first it never returns: the
/// deadline's answer is written and the process exits.
void claimCheckAnswer();

}  // namespace toolguard::cli
