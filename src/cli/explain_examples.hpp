#pragma once
// `toolguard explain` of a policy whose rule examples fail: which examples,
// and why each fails. `check` refuses such a policy; explain still loads it,
// so the author can see both the failing examples and what the rules decide.

#include <nlohmann/json.hpp>

#include "toolguard/policy.hpp"

namespace toolguard::cli {

/// Every failing example of the rules of `policy` (the built-in layer's are
/// left to `toolguard test --builtin`), each as {source, rule, expect, call,
/// message, why}: `why` says which condition of the rule the call missed (for
/// an example that should match), or what the rule said (for one that should
/// not). Empty when every example passes.
nlohmann::json failingExamplesJson(const Policy& policy);

}  // namespace toolguard::cli
