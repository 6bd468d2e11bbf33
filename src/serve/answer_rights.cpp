// Who may answer an ask (see answer_rights.hpp).
#include "serve/answer_rights.hpp"

namespace toolguard::serve {

std::string whyNotTheAnswerer(const store::AskRecord& ask, const Caller& caller, bool two_person) {
  if (ask.token == caller.name) {
    return "the token '" + caller.name +
           "' made this ask: someone else must answer it (no one approves their own call)";
  }
  const bool admin = caller.role == store::TokenRole::Admin;
  if (!ask.owner.empty() && ask.owner == caller.owner && (two_person || !admin)) {
    return "the token '" + caller.name + "' and the token that asked ('" + ask.token +
           "') both belong to " + caller.owner + ": someone else must answer it";
  }
  if (two_person && (ask.owner.empty() || caller.owner.empty())) {
    const std::string& ownerless = ask.owner.empty() ? ask.token : caller.name;
    return "two people must take part (--two-person), and the token '" + ownerless +
           "' has no owner, so a second person cannot be shown: give it one (a new token "
           "with --owner)";
  }
  return "";
}

}  // namespace toolguard::serve
