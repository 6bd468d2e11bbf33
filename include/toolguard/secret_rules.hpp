#pragma once
// Credentials in arguments: finding them, and the built-in rule that asks
// before a network tool carries one off the machine.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/rule.hpp"

namespace toolguard {

/// A credential found in a value.
struct SecretMatch {
  std::string kind;     ///< what it looks like, e.g. "an AWS access key id"
  std::string pointer;  ///< JSON pointer of the string it is in ("" for the value itself)
};

/// Looks for common credential formats in a text: private key blocks, cloud
/// access keys (AWS, Google), tokens of GitHub, GitLab, Slack, Stripe, OpenAI
/// and Anthropic, bearer and basic authorization values, JSON web tokens, and
/// URLs with a password. Returns what it looks like, or nullopt.
std::optional<std::string> findSecretInText(std::string_view text);

/// findSecretInText over every string (and object key) of a JSON value,
/// without recursion; a match with its JSON pointer, or nullopt.
std::optional<SecretMatch> findSecret(const nlohmann::json& value);

/// The built-in rule `secrets-in-arguments`: a call to a network tool (kind
/// network, or a network side effect) with a credential in any argument, or a
/// shell command that sends data over the network (curl, wget, ssh, nc, ...)
/// with one in its words, is ask. A policy file adds it with
/// `builtin_rules: [secrets]` (the default profile does).
std::vector<std::shared_ptr<const Rule>> builtinSecretRules(
    PolicyLayer layer = PolicyLayer::Builtin);

}  // namespace toolguard
