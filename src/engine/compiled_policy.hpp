#pragma once
// Internal: a policy compiled for decisions (rule indexes, tool schemas).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/rule_index.hpp"
#include "paths/path_probes.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/policy.hpp"

namespace toolguard::detail {

class CompiledLabels;

/// A tool's input schema compiled once, or why it could not be compiled (then
/// every call of the tool is denied: a schema we cannot check fails closed).
using CompiledToolSchema = std::variant<JsonSchema, std::string>;

/// Everything an Engine decides with; immutable after construction.
struct CompiledPolicy {
  explicit CompiledPolicy(Policy p);
  ~CompiledPolicy();
  Policy policy;
  RuleIndex index;
  std::map<std::string, CompiledToolSchema, std::less<>> schemas;  ///< by tool name
  /// Rules that judge every path a call reads or writes, whatever the route
  /// (Rule::judgesPathAccesses) and restrict (ask, deny, abort): indexes into
  /// policy.rules, in policy order.
  std::vector<uint32_t> path_rules;
  /// path_rules as a lookup by rule index.
  std::vector<bool> is_path_rule;
  /// Every catalog tool by its ASCII-lowercase name (imitatedTool).
  std::unordered_map<std::string, std::string> tools_by_lowercase_name;

  /// Examples of the places every path rule's globs name (for pathProbes),
  /// worked out the first time a call has a path.
  const std::vector<PathExample>& pathExamples() const;

  /// The policy's `labels:` compiled, the first time a call's session is known.
  const CompiledLabels& labels() const;

 private:
  mutable std::once_flag labels_once_;
  mutable std::unique_ptr<const CompiledLabels> labels_;
  mutable std::once_flag path_examples_once_;
  mutable std::vector<PathExample> path_examples_;
};

}  // namespace toolguard::detail
