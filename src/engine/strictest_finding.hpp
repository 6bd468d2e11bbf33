#pragma once
// Internal: the strictest finding so far while a call's rules are consulted.

#include <exception>
#include <optional>
#include <string>

#include "toolguard/rule.hpp"

namespace toolguard::detail {

/// The strictest finding so far, the rule that gave it and the command it is about.
struct StrictestFinding {
  std::optional<Finding> finding;
  const Rule* rule = nullptr;
  std::string command;

  /// Keeps `f` when it is stricter than what was found so far (the first of
  /// equally strict findings stays).
  void consider(const std::optional<Finding>& f, const Rule* by, const std::string& on) {
    if (f && (!finding || isStricter(f->verdict, finding->verdict))) {
      finding = f;
      rule = f->decided_by != nullptr ? f->decided_by : by;  // a first_match case
      command = on;
    }
  }
};

/// Runs a rule's evaluation; a rule that throws has a deny finding: an
/// internal error never allows.
template <typename Evaluate>
std::optional<Finding> safely(const Rule& rule, Evaluate evaluate) {
  try {
    return evaluate();
  } catch (const std::exception& e) {
    return Finding{Verdict::Deny, "rule " + rule.id() + " failed: " + e.what()};
  } catch (...) {
    return Finding{Verdict::Deny, "rule " + rule.id() + " failed"};
  }
}

}  // namespace toolguard::detail
