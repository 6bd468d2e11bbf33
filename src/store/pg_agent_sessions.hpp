#pragma once
// Internal: the agents' sessions (what each session's calls were labelled,
// toolguard/session_state.hpp) in PostgreSQL, so that a session spread over
// several instances of `toolguard serve` is one session.

#include <memory>

#include "pg_connection.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard::store {

/// Sessions in the table toolguard_agent_sessions (one row per session, by
/// the SHA-256 of its key) and their events in toolguard_agent_session_events
/// (a row each, appended in one statement), trimmed as
/// SessionState::forgetOldest does when a session keeps a quarter more than
/// `settings.max_events`, and forgotten `expire_after` after its latest
/// event. The sessions judged lately are held in memory and brought up to
/// date with the events they lack at each read.
std::shared_ptr<SessionRepository> postgresAgentSessions(PgPool& pool,
                                                         SessionStoreOptions settings);

}  // namespace toolguard::store
