#pragma once
// Internal: what a token's name and its owner may be, and the session key
// that keeps one token's sessions apart from another's. A name becomes the
// agent's name in rules, the audit and the queue, so it is plain ASCII
// (nothing that looks like another name, nothing that separates a key);
// the session key is a tuple of (token, session), never a joined string.

#include <string>
#include <string_view>

namespace toolguard::store {

/// The longest token name and owner name.
inline constexpr size_t kMaxTokenNameBytes = 64;

/// Why `name` cannot name a token, or "": 1 to 64 of a-z, 0-9, '.', '_' and
/// '-', starting with a letter or a digit.
std::string tokenNameProblem(std::string_view name);

/// Why `owner` cannot name a token's owner (a person), or "": 1 to 64 of
/// a-z, 0-9, '.', '_', '-' and '@' (an e-mail address), starting with a
/// letter or a digit.
std::string ownerNameProblem(std::string_view owner);

/// The key "always for this session" approvals of `token`'s session
/// `session` are kept under: the JSON array ["TOKEN","SESSION"], one text
/// for each pair and no text for two pairs (a joined "TOKEN/SESSION" let
/// token "ci/x" with session "s1" meet token "ci" with session "x/s1").
std::string sessionKey(std::string_view token, std::string_view session);

}  // namespace toolguard::store
