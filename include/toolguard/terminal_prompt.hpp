#pragma once
// The terminal approval prompt: shows a call safely and reads the answer
// from the terminal (/dev/tty), so it works when stdin and stdout are pipes.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "toolguard/approval.hpp"

namespace toolguard {

/// Text made safe to print on a terminal: control characters, escape
/// sequences, DEL, C1 controls, and invisible or bidirectional formatting
/// characters are shown as visible escapes (`\x1b`, `\n`, `\u202e`); invalid
/// UTF-8 bytes as `\xNN`. Nothing in the result can move the cursor or
/// change colours.
std::string terminalSafe(std::string_view text);

/// How the prompt shows arguments.
struct PromptLayout {
  size_t max_value_chars = 400;  ///< longer strings are cut, with "… (N more bytes)"
  size_t max_lines = 40;         ///< argument lines shown before "… (N more lines)"
};

/// The text the prompt shows before its choices: the tool, the reason, the
/// rule, and the arguments pretty-printed, every part passed through
/// terminalSafe().
std::string renderApprovalRequest(const ApprovalRequest& request, const PromptLayout& layout = {});

/// Runs the prompt on an open terminal: writes to `out_fd`, reads keys from
/// `in_fd` (switched to non-canonical, no-echo mode while asking, restored
/// after). Keys: `1`/`y` allow once, `2`/`a` always allow (then the binding
/// and the scope are chosen by number), `3`/`n` deny (then an optional
/// reason line), Esc deny. Spaces, `\r` and `\n` around an answer are
/// ignored; EOF, Ctrl-C, Ctrl-D, a read error, or no answer within
/// request.timeout (when not 0) deny.
ApprovalAnswer promptOnTerminal(int in_fd, int out_fd, const ApprovalRequest& request,
                                const PromptLayout& layout = {});

/// A handler that opens /dev/tty for each request and runs promptOnTerminal
/// on it. With no terminal it denies, with a reason that says so. Requests
/// are asked one at a time.
std::shared_ptr<ApprovalHandler> terminalApprovalHandler(PromptLayout layout = {});

}  // namespace toolguard
