#pragma once
// Internal: a Guard's session memory (GuardOptions::sessions): what the
// call's session saw before it, and remembering the call once it may run.

#include <memory>

#include "toolguard/guard.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard::detail {

/// What the call's session saw before it; a session whose memory cannot be
/// read is unknown (it holds every label: fail closed).
std::shared_ptr<const SessionState> loadSession(const SessionRepository& sessions,
                                                const std::string& key) noexcept;

/// Remembers a call that may run (allowed, or an ask its agent puts to its
/// user) with its labels, once the session has anything to remember: a
/// session whose calls carry no label costs no write. Throws when the
/// memory cannot be written.
void rememberCall(SessionRepository& sessions, const std::string& key, const ToolCall& call,
                  const Decision& decision, const SessionState& before);

}  // namespace toolguard::detail
