#pragma once
// Internal: who may answer an ask. No token answers its own ask (an
// admin's included), and an approver does not answer an ask made with a
// token of its own owner (the person who holds the agent's token and an
// approver's token). An admin may answer the asks of its owner's other
// tokens (it could make itself any token: a one-person set-up answers
// with it). With --two-person an answer must be shown to come from a
// second person: the same owner is refused for every role, and so is a
// token without an owner on either side.

#include <string>

#include "serve/serve_auth.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// Why `caller` may not answer `ask`, or "" when it may.
std::string whyNotTheAnswerer(const store::AskRecord& ask, const Caller& caller, bool two_person);

}  // namespace toolguard::serve
